/**
 * Issue 16, 月度成本汇总: the default request (the last 12 months, a page of 20 department-months, issue 30),
 * the table's 合计 row is the server's total of all rows, a row expands to its projects (paged by the
 * server) and a project lists its order, the filters become the request, a span over 36 months is refused before sending, the charts get
 * the trend (every month of the range) and the composition, the project filter from the cost pages' project
 * choices, a click on a row lists its orders and leads to 成本单台账 with the same filters, and the export sends
 * the query shown.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shanghaiMonthOf, shiftMonth, type CostSummary } from '@zhyy/shared';

const api = vi.hoisted(() => ({ summary: vi.fn(), summaryProjects: vi.fn(), closeCheck: vi.fn(), list: vi.fn(), exportSummary: vi.fn(), projects: vi.fn(), orgTree: vi.fn() }));
vi.mock('../../../api/cost', () => ({ costOrderApi: api }));
vi.mock('../../../api/system', () => ({ systemApi: { orgTree: api.orgTree } }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));
// ECharts needs a canvas, which jsdom lacks: the options are checked as data.
const charts = vi.hoisted(() => ({ options: new Map<string, unknown>() }));
vi.mock('../../../components/EChart', () => ({
  EChart: ({ option, testId }: { option: unknown; testId?: string }) => {
    charts.options.set(testId ?? '', option);
    return <div data-testid={testId} />;
  },
}));

const { default: SummaryPage } = await import('./SummaryPage');
const { trendChart, compositionChart } = await import('./chart');

configure({ asyncUtilTimeout: 15_000 });

const D1 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0d01';
const P1 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0e01';
const P2 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0e02';
const row = (month: string, amount: number, tax: number, orderCount: number) => ({ month, deptId: D1, deptName: '工程一部', amount, tax, orderCount });

const VIEW: CostSummary = {
  rows: [row('2031-01', 133_333_33, 10_333_33, 1), row('2031-02', 92_345_68, 6_404_94, 2)],
  total: 2,
  byMonth: [{ month: '2031-01', amount: 133_333_33, tax: 10_333_33 }, { month: '2031-02', amount: 92_345_68, tax: 6_404_94 }],
  byCategory: [{ category: 'labour', amount: 180_000_01 }, { category: 'equipment', amount: 33_333_33 }, { category: 'material', amount: 12_345_67 }, { category: 'vehicle', amount: 0 }],
  totals: { amount: 225_679_01, tax: 16_738_27, total: 242_417_28, orderCount: 3 },
  closed: [],
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  charts.options.clear();
  api.summary.mockResolvedValue(VIEW);
  api.summaryProjects.mockResolvedValue({ total: 1, items: [{ projectId: P1, projectCode: 'XM001', projectName: '江北管廊', amount: 133_333_33, tax: 10_333_33, lineCount: 9, categories: [{ category: 'labour', amount: 100_000_00, tax: 6_000_00 }, { category: 'equipment', amount: 33_333_33, tax: 4_333_33 }] }] });
  api.projects.mockResolvedValue([{ id: P1, code: 'XM001', name: '江北管廊' }, { id: P2, code: 'XM002', name: '城西改造' }]);
  api.orgTree.mockResolvedValue([{ id: D1, parentId: null, name: '工程一部', sort: 1, managerId: null, managerName: '', memberCount: 3, totalCount: 3, children: [] }]);
  api.exportSummary.mockResolvedValue(new Blob());
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SummaryPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent ?? '');

describe('月度成本汇总', { timeout: 60_000 }, () => {
  it('asks for the last 12 months; the 合计 row adds up the rows; the charts get the trend and the composition', async () => {
    show();
    const totals = await screen.findByTestId('summary-totals');
    const to = shanghaiMonthOf(new Date());
    expect(api.summary).toHaveBeenCalledWith({ monthFrom: shiftMonth(to, -11), monthTo: to, pageIndex: 1, pageSize: 20 });
    expect(cellsOf(totals)).toEqual(['合计（全部 2 行）', '3', '225,679.01', '16,738.27', '242,417.28']);
    // The server's rows in its order (the first cell is the expand button's).
    const body = screen.getByTestId('summary-totals').closest('table')!.querySelectorAll('tbody tr.ant-table-row');
    expect([...body].map((r) => cellsOf(r as HTMLElement).slice(1))).toEqual([
      ['2031年1月', '工程一部', '1', '133,333.33', '10,333.33', '143,666.66'],
      ['2031年2月', '工程一部', '2', '92,345.68', '6,404.94', '98,750.62'],
    ]);
    await waitFor(() => expect(charts.options.has('summary-trend')).toBe(true));
    const trend = charts.options.get('summary-trend') as { xAxis: { data: string[] }; series: Array<{ name: string; data: number[] }> };
    expect(trend.xAxis.data).toHaveLength(12);
    expect(trend.series.map((s) => s.name)).toEqual(['不含税金额', '价税合计']);
    const composition = charts.options.get('summary-composition') as { series: Array<{ type: string; data: Array<{ name: string; value: number }> }> };
    expect(composition.series[0]!.type).toBe('pie');
    expect(composition.series[0]!.data).toEqual([{ name: '人工', value: 180_000.01 }, { name: '机械设备', value: 33_333.33 }, { name: '材料耗材', value: 12_345.67 }]);
    // Nothing closed in the range: no 结账核验, no check asked for.
    expect(screen.queryByTestId('close-check')).toBeNull();
    expect(api.closeCheck).not.toHaveBeenCalled();
  });

  it('结账核验: the latest closed month is checked (and only it), 已变更 lists the orders that differ; another month on demand', async () => {
    const D2 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0d02';
    const fig = (orderNo: string, amount: number, tax: number) => ({ orderId: `id-${orderNo}`, orderNo, projectCode: 'XM001', projectName: '江北管廊', state: 1, amount, tax, lineCount: 2, digest: 'e'.repeat(64) });
    api.summary.mockResolvedValue({
      ...VIEW,
      closed: [
        { month: '2031-01', deptId: D1, deptName: '工程一部', closedBy: '钱主管', closedAt: '2031-02-10T08:00:00.000Z' },
        { month: '2031-02', deptId: D1, deptName: '工程一部', closedBy: '钱主管', closedAt: '2031-03-10T08:00:00.000Z' },
        { month: '2031-02', deptId: D2, deptName: '工程二部', closedBy: '钱主管', closedAt: '2031-03-10T09:00:00.000Z' },
      ],
    });
    const check = (deptId: string, deptName: string, month: string, holds: boolean | null, differences: unknown = null) => ({
      deptId, deptName, month, closedBy: '钱主管', closedAt: '2031-03-10T08:00:00.000Z', digest: holds === null ? null : 'a'.repeat(64), actual: holds ? 'a'.repeat(64) : 'b'.repeat(64), holds, differences,
    });
    const diff = { added: [], removed: [], changed: [{ before: fig('CB2031020001', 80_000_01, 4_800_00), after: fig('CB2031020001', 80_100_01, 4_806_00), what: ['不含税金额 80000.01 → 80100.01 元', '税额 4800.00 → 4806.00 元'] }], before: { orders: 2, amount: 92_345_68, tax: 6_404_94 }, after: { orders: 2, amount: 92_445_68, tax: 6_410_94 } };
    api.closeCheck.mockImplementation(async ({ month }: { month: string }) =>
      month === '2031-02' ? [check(D1, '工程一部', '2031-02', false, diff), check(D2, '工程二部', '2031-02', null)] : [check(D1, '工程一部', '2031-01', true)]);
    show();
    const card = await screen.findByTestId('close-check');
    await waitFor(() => expect(api.closeCheck).toHaveBeenCalledWith({ month: '2031-02' }));
    expect(api.closeCheck).toHaveBeenCalledTimes(1);
    await within(card).findByText('已变更');
    expect(card.textContent).toContain('2031年2月有 1 个部门的数据与结账时不一致');
    expect(within(card).getByText('无摘要')).toBeTruthy();
    // The table marks the checked month's rows with the result, the other closed month's as 已结账.
    const body = screen.getByTestId('summary-totals').closest('table')!.querySelectorAll('tbody tr.ant-table-row');
    expect([...body].map((r) => cellsOf(r as HTMLElement)[1])).toEqual(['2031年1月已结账', '2031年2月已变更']);
    // The differing order, with both amounts.
    fireEvent.click(within(card).getAllByRole('button', { name: /展开|expand/i })[0]!);
    const shown = await screen.findByTestId(`check-diff-${D1}`);
    const row = within(shown).getByText('CB2031020001').closest('tr')!;
    expect(row.textContent).toContain('80,000.01');
    expect(row.textContent).toContain('80,100.01');
    expect(row.textContent).toContain('不含税金额 80000.01 → 80100.01 元；税额 4800.00 → 4806.00 元');
    // Another month, on demand.
    fireEvent.mouseDown(within(card).getByLabelText('核验月份'));
    fireEvent.click(await screen.findByTitle('2031年1月'));
    await waitFor(() => expect(api.closeCheck).toHaveBeenLastCalledWith({ month: '2031-01' }));
    await within(card).findByText('已核验');
    expect(card.textContent).toContain('2031年1月已结账的数据均与结账时一致');
    expect(api.closeCheck).toHaveBeenCalledTimes(2);
  });

  it('the category filter becomes the request; the export sends the same query', async () => {
    show();
    await screen.findByTestId('summary-totals');
    fireEvent.mouseDown(screen.getByLabelText('费用类别'));
    fireEvent.click(await screen.findByTitle('材料耗材'));
    await waitFor(() => expect(api.summary).toHaveBeenLastCalledWith(expect.objectContaining({ category: 'material' })));
    await waitFor(() => expect((screen.getByTestId('export-button') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(api.exportSummary).toHaveBeenCalledTimes(1));
    const { pageIndex: _i, pageSize: _s, ...shown } = api.summary.mock.calls.at(-1)![0];
    expect(api.exportSummary.mock.calls[0]![0]).toEqual(shown);
  });

  it('the project filter offers the cost pages\' project choices and re-queries with the one chosen', async () => {
    show();
    await screen.findByTestId('summary-totals');
    expect(api.projects).toHaveBeenCalledWith(undefined);
    fireEvent.mouseDown(screen.getByLabelText('项目'));
    fireEvent.click(await screen.findByTitle('XM002 城西改造'));
    await waitFor(() => expect(api.summary).toHaveBeenLastCalledWith(expect.objectContaining({ projectId: P2 })));
  });

  it('a click on a row shows its projects (paged by the server); a project lists its order and leads to the ledger with those filters', async () => {
    api.list.mockResolvedValue({
      items: [{ id: 'o1', orderNo: 'CB2031010003', month: '2031-01', deptId: D1, deptName: '工程一部', projectId: P1, projectCode: 'XM001', projectName: '江北管廊', source: 'pms', state: 1, amount: 133_333_33, tax: 10_333_33, total: 143_666_66, lineCount: 9, invalidReason: '', auditedBy: '王', auditedAt: null, createdBy: '同步', createdAt: '2031-02-01T00:00:00.000Z', closed: true }],
      total: 1, totals: { count: 1, amount: 133_333_33, tax: 10_333_33, total: 143_666_66 },
    });
    show();
    await screen.findByTestId('summary-totals');
    fireEvent.click(screen.getByTestId(`summary-row-2031-01|${D1}`));
    await waitFor(() => expect(api.summaryProjects).toHaveBeenCalledWith({ month: '2031-01', deptId: D1, pageIndex: 1, pageSize: 10 }));
    const project = await screen.findByTestId(`summary-project-${P1}`);
    expect(cellsOf(project)).toEqual(['XM001', '江北管廊', '人工 100,000.00机械设备 33,333.33', '9', '133,333.33', '10,333.33', '143,666.66']);
    fireEvent.click(project);
    await waitFor(() => expect(api.list).toHaveBeenCalledWith({ monthFrom: '2031-01', monthTo: '2031-01', deptId: D1, projectId: P1, pageIndex: 1, pageSize: 20 }));
    expect((await screen.findByTestId('drill-order-link')).getAttribute('href')).toBe('/cost-management/account?orderNo=CB2031010003&monthFrom=2031-01&monthTo=2031-01');
    expect(screen.getByTestId('drill-ledger-link').getAttribute('href')).toBe(`/cost-management/account?monthFrom=2031-01&monthTo=2031-01&deptId=${D1}&projectId=${P1}`);
    expect(cellsOf(screen.getByTestId('drill-totals'))).toEqual(['合计（1 张）', '133,333.33', '10,333.33', '143,666.66']);
  });
});

describe('summary helpers', () => {
  it('the trend has every month of the range (a month without costs at 0); no rows, no chart', () => {
    const t = trendChart(VIEW, '2030-12', '2031-03') as { xAxis: { data: string[] }; series: Array<{ data: number[] }> };
    expect(t.xAxis.data).toEqual(['2030-12', '2031-01', '2031-02', '2031-03']);
    expect(t.series[0]!.data).toEqual([0, 133_333.33, 92_345.68, 0]);
    expect(t.series[1]!.data).toEqual([0, 143_666.66, 98_750.62, 0]);
    expect(trendChart({ ...VIEW, rows: [], total: 0 }, '2031-01', '2031-02')).toBeNull();
    expect(compositionChart({ ...VIEW, byCategory: [] })).toBeNull();
  });
});
