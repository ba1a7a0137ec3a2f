/**
 * Issue 14, 计算抵扣 (/invoice/calc-deduction/statistic): the period defaults to the current month
 * (Asia/Shanghai), each ticket shows its basis, formula and tax, the 合计 row and the figure carry the
 * server's totals of the whole filtered set, the chart draws the tax by kind in 元, and 查询 sends the
 * filters typed with the period.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransportPage, TransportRow, TransportSummary } from '@zhyy/shared';
import { shanghaiNow } from '../../../utils/time';
import TransportDeduction, { toTransportRequest } from './TransportDeduction';

const page = vi.fn();
const summary = vi.fn();
const charts: Array<{ testId?: string; option: { series: Array<{ data: unknown[] }> } }> = [];
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), transportApi: { page: (...a: unknown[]) => page(...a), summary: (...a: unknown[]) => summary(...a) } }));
vi.mock('../../../components/EChart', () => ({
  EChart: (p: { testId?: string; option: { series: Array<{ data: unknown[] }> } }) => {
    charts.push(p);
    return <div data-testid={p.testId} />;
  },
}));

configure({ asyncUtilTimeout: 15_000 });

const row = (over: Partial<TransportRow> = {}): TransportRow => ({
  id: '00000000-0000-4000-8000-000000000001', kind: 'air', transportKind: 'air', invoiceCode: '', invoiceNo: '', digitalNo: '26329000000000000001', issueDate: '2026-11-03',
  sellerName: '中国东方航空股份有限公司', passengerName: '张伟', travelDate: '2026-11-05', international: false, amountIncl: 110_000, printedTax: 8_670, fare: 100_000, fuel: 5_000,
  basis: 105_000, formula: '(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%', formulaTax: 8_670, deductible: true, tax: 8_670, reason: null, reimbursed: true, useKind: 'reimbursement', docNo: 'BX202611-0001',
  ...over,
});
const kinds = (air: number, rail: number) => [
  { transportKind: 'air', count: air ? 1 : 0, basis: 0, tax: air },
  { transportKind: 'rail', count: rail ? 1 : 0, basis: 0, tax: rail },
  { transportKind: 'road', count: 0, basis: 0, tax: 0 },
  { transportKind: 'einvoice', count: 0, basis: 0, tax: 0 },
];
const PAGE: TransportPage = {
  items: [row(), row({ id: '00000000-0000-4000-8000-000000000002', kind: 'road', transportKind: 'road', digitalNo: '', invoiceNo: 'GL2690001', passengerName: '', basis: 4_500, formula: '票面金额 45.00 ÷ 1.03 × 3%', formulaTax: 131, deductible: false, tax: 0, reason: 'noPassenger' })],
  total: 57,
  totals: { count: 57, deductibleCount: 40, basis: 2_345_678, tax: 193_456 },
  byKind: kinds(150_000, 43_456),
};
const SUMMARY: TransportSummary = {
  months: [{ period: '202611', count: 40, basis: 2_345_678, tax: 193_456, byKind: kinds(150_000, 43_456) }],
  byKind: kinds(150_000, 43_456),
  total: { count: 40, basis: 2_345_678, tax: 193_456 },
};

beforeEach(() => {
  page.mockReset();
  summary.mockReset();
  charts.length = 0;
  summary.mockResolvedValue(SUMMARY);
});

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><TransportDeduction /></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('抵扣测算 (issue 14, passenger transport)', { timeout: 60_000 }, () => {
  it('asks for the current period; each ticket with its formula and tax, the reason when not deductible; the 合计 row and the chart from the server', async () => {
    page.mockResolvedValue(PAGE);
    renderPage();
    const period = shanghaiNow().format('YYYYMM');
    await waitFor(() => expect(page).toHaveBeenCalledWith({ period, pageIndex: 1, pageSize: 20 }));
    const from = shanghaiNow().startOf('month').subtract(11, 'month').format('YYYYMM');
    expect(summary).toHaveBeenCalledWith(from, period);
    const totals = await screen.findByTestId('transport-totals');
    expect(totals.textContent).toContain('合计（57 张，可抵扣 40 张）');
    expect(totals.textContent).toContain('23,456.78');
    expect(totals.textContent).toContain('1,934.56');
    const list = screen.getByTestId('transport-deduction');
    expect(within(list).getByText('(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%')).toBeTruthy();
    expect(within(list).getAllByText('86.70').length).toBeGreaterThanOrEqual(2);
    expect(within(list).getByText('不可抵扣：未注明旅客身份信息')).toBeTruthy();
    expect(within(list).getByText('可抵扣')).toBeTruthy();
    expect(within(list).getAllByText('报销单 BX202611-0001').length).toBe(2);
    expect(screen.getByTestId('transport-tax').textContent).toContain('1,934.56');
    // The bar chart of the tax by kind, in 元.
    await screen.findByTestId('transport-kind-chart');
    const kindChart = charts.filter((c) => c.testId === 'transport-kind-chart').at(-1)!;
    expect(kindChart.option.series[0]!.data.map((x) => (x as { value: number }).value)).toEqual([1500, 434.56, 0, 0]);
    expect(screen.getByTestId('transport-month-chart')).toBeTruthy();
  });

  it('查询 sends the filters typed with the period; an empty period says so and disables the export', async () => {
    page.mockResolvedValueOnce(PAGE);
    page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, deductibleCount: 0, basis: 0, tax: 0 }, byKind: kinds(0, 0) });
    renderPage();
    await screen.findByTestId('transport-totals');
    const list = screen.getByTestId('transport-deduction');
    fireEvent.change(within(list).getByPlaceholderText('旅客姓名，包含即可'), { target: { value: ' 张伟 ' } });
    fireEvent.click(within(list).getByRole('button', { name: /查\s*询/ }));
    const period = shanghaiNow().format('YYYYMM');
    await waitFor(() => expect(page).toHaveBeenLastCalledWith({ period, passengerName: '张伟', pageIndex: 1, pageSize: 20 }));
    expect(await within(list).findByText('本期没有符合条件的旅客运输票据')).toBeTruthy();
    expect(await within(list).findByText('本期没有可抵扣的旅客运输票据')).toBeTruthy();
    expect((within(list).getByTestId('export-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('the filters as the call takes them', () => {
    expect(toTransportRequest({ transportKind: 'rail', passengerName: '  ', sellerName: ' 铁路 ', deductible: 'no', reason: 'notReimbursed' })).toEqual({ transportKind: 'rail', sellerName: '铁路', deductible: false, reason: 'notReimbursed' });
    expect(toTransportRequest({ deductible: 'yes' })).toEqual({ deductible: true });
  });
});
