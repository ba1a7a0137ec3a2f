/** /api/invoice apportionment (分摊) and statistics calls (issue 7). */
import type {
  AllocationChangeRow,
  AllocationDim,
  AllocationItem,
  ApportionmentPage,
  ContractStatisticsRow,
  ContractStatisticsTotals,
  ChartPoint,
  InvoiceApportionment,
  PageResult,
  ProjectMonthRow,
  StatisticsPage,
  TargetOption,
  TempInvoiceRow,
} from '@zhyy/shared';
import { api } from './clients';

type Body = Record<string, unknown>;
const ledger = (dim: AllocationDim) => (dim === 'project' ? 'invoice-item-apportionment' : 'contract-apportionment');

export const apportionmentApi = {
  ledger: (dim: AllocationDim, p: Body) => api.post<ApportionmentPage>(`/invoice/${ledger(dim)}/list`, p),
  exportLedger: (dim: AllocationDim, p: Body) => api.blob(`/invoice/${ledger(dim)}/export`, p),
  detail: (invoiceId: string) => api.post<InvoiceApportionment>('/invoice/apportionment/detail', { invoiceId }),
  targets: (dim: AllocationDim, keyword?: string, realOnly?: boolean) => api.post<TargetOption[]>('/invoice/apportionment/targets', { dim, keyword, realOnly }),
  changes: (p: Body) => api.post<PageResult<AllocationChangeRow>>('/invoice/apportionment/changes', p),
  set: (invoiceId: string, dim: AllocationDim, items: AllocationItem[], reason: string) => api.request<void>('/invoice/apportionment/set', { invoiceId, dim, items, reason }),
  move: (dim: AllocationDim, body: { allocationId: string; toTargetId: string; amountIncl: number; reason: string }) =>
    api.request<void>(dim === 'project' ? '/invoice/project-change' : '/invoice/contract-change', body),
};

export type ContractStatisticsPage = PageResult<ContractStatisticsRow> & { totals: ContractStatisticsTotals; chart: ChartPoint[] };

export const statisticsApi = {
  apportionment: (p: Body) => api.post<StatisticsPage<ProjectMonthRow>>('/invoice/apportionment-statistics', p),
  exportApportionment: (p: Body) => api.blob('/invoice/export-apportionment-statistics', p),
  tempProject: (p: Body) => api.post<StatisticsPage<TempInvoiceRow>>('/invoice/temp-project', p),
  exportTempProject: (p: Body) => api.blob('/invoice/export-temp-project', p),
  matchProject: (b: { invoiceId: string; allocationId: string | null; toTargetId: string; reason: string }) => api.request<void>('/invoice/temp-project/match', b),
  contracts: (p: Body) => api.post<ContractStatisticsPage>('/invoice/contract-statistics-list', p),
  exportContracts: (p: Body) => api.blob('/invoice/export-contract-statistics-list', p),
  tempContract: (p: Body) => api.post<StatisticsPage<TempInvoiceRow>>('/invoice/temp-contract-list', p),
  exportTempContract: (p: Body) => api.blob('/invoice/export-temp-contract-list', p),
  matchContract: (b: { invoiceId: string; allocationId: string | null; toTargetId: string; reason: string }) => api.request<void>('/invoice/temp-contract/match', b),
};
