/**
 * 进项发票编辑 (/invoice-entry/edit/:id, issue 13): upload and recognition of invoice files (one file a call,
 * so the page shows the progress), saving a corrected upload, and the invoice the page opens. All silent:
 * the page shows each failure beside its file or in place of the record.
 */
import type { EntryDetail, PoolArrival, UploadRecogniseBody, UploadRecognition, UploadSaveBody } from '@zhyy/shared';
import { api } from './clients';

export const incomeUploadApi = {
  /** One file recognised: its fields with their sources, the warnings and the form filled (money in 分). */
  recognise: (body: UploadRecogniseBody) => api.post<UploadRecognition>('/income/pool/upload-recognise', body, { silent: true }),
  /** The corrected face with the same file again: into the pool, or merged into the invoice that is there. */
  save: (body: UploadSaveBody) => api.request<PoolArrival>('/income/pool/upload-save', body, { silent: true }),
  /** The invoice edit/<id> opens (the 发票签收 pages' detail: every role of the page may read it). */
  detail: (id: string) => api.post<EntryDetail>('/income/entry/detail', { id }, { silent: true }),
};
