/** 报销台账报表 (issue 15): 报销台账, 部门月度报销汇总 (with the bills behind a cell), 部门月度报销流水. */
import type { ReimbLaundryPage, ReimbLedgerPage, ReimbReportOptions, ReimbSummaryBillsPage, ReimbSummaryView } from '@zhyy/shared';
import { api } from './clients';

type Body = Record<string, unknown>;

export const reimbLedgerApi = {
  options: () => api.post<ReimbReportOptions>('/reimbursement/ledger/options', {}),
  list: (p: Body) => api.post<ReimbLedgerPage>('/reimbursement/ledger/list', p),
  summary: (p: Body) => api.post<ReimbSummaryView>('/reimbursement/summary/view', p),
  summaryBills: (p: Body) => api.post<ReimbSummaryBillsPage>('/reimbursement/summary/bills', p),
  exportSummary: (p: Body) => api.blob('/reimbursement/summary/export', p),
  laundry: (p: Body) => api.post<ReimbLaundryPage>('/reimbursement/laundry/list', p),
};

/** The streamed exports (ExportProgress posts them itself, showing the bytes received). */
export const REIMB_EXPORT_PATHS = { ledger: '/reimbursement/ledger/export', laundry: '/reimbursement/laundry/export' } as const;
