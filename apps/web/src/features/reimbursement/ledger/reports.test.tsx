/**
 * 报销台账报表 (issue 15) on the web: 报销台账 (rows link to the bill, the 合计 row is the server's totals of
 * the filtered set, filters become the request, export of bills or lines), 部门月度报销汇总 (pivot by month
 * or category with totals, a click lists the bills behind the figure, the chart's stacks), 部门月度报销流水
 * (opened with ?month&deptId from the summary, totals row, net of tax).
 */
import '../../../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReimbLaundryPage, ReimbLedgerPage, ReimbLedgerRow, ReimbSummaryBillsPage, ReimbSummaryView } from '@zhyy/shared';
import { ViewContext, type ViewInfo } from '../../../router/view';

const list = vi.fn<(p: Record<string, unknown>) => Promise<ReimbLedgerPage>>();
const summary = vi.fn<(p: Record<string, unknown>) => Promise<ReimbSummaryView>>();
const summaryBills = vi.fn<(p: Record<string, unknown>) => Promise<ReimbSummaryBillsPage>>();
const laundry = vi.fn<(p: Record<string, unknown>) => Promise<ReimbLaundryPage>>();
const exportSummary = vi.fn(() => Promise.resolve(new Blob()));
const download = vi.fn((_path: string, _body: Record<string, unknown>) => Promise.resolve(new Blob()));
vi.mock('../../../api/reimbursementLedger', () => ({
  reimbLedgerApi: {
    options: () => Promise.resolve({ depts: [{ id: 'd1', name: '工程一部' }, { id: 'd2', name: '工程二部' }], categories: [{ code: 'TRAFFIC', name: '差旅-交通' }, { code: 'HOTEL', name: '差旅-住宿' }] }),
    list, summary, summaryBills, exportSummary, laundry,
  },
  REIMB_EXPORT_PATHS: { ledger: '/reimbursement/ledger/export', laundry: '/reimbursement/laundry/export' },
}));
vi.mock('../../../api/invoiceLedger', () => ({ downloadWithProgress: (path: string, body: Record<string, unknown>) => download(path, body) }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));
// ECharts needs a canvas, which jsdom does not have; summaryChart is tested as a function.
vi.mock('../../../components/EChart', () => ({ EChart: () => <div data-testid="summary-chart" /> }));

const { default: LedgerList } = await import('./LedgerList');
const { default: SummaryPage, summaryChart, pivotGroups } = await import('./SummaryPage');
const { default: LaundryPage, toLaundryRequest, laundryInitial } = await import('./LaundryPage');

beforeEach(() => {
  list.mockReset();
  summary.mockReset();
  summaryBills.mockReset();
  laundry.mockReset();
  download.mockClear();
});

function show(page: ReactNode, search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = { path: '/reimbursement/account/laundry', fullPath: '/reimbursement/account/laundry', search, params: {}, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}>
          <App>{page}</App>
        </ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent ?? '');

const bill = (i: number, over: Partial<ReimbLedgerRow> = {}): ReimbLedgerRow => ({
  id: `b${i}`, billNo: `BX20310100${String(i).padStart(2, '0')}`, applicantName: '张三', deptId: 'd1', deptName: '工程一部', projectName: '江北新区', reason: '出差',
  periodFrom: '2031-01-01', periodTo: '2031-01-31', flowState: 3, reimbState: 1, amount: 600_00, approvedAmount: 550_00, tax: 37_30, deductibleTax: 8_26, lineCount: 2,
  categories: '差旅-交通、差旅-住宿', voucherNo: 'JZ-0001', voucherDate: '2031-01-15', submittedAt: '2031-01-09T16:30:00.000Z', approvedAt: null, pushedAt: null, ...over,
});

describe('报销台账', { timeout: 30_000 }, () => {
  it('rows link to the bill; the 合计 row is the server totals of the filtered set, not the page', async () => {
    list.mockResolvedValue({ items: [bill(1), bill(2, { reimbState: null, flowState: 1 })], total: 37, totals: { count: 37, lineCount: 90, amount: 12_345_678_90, approvedAmount: 12_000_000_00, tax: 345_67, deductibleTax: 12_34 } });
    show(<LedgerList />);
    const links = await screen.findAllByTestId('reimb-detail-link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/reimbursement/detail/b1', '/reimbursement/detail/b2']);
    expect(list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    const cells = cellsOf(await screen.findByTestId('reimb-ledger-totals'));
    expect(cells).toEqual(['合计（37 笔）', '', '12,345,678.90', '12,000,000.00', '345.67', '12.34', '', '']);
    expect(screen.getByText('共 37 笔')).toBeTruthy();
    expect(screen.getByText('审批中')).toBeTruthy();
  });

  it('the filters become the request; the export sends the same filters, and withLines when 按明细行导出 is ticked', async () => {
    list.mockResolvedValue({ items: [bill(1)], total: 1, totals: { count: 1, lineCount: 2, amount: 600_00, approvedAmount: 550_00, tax: 37_30, deductibleTax: 8_26 } });
    show(<LedgerList />);
    await screen.findAllByTestId('reimb-detail-link');
    fireEvent.change(screen.getByPlaceholderText('完整或部分单号'), { target: { value: ' BX2031 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ billNo: 'BX2031', pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByTestId('reimb-export-lines'));
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/reimbursement/ledger/export', { billNo: 'BX2031', withLines: true }));
  });
});

const VIEW: ReimbSummaryView = {
  fromMonth: '2031-01', toMonth: '2031-02', months: ['2031-01', '2031-02'],
  categories: [{ code: 'TRAFFIC', name: '差旅-交通' }, { code: 'HOTEL', name: '差旅-住宿' }],
  rows: [
    { deptId: 'd1', deptName: '工程一部', months: [{ amount: 550_00, count: 1 }, { amount: 240_00, count: 1 }], categories: [{ amount: 140_00, count: 2 }, { amount: 650_00, count: 2 }], total: { amount: 790_00, count: 2, lineCount: 4 } },
    { deptId: '', deptName: '未分配部门', months: [{ amount: 0, count: 0 }, { amount: 80_00, count: 1 }], categories: [{ amount: 80_00, count: 1 }, { amount: 0, count: 0 }], total: { amount: 80_00, count: 1, lineCount: 1 } },
  ],
  monthTotals: [{ amount: 550_00, count: 1 }, { amount: 320_00, count: 2 }],
  categoryTotals: [{ amount: 220_00, count: 3 }, { amount: 650_00, count: 2 }],
  total: { amount: 870_00, count: 3, lineCount: 5 },
};

describe('部门月度报销汇总', { timeout: 30_000 }, () => {
  it('the pivot by month with its 合计 row and column; by category on request', async () => {
    summary.mockResolvedValue(VIEW);
    show(<SummaryPage />);
    const totals = await screen.findByTestId('summary-totals');
    expect(cellsOf(totals)).toEqual(['合计', '550.00', '320.00', '870.00', '3']);
    expect(screen.getByTestId('pivot-none-2031-01').textContent).toBe('—');
    const req = summary.mock.calls[0]![0];
    expect(req.fromMonth).toMatch(/^\d{4}-01$/);
    fireEvent.click(screen.getByText('按费用类别'));
    await waitFor(() => expect(cellsOf(screen.getByTestId('summary-totals'))).toEqual(['合计', '220.00', '650.00', '870.00', '5']));
    expect(screen.getByRole('columnheader', { name: '差旅-住宿' })).toBeTruthy();
  });

  it('a click on a figure lists the bills behind it, whose parts add up to it', async () => {
    summary.mockResolvedValue(VIEW);
    summaryBills.mockResolvedValue({
      items: [{ ...bill(1), cellAmount: 550_00, cellLines: 2 }], total: 1, totals: { count: 1, cellAmount: 550_00, cellLines: 2 },
    });
    show(<SummaryPage />);
    fireEvent.click(await screen.findByTestId('pivot-d1-2031-01'));
    await waitFor(() => expect(summaryBills).toHaveBeenCalled());
    expect(summaryBills.mock.calls[0]![0]).toMatchObject({ deptId: 'd1', month: '2031-01', pageIndex: 1, pageSize: 20 });
    expect(summaryBills.mock.calls[0]![0].categoryCode).toBeUndefined();
    const link = await screen.findByTestId('drill-bill-link');
    expect(link.getAttribute('href')).toBe('/reimbursement/detail/b1');
    expect(cellsOf(screen.getByTestId('drill-totals'))).toEqual(['合计（1 笔，2 行）', '550.00']);
    expect(screen.getByTestId('drill-laundry-link').getAttribute('href')).toBe('/reimbursement/account/laundry?month=2031-01&deptId=d1');
  });

  it('a range over two quarters shows one quarter at a time (the latest first) with its 小计; five categories in two groups', async () => {
    const cells = (xs: number[]) => xs.map((amount) => ({ amount, count: amount ? 1 : 0 }));
    const wide: ReimbSummaryView = {
      fromMonth: '2031-02', toMonth: '2031-05', months: ['2031-02', '2031-03', '2031-04', '2031-05'],
      categories: ['差旅-交通', '差旅-住宿', '市内交通', '办公', '通讯'].map((name, i) => ({ code: `C${i}`, name })),
      rows: [{ deptId: 'd1', deptName: '工程一部', months: cells([100_00, 200_00, 300_00, 400_00]), categories: cells([500_00, 0, 0, 200_00, 300_00]), total: { amount: 1000_00, count: 4, lineCount: 6 } }],
      monthTotals: cells([100_00, 200_00, 300_00, 400_00]), categoryTotals: cells([500_00, 0, 0, 200_00, 300_00]), total: { amount: 1000_00, count: 4, lineCount: 6 },
    };
    expect(pivotGroups(wide, 'month').map((g) => [g.label, g.fromMonth, g.toMonth])).toEqual([['2031年第1季度', '2031-02', '2031-03'], ['2031年第2季度', '2031-04', '2031-05']]);
    expect(pivotGroups(wide, 'category').map((g) => g.label)).toEqual(['差旅-交通～办公', '通讯']);
    summary.mockResolvedValue(wide);
    summaryBills.mockResolvedValue({ items: [], total: 0, totals: { count: 0, cellAmount: 0, cellLines: 0 } });
    show(<SummaryPage />);
    await waitFor(() => expect(cellsOf(screen.getByTestId('summary-totals'))).toEqual(['合计', '300.00', '400.00', '700.00', '1,000.00', '4']));
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['部门', '2031-04', '2031-05', '季度小计', '全期合计', '笔数']);
    fireEvent.click(screen.getByText('2031年第1季度'));
    await waitFor(() => expect(cellsOf(screen.getByTestId('summary-totals'))).toEqual(['合计', '100.00', '200.00', '300.00', '1,000.00', '4']));
    // A quarter's 小计 lists the bills of its months.
    fireEvent.click(screen.getByTestId('pivot-d1-subtotal'));
    await waitFor(() => expect(summaryBills).toHaveBeenCalled());
    expect(summaryBills.mock.calls[0]![0]).toMatchObject({ deptId: 'd1', fromMonth: '2031-02', toMonth: '2031-03' });
    expect(summaryBills.mock.calls[0]![0].month).toBeUndefined();
    fireEvent.click(screen.getByText('按费用类别'));
    await waitFor(() => expect(cellsOf(screen.getByTestId('summary-totals'))).toEqual(['合计', '500.00', '—', '—', '200.00', '700.00', '1,000.00', '6']));
    fireEvent.click(screen.getByText('通讯'));
    await waitFor(() => expect(cellsOf(screen.getByTestId('summary-totals'))).toEqual(['合计', '300.00', '300.00', '1,000.00', '6']));
    expect(screen.getByRole('columnheader', { name: '全部类别合计' })).toBeTruthy();
  });

  it('the chart stacks departments per month (or categories per department) with the pivot figures in 元', () => {
    const byMonth = summaryChart(VIEW, 'month') as { xAxis: { data: string[] }; series: Array<{ name: string; stack: string; data: number[] }> };
    expect(byMonth.xAxis.data).toEqual(['2031-01', '2031-02']);
    expect(byMonth.series.map((s) => s.name)).toEqual(['工程一部', '未分配部门']);
    // Each month's stack is that month's total.
    VIEW.months.forEach((_, i) => expect(byMonth.series.reduce((x, s) => x + s.data[i]!, 0)).toBeCloseTo(VIEW.monthTotals[i]!.amount / 100, 6));
    const byCat = summaryChart(VIEW, 'category') as { xAxis: { data: string[] }; series: Array<{ data: number[] }> };
    expect(byCat.xAxis.data).toEqual(['工程一部', '未分配部门']);
    VIEW.rows.forEach((r, i) => expect(byCat.series.reduce((x, s) => x + s.data[i]!, 0)).toBeCloseTo(r.total.amount / 100, 6));
    expect(summaryChart({ ...VIEW, rows: [] }, 'month')).toBeNull();
  });
});

describe('部门月度报销流水', { timeout: 30_000 }, () => {
  it('opened from the summary: the month and department of the address (none = bills without one)', async () => {
    laundry.mockResolvedValue({
      items: [{ id: 'l1', billId: 'b4', billNo: 'BX2031030004', lineNo: 1, voucherNo: 'JZ-4', voucherDate: '2031-03-01', applicantName: '李四', deptName: '', categoryCode: 'OFFICE', categoryName: '办公', expenseDate: '2031-02-10', description: '打印纸', invoiceNumber: '2532', amount: 100_00, approvedAmount: 80_00, tax: 9_20, deductibleTax: 5_00, netAmount: 75_00 }],
      total: 1, totals: { count: 1, amount: 100_00, approvedAmount: 80_00, tax: 9_20, deductibleTax: 5_00, netAmount: 75_00 },
    });
    show(<LaundryPage />, '?month=2031-03&deptId=none');
    const link = await screen.findByTestId('laundry-bill-link');
    expect(link.getAttribute('href')).toBe('/reimbursement/detail/b4');
    expect(laundry).toHaveBeenCalledWith({ month: '2031-03', deptId: '', pageIndex: 1, pageSize: 20 });
    expect(cellsOf(screen.getByTestId('laundry-totals'))).toEqual(['合计（1 行）', '', '100.00', '80.00', '9.20', '5.00', '75.00', '']);
  });

  it('form values to the request', () => {
    expect(toLaundryRequest(laundryInitial('?month=2031-02&deptId=d2&categoryCode=HOTEL'))).toEqual({ month: '2031-02', deptId: 'd2', categoryCode: 'HOTEL' });
    expect(toLaundryRequest(laundryInitial('?month=bad'))).toEqual({ month: expect.stringMatching(/^\d{4}-\d{2}$/) });
  });
});
