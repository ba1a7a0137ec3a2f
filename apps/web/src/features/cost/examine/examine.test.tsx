/**
 * Issue 16, 待审核成本单: the queue's request and totals, the filters as the request, 批量审核 after a
 * confirmation with the refused orders and their reasons shown and the queue reloaded, 作废 that cannot be
 * sent without a reason, the project filter from the cost pages' project choices, the order beside its
 * previous month (differences per item), and the comparison arithmetic.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CostOrderDetail, CostOrderLineView, CostOrderPage, CostOrderRow } from '@zhyy/shared';

const api = vi.hoisted(() => ({ toAuditList: vi.fn(), detail: vi.fn(), audit: vi.fn(), invalidate: vi.fn(), projects: vi.fn(), orgTree: vi.fn() }));
vi.mock('../../../api/cost', () => ({ costOrderApi: api }));
vi.mock('../../../api/system', () => ({ systemApi: { orgTree: api.orgTree } }));
const confirm = vi.hoisted(() => vi.fn());
const success = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm }, message: { success, error: vi.fn() } }) }));

const { default: ExaminePage } = await import('./ExaminePage');
const { ApiError } = await import('../../../api/errors');
const { toOrderFilter } = await import('../filters');
const { compareLines, compareTotals } = await import('./compare');

configure({ asyncUtilTimeout: 15_000 });

const ID1 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const ID2 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02';
const order = (id: string, orderNo: string, over: Partial<CostOrderRow> = {}): CostOrderRow => ({
  id, orderNo, month: '2031-03', deptId: 'd1', deptName: '工程一部', projectId: 'p1', projectCode: 'XM001', projectName: '江北管廊', source: 'pms', state: 0,
  amount: 100_000_00, tax: 6_000_00, total: 106_000_00, lineCount: 3, invalidReason: '', auditedBy: '', auditedAt: null, createdBy: '同步', createdAt: '2031-04-01T01:00:00.000Z', closed: false, ...over,
});
const PAGE: CostOrderPage = {
  items: [order(ID1, 'CB2031030001'), order(ID2, 'CB2031030002', { deptName: '工程二部', amount: 50_000_00, tax: 3_000_00, total: 53_000_00 })],
  total: 2,
  totals: { count: 2, amount: 150_000_00, tax: 9_000_00, total: 159_000_00 },
};

const line = (lineNo: number, itemCode: string, quantity: string, unitPrice: string, amount: number, over: Partial<CostOrderLineView> = {}): CostOrderLineView => ({
  id: `l${lineNo}-${itemCode}-${amount}`, lineNo, itemCode, itemName: `项${itemCode}`, category: 'labour', spec: '', unit: '工日', quantity, unitPrice, taxRate: '0.06', amount, tax: Math.round(amount * 0.06),
  priceId: null, priceFrom: '2031-01-01', priceTo: null, currentPrice: null, remark: '', ...over,
});

const DETAIL: CostOrderDetail = {
  ...order(ID1, 'CB2031030001'), remark: '', pmsRef: 'PMS-88',
  lines: [line(1, 'RG01', '10', '350', 3_500_00), line(2, 'JX02', '2', '1200', 2_400_00), line(3, 'CL03', '5', '20', 100_00)],
  logs: [{ action: 'create', message: '项目管理系统同步创建', userName: '同步', createdAt: '2031-04-01T01:00:00.000Z' }],
  previous: { id: 'prev', orderNo: 'CB2031020007', amount: 5_900_00, tax: 354_00, total: 6_254_00, lines: [line(1, 'RG01', '10', '350', 3_500_00), line(2, 'JX02', '1', '1200', 1_200_00), line(3, 'CL04', '1', '1200', 1_200_00)] },
  can: { edit: true, reprice: true, audit: true, invalidate: true },
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  confirm.mockReset();
  api.toAuditList.mockResolvedValue(PAGE);
  api.orgTree.mockResolvedValue([]);
  api.projects.mockResolvedValue([{ id: 'p1', code: 'XM001', name: '江北管廊' }, { id: 'p2', code: 'XM002', name: '城西改造' }]);
  api.detail.mockResolvedValue(DETAIL);
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ExaminePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent ?? '');
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('待审核成本单', { timeout: 60_000 }, () => {
  it('asks for the first page of the queue and shows the totals of the whole queue', async () => {
    show();
    await screen.findByText('CB2031030002');
    expect(api.toAuditList).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    const totals = cellsOf(screen.getByTestId('examine-totals'));
    expect(totals).toContain('合计（2 张）');
    expect(totals).toContain('150,000.00');
    expect(totals).toContain('159,000.00');
    expect(screen.getByText('共 2 张')).toBeTruthy();
  });

  it('the filters become the request (trimmed, 元 to 分, months as YYYY-MM)', async () => {
    show();
    await screen.findByText('CB2031030001');
    fireEvent.change(screen.getByPlaceholderText('CB…'), { target: { value: ' CB203103 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.toAuditList).toHaveBeenLastCalledWith({ orderNo: 'CB203103', pageIndex: 1, pageSize: 20 }));
    const dayjs = (await import('dayjs')).default;
    expect(toOrderFilter({ months: [dayjs('2031-01-01'), dayjs('2031-03-01')], deptId: 'd1', amountMin: 10.5, amountMax: null, itemCode: '  ', source: 'pms' })).toEqual({ monthFrom: '2031-01', monthTo: '2031-03', deptId: 'd1', amountMin: 1050, source: 'pms' });
  });

  it('the project filter offers the cost pages\' project choices (searched on the server) and sends the one chosen', async () => {
    show();
    await screen.findByText('CB2031030001');
    await waitFor(() => expect(api.projects).toHaveBeenCalledWith(undefined));
    fireEvent.mouseDown(screen.getByLabelText('项目'));
    fireEvent.click(await screen.findByTitle('XM002 城西改造'));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.toAuditList).toHaveBeenLastCalledWith({ projectId: 'p2', pageIndex: 1, pageSize: 20 }));
  });

  it('批量审核 asks first, sends the selected ids, shows each refused order with its reason, and reloads the queue', async () => {
    show();
    await screen.findByText('CB2031030001');
    expect((screen.getByTestId('batch-audit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(rowOf('CB2031030001')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('CB2031030002')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('batch-audit'));
    expect(confirm).toHaveBeenCalledTimes(1);
    const asked = confirm.mock.calls[0]![0] as { title: string; content: string; onOk: () => Promise<void> };
    expect(asked.title).toBe('确认审核通过所选 2 张成本单？');
    expect(asked.content).toContain('159,000.00');
    expect(api.audit).not.toHaveBeenCalled();

    api.audit.mockResolvedValue({ code: 20000, message: '操作成功', r: { done: 1, refused: [{ id: ID2, orderNo: 'CB2031030002', message: '该部门该月已结账，成本单不能修改' }] } });
    const before = api.toAuditList.mock.calls.length;
    await asked.onOk();
    expect(api.audit).toHaveBeenCalledWith({ ids: [ID1, ID2] });
    const outcome = await screen.findByTestId('batch-outcome');
    expect(outcome.textContent).toContain('审核通过1张，1张未处理');
    const refused = within(screen.getByTestId('batch-refused'));
    expect(refused.getByText('CB2031030002')).toBeTruthy();
    expect(refused.getByText('该部门该月已结账，成本单不能修改')).toBeTruthy();
    await waitFor(() => expect(api.toAuditList.mock.calls.length).toBeGreaterThan(before));
  });

  it('a batch refused as a whole (30000) still shows each order with its reason', async () => {
    show();
    await screen.findByText('CB2031030001');
    fireEvent.click(within(rowOf('CB2031030001')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('CB2031030002')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('batch-audit'));
    const asked = confirm.mock.calls.at(-1)![0] as { onOk: () => Promise<void> };
    const r = { done: 0, refused: [{ id: ID1, orderNo: 'CB2031030001', message: '您未被分配审核工程一部的成本单' }, { id: ID2, orderNo: 'CB2031030002', message: '成本单已审核，不能修改' }] };
    api.audit.mockRejectedValue(new ApiError('business', '2 张成本单均未审核：…', { code: 30000, status: 400, envelope: { code: 30000, message: '2 张成本单均未审核：…', r } }));
    await asked.onOk();
    const outcome = await screen.findByTestId('batch-outcome');
    expect(outcome.textContent).toContain('审核通过0张，2张未处理');
    const refused = within(screen.getByTestId('batch-refused'));
    expect(refused.getByText('您未被分配审核工程一部的成本单')).toBeTruthy();
    expect(refused.getByText('成本单已审核，不能修改')).toBeTruthy();
  });

  it('作废 cannot be sent without a reason; with one it sends the ids and the trimmed reason', async () => {
    show();
    await screen.findByText('CB2031030001');
    fireEvent.click(screen.getByTestId('invalid-CB2031030001'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('作废成本单 CB2031030001')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确认作废/ }));
    expect(await within(dialog).findByText('请填写作废原因')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('请说明作废原因'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确认作废/ }));
    await waitFor(() => expect(within(dialog).getAllByText('请填写作废原因').length).toBeGreaterThan(0));
    expect(api.invalidate).not.toHaveBeenCalled();

    api.invalidate.mockResolvedValue({ code: 20000, message: '操作成功', r: { done: 1, refused: [] } });
    fireEvent.change(within(dialog).getByPlaceholderText('请说明作废原因'), { target: { value: ' 项目重复推送 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确认作废/ }));
    await waitFor(() => expect(api.invalidate).toHaveBeenCalledWith({ ids: [ID1], reason: '项目重复推送' }));
    // One order: a toast, no summary to close (issue 31).
    await waitFor(() => expect(success).toHaveBeenCalledWith('成本单 CB2031030001 已作废'));
    expect(screen.queryByTestId('batch-outcome')).toBeNull();
  });

  it('审核 of one order is told in a toast, with no summary to close (issue 31)', async () => {
    show();
    await screen.findByText('CB2031030001');
    fireEvent.click(screen.getByTestId('audit-CB2031030001'));
    const asked = confirm.mock.calls.at(-1)![0] as { title: string; onOk: () => Promise<void> };
    expect(asked.title).toBe('确认审核通过成本单 CB2031030001？');
    api.audit.mockResolvedValue({ code: 20000, message: '操作成功', r: { done: 1, refused: [] } });
    await asked.onOk();
    expect(api.audit).toHaveBeenCalledWith({ ids: [ID1] });
    await waitFor(() => expect(success).toHaveBeenCalledWith('成本单 CB2031030001 已审核通过'));
    expect(screen.queryByTestId('batch-outcome')).toBeNull();
  });

  it('an order opens beside its previous month: each item’s difference, the changed rows marked, audit from there', async () => {
    show();
    fireEvent.click((await screen.findAllByTestId('examine-open'))[0]!);
    // Not silent (a failure is toasted): no { silent: true }.
    await waitFor(() => expect(api.detail).toHaveBeenCalledWith(ID1, {}));
    expect((await screen.findByTestId('diff-RG01')).textContent).toBe('0.00');
    expect(screen.getByTestId('diff-JX02').textContent).toBe('+1,200.00');
    expect(screen.getByTestId('diff-CL03').textContent).toBe('+100.00');
    expect(screen.getByTestId('diff-CL04').textContent).toBe('-1,200.00');
    expect(screen.getByTestId('diff-total').textContent).toBe('+100.00');
    expect(screen.getByText('本月新增')).toBeTruthy();
    expect(screen.getByText('本月未列')).toBeTruthy();
    const table = screen.getByTestId('compare-table');
    const highlighted = table.querySelectorAll('tr.row-highlight');
    expect(highlighted.length).toBe(3);
    expect(screen.getByTestId('compare-totals').textContent).toContain('CB2031020007');
    fireEvent.click(screen.getByTestId('drawer-audit'));
    expect((confirm.mock.calls[0]![0] as { title: string }).title).toBe('确认审核通过成本单 CB2031030001？');
  });

  it('without a previous order it says so and shows this month only', async () => {
    api.detail.mockResolvedValue({ ...DETAIL, previous: null, can: { edit: false, reprice: false, audit: false, invalidate: false } });
    show();
    fireEvent.click((await screen.findAllByTestId('examine-open'))[0]!);
    expect((await screen.findByTestId('no-previous')).textContent).toContain('2031年2月没有该部门该项目的成本单');
    expect(screen.queryByTestId('diff-RG01')).toBeNull();
    expect(screen.queryByTestId('drawer-audit')).toBeNull();
  });
});

describe('compareLines', () => {
  it('groups lines of one item, spec and unit on each side and keeps quantities exact', () => {
    const rows = compareLines(
      [line(1, 'RG01', '0.1', '350', 35_00), line(2, 'RG01', '0.2', '350', 70_00), line(3, 'RG01', '1', '300', 300_00, { spec: '高级' })],
      [line(1, 'RG01', '0.3', '340', 102_00)],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ itemCode: 'RG01', spec: '', kind: 'changed', diff: 3_00, current: { quantity: '0.3', unitPrice: '350', amount: 105_00, lines: 2 }, previous: { quantity: '0.3', unitPrice: '340', amount: 102_00 } });
    expect(rows[1]).toMatchObject({ spec: '高级', kind: 'added', diff: 300_00, previous: null });
    expect(compareTotals(rows)).toEqual({ current: 405_00, previous: 102_00, diff: 303_00 });
  });

  it('differing unit prices on one side show no common price; the same item at the same figures is unchanged', () => {
    const [mixed] = compareLines([line(1, 'A', '1', '10', 10_00), line(2, 'A', '1', '12', 12_00)], null);
    expect(mixed!.current!.unitPrice).toBe('');
    expect(mixed!.kind).toBe('added');
    const [same] = compareLines([line(1, 'A', '2', '10.00', 20_00)], [line(4, 'A', '2.0', '10', 20_00)]);
    expect(same!.kind).toBe('same');
    expect(same!.diff).toBe(0);
  });
});
