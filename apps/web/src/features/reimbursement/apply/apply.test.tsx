/**
 * Issue 15, applying: 我的报销 (filters, state tags, 合计, 新建报销), the bill's read view (lines, checks as
 * red/orange tags, 核定 amounts, track, 撤回), the editor (lines, the invoice checks while typing, 保存草稿),
 * and the approval panel of 我的待办 (核定 for the current handler).
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { REIMB_MAX_AMOUNT_MESSAGE } from '@zhyy/shared';
import { toSaveBody } from './billForm';
import { detail, options, row } from './fixtures';

const calls = {
  myList: vi.fn(), options: vi.fn(), get: vi.fn(), detail: vi.fn(), save: vi.fn(), submit: vi.fn(), withdraw: vi.fn(), remove: vi.fn(), approveLine: vi.fn(),
  acceptDuplicate: vi.fn(), peer: vi.fn(),
  candidates: vi.fn(), recognise: vi.fn(), saveUpload: vi.fn(), invoiceFile: vi.fn(), uploadAttachment: vi.fn(), deleteAttachment: vi.fn(), downloadAttachment: vi.fn(), profile: vi.fn(),
};
vi.mock('../../../api/reimbursement', () => ({
  reimbApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));
configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => Object.values(calls).forEach((f) => f.mockReset()));

const wrap = (ui: ReactNode, path: string, pattern: string) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={ui} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('我的报销 (issue 15)', { timeout: 60_000 }, () => {
  it('lists my bills with state tags, money and the 合计 of the filtered set; filters go to the call in 分', async () => {
    const { default: MyReimbursementList } = await import('./MyReimbursementList');
    calls.myList.mockResolvedValue({ items: [row], total: 1, sums: { amount: 153_000, approvedAmount: 143_000 } });
    wrap(<MyReimbursementList />, '/reimbursement/my-reimbursement-list', '/reimbursement/my-reimbursement-list');
    await screen.findByText('BX2026110007');
    expect(screen.getByTestId('my-bill-totals').textContent).toBe('合计：共 1 张，报销金额 1,530.00 元，核定金额 1,430.00 元');
    const tr = screen.getByText('BX2026110007').closest('tr')!;
    expect(within(tr).getByText('审批中')).toBeTruthy();
    expect(within(tr).getByText('部门负责人审批（李经理）')).toBeTruthy();
    const { toListRequest } = await import('./MyReimbursementList');
    expect(toListRequest({ billNo: ' BX2026 ', amountMin: 100.5, flowState: 2 })).toMatchObject({ billNo: 'BX2026', amountMin: 10_050, flowState: 2 });
  });
});

describe('the bill read view', { timeout: 60_000 }, () => {
  it('shows the lines with their invoices, checks (orange warns), 核定 amounts, the track; 撤回 asks first', async () => {
    const { default: BillPage } = await import('./BillPage');
    calls.get.mockResolvedValue(detail);
    calls.withdraw.mockResolvedValue({ code: 20000, message: '报销单已撤回', r: null });
    wrap(<BillPage />, `/my/reimbursement/detail/${detail.id}`, '/my/reimbursement/detail/:id');
    await screen.findByText('费用报销单 BX2026110007');
    expect(calls.get).toHaveBeenCalledWith(detail.id);
    const checks = screen.getAllByTestId('line-checks')[0]!;
    expect(checks.textContent).toBe('交通超标准');
    expect(checks.querySelector('[data-level="warn"]')).toBeTruthy();
    expect(screen.getByText('超标准部分不予报销', { exact: false })).toBeTruthy();
    expect(screen.getAllByText('ticket.pdf').length).toBeGreaterThan(0);
    expect(screen.getAllByText('发起').length).toBeGreaterThan(0);
    expect(screen.getByTestId('reimb-print').textContent).toContain('费用报销单');
    // The printed sheet (issue 31): 大写 of the total and of the 核定 total (they differ), 附单据 (one invoice, one attachment), signatures.
    expect(screen.getByTestId('reimb-print-capital').textContent).toBe('报销金额：壹仟伍佰叁拾圆整核定金额：壹仟肆佰叁拾圆整');
    expect(screen.getByTestId('reimb-print-vouchers').textContent).toBe('2 张');
    expect(screen.getByTestId('reimb-print-sign').textContent).toBe('报销人：部门负责人：财务审核：领款人：');
    fireEvent.click(screen.getByTestId('withdraw-bill'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(calls.withdraw).toHaveBeenCalledWith(detail.id));
  });

  it('the ledger page shows the accounting history', async () => {
    const { default: LedgerBillPage } = await import('./LedgerBillPage');
    calls.detail.mockResolvedValue({ ...detail, pushes: [{ id: 'p1', action: 'push', ok: true, voucherNo: '记-0012', message: '', userName: '王会计', createdAt: '2026-11-22T01:00:00Z' }] });
    wrap(<LedgerBillPage />, `/reimbursement/detail/${detail.id}`, '/reimbursement/detail/:id');
    await screen.findByText('入账记录');
    expect(screen.getByText('记-0012')).toBeTruthy();
    expect(calls.detail).toHaveBeenCalledWith(detail.id);
  });
});

describe('the bill editor', { timeout: 60_000 }, () => {
  it('a returned bill opens in the editor; an invoice below the line amount turns red and blocks 提交; 保存草稿 sends the lines', async () => {
    const { default: BillPage } = await import('./BillPage');
    const returned = {
      ...detail, flowState: 2, flowStateName: '已退回', can: { edit: true, submit: true, withdraw: false, delete: false, approve: false },
      lines: [{ ...detail.lines[0]!, categoryCode: 'T-OFFICE', amount: 120_000, checks: [] }],
    };
    calls.get.mockResolvedValue(returned);
    calls.options.mockResolvedValue(options);
    calls.save.mockResolvedValue({ code: 20000, message: '报销单 BX2026110007 已保存', r: { id: detail.id, billNo: 'BX2026110007' } });
    wrap(<BillPage />, `/my/reimbursement/detail/${detail.id}`, '/my/reimbursement/detail/:id');
    await screen.findByTestId('bill-editor');
    expect(screen.getByText('报销单已退回，请根据审批意见修改后重新提交')).toBeTruthy();
    const checks = await screen.findByTestId('line-checks');
    expect(checks.textContent).toBe('发票金额不足');
    expect(checks.querySelector('[data-level="block"]')).toBeTruthy();
    expect((screen.getByTestId('submit-bill') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('save-bill'));
    await waitFor(() => expect(calls.save).toHaveBeenCalled());
    const body = calls.save.mock.calls[0]![0];
    expect(body).toMatchObject({ id: detail.id, reason: '项目现场出差', periodFrom: '2026-11-01', periodTo: '2026-11-20' });
    expect(body.lines).toEqual([expect.objectContaining({ categoryCode: 'T-OFFICE', amount: 120_000, invoiceId: 'i1', expenseDate: '2026-11-03' })]);
  });

  it('a new bill starts with my default payee and one line; the server refusal is shown', async () => {
    const { default: BillPage } = await import('./BillPage');
    calls.options.mockResolvedValue(options);
    wrap(<BillPage />, '/my/reimbursement/detail/new', '/my/reimbursement/detail/:id');
    await screen.findByTestId('bill-editor');
    expect(calls.get).not.toHaveBeenCalled();
    expect((screen.getByDisplayValue('6222') as HTMLInputElement).value).toBe('6222');
    expect(screen.getByText('新建费用报销单')).toBeTruthy();
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(screen.getAllByText('选择发票').length).toBe(2));
  });
});

describe('the bill editor\'s values (issue 31 #7)', { timeout: 90_000 }, () => {
  it('提交 on an empty bill marks the required fields first and asks nothing; bad amounts are marked on the field, never 0.00', async () => {
    const { default: BillPage } = await import('./BillPage');
    calls.options.mockResolvedValue(options);
    wrap(<BillPage />, '/my/reimbursement/detail/new', '/my/reimbursement/detail/:id');
    await screen.findByTestId('bill-editor');
    fireEvent.click(screen.getByTestId('submit-bill'));
    expect(await screen.findByText('请填写报销事由')).toBeTruthy();
    expect(await screen.findByText('请输入金额')).toBeTruthy();
    expect(screen.queryByText(/提交报销单审批？/)).toBeNull();
    const amount = screen.getByPlaceholderText('金额（元）') as HTMLInputElement;
    for (const [typed, words] of [
      ['-50', '金额不能为负数'],
      ['abc', '金额须为数字金额（元），如 1090.00'],
      ['99,999,999,999.00', REIMB_MAX_AMOUNT_MESSAGE],
      ['0', '金额必须大于0'],
    ] as const) {
      fireEvent.change(amount, { target: { value: typed } });
      fireEvent.blur(amount);
      expect(await screen.findByText(words)).toBeTruthy();
      expect(amount.value).toBe(typed);
    }
    expect(REIMB_MAX_AMOUNT_MESSAGE).toBe('金额不能超过 100,000,000.00 元');
    fireEvent.click(screen.getByTestId('save-bill'));
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.save).not.toHaveBeenCalled();
    // A good figure is shown as money is everywhere, and sent in 分.
    fireEvent.change(amount, { target: { value: '3000' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(amount.value).toBe('3,000.00'));
    expect(toSaveBody({ lines: [{ amount: '3,000.00' }] }).lines[0]!.amount).toBe(300_000);
  });
});

describe('the approval panel in 我的待办', { timeout: 60_000 }, () => {
  it('the current handler reduces a line with an opinion (核定), never above the claim', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    calls.get.mockResolvedValue({ ...detail, can: { ...detail.can, withdraw: false, approve: true } });
    calls.approveLine.mockResolvedValue({ code: 20000, message: '核定金额已保存', r: { approvedAmount: 100_000 } });
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    const panel = await screen.findByTestId('bill-approval-panel');
    expect(within(panel).getByText('检查发现：1 行需要关注（超标准、超期或疑似重复）')).toBeTruthy();
    // Issue 31 #6: the 核定合计 says what was claimed and cut; the lines have a 合计 row.
    expect(screen.getByTestId('bill-approved-total').textContent).toBe('核定合计 1,430.00（报销 1,530.00，核减 100.00）');
    const sum = panel.querySelector('.ant-table-summary')!;
    expect(sum.textContent).toContain('合计（2 行）');
    expect(sum.textContent).toContain('1,530.00');
    expect(sum.textContent).toContain('1,430.00');
    fireEvent.click(screen.getByTestId('approve-line-1'));
    const input = await screen.findByPlaceholderText('核定金额（元）');
    fireEvent.change(screen.getByPlaceholderText('核定意见（必填）'), { target: { value: '一等座超标' } });
    // A negative amount is refused with the schema's message, not clamped to 0 (issue 31).
    fireEvent.change(input, { target: { value: '-5' } });
    fireEvent.click(screen.getByRole('button', { name: /保存核定/ }));
    expect(await screen.findByText('核定金额不能小于0')).toBeTruthy();
    expect(calls.approveLine).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '1000' } });
    fireEvent.click(screen.getByRole('button', { name: /保存核定/ }));
    await waitFor(() => expect(calls.approveLine).toHaveBeenCalledWith(detail.lines[0]!.id, 100_000, '一等座超标'));
  });

  it('no 核定 for a reader who is not the current handler', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    calls.get.mockResolvedValue(detail);
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    await screen.findByTestId('bill-approval-panel');
    expect(screen.queryByTestId('approve-line-1')).toBeNull();
  });
});

describe('the 收款方 of a line without an invoice (issue 32 #4)', { timeout: 60_000 }, () => {
  it('the editor asks for it on a line without an invoice; the body sends it trimmed, and none for a line with an invoice', async () => {
    const { default: BillPage } = await import('./BillPage');
    calls.options.mockResolvedValue(options);
    wrap(<BillPage />, '/my/reimbursement/detail/new', '/my/reimbursement/detail/:id');
    await screen.findByTestId('bill-editor');
    expect((screen.getByTestId('line-seller') as HTMLInputElement).placeholder).toBe('收款方（无发票时填写，如出租车公司、停车场）');
    const body = toSaveBody({ lines: [{ amount: '36.50', sellerName: ' 北京出租汽车公司 ' }, { amount: '1.00', invoiceId: 'i1', sellerName: '某公司' }] });
    expect(body.lines.map((l) => l.sellerName)).toEqual(['北京出租汽车公司', '']);
  });
});

describe('疑似重复报销 in the approval panel (issue 32 #4)', { timeout: 60_000 }, () => {
  const ref = {
    billId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0b09', billNo: 'BX2026110031', lineId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0c09', lineNo: 2,
    applicantName: '李四', expenseDate: '2026-11-04', amount: 40_000, sellerName: '北京出租汽车公司', days: 0,
  };
  const dup = { code: 'duplicateClaim' as const, level: 'warn' as const, message: '与另一员工的报销单的收款方（北京出租汽车公司）、金额（400.00 元）相同，日期相同，疑似重复报销', ref };
  const withMatch = (check: typeof dup & { accepted?: { by: string; at: string; opinion: string } }, approve = true) => ({
    ...detail,
    lines: [{ ...detail.lines[0]!, checks: [] }, { ...detail.lines[1]!, sellerName: '北京出租汽车公司', checks: [check] }],
    can: { ...detail.can, withdraw: false, approve },
  });

  it('shows the match with a link that opens the other bill; the current handler accepts it with an opinion', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    calls.get.mockResolvedValue(withMatch(dup));
    calls.peer.mockResolvedValue({
      id: ref.billId, billNo: ref.billNo, applicantName: '李四', deptName: '财务部', reason: '客户拜访', flowStateName: '审批中', reimbStateName: '', amount: 40_000, submittedAt: '2026-11-05T01:00:00Z',
      lines: [{ id: ref.lineId, lineNo: 2, categoryName: '市内交通', expenseDate: '2026-11-04', description: '出租车', sellerName: '北京出租汽车公司', amount: 40_000, invoiceNumber: '', matched: true }],
    });
    calls.acceptDuplicate.mockResolvedValue({ code: 20000, message: '已接受与报销单 BX2026110031 的疑似重复', r: { otherBillNo: ref.billNo } });
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    const box = await screen.findByTestId('duplicate-matches');
    expect(within(box).getByText('疑似重复报销（1）')).toBeTruthy();
    expect(box.textContent).toContain('第2行 与 李四 的报销单 BX2026110031 第2行：北京出租汽车公司，400.00 元，2026-11-04（同日）');
    expect(screen.getByText('检查发现：1 行需要关注（超标准、超期或疑似重复）')).toBeTruthy();
    // The link: the other bill as the approver may see it, its matching line marked.
    fireEvent.click(screen.getByTestId('open-duplicate-BX2026110031'));
    const peer = await screen.findByTestId('duplicate-peer');
    expect(calls.peer).toHaveBeenCalledWith(detail.id, ref.billId);
    expect(peer.textContent).toContain('李四（财务部）');
    expect(within(peer).getByText('匹配')).toBeTruthy();
    // 接受: an opinion is required, then sent with both lines.
    fireEvent.click(screen.getByTestId('accept-duplicate-2-BX2026110031'));
    fireEvent.click(await screen.findByRole('button', { name: /确认接受/ }));
    expect(await screen.findByText('请填写接受意见')).toBeTruthy();
    expect(calls.acceptDuplicate).not.toHaveBeenCalled();
    fireEvent.change(screen.getByPlaceholderText(/接受意见（必填/), { target: { value: '已核对行程单，两人分别乘车' } });
    fireEvent.click(screen.getByRole('button', { name: /确认接受/ }));
    await waitFor(() => expect(calls.acceptDuplicate).toHaveBeenCalledWith(detail.lines[1]!.id, ref.lineId, '已核对行程单，两人分别乘车'));
  });

  it('an accepted match shows who accepted it and why, needs no attention and offers no 接受; a reader who is not the handler gets no 接受', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    calls.get.mockResolvedValue(withMatch({ ...dup, accepted: { by: '王经理', at: '2026-11-06T02:00:00Z', opinion: '已核对，非重复' } }));
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    const box = await screen.findByTestId('duplicate-matches');
    expect(within(box).getByTestId('duplicate-accepted').textContent).toMatch(/^已接受王经理（.+）：已核对，非重复$/);
    expect(screen.queryByTestId('accept-duplicate-2-BX2026110031')).toBeNull();
    expect(screen.queryByText(/检查发现/)).toBeNull();
  });

  it('without the reference (the applicant, a colleague\'s bill) the finding is a tag only, with no link', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    const { ref: _hidden, ...bare } = dup;
    calls.get.mockResolvedValue(withMatch(bare as typeof dup, false));
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    await screen.findByTestId('bill-approval-panel');
    expect(screen.getAllByTestId('line-checks').map((x) => x.textContent)).toContain('疑似重复报销');
    expect(screen.queryByTestId('duplicate-matches')).toBeNull();
  });
});

describe('the same receipt entered twice in one bill (issue 32 #4)', { timeout: 90_000 }, () => {
  const taxiLine = (n: 1 | 2, amount: number) => ({
    ...detail.lines[1]!, id: `0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0d0${n}`, lineNo: n, categoryCode: 'T-OFFICE', categoryName: '办公费', travelKind: '', nights: null,
    expenseDate: '2026-11-04', description: '出租车', amount, approvedAmount: null, approveNote: '', approvedBy: '', sellerName: n === 1 ? '北京出租汽车有限公司' : '北京出租汽车公司',
  });
  const inBill = (n: 1 | 2) => {
    const other = n === 1 ? 2 : 1;
    return {
      code: 'duplicateClaim' as const, level: 'warn' as const,
      message: `与本单第${other}行的收款方（${other === 1 ? '北京出租汽车有限公司' : '北京出租汽车公司'}）、金额（36.50 元）相同，日期相同，疑似重复报销`,
      ref: { billId: detail.id, billNo: detail.billNo, lineId: taxiLine(other, 3_650).id, lineNo: other, applicantName: '张三', expenseDate: '2026-11-04', amount: 3_650, sellerName: taxiLine(other, 3_650).sellerName, days: 0 },
    };
  };

  it('the editor flags both lines while typing, each naming the other line; another amount clears both, also the finding of the last save', async () => {
    const { typedDuplicates } = await import('./billForm');
    const dayjs = (await import('dayjs')).default;
    const typed = [
      { categoryCode: 'T-OFFICE', expenseDate: dayjs('2026-11-04'), amount: '36.50', sellerName: '北京出租汽车有限公司' },
      { categoryCode: 'T-OFFICE', expenseDate: dayjs('2026-11-06'), amount: '36.50', sellerName: ' 北京出租汽车公司' },
      { categoryCode: 'T-OFFICE', expenseDate: dayjs('2026-11-04'), amount: '36.60', sellerName: '北京出租汽车公司' },
    ];
    const { duplicateClaimMessage } = await import('@zhyy/shared');
    expect(typedDuplicates(typed, () => '').map((ms) => ms.map(duplicateClaimMessage))).toEqual([
      ['与本单第2行的收款方（北京出租汽车公司）、金额（36.50 元）相同，日期相差 2 天，疑似重复报销'],
      ['与本单第1行的收款方（北京出租汽车有限公司）、金额（36.50 元）相同，日期相差 2 天，疑似重复报销'],
      [],
    ]);
    // Four days apart: out of the tolerance.
    expect(typedDuplicates([typed[0]!, { ...typed[1]!, expenseDate: dayjs('2026-11-08') }], () => '')).toEqual([[], []]);

    const { default: BillPage } = await import('./BillPage');
    const returned = {
      ...detail, flowState: 2, flowStateName: '已退回', can: { edit: true, submit: true, withdraw: false, delete: false, approve: false },
      lines: [{ ...taxiLine(1, 3_650), checks: [inBill(1)] }, { ...taxiLine(2, 3_650), checks: [inBill(2)] }],
    };
    calls.get.mockResolvedValue(returned);
    calls.options.mockResolvedValue(options);
    wrap(<BillPage />, `/my/reimbursement/detail/${detail.id}`, '/my/reimbursement/detail/:id');
    await screen.findByTestId('bill-editor');
    await waitFor(() => expect(screen.getAllByTestId('line-checks').map((x) => x.textContent)).toEqual(['疑似重复报销', '疑似重复报销']));
    // Typed to another amount: neither line is a duplicate any more (the saved finding is not shown again).
    const amount = screen.getAllByPlaceholderText('金额（元）')[1] as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '36.60' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(screen.queryAllByTestId('line-checks')).toEqual([]));
    // And back: flagged again while typing, before any save.
    fireEvent.change(amount, { target: { value: '36.50' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(screen.getAllByTestId('line-checks').map((x) => x.textContent)).toEqual(['疑似重复报销', '疑似重复报销']));
    expect(calls.save).not.toHaveBeenCalled();
  });

  it('the approver sees the pair once, naming the other line of the bill, with no other bill to open, and accepts it', async () => {
    const { default: BillApprovalPanel } = await import('./BillApprovalPanel');
    calls.get.mockResolvedValue({ ...detail, lines: [{ ...taxiLine(1, 3_650), checks: [inBill(1)] }, { ...taxiLine(2, 3_650), checks: [inBill(2)] }], can: { ...detail.can, withdraw: false, approve: true } });
    calls.acceptDuplicate.mockResolvedValue({ code: 20000, message: '已接受与本单第2行的疑似重复', r: { otherBillNo: detail.billNo } });
    wrap(<BillApprovalPanel billId={detail.id} />, '/flow/todolist', '/flow/todolist');
    const box = await screen.findByTestId('duplicate-matches');
    expect(within(box).getByText('疑似重复报销（1）')).toBeTruthy();
    expect(box.textContent).toContain('第1行 与 本单第2行：北京出租汽车公司，36.50 元，2026-11-04（同日）');
    expect(within(box).queryByText(/查看报销单/)).toBeNull();
    fireEvent.click(screen.getByTestId(`accept-duplicate-1-${detail.billNo}`));
    fireEvent.change(await screen.findByPlaceholderText(/接受意见（必填/), { target: { value: '同一张车票扫描两次' } });
    fireEvent.click(screen.getByRole('button', { name: /确认接受/ }));
    await waitFor(() => expect(calls.acceptDuplicate).toHaveBeenCalledWith(taxiLine(1, 3_650).id, taxiLine(2, 3_650).id, '同一张车票扫描两次'));
  });
});
