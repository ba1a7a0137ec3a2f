/** Request and response shapes every area reuses. */
import { z } from '../zod-locale.js';

/**
 * C0 control characters other than tab, newline and carriage return. U+0000 in particular cannot be
 * stored by PostgreSQL; none of them belongs in text a person typed.
 */
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
export const CONTROL_CHAR_MESSAGE = '不能包含控制字符';
export const hasControlChar = (v: string): boolean => CONTROL_CHARS.test(v);

/**
 * Every string field of the API starts here: a string without control characters (the error handler
 * names the field: 参数错误：name 不能包含控制字符). Chain .trim()/.max()/... as on text().
 */
export const text = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine((v) => !hasControlChar(v), CONTROL_CHAR_MESSAGE);

const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD naming a day that exists (2026-02-29 and 2026-13-45 do not). */
export function isCalendarDay(v: string): boolean {
  const m = DAY_FORMAT.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const t = new Date(Date.UTC(2000, mo - 1, d));
  t.setUTCFullYear(y);
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

export const INVALID_DAY_MESSAGE = '不是有效的日期';

/** A calendar day, YYYY-MM-DD, that exists: the one date schema every filter and form uses. */
export const isoDay = (formatMessage = '日期格式应为YYYY-MM-DD') =>
  text()
    .regex(DAY_FORMAT, formatMessage)
    .refine((v) => !DAY_FORMAT.test(v) || isCalendarDay(v), INVALID_DAY_MESSAGE);

/** The largest value an integer column holds (PostgreSQL int4): ids and codes compared with one stay below it. */
export const INT_MAX = 2_147_483_647;

/** Lists take { pageIndex, pageSize, sort?, ...filters } and return { items, total } (ARCHITECTURE.md). */
export const PageQuery = z.object({
  pageIndex: z.coerce.number().int().min(1, '页码从1开始').default(1),
  pageSize: z.coerce.number().int().min(1, '每页条数至少为1').max(500, '每页最多500条').default(20),
  sort: z
    .object({ field: text().max(64), order: z.enum(['ascend', 'descend']) })
    .optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface PageResult<T> {
  items: T[];
  total: number;
}

export const IdBody = z.object({ id: text().min(1, '缺少ID').max(64) });
export type IdBody = z.infer<typeof IdBody>;

/** A UUID (the all-zero UUID is the empty id). */
export const Uuid = text().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'ID格式不正确');
