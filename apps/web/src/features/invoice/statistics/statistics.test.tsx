import '../../../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ContractStatisticsRow, ProjectMonthRow, StatisticsPage, TempInvoiceRow } from '@zhyy/shared';
import type { ContractStatisticsPage } from '../../../api/invoiceApportionment';

const contracts = vi.fn<(p: Record<string, unknown>) => Promise<ContractStatisticsPage>>();
const apportionment = vi.fn<(p: Record<string, unknown>) => Promise<StatisticsPage<ProjectMonthRow>>>();
const tempProject = vi.fn<(p: Record<string, unknown>) => Promise<StatisticsPage<TempInvoiceRow>>>();
const blob = () => Promise.resolve(new Blob());
vi.mock('../../../api/invoiceApportionment', () => ({
  statisticsApi: { contracts, apportionment, tempProject, exportContracts: blob, exportApportionment: blob, exportTempProject: blob },
}));
// ECharts needs a canvas, which jsdom does not have; the chart is not what these tests look at.
vi.mock('../../../components/EChart', () => ({ EChart: () => <div data-testid="stat-chart" /> }));

const { default: ContractStatistics } = await import('./ContractStatistics');
const { default: ApportionmentStatistics } = await import('./ApportionmentStatistics');
const { default: TempProjectInvoice } = await import('./TempProjectInvoice');

function show(page: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>{page}</App>
    </QueryClientProvider>,
  );
}

/** The texts of the 合计 row's cells, in column order. */
async function totalsCells(): Promise<string[]> {
  const row = await screen.findByTestId('stat-totals');
  return within(row).getAllByRole('cell').map((c) => c.textContent ?? '');
}

const contractRow = (i: number, amount: number, invoiced: number): ContractStatisticsRow => ({
  contractId: `c${i}`, contractCode: `HT-${i}`, contractName: `合同${i}`, contractType: 2, projectName: '江北新区项目', customer: '客户',
  contractAmount: amount, invoiceCount: 1, invoiced, remaining: amount - invoiced, percentBp: Math.round((invoiced * 10000) / amount),
});

describe('statistics 合计 row', () => {
  it('合同开票统计 shows the server totals of the filtered set, not the sum of the page', async () => {
    contracts.mockResolvedValue({
      items: [contractRow(1, 10_000_00, 2_500_00), contractRow(2, 5_000_00, 5_000_00)],
      total: 35,
      totals: { contractAmount: 123_456_789_00, amountIncl: 61_728_394_50, amountExcl: 54_627_000_00, tax: 7_101_394_50, invoiceCount: 80, remaining: 61_728_394_50 },
      chart: [],
    });
    show(<ContractStatistics />);
    await waitFor(() => expect(screen.getByText('HT-1')).toBeTruthy());
    const cells = await totalsCells();
    expect(cells).toEqual(['合计', '', '', '', '123,456,789.00', '61,728,394.50', '61,728,394.50', '50.00%']);
    expect(contracts).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    // Fixed at the bottom: antd renders a fixed summary in its own sticky holder below the body.
    expect(screen.getByTestId('stat-totals').closest('.ant-table-summary')).toBeTruthy();
    // The cards said the same as the row, so they are gone; the row count is in the pagination.
    expect(screen.queryByText('整体开票比例')).toBeNull();
    expect(screen.getByText('共 35 条')).toBeTruthy();
  });

  it('分摊统计 totals the count and the three amounts, negative amounts in red', async () => {
    apportionment.mockResolvedValue({
      items: [{ projectId: 'p1', projectCode: 'XM-01', projectName: '溧水项目', month: '2026-03', invoiceCount: 2, amountExcl: 1000_00, tax: 130_00, amountIncl: 1130_00 }],
      total: 1,
      totals: { invoiceCount: 2, amountExcl: -1000_00, tax: -130_00, amountIncl: -1130_00 },
      chart: [],
    });
    show(<ApportionmentStatistics />);
    expect(await totalsCells()).toEqual(['合计', '', '', '2', '-1,000.00', '-130.00', '-1,130.00']);
    const row = screen.getByTestId('stat-totals');
    expect(row.querySelectorAll('.ant-typography-danger')).toHaveLength(3);
  });

  it('临时项目开票 counts invoices in the label and keeps the cards the row cannot carry', async () => {
    tempProject.mockResolvedValue({
      items: [{
        allocationId: 'a1', invoiceId: 'i1', invoiceNo: '26320000000000000001', orderNo: 'O1', kind: 1, colour: 0, buyerName: '购方甲', issueDate: '2026-03-02',
        targetId: 't1', targetCode: 'LS-01', targetName: '临时项目甲', invoiceAmountIncl: 2260_00, amountIncl: 1130_00, amountExcl: 1000_00, tax: 130_00,
      }],
      total: 4,
      totals: { invoiceCount: 3, amountExcl: 8000_00, tax: 1040_00, amountIncl: 9040_00 },
      chart: [],
    });
    show(<TempProjectInvoice />);
    // The unmatched amount comes right after the temporary project (issue 31), so its total is the third cell.
    expect(await totalsCells()).toEqual(['合计（3 张发票）', '', '9,040.00', '', '', '', '']);
    expect(screen.getByText('待匹配税额（元）')).toBeTruthy();
    expect(screen.getByText('1,040.00')).toBeTruthy();
  });

  it('shows no 合计 row when nothing matches', async () => {
    contracts.mockResolvedValue({ items: [], total: 0, totals: { contractAmount: 0, amountIncl: 0, amountExcl: 0, tax: 0, invoiceCount: 0, remaining: 0 }, chart: [] });
    show(<ContractStatistics />);
    await waitFor(() => expect(screen.getByText('没有符合条件的合同')).toBeTruthy());
    expect(screen.queryByTestId('stat-totals')).toBeNull();
  });
});
