/** The abnormal worklist's calls (issue 14): /income/abnormal/… */
import type { AbnormalActionAnswer, AbnormalCaseRow } from '@zhyy/shared';
import { api } from '../../../api/clients';

const P = '/income/abnormal';
export const ABNORMAL_EXPORT = `${P}/export`;
export const ABNORMAL_KEY = ['income', 'abnormal'] as const;
/** Actions answer the refusal inside their dialog (silent: no toast as well). */
const quiet = { silent: true };

export const abnormalApi = {
  list: (body: Record<string, unknown>) => api.post<{ items: AbnormalCaseRow[]; total: number }>(`${P}/list`, body),
  history: (invoiceId: string) => api.post<AbnormalCaseRow[]>(`${P}/history`, { invoiceId }, quiet),
  confirm: (caseId: string, note: string) => api.post<AbnormalActionAnswer>(`${P}/confirm`, { caseId, note }, quiet),
  reject: (caseId: string, note: string) => api.post<AbnormalActionAnswer>(`${P}/reject`, { caseId, note }, quiet),
  correct: (body: { caseId: string; field: string; value: string; note: string }) => api.post<AbnormalActionAnswer>(`${P}/correct`, body, quiet),
  untick: (caseId: string) => api.post<AbnormalActionAnswer>(`${P}/untick`, { caseId }, quiet),
  recheck: (invoiceId: string) => api.post<{ changed: boolean; found: boolean; message: string }>(`${P}/recheck`, { invoiceId }, quiet),
  acceptProposal: (body: { caseId: string; idempotencyKey: string }) => api.post<AbnormalActionAnswer>(`${P}/transfer-proposal`, body, quiet),
  transferOut: (body: { caseId: string; reason: number; amount: number; idempotencyKey: string }) => api.post<AbnormalActionAnswer>(`${P}/transfer-out`, body, quiet),
};
