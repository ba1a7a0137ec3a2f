/** Shared by the 签收撤销 pages: paths, the query key, who may revoke, the day range of the filters. */
import type { Dayjs } from 'dayjs';
import { canWriteIncomeEntry } from '@zhyy/shared';
import { useSession } from '../../../../stores/session';

export const REVOKE_KEY = ['income', 'entry', 'revoke'] as const;
export const REVOKE_LIST = '/invoice-entry/revoke/list';
export const REVOKE_ADD = '/invoice-entry/revoke/add';

/** Roles 1, 13 and 14 change 发票签收 data; role 16 reads (the server answers it 权限不足). */
export const useCanWriteEntry = () => canWriteIncomeEntry(useSession((s) => s.roles));

/** A filter form's 日期 range (`days`) → from/to (YYYY-MM-DD), the text fields trimmed. */
export function dayRangeRequest(v: Record<string, unknown>): Record<string, unknown> {
  const days = v.days as [Dayjs | null, Dayjs | null] | null | undefined;
  const trim = (x: unknown) => (typeof x === 'string' ? x.trim() : x);
  return { ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x)])), days: undefined, from: days?.[0]?.format('YYYY-MM-DD'), to: days?.[1]?.format('YYYY-MM-DD') };
}
