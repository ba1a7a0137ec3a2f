/** Shared by the 报销入账 pages: paths, the query key, the state words, who may use the simulated accountant. */
import { canAccessAny, requirementForPages, ReimbState } from '@zhyy/shared';
import { useSession } from '../../../stores/session';

export const REIMB_ACCOUNTING_KEY = ['reimbursement', 'accounting'] as const;
export const APPLY_LIST = '/reimbursement/nuonuo/reimbursement/apply/list';
export const REVOKE_LIST = '/reimbursement/revoke/list';
export const REVOKE_ADD = '/reimbursement/revoke/add';
export const SYNCLOG = '/reimbursement/nuonuo/synclog-details';
export const editPath = (id: string) => `/reimbursement/edit/${id}`;

export const STATE_COLOURS: Record<number, string> = { [-1]: 'processing', 0: 'default', 1: 'success', 2: 'error' };
export const stateText = (s: number | null) => (s === null ? '未审批' : ReimbState.has(s) ? ReimbState.label(s) : String(s));

/** Roles 1 and 12 (the sync log's) may use 模拟会计系统操作 on the revoke page. */
export const useCanSimulate = () => canAccessAny(useSession((s) => s.roles), requirementForPages([SYNCLOG]));

/** A filter form's day range (`days`) → from/to (YYYY-MM-DD), the text fields trimmed. */
export function dayRange(v: Record<string, unknown>): Record<string, unknown> {
  const days = v.days as [{ format: (f: string) => string } | null, { format: (f: string) => string } | null] | null | undefined;
  const trim = (x: unknown) => (typeof x === 'string' ? x.trim() : x);
  return { ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x)])), days: undefined, from: days?.[0]?.format('YYYY-MM-DD'), to: days?.[1]?.format('YYYY-MM-DD') };
}
