/** Outgoing-invoice calls (issue 6): issuing, retry, cancellation, red-letter, sync log, buyers, settings. */
import type {
  BatchAnswer,
  BuyerRow,
  BuyerSaveBody,
  InvoiceDetail,
  InvoiceRow,
  InvoiceSaveBody,
  InvoiceSettingView,
  InvoiceSyncLogDetail,
  InvoiceSyncLogRow,
  IssueOutcome,
  PageResult,
  RedConfirmDetail,
  RedConfirmRow,
  RedConfirmSaveBody,
  ReferenceRow,
  SettingSaveBody,
  TaxCodeRow,
} from '@zhyy/shared';
import { api } from './clients';
import type { RequestOptions } from './http';
import type { ListParams } from './system';

export type InvoicePage = PageResult<InvoiceRow> & { totals: { amountIncl: number; tax: number } };
export interface BlueCandidate {
  id: string;
  invoiceNo: string;
  digitalNo: string;
  kind: number;
  buyerName: string;
  amountIncl: number;
  tax: number;
  issuedAt: string | null;
}
export interface CreationSetting {
  sellerName: string;
  sellerTaxNo: string;
  clerk: string;
  payee: string;
  checker: string;
  defaultKind: number;
  gatewayMode: string;
  taxCodes: TaxCodeRow[];
}

export const invoiceApi = {
  listForCreation: (p: ListParams) => api.post<InvoicePage>('/invoice/list-for-creation', p),
  listForRetry: (p: ListParams) => api.post<InvoicePage>('/invoice/list-for-retry-creation', p),
  listForCancellation: (p: ListParams) => api.post<InvoicePage>('/invoice/list-for-cancellation', p),
  creationSetting: () => api.post<CreationSetting>('/invoice/creation-setting', {}),
  save: (body: InvoiceSaveBody) => api.request<{ id: string; orderNo: string }>('/invoice/save', body),
  issue: (ids: string[]) => api.request<BatchAnswer>('/invoice/request-billing', { ids }),
  refresh: (ids: string[] = []) => api.request<{ refreshed: number }>('/invoice/request-billing/refresh', { ids }),
  invalidate: (id: string, reason: string) => api.request<unknown>('/invoice/request-billing/is-invalid', { id, reason }),
  retry: (id: string, correction?: InvoiceSaveBody) => api.request<IssueOutcome>('/invoice/retry-creation', { id, correction }),
  cancel: (ids: string[], reason: string) => api.request<BatchAnswer>('/invoice/invoice-cancellation', { ids, reason }),
  cancelRefresh: (ids: string[] = []) => api.request<{ refreshed: number }>('/invoice/invoice-cancellation/refresh', { ids }),
  cancelInvalidate: (id: string, reason: string) => api.request<unknown>('/invoice/invoice-cancellation/is-invalid', { id, reason }),
  detail: (id: string, options?: RequestOptions) => api.post<InvoiceDetail>('/invoice/detail', { id }, options),
  fileLink: (fileId: string) => api.post<{ url: string; name: string; type: string; expiresAt: string }>('/invoice/file-link', { fileId }),
  syncLogs: (p: ListParams) => api.post<PageResult<InvoiceSyncLogRow>>('/invoice/invoice-synclog-details', p),
  syncLogDetail: (id: string) => api.post<InvoiceSyncLogDetail>('/invoice/invoice-synclog-detail', { id }),

  buyers: (p: ListParams) => api.post<PageResult<BuyerRow>>('/invoice/buyer/list', p),
  buyer: (id: string, options?: RequestOptions) => api.post<BuyerRow>('/invoice/buyer/detail', { id }, options),
  saveBuyer: (body: BuyerSaveBody) => api.request<{ id: string }>('/invoice/buyer/save', body),
  deleteBuyer: (id: string) => api.request<unknown>('/invoice/buyer/delete', { id }),
  setting: () => api.post<InvoiceSettingView>('/invoice/setting/get', {}),
  saveSetting: (body: SettingSaveBody) => api.request<InvoiceSettingView>('/invoice/setting/save', body),
  taxCodes: (keyword?: string) => api.post<TaxCodeRow[]>('/invoice/tax-codes', { keyword }),
  projects: (keyword?: string) => api.post<ReferenceRow[]>('/invoice/projects', { keyword }),
  contracts: (keyword?: string, projectId?: string) => api.post<ReferenceRow[]>('/invoice/contracts', { keyword, projectId }),

  redList: (p: ListParams) => api.post<PageResult<RedConfirmRow>>('/invoiceredconfirm/list', p),
  redDetail: (id: number) => api.post<RedConfirmDetail>('/invoiceredconfirm/detail', { id }),
  blueCandidates: (p: ListParams) => api.post<PageResult<BlueCandidate>>('/invoiceredconfirm/blue-candidates', p),
  redCreate: (blueInvoiceId: string) => api.request<{ id: number }>('/invoiceredconfirm/create', { blueInvoiceId }),
  redSave: (body: RedConfirmSaveBody) => api.request<unknown>('/invoiceredconfirm/save', body),
  redApply: (id: number) => api.request<{ state: string }>('/invoiceredconfirm/apply', { id }),
  redConfirm: (id: number) => api.request<{ state: string }>('/invoiceredconfirm/confirm', { id }),
  redRefuse: (id: number, reason: string) => api.request<{ state: string }>('/invoiceredconfirm/refuse', { id, reason }),
  redCancel: (id: number) => api.request<unknown>('/invoiceredconfirm/cancel', { id }),
  redRefresh: () => api.request<{ refreshed: number }>('/invoiceredconfirm/refresh', {}),
};
