/**
 * Issue 15, 报销入账 pages: 一键报销 (the bills with their state and failure reason, the totals, a confirmation
 * before the push, the bills pushed one by one with a progress bar and each bill's result), 报销编辑 (the
 * defaults from 报销设置, save and push), 新增撤销 (the reason's rule, the accounting side's refusal shown
 * in place, the simulated accountant for roles 1 and 12 only), 报销撤销 and 同步日志.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReimbApplyRow, ReimbEditDetail, ReimbPushedRow } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { useSession } from '../../../stores/session';
import ApplyList, { pushOneByOne } from './ApplyList';
import BillEdit, { initialValues } from './BillEdit';
import RevokeAdd, { REASON_RULES, revokeConfirmText, revokeConfirmTitle } from './RevokeAdd';
import RevokeList from './RevokeList';
import SyncLogPage from './SyncLogPage';
import { APPLY_LIST, REVOKE_ADD, REVOKE_LIST, SYNCLOG } from './common';

const api = vi.hoisted(() => ({
  applyList: vi.fn(), push: vi.fn(), editDetail: vi.fn(), editSave: vi.fn(), revocations: vi.fn(), exportRevocations: vi.fn(), pushed: vi.fn(), revoke: vi.fn(), simDeleteVoucher: vi.fn(), syncLogs: vi.fn(), syncLogDetail: vi.fn(),
}));
vi.mock('../../../api/reimbursementAccounting', () => ({ reimbAccountingApi: api }));
const confirm = vi.hoisted(() => vi.fn());
const success = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm }, message: { success, error: vi.fn() } }) }));

configure({ asyncUtilTimeout: 15_000 });

const row = (over: Partial<ReimbApplyRow> = {}): ReimbApplyRow => ({
  id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', billNo: 'BX2026110001', applicantName: '王建国', deptName: '信息中心', projectName: '', reason: '南京出差',
  amount: 74_500, approvedAmount: 72_500, deductibleTax: 4_500, lineCount: 2, reimbState: 0, pushMessage: '', approvedAt: '2026-11-20T02:00:00.000Z', costCentreName: '', ...over,
});
const failedRow = row({ id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02', billNo: 'BX2026110002', reimbState: 2, pushMessage: '费用类别"业务招待费"未设置会计科目' });

const pushedRow: ReimbPushedRow = { id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a03', billNo: 'BX2026110003', applicantName: '李晓燕', deptName: '综合部', reason: '办公用品', approvedAmount: 18_000, voucherNo: '记-0012', voucherPeriod: '202611', voucherDate: '2026-11-21', pushedAt: '2026-11-21T02:00:00.000Z', pushedBy: '王建国' };

const detail: ReimbEditDetail = {
  id: row().id, billNo: 'BX2026110001', applicantName: '王建国', deptName: '信息中心', reason: '南京出差', reimbState: 2, flowState: 3, amount: 74_500, approvedAmount: 72_500, deductibleTax: 4_500,
  pushMessage: '无法连接会计系统，请稍后重试', voucherNo: '', voucherPeriod: '', summary: '', costCentreCode: '', costCentreName: '', defaultSummary: '报销 BX2026110001 王建国 南京出差',
  deptCostCentreCode: 'CC-IT', deptCostCentreName: '信息中心',
  lines: [{ id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0b01', lineNo: 1, categoryCode: 'T01', categoryName: '差旅费', expenseDate: '2026-11-02', description: '高铁', amount: 54_500, approvedAmount: 54_500, deductibleTax: 4_500, invoiceNumber: '1', subjectCode: '', subjectName: '', categorySubjectCode: '660201', categorySubjectName: '管理费用—差旅费' }],
  voucher: [
    { dc: 'debit', accountCode: '660201', accountName: '管理费用—差旅费', amount: 50_000, summary: '报销（差旅费）' },
    { dc: 'credit', accountCode: '224101', accountName: '其他应付款—员工报销', amount: 50_000, summary: '报销（应付）' },
  ],
  problem: '', editable: true, history: [],
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  confirm.mockReset();
  success.mockReset();
  api.applyList.mockResolvedValue({ items: [row(), failedRow], total: 2, totals: { amount: 149_000, approvedAmount: 145_000, deductibleTax: 9_000 } });
  api.pushed.mockResolvedValue({ items: [pushedRow], total: 1 });
  api.revocations.mockResolvedValue({ items: [], total: 0 });
  api.editDetail.mockResolvedValue(detail);
  api.syncLogs.mockResolvedValue({ items: [{ id: 's1', type: 'accountingPushVoucher', typeName: '推送凭证', status: 0, memo: '凭证推送成功', durationMs: 12, userName: '王建国', createdAt: '2026-11-21T02:00:00.000Z', refs: ['BX2026110001'] }], total: 1 });
  useSession.setState({ roles: ['12'] } as never);
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={APPLY_LIST} element={<ApplyList />} />
          <Route path="/reimbursement/edit/:id" element={<BillEdit />} />
          <Route path={REVOKE_ADD} element={<RevokeAdd />} />
          <Route path={REVOKE_LIST} element={<div data-testid="at-list"><RevokeList /></div>} />
          <Route path={SYNCLOG} element={<SyncLogPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('一键报销', { timeout: 60_000 }, () => {
  it('lists the bills with their state, the failure reason and the totals of every matching bill', async () => {
    renderAt(APPLY_LIST);
    expect(await screen.findByText('BX2026110002')).toBeTruthy();
    expect(screen.getByText('报销失败')).toBeTruthy();
    expect(screen.getByTestId('push-message').textContent).toBe('费用类别"业务招待费"未设置会计科目');
    expect(screen.getByText('合计（2张）')).toBeTruthy();
    expect(screen.getByText('1,450.00')).toBeTruthy();
    expect(api.applyList).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
  });

  it('asks before pushing, then pushes the selected bills one by one with progress and each result', async () => {
    api.push.mockImplementation(async ([id]: string[]) =>
      id === row().id
        ? { code: 20000, message: '', r: { done: 1, failed: 0, results: [{ billId: id, billNo: 'BX2026110001', ok: true, reimbState: 1, voucherNo: '记-0001', voucherPeriod: '202611', message: '报销成功，凭证号 记-0001' }] } }
        : { code: 20000, message: '', r: { done: 0, failed: 1, results: [{ billId: id, billNo: 'BX2026110002', ok: false, reimbState: 2, voucherNo: '', voucherPeriod: '', message: '推送失败：会计系统拒绝凭证：科目未启用（模拟失败）' }] } },
    );
    renderAt(APPLY_LIST);
    await screen.findByText('BX2026110002');
    const push = screen.getByTestId('push-selected') as HTMLButtonElement;
    expect(push.disabled).toBe(true);
    const boxes = within(screen.getByTestId('apply-table')).getAllByRole('checkbox');
    fireEvent.click(boxes[0]!); // select all
    await waitFor(() => expect(push.textContent).toContain('（2）'));
    fireEvent.click(push);
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const c = confirm.mock.calls[0]![0] as { title: string; content: string; onOk: () => void };
    expect(c.title).toBe('确认将所选 2 张报销单推送会计系统？');
    // Issue 31 #8: the one money format (thousands separator) in the confirmation too.
    expect(c.content).toContain('核定金额合计 1,450.00 元');
    expect(api.push).not.toHaveBeenCalled();
    c.onOk();
    expect(await screen.findByText('推送完成：成功1张，失败1张')).toBeTruthy();
    expect(api.push).toHaveBeenCalledTimes(2);
    expect(api.push.mock.calls.map((x) => x[0])).toEqual([[row().id], [failedRow.id]]);
    const results = screen.getByTestId('push-results');
    expect(within(results).getByText('报销成功，凭证号 记-0001')).toBeTruthy();
    expect(within(results).getByText('推送失败：会计系统拒绝凭证：科目未启用（模拟失败）')).toBeTruthy();
  });

  it('a refused call becomes that bill’s failed result', async () => {
    api.push.mockRejectedValue(new ApiError('business', '权限不足', { code: 30000, status: 403 }));
    renderAt(APPLY_LIST);
    fireEvent.click(await screen.findByTestId('push-BX2026110001'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect((confirm.mock.calls[0]![0] as { title: string }).title).toBe('确认将报销单 BX2026110001 推送会计系统？');
    (confirm.mock.calls[0]![0] as { onOk: () => void }).onOk();
    expect(await screen.findByText('推送完成：成功0张，失败1张')).toBeTruthy();
    expect(within(screen.getByTestId('push-results')).getByText('权限不足')).toBeTruthy();
  });
});

describe('报销编辑', { timeout: 60_000 }, () => {
  it('starts from the category subjects and the department cost centre', () => {
    expect(initialValues(detail)).toEqual({ costCentreCode: 'CC-IT', costCentreName: '信息中心', summary: '', lines: [{ id: detail.lines[0]!.id, subjectCode: '660201', subjectName: '管理费用—差旅费' }] });
  });

  it('shows the last failure and the voucher; saves the fields; a refusal stays in place', async () => {
    api.editSave.mockResolvedValueOnce({ code: 20000, message: '已保存', r: detail }).mockRejectedValueOnce(new ApiError('business', '报销单当前为已报销，只有未报销或报销失败的报销单可以编辑', { code: 30000, status: 409 }));
    renderAt(`/reimbursement/edit/${detail.id}`);
    expect((await screen.findByTestId('edit-push-message')).textContent).toContain('无法连接会计系统，请稍后重试');
    expect(within(screen.getByTestId('voucher-preview')).getByText('224101 其他应付款—员工报销')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('subject-code-0') as HTMLInputElement).value).toBe('660201'));
    fireEvent.change(screen.getByTestId('subject-code-0'), { target: { value: ' 660209 ' } });
    fireEvent.change(screen.getByTestId('acct-summary'), { target: { value: '11月南京出差' } });
    fireEvent.click(screen.getByTestId('edit-save'));
    await waitFor(() => expect(api.editSave).toHaveBeenCalledTimes(1));
    expect(api.editSave).toHaveBeenCalledWith({ billId: detail.id, costCentreCode: 'CC-IT', costCentreName: '信息中心', summary: '11月南京出差', lines: [{ id: detail.lines[0]!.id, subjectCode: '660209', subjectName: '管理费用—差旅费' }] });
    await waitFor(() => expect(success).toHaveBeenCalledWith('已保存'));
    fireEvent.click(screen.getByTestId('edit-save'));
    expect((await screen.findByTestId('edit-error')).textContent).toContain('只有未报销或报销失败的报销单可以编辑');
  });

  it('a required subject is asked for before anything is sent', async () => {
    renderAt(`/reimbursement/edit/${detail.id}`);
    await waitFor(() => expect((screen.getByTestId('subject-code-0') as HTMLInputElement).value).toBe('660201'));
    fireEvent.change(screen.getByTestId('subject-code-0'), { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('edit-push'));
    expect(await screen.findByText('请填写会计科目编码')).toBeTruthy();
    expect(api.editSave).not.toHaveBeenCalled();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('a pushed bill is read-only', async () => {
    api.editDetail.mockResolvedValue({ ...detail, reimbState: 1, editable: false, pushMessage: '', voucherNo: '记-0003', voucherPeriod: '202611' });
    renderAt(`/reimbursement/edit/${detail.id}`);
    expect(await screen.findByText('报销单当前为已报销，只有未报销或报销失败的报销单可以编辑')).toBeTruthy();
    expect((screen.getByTestId('edit-save') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('新增撤销', { timeout: 60_000 }, () => {
  const pick = async () => {
    fireEvent.click(await screen.findByText('BX2026110003'));
    await screen.findByTestId('revoke-picked');
  };

  it('the reason is 2–200 characters; the confirmation names the voucher; the accounting side’s refusal shows in place', async () => {
    api.revoke.mockRejectedValue(new ApiError('business', '凭证 记-0012 仍在会计系统中，请先在会计系统删除该凭证后再撤销', { code: 30000, status: 409 }));
    renderAt(REVOKE_ADD);
    await pick();
    fireEvent.click(screen.getByTestId('revoke-submit'));
    expect(await screen.findByText('请填写撤销原因')).toBeTruthy();
    const rule = REASON_RULES[1] as { validator: (r: unknown, v: unknown) => Promise<void> };
    await expect(rule.validator({}, '错')).rejects.toThrow('撤销原因至少2个字');
    await expect(rule.validator({}, '很'.repeat(201))).rejects.toThrow('撤销原因不能超过200个字');
    fireEvent.change(screen.getByTestId('revoke-reason'), { target: { value: ' 报销金额有误 ' } });
    fireEvent.click(screen.getByTestId('revoke-submit'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const c = confirm.mock.calls[0]![0] as { title: string; content: string; onOk: () => Promise<unknown> };
    expect(c.title).toBe('确认撤销报销单 BX2026110003 的入账？');
    expect(c.content).toBe(revokeConfirmText(pushedRow));
    await c.onOk();
    expect(api.revoke).toHaveBeenCalledWith({ billId: pushedRow.id, reason: '报销金额有误', method: 'delete' });
    expect((await screen.findByTestId('revoke-error')).textContent).toContain('凭证 记-0012 仍在会计系统中');
  });

  it('roles 1 and 12 may delete the voucher in the simulated accounting system, labelled as such', async () => {
    api.simDeleteVoucher.mockResolvedValue({ code: 20000, message: '模拟会计系统：已删除凭证 记-0012', r: { deleted: true, voucherNo: '记-0012', period: '202611' } });
    api.revoke.mockResolvedValue({ code: 20000, message: '已撤销报销单 BX2026110003，恢复为未报销', r: { billNo: 'BX2026110003', voucherNo: '记-0012', message: '' } });
    renderAt(REVOKE_ADD);
    await pick();
    expect(screen.getByText('模拟会计系统操作（仅连接模拟会计系统时可用，用于演示和测试）')).toBeTruthy();
    fireEvent.click(screen.getByTestId('sim-delete'));
    expect((await screen.findByTestId('sim-note')).textContent).toBe('模拟会计系统：已删除凭证 记-0012');
    expect(api.simDeleteVoucher).toHaveBeenCalledWith(pushedRow.id);
    fireEvent.change(screen.getByTestId('revoke-reason'), { target: { value: '报销金额有误' } });
    fireEvent.click(screen.getByTestId('revoke-submit'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    await (confirm.mock.calls[0]![0] as { onOk: () => Promise<unknown> }).onOk();
    await screen.findByTestId('at-list');
    expect(success).toHaveBeenCalledWith('已撤销报销单 BX2026110003，恢复为未报销');
  });

  it('issue 32 item 3: the choice between deleting the voucher and a red reversing voucher, each with its own confirmation', async () => {
    api.revoke.mockResolvedValue({ code: 20000, message: '已红字冲销报销单 BX2026110003：冲销凭证 2026年11月 记-0031 冲销原凭证 2026年11月 记-0012，报销单恢复为未报销', r: { billNo: 'BX2026110003', voucherNo: '记-0012', method: 'reverse', reversalVoucherNo: '记-0031', reversalPeriod: '202611', message: '' } });
    renderAt(REVOKE_ADD);
    await pick();
    // By deletion first (the default): the hint and the simulated accountant.
    expect(screen.getByTestId('revoke-method-hint').textContent).toContain('撤销前须由会计在会计系统删除该凭证');
    expect(screen.getByTestId('sim-delete')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('revoke-method')).getByText('红字冲销凭证'));
    expect(screen.getByTestId('revoke-method-hint').textContent).toContain('原凭证所属期间已结账也可冲销');
    expect(screen.queryByTestId('sim-delete')).toBeNull();
    expect(screen.getByTestId('revoke-submit').textContent).toContain('红字冲销');
    fireEvent.change(screen.getByTestId('revoke-reason'), { target: { value: '报销金额有误' } });
    fireEvent.click(screen.getByTestId('revoke-submit'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const c = confirm.mock.calls[0]![0] as { title: string; content: string; okText: string; onOk: () => Promise<unknown> };
    expect(c.title).toBe('确认以红字冲销凭证撤销报销单 BX2026110003 的入账？');
    expect(c.content).toBe(revokeConfirmText(pushedRow, 'reverse'));
    expect(c.content).toContain('冲销凭证 202611 记-0012（科目相同、金额为负，原凭证保留');
    expect(c.okText).toBe('确认冲销');
    // Nothing is sent before the confirmation.
    expect(api.revoke).not.toHaveBeenCalled();
    await c.onOk();
    expect(api.revoke).toHaveBeenCalledWith({ billId: pushedRow.id, reason: '报销金额有误', method: 'reverse' });
    await screen.findByTestId('at-list');
    expect(success).toHaveBeenCalledWith('已红字冲销报销单 BX2026110003：冲销凭证 2026年11月 记-0031 冲销原凭证 2026年11月 记-0012，报销单恢复为未报销');
  });

  it('switching back to deletion asks the deletion question; nothing is sent before the confirmation', async () => {
    renderAt(REVOKE_ADD);
    await pick();
    fireEvent.click(within(screen.getByTestId('revoke-method')).getByText('红字冲销凭证'));
    fireEvent.click(within(screen.getByTestId('revoke-method')).getByText('删除凭证后撤销'));
    fireEvent.change(screen.getByTestId('revoke-reason'), { target: { value: '重复报销' } });
    fireEvent.click(screen.getByTestId('revoke-submit'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const c = confirm.mock.calls[0]![0] as { title: string; content: string };
    expect([c.title, c.content]).toEqual([revokeConfirmTitle(pushedRow, 'delete'), revokeConfirmText(pushedRow, 'delete')]);
    expect(c.content).toContain('请确认会计已在会计系统删除凭证 记-0012');
    expect(api.revoke).not.toHaveBeenCalled();
  });

  it('role 16 revokes but has no simulated accountant', async () => {
    useSession.setState({ roles: ['16'] } as never);
    renderAt(REVOKE_ADD);
    await pick();
    expect(screen.queryByTestId('sim-delete')).toBeNull();
    expect((screen.getByTestId('revoke-submit') as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('报销撤销 and 同步日志', { timeout: 60_000 }, () => {
  it('报销撤销 lists refused attempts with the reason and offers 新增撤销 and the export', async () => {
    api.revocations.mockResolvedValue({ items: [{ id: 'r1', billId: pushedRow.id, billNo: 'BX2026110003', applicantName: '李晓燕', approvedAmount: 18_000, voucherNo: '记-0012', voucherPeriod: '202611', reason: '报销金额有误', state: 2, message: '凭证 记-0012 仍在会计系统中，请先在会计系统删除该凭证后再撤销', requestedByName: '王建国', createdAt: '2026-11-22T02:00:00.000Z' }], total: 1 });
    renderAt(REVOKE_LIST);
    expect(await screen.findByText('被拒绝')).toBeTruthy();
    expect(screen.getByText('凭证 记-0012 仍在会计系统中，请先在会计系统删除该凭证后再撤销')).toBeTruthy();
    expect(screen.getByTestId('export-button')).toBeTruthy();
    fireEvent.click(screen.getByTestId('reimb-revoke-add'));
    expect(await screen.findByTestId('reimb-revoke-add-page')).toBeTruthy();
  });

  it('报销撤销 shows how each bill was revoked and the red reversing voucher', async () => {
    api.revocations.mockResolvedValue({ items: [{ id: 'r2', billId: pushedRow.id, billNo: 'BX2026110003', applicantName: '李晓燕', approvedAmount: 18_000, voucherNo: '记-0012', voucherPeriod: '202609', reason: '报销金额有误', state: 1, message: '红字冲销凭证 2026年11月 记-0031 冲销原凭证 2026年09月 记-0012，报销单恢复为未报销', requestedByName: '王建国', createdAt: '2026-11-22T02:00:00.000Z', method: 'reverse', reversalVoucherNo: '记-0031', reversalPeriod: '202611' }], total: 1 });
    renderAt(REVOKE_LIST);
    expect(await screen.findByText('已撤销')).toBeTruthy();
    expect(screen.getAllByText('红字冲销凭证').length).toBeGreaterThan(0);
    expect(screen.getByText('202611 记-0031')).toBeTruthy();
    expect(screen.getByText('202609 记-0012')).toBeTruthy();
  });

  it('同步日志 shows each exchange with its bill number, the method by its Chinese name (issue 31 #9)', async () => {
    renderAt(SYNCLOG);
    const method = await screen.findByText('推送凭证');
    expect(method.getAttribute('title')).toBe('accountingPushVoucher');
    expect(screen.queryByText('accountingPushVoucher')).toBeNull();
    expect(screen.getByText('BX2026110001')).toBeTruthy();
    expect(screen.getByPlaceholderText('如 推送凭证')).toBeTruthy();
  });
});

describe('一键报销: a refused push (issue 27 item 8)', () => {
  it('a 30000 answer becomes the bill’s result as the server stated it, its state included', async () => {
    const result = { billId: failedRow.id, billNo: failedRow.billNo, ok: false, reimbState: 2, voucherNo: '', voucherPeriod: '', message: '费用类别"业务招待费"未设置会计科目' };
    api.push.mockRejectedValue(new ApiError('business', result.message, { code: 30000, status: 400, envelope: { code: 30000, message: result.message, r: { done: 0, failed: 1, results: [result] } } }));
    const seen: unknown[] = [];
    await pushOneByOne([failedRow], (r) => seen.push(r));
    expect(seen).toEqual([result]);
    // A refusal without a per-bill answer (权限不足) still becomes that bill's failed result.
    api.push.mockRejectedValue(new ApiError('business', '权限不足', { code: 30000, status: 403 }));
    const bare: unknown[] = [];
    await pushOneByOne([failedRow], (r) => bare.push(r));
    expect(bare).toMatchObject([{ billId: failedRow.id, ok: false, reimbState: null, message: '权限不足' }]);
  });
});
