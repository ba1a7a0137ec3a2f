/** The incoming-invoice pool (issue 13): 进项票池, 其他票池, 异常票池, one invoice, manual entry. */
import type { CollectTask, PoolArrival, PoolDetail, PoolEntryBody, PoolPage, VerificationRecord, VerifyAnswer } from '@zhyy/shared';
import { api } from './clients';
import type { ListParams } from './system';

/** Which list: every invoice, the other deductible documents, or the abnormal ones. */
export type PoolScope = 'all' | 'other' | 'abnormal';

/** The list and export calls of each scope (docs/income.md, Routes). */
export const POOL_CALLS: Record<PoolScope, { list: string; export: string }> = {
  all: { list: '/income/pool/list', export: '/income/pool/export' },
  other: { list: '/income/pool/other', export: '/income/pool/other-export' },
  abnormal: { list: '/income/pool/abnormal', export: '/income/pool/abnormal-export' },
};

export const incomeApi = {
  page: (scope: PoolScope, p: ListParams) => api.post<PoolPage>(POOL_CALLS[scope].list, p),
  abnormalCount: () => api.post<{ abnormalInvoicePoolCount: number }>('/income/pool/abnormal-count', {}),
  /** Loaded silently: the detail page says itself what went wrong (RecordNotFound). */
  detail: (id: string, options: { silent?: boolean } = {}) => api.post<PoolDetail>('/income/pool/detail', { id }, options),
  verifyHistory: (id: string) => api.post<VerificationRecord[]>('/income/pool/verify-history', { id }),
  /** A 10-minute signed link to one of an invoice's files, for /file/view. */
  fileLink: (fileId: string) => api.post<{ url: string; name: string; type: string; expiresAt: string }>('/income/pool/file-link', { fileId }),
  /** 采集: starts the background task (refusals are shown by the dialog itself). */
  collect: (from: string, to: string) => api.request<CollectTask>('/income/pool/collect', { from, to }, { silent: true }),
  collectProgress: (taskId: string) => api.post<CollectTask>('/income/pool/collect-progress', { taskId }, { silent: true }),
  /** 查验 of 1–50 invoices; each result says itself whether it failed. */
  verify: (ids: string[]) => api.request<VerifyAnswer>('/income/pool/verify', { ids }, { silent: true }),
  save: (body: PoolEntryBody, options: { silent?: boolean } = {}) => api.request<PoolArrival>('/income/pool/save', body, options),
};
