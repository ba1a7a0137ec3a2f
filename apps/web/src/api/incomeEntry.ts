/** 发票签收 (issue 13): the invoices waiting to be signed, signing, the signing records, one invoice (docs/income.md, Routes /api/income/entry/…). */
import type { EntryDetail, PageResult, PoolPage, SignAnswer, SignBody, SigningRow } from '@zhyy/shared';
import { api } from './clients';
import type { ListParams } from './system';

/** Whose waiting invoices: every one (进项发票登记, 签收归档) or the caller's department's (部门签收). */
export type EntryScope = 'all' | 'dept';

const P = '/income/entry';
const CALLS: Record<EntryScope, { list: string; sign: string }> = {
  all: { list: `${P}/list`, sign: `${P}/sign` },
  dept: { list: `${P}/dept/list`, sign: `${P}/dept/sign` },
};

/** The streamed Excel exports (ExportProgress): the waiting invoices (进项发票登记, 签收归档 待签收) and the signing records. */
export const ENTRY_EXPORTS = { waiting: `${P}/export`, signings: `${P}/signings-export` } as const;

export const incomeEntryApi = {
  waiting: (scope: EntryScope, p: ListParams) => api.post<PoolPage>(CALLS[scope].list, p),
  /** Silent: the dialog shows a refusal itself, in the server's words. */
  sign: (scope: EntryScope, body: SignBody) => api.request<SignAnswer>(CALLS[scope].sign, body, { silent: true }),
  signings: (p: ListParams) => api.post<PageResult<SigningRow>>(`${P}/signings`, p),
  /** Loaded silently: the detail page says itself what went wrong (RecordNotFound). */
  detail: (id: string) => api.post<EntryDetail>(`${P}/detail`, { id }, { silent: true }),
};
