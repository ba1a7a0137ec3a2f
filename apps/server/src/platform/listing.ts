/**
 * Helpers every list call shares: `{ pageIndex, pageSize, sort }` to LIMIT/OFFSET and ORDER BY,
 * case-insensitive "contains" filters that behave the same on SQLite and PostgreSQL, and
 * Asia/Shanghai dates for exports and day grouping.
 */
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { PageQuery } from '@zhyy/shared';

/** LIKE pattern for "contains", with %, _ and \ escaped (used with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** lower(column) LIKE '%text%' ESCAPE '\' — the same answer on both engines. */
export function contains(column: Expression<unknown>, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${column}) like ${containsPattern(text)} escape '\\'`;
}

export const offsetOf = (q: Pick<PageQuery, 'pageIndex' | 'pageSize'>) => (q.pageIndex - 1) * q.pageSize;

/** The column to sort by: the requested field when it is allowed, else the default. */
export function sortOf<F extends string, C extends string>(
  sort: PageQuery['sort'],
  columns: Record<F, C>,
  fallback: { column: C; order: 'asc' | 'desc' },
): { column: C; order: 'asc' | 'desc' } {
  if (sort && Object.hasOwn(columns, sort.field)) {
    return { column: columns[sort.field as F], order: sort.order === 'ascend' ? 'asc' : 'desc' };
  }
  return fallback;
}

const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** YYYY-MM-DD HH:mm:ss in Asia/Shanghai (no daylight saving there), '' for null. */
export function shanghaiTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return new Date(t + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The Asia/Shanghai calendar day of an instant, YYYY-MM-DD. */
export function shanghaiDay(at: Date | string = new Date()): string {
  const t = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return new Date(t + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}
