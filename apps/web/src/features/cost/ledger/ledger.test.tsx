/**
 * 成本单台账 on the web (issue 16): the filters become the request, the 合计 row is the server's totals, entry is
 * offered to roles 1, 16, 17 only, the order editor's live half-up arithmetic and its save body, the server's
 * refusal in place, 重新取价 asks first, the import's per-row result, the PMS sync result, and the detail
 * drawer's price source and previous month, and the filters read from the view's address (as ledgerPath writes
 * them for the summary's drill-down). The api client is mocked.
 */
import '../../../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CostImportResult, CostOrderDetail, CostOrderPage, CostOrderRow, CostPriceRow, DeptNode } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { ViewContext, type ViewInfo } from '../../../router/view';
import { useSession } from '../../../stores/session';

const list = vi.fn<(q: Record<string, unknown>) => Promise<CostOrderPage>>();
const detail = vi.fn<(id: string) => Promise<CostOrderDetail>>();
const save = vi.fn<(b: Record<string, unknown>, o?: unknown) => Promise<{ code: number; r: { id: string; orderNo: string } }>>();
const reprice = vi.fn<(id: string) => Promise<{ code: number; r: { id: string; orderNo: string; changed: number } }>>();
const importOrders = vi.fn<(b: { file: string }, o?: unknown) => Promise<{ code: number; r: CostImportResult }>>();
const importTemplate = vi.fn(() => Promise.resolve(new Blob()));
const pmsSync = vi.fn<(b: { month: string }, o?: unknown) => Promise<{ code: number; r: { created: number; skipped: number; failed: Array<{ ref: string; message: string }> } }>>();
const copyLastMonth = vi.fn();
const priceOptions = vi.fn<(q: { month: string; keyword?: string }) => Promise<CostPriceRow[]>>();
const projects = vi.fn((_k?: string) => Promise.resolve([{ id: 'p1', code: 'XM001', name: '江北新区管廊' }, { id: 'p2', code: 'XM002', name: '滨江大道' }]));
const download = vi.fn((_path: string, _body: Record<string, unknown>) => Promise.resolve(new Blob()));

vi.mock('../../../api/cost', () => ({
  costOrderApi: { list, detail, save, reprice, import: importOrders, importTemplate, pmsSync, copyLastMonth, projects },
  costPriceApi: { options: priceOptions },
  COST_EXPORT_PATHS: { orders: '/cost-order/export', summary: '/cost-order/export-cost-summary', prices: '/cost-price/export' },
  fileToBase64: () => Promise.resolve('UEsDBA=='),
}));
const tree: DeptNode[] = [
  { id: 'd0', parentId: null, name: '总公司', sort: 0, managerId: null, managerName: '', memberCount: 0, totalCount: 0, children: [
    { id: 'd1', parentId: 'd0', name: '工程一部', sort: 1, managerId: null, managerName: '', memberCount: 0, totalCount: 0, children: [] },
  ] },
];
vi.mock('../../../api/system', () => ({ systemApi: { orgTree: () => Promise.resolve(tree) } }));
vi.mock('../../../api/invoiceLedger', () => ({ downloadWithProgress: (path: string, body: Record<string, unknown>) => download(path, body) }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));

const { default: LedgerPage } = await import('./LedgerPage');
const { toOrderFilter, orderFilterValues } = await import('../filters');
const { ledgerFiltersOf, ledgerPath } = await import('../common');

const row = (i: number, over: Partial<CostOrderRow> = {}): CostOrderRow => ({
  id: `o${i}`, orderNo: `CB2031010${String(i).padStart(3, '0')}`, month: '2031-01', deptId: 'd1', deptName: '工程一部', projectId: 'p1', projectCode: 'XM001', projectName: '江北新区管廊',
  source: 'entry', state: 0, amount: 1000_00, tax: 60_00, total: 1060_00, lineCount: 2, invalidReason: '', auditedBy: '', auditedAt: null, createdBy: '张三', createdAt: '2031-01-05T02:00:00.000Z', closed: false, ...over,
});
const page = (items: CostOrderRow[], over: Partial<CostOrderPage> = {}): CostOrderPage => ({ items, total: items.length, totals: { count: items.length, amount: 0, tax: 0, total: 0 }, ...over });
const price = (over: Partial<CostPriceRow>): CostPriceRow => ({
  id: 'pr', itemCode: 'RG01', itemName: '普工', category: 'labour', spec: '', unit: '工日', unitPrice: '1', taxRate: '0.06', validFrom: '2030-01-01', validTo: null, usedCount: 0, updatedBy: '', updatedAt: '', ...over,
});

/** The page; `search` is its view's address query (AppMain gives each view its own). */
function ledgerView(client: QueryClient, search: string) {
  const view = { path: '/cost-management/account', fullPath: `/cost-management/account${search}`, search, params: {}, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}>
          <App><LedgerPage /></App>
        </ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>
  );
}
function show(search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { rerender } = render(ledgerView(client, search));
  /** Another link to the (still mounted) page. */
  return { navigate: (next: string) => rerender(ledgerView(client, next)) };
}
const cellsOf = (el: HTMLElement) => within(el).getAllByRole('cell').map((c) => c.textContent ?? '');

/** Opens an antd Select (or TreeSelect) inside `scope` and clicks the option titled `label`. */
async function pick(select: HTMLElement, label: string) {
  fireEvent.mouseDown(select.querySelector('.ant-select-selector, .ant-select-content, [role="combobox"]') ?? select);
  const options = await screen.findAllByTitle(label);
  fireEvent.click(options[options.length - 1]!);
  await waitFor(() => expect(select.textContent).toContain(label));
}

beforeEach(() => {
  for (const f of [list, detail, save, reprice, importOrders, pmsSync, copyLastMonth, priceOptions, download]) f.mockReset();
  useSession.setState({ roles: ['16'] } as never);
});

describe('成本单台账', { timeout: 60_000 }, () => {
  it('the month range becomes months, amounts 分, blanks dropped', () => {
    expect(toOrderFilter({ months: [dayjs('2031-01-01'), dayjs('2031-03-01')], deptId: 'd1', orderNo: '  ', itemCode: ' RG01 ', amountMin: 12.3, amountMax: null, state: 0 })).toEqual({
      monthFrom: '2031-01', monthTo: '2031-03', deptId: 'd1', itemCode: 'RG01', amountMin: 1230, state: 0,
    });
    expect(toOrderFilter({})).toEqual({});
  });

  it('the address filters: ledgerPath writes them, ledgerFiltersOf reads them back, a malformed month or state is left out', () => {
    const f = { monthFrom: '2031-01', monthTo: '2031-03', deptId: 'd1', projectId: 'p1', orderNo: 'CB2031010003', state: 0 };
    const path = ledgerPath(f);
    expect(path).toBe('/cost-management/account?monthFrom=2031-01&monthTo=2031-03&deptId=d1&projectId=p1&orderNo=CB2031010003&state=0');
    expect(ledgerFiltersOf(new URL(path, 'http://x').searchParams)).toEqual(f);
    expect(toOrderFilter(orderFilterValues(f))).toEqual(f);
    expect(ledgerFiltersOf(new URLSearchParams('monthFrom=2031-13&monthTo=2031&state=7&orderNo=%20&source=pms'))).toEqual({});
    expect(toOrderFilter(orderFilterValues({ monthTo: '2031-02' }))).toEqual({ monthTo: '2031-02' });
  });

  it('opens with the filters of its address (the summary\'s drill-down) in the form and the first request; 重置 clears them; a later link replaces them', async () => {
    list.mockResolvedValue(page([row(1)]));
    const { navigate } = show('?monthFrom=2031-01&monthTo=2031-02&deptId=d1&projectId=p1&orderNo=CB2031010003&state=1');
    await screen.findByText('CB2031010001');
    const filters = { monthFrom: '2031-01', monthTo: '2031-02', deptId: 'd1', projectId: 'p1', orderNo: 'CB2031010003', state: 1 };
    expect(list.mock.calls[0]![0]).toEqual({ ...filters, pageIndex: 1, pageSize: 20 });
    expect((screen.getByPlaceholderText('完整或部分单号') as HTMLInputElement).value).toBe('CB2031010003');
    expect((screen.getByPlaceholderText('开始月份') as HTMLInputElement).value).toBe('2031-01');
    expect((screen.getByPlaceholderText('结束月份') as HTMLInputElement).value).toBe('2031-02');
    expect(screen.getByTestId('cost-filter-state').closest('.ant-select')!.textContent).toContain('已审核');
    await waitFor(() => expect(screen.getByTestId('cost-dept-select').closest('.ant-select')!.textContent).toContain('工程一部'));
    await waitFor(() => expect(screen.getByTestId('cost-project-select').closest('.ant-select')!.textContent).toContain('XM001 江北新区管廊'));
    // The form holds them: 查询 after one change sends the others as they came.
    fireEvent.change(screen.getByPlaceholderText('完整或部分单号'), { target: { value: 'CB2031010004' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ ...filters, orderNo: 'CB2031010004', pageIndex: 1, pageSize: 20 }));

    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 20 }));
    expect((screen.getByPlaceholderText('完整或部分单号') as HTMLInputElement).value).toBe('');

    navigate('?orderNo=CB2031020001&monthFrom=2031-02&monthTo=2031-02');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ orderNo: 'CB2031020001', monthFrom: '2031-02', monthTo: '2031-02', pageIndex: 1, pageSize: 20 }));
    expect((screen.getByPlaceholderText('完整或部分单号') as HTMLInputElement).value).toBe('CB2031020001');
    // A bare link (the menu's) keeps what is shown.
    navigate('');
    await new Promise((r) => setTimeout(r, 50));
    expect(list).toHaveBeenLastCalledWith({ orderNo: 'CB2031020001', monthFrom: '2031-02', monthTo: '2031-02', pageIndex: 1, pageSize: 20 });
    expect((screen.getByPlaceholderText('完整或部分单号') as HTMLInputElement).value).toBe('CB2031020001');
  });

  it('shows the rows and the server totals of the filtered set; the filters become the request and the export sends them', async () => {
    list.mockResolvedValue(page([row(1), row(2, { state: 2, invalidReason: '重复' }), row(3, { state: 1, closed: true })], { total: 203, totals: { count: 198, amount: 12_345_678_90, tax: 740_740_73, total: 13_086_419_63 } }));
    show();
    expect(await screen.findByText('CB2031010001')).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(cellsOf(await screen.findByTestId('cost-ledger-totals'))).toEqual(['合计（有效 198 张）', '金额不含已作废单', '12,345,678.90', '740,740.73', '13,086,419.63', '', '']);
    expect(screen.getByText('共 203 张')).toBeTruthy();
    expect(screen.getAllByTestId('cost-state-tag').map((t) => t.textContent)).toEqual(['待审核', '已作废', '已审核']);
    expect(screen.getByText('已结账')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('完整或部分单号'), { target: { value: ' CB203101 ' } });
    fireEvent.change(screen.getByPlaceholderText('含该成本项的单'), { target: { value: 'RG01' } });
    fireEvent.change(screen.getByPlaceholderText('最小'), { target: { value: '100.5' } });
    fireEvent.change(screen.getByPlaceholderText('最大'), { target: { value: '2000' } });
    await pick(screen.getByTestId('cost-filter-state').closest('.ant-select') as HTMLElement, '已审核');
    await pick(screen.getByTestId('cost-project-select').closest('.ant-select') as HTMLElement, 'XM002 滨江大道');
    await pick(screen.getByTestId('cost-dept-select').closest('.ant-select') as HTMLElement, '工程一部');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    const body = { orderNo: 'CB203101', itemCode: 'RG01', amountMin: 10050, amountMax: 200000, state: 1, projectId: 'p2', deptId: 'd1' };
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ ...body, pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/cost-order/export', body));
  });

  it('a column header sorts on the server; the export keeps the sort', async () => {
    list.mockResolvedValue(page([row(1)]));
    show();
    await screen.findByText('CB2031010001');
    fireEvent.click(screen.getByRole('columnheader', { name: /价税合计/ }));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 20, sort: { field: 'total', order: 'ascend' } }));
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/cost-order/export', { sort: { field: 'total', order: 'ascend' } }));
  });

  it('编辑 opens the order awaiting audit with its lines priced for its month and saves it by id', async () => {
    list.mockResolvedValue(page([row(1)]));
    priceOptions.mockResolvedValue([price({ itemCode: 'RG01', itemName: '普工', unit: '工日', unitPrice: '320', taxRate: '0.06' })]);
    const line = { id: 'l1', lineNo: 1, itemCode: 'RG01', itemName: '普工', category: 'labour', spec: '', unit: '工日', quantity: '10', unitPrice: '300', taxRate: '0.06', amount: 3000_00, tax: 180_00, priceId: 'w1', priceFrom: '2031-01-01', priceTo: null, currentPrice: '320', remark: '夜班' };
    detail.mockResolvedValue({ ...row(1), remark: '一月', pmsRef: '', lines: [line], logs: [], previous: null, can: { edit: true, reprice: true, audit: false, invalidate: false } });
    save.mockResolvedValue({ code: 20000, r: { id: 'o1', orderNo: 'CB2031010001' } });
    show();
    fireEvent.click(await screen.findByTestId('cost-row-edit'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(priceOptions).toHaveBeenCalledWith({ month: '2031-01' }));
    // Saving prices the order again for its month: the editor shows what will be stored (10 × 320).
    await waitFor(() => expect(within(dialog).getByTestId('cost-line-amount-0').textContent).toBe('3,200.00'));
    expect(within(dialog).getByTestId('cost-project-select').closest('.ant-select')!.textContent).toContain('XM001 江北新区管廊');
    fireEvent.change(within(dialog).getByTestId('cost-line-quantity-0'), { target: { value: '12.5' } });
    fireEvent.click(within(dialog).getByTestId('cost-editor-save'));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]![0]).toEqual({ id: 'o1', month: '2031-01', deptId: 'd1', projectId: 'p1', remark: '一月', lines: [{ itemCode: 'RG01', spec: '', unit: '工日', quantity: '12.5', remark: '夜班' }] });
  });

  it('roles 18 and 19 read only: no entry buttons on the page or the rows', async () => {
    useSession.setState({ roles: ['18'] } as never);
    list.mockResolvedValue(page([row(1)]));
    show();
    await screen.findByText('CB2031010001');
    for (const id of ['cost-new', 'cost-copy', 'cost-import', 'cost-pms', 'cost-row-edit', 'cost-row-reprice']) expect(screen.queryByTestId(id)).toBeNull();
    expect(screen.getByTestId('export-button')).toBeTruthy();
  });

  it('roles 1, 16, 17 enter orders; edit and re-price only for an order awaiting audit in an open month', async () => {
    list.mockResolvedValue(page([row(1), row(2, { state: 1 }), row(3, { closed: true })]));
    show();
    await screen.findByText('CB2031010001');
    for (const id of ['cost-new', 'cost-copy', 'cost-import', 'cost-pms']) expect(screen.getByTestId(id)).toBeTruthy();
    expect(screen.getAllByTestId('cost-row-edit')).toHaveLength(1);
    expect(screen.getAllByTestId('cost-row-reprice')).toHaveLength(1);
  });

  it('the editor computes each line half-up to 分 and totals the rounded lines; saves the body; shows the refusal in place', async () => {
    list.mockResolvedValue(page([]));
    priceOptions.mockResolvedValue([
      price({ id: 'a', itemCode: 'CL01', itemName: '扎带', spec: '200mm', unit: '包', unitPrice: '2.01', taxRate: '0.06' }),
      price({ id: 'b', itemCode: 'JX02', itemName: '挖掘机', spec: '', unit: '台班', unitPrice: '12.3', taxRate: '0.13' }),
    ]);
    show();
    fireEvent.click(await screen.findByTestId('cost-new'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(priceOptions).toHaveBeenCalled());
    expect(priceOptions.mock.calls[0]![0].month).toMatch(/^\d{4}-\d{2}$/);

    await pick(within(dialog).getByTestId('cost-line-item-0').closest('.ant-select') as HTMLElement, 'CL01 扎带 200mm / 包');
    fireEvent.change(within(dialog).getByTestId('cost-line-quantity-0'), { target: { value: '0.5' } });
    // 0.5 × 2.01 = 1.005 元 = 100.5 分 → 101 (binary floating point gives 100.4999… → 100); tax 101 × 6% = 6.06 → 6.
    expect(within(dialog).getByTestId('cost-line-amount-0').textContent).toBe('1.01');
    expect(within(dialog).getByTestId('cost-line-tax-0').textContent).toBe('0.06');

    fireEvent.click(within(dialog).getByTestId('cost-editor-add-line'));
    await pick(within(dialog).getByTestId('cost-line-item-1').closest('.ant-select') as HTMLElement, 'JX02 挖掘机 / 台班');
    fireEvent.change(within(dialog).getByTestId('cost-line-quantity-1'), { target: { value: '2.12345' } });
    expect(within(dialog).getByText('数量须为不超过4位小数的正数')).toBeTruthy();
    expect(within(dialog).queryByTestId('cost-line-amount-1')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('cost-line-quantity-1'), { target: { value: '2.5' } });
    // 2.5 × 12.3 = 30.75 元 = 3075 分; tax 3075 × 13% = 399.75 → 400.
    expect(within(dialog).getByTestId('cost-line-amount-1').textContent).toBe('30.75');
    expect(within(dialog).getByTestId('cost-line-tax-1').textContent).toBe('4.00');
    expect(cellsOf(within(dialog).getByTestId('cost-editor-totals'))).toEqual(['合计（2 行），价税合计 35.82', '31.76', '4.06', '']);

    // Department and project missing: nothing is sent.
    fireEvent.click(within(dialog).getByTestId('cost-editor-save'));
    expect(await within(dialog).findByText('请选择部门')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();

    await pick(within(dialog).getByTestId('cost-dept-select').closest('.ant-select') as HTMLElement, '工程一部');
    await pick(within(dialog).getByTestId('cost-project-select').closest('.ant-select') as HTMLElement, 'XM001 江北新区管廊');
    save.mockRejectedValueOnce(new ApiError('business', '该部门该项目2031-01已有成本单 CB2031010007', { code: 30000 }));
    fireEvent.click(within(dialog).getByTestId('cost-editor-save'));
    expect((await within(dialog).findByTestId('cost-editor-error')).textContent).toContain('该部门该项目2031-01已有成本单 CB2031010007');
    const sent = save.mock.calls[0]![0];
    expect(sent).toEqual({
      month: priceOptions.mock.calls[0]![0].month, deptId: 'd1', projectId: 'p1',
      lines: [{ itemCode: 'CL01', spec: '200mm', unit: '包', quantity: '0.5' }, { itemCode: 'JX02', spec: '', unit: '台班', quantity: '2.5' }],
    });
    expect(save.mock.calls[0]![1]).toEqual({ silent: true });

    save.mockResolvedValueOnce({ code: 20000, r: { id: 'o9', orderNo: 'CB2031010009' } });
    detail.mockReturnValue(new Promise(() => undefined));
    fireEvent.click(within(dialog).getByTestId('cost-editor-save'));
    await waitFor(() => expect(screen.queryByTestId('cost-editor-save')).toBeNull());
    // The new order opens in the detail drawer.
    await waitFor(() => expect(detail).toHaveBeenCalledWith('o9'));
  });

  it('重新取价 asks first and tells how many lines changed', async () => {
    list.mockResolvedValue(page([row(1)]));
    reprice.mockResolvedValue({ code: 20000, r: { id: 'o1', orderNo: 'CB2031010001', changed: 2 } });
    show();
    fireEvent.click(await screen.findByTestId('cost-row-reprice'));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('将按2031年1月价格表中的现行价格重算');
    expect(reprice).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /重新取价/ }));
    await waitFor(() => expect(reprice).toHaveBeenCalledWith('o1'));
    expect(await screen.findByText('已重新取价，2 行价格有变化')).toBeTruthy();
  });

  it('导入Excel shows the per-row result; the template downloads', async () => {
    list.mockResolvedValue(page([]));
    importOrders.mockResolvedValue({ code: 20000, r: { total: 3, succeeded: 2, failed: 1, rows: [
      { row: 2, ok: true, message: '已导入 CB2031010011' },
      { row: 3, ok: true, message: '已导入 CB2031010011' },
      { row: 4, ok: false, message: 'RG09  工日 在2031-01没有有效价格' },
    ] } });
    show();
    fireEvent.click(await screen.findByTestId('cost-import'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('cost-import-template'));
    await waitFor(() => expect(importTemplate).toHaveBeenCalled());
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], '成本单.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })] } });
    await waitFor(() => expect(within(dialog).getByTestId('cost-import-file').textContent).toContain('成本单.xlsx'));
    fireEvent.click(within(dialog).getByTestId('cost-import-run'));
    await waitFor(() => expect(importOrders).toHaveBeenCalledWith({ file: 'UEsDBA==' }, { silent: true }));
    expect((await within(dialog).findByTestId('cost-import-summary')).textContent).toBe('共 3 行，成功 2 行，失败 1 行');
    const rows = within(within(dialog).getByTestId('cost-import-result')).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['2成功已导入 CB2031010011', '3成功已导入 CB2031010011', '4失败RG09  工日 在2031-01没有有效价格']);
  });

  it('导入Excel refused (30000, not one row saved) still lists each row with its reason (issue 27 item 8)', async () => {
    list.mockResolvedValue(page([]));
    const r = { total: 2, succeeded: 0, failed: 2, rows: [{ row: 2, ok: false, message: '部门"不存在的部门"不存在' }, { row: 3, ok: false, message: '请填写月份' }] };
    const message = '2 行均未导入：第2行 部门"不存在的部门"不存在；第3行 请填写月份';
    importOrders.mockRejectedValue(new ApiError('business', message, { code: 30000, status: 400, envelope: { code: 30000, message, r } }));
    show();
    fireEvent.click(await screen.findByTestId('cost-import'));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], '成本单.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })] } });
    await waitFor(() => expect(within(dialog).getByTestId('cost-import-file').textContent).toContain('成本单.xlsx'));
    fireEvent.click(within(dialog).getByTestId('cost-import-run'));
    expect((await within(dialog).findByTestId('cost-import-summary')).textContent).toBe('共 2 行，成功 0 行，失败 2 行');
    const rows = within(within(dialog).getByTestId('cost-import-result')).getAllByRole('row').slice(1).map((x) => x.textContent);
    expect(rows).toEqual(['2失败部门"不存在的部门"不存在', '3失败请填写月份']);
  });

  it('同步项目管理系统 shows created, skipped and the failures', async () => {
    list.mockResolvedValue(page([]));
    pmsSync.mockResolvedValue({ code: 20000, r: { created: 5, skipped: 2, failed: [{ ref: 'PMS-0042', message: '项目编码 XM404 不存在' }] } });
    show();
    fireEvent.click(await screen.findByTestId('cost-pms'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('cost-pms-run'));
    const result = await within(dialog).findByTestId('cost-pms-result');
    expect(pmsSync.mock.calls[0]![0].month).toMatch(/^\d{4}-\d{2}$/);
    expect(result.textContent).toContain('新增5 张');
    expect(result.textContent).toContain('跳过（已同步）2 张');
    expect(result.textContent).toContain('PMS-0042项目编码 XM404 不存在');
  });

  it('the detail drawer shows where each price came from, a changed list price, the previous month and the log', async () => {
    list.mockResolvedValue(page([row(1)]));
    const line = { id: 'l1', lineNo: 1, itemCode: 'RG01', itemName: '普工', category: 'labour', spec: '', unit: '工日', quantity: '10', unitPrice: '300', taxRate: '0.06', amount: 3000_00, tax: 180_00, priceId: 'w1', priceFrom: '2031-01-01', priceTo: '2031-06-30', currentPrice: '320', remark: '' };
    detail.mockResolvedValue({
      ...row(1, { month: '2031-02', amount: 3500_00, tax: 200_00, total: 3700_00 }), remark: '二月人工', pmsRef: '',
      lines: [line, { ...line, id: 'l2', lineNo: 2, itemCode: 'CL01', itemName: '扎带', category: 'material', unitPrice: '5', amount: 500_00, tax: 20_00, priceFrom: '2030-07-01', priceTo: null, currentPrice: null }],
      logs: [{ action: 'create', message: '新增成本单', userName: '张三', createdAt: '2031-02-03T01:00:00.000Z' }],
      previous: { id: 'o0', orderNo: 'CB2031010099', amount: 3000_00, tax: 180_00, total: 3180_00, lines: [{ ...line, id: 'pl1' }] },
      can: { edit: true, reprice: true, audit: false, invalidate: false },
    });
    show();
    fireEvent.click(await screen.findByTestId('cost-detail-link'));
    const drawer = await screen.findByTestId('cost-detail-drawer');
    await within(drawer).findByTestId('cost-detail-lines');
    expect(detail).toHaveBeenCalledWith('o1');
    expect(within(drawer).getAllByTestId('cost-line-window').map((w) => w.textContent)).toEqual(['2031-01-01 至 2031-06-30', '2030-07-01 起长期有效']);
    expect(within(drawer).getAllByTestId('cost-line-current-price').map((t) => t.textContent)).toEqual(['现价 320.00']);
    const prev = within(drawer).getByTestId('cost-previous');
    expect(prev.textContent).toContain('CB2031010099');
    expect(within(drawer).getByTestId('cost-previous-diff').textContent).toBe('增加 520.00');
    expect(drawer.textContent).toContain('与上月对比');
    expect(within(drawer).getByTestId('cost-order-logs').textContent).toContain('新增成本单');
    expect(within(drawer).getByTestId('cost-detail-edit')).toBeTruthy();
  });

  it('the drawer says so when last month has no order, and hides entry for role 19', async () => {
    useSession.setState({ roles: ['19'] } as never);
    list.mockResolvedValue(page([row(1)]));
    detail.mockResolvedValue({ ...row(1), remark: '', pmsRef: 'PMS-1', lines: [], logs: [], previous: null, can: { edit: true, reprice: true, audit: false, invalidate: false } });
    show();
    fireEvent.click(await screen.findByTestId('cost-detail-link'));
    const drawer = await screen.findByTestId('cost-detail-drawer');
    expect((await within(drawer).findByTestId('cost-previous-empty')).textContent).toContain('上月（2030年12月）该部门该项目没有成本单');
    expect(within(drawer).queryByTestId('cost-detail-edit')).toBeNull();
    expect(within(drawer).queryByTestId('cost-detail-reprice')).toBeNull();
  });
});
