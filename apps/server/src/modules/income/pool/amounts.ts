/**
 * Where a deep page by amount (incl. tax) starts, from income_pool_amounts (migration 0053: the pool's
 * count per amount bucket and kind, kept exact by triggers). A bucket holds the amounts with the same
 * number of digits and the same first two digits (the whole amount below 10), negated below zero, so
 * its key orders the buckets as the amounts; the page is read from its bucket's end of the amount index
 * (repo.ts), skipping at most one bucket's invoices. Answers the pool, the 其他 list and one kind.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { OTHER_INCOME_KINDS, type PoolFilter } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { Scope } from './filters.js';
import './tables.js';

/** The filter fields the amount buckets answer; paging and the sort do not filter. */
const BY_AMOUNT = new Set(['kind', 'pageIndex', 'pageSize', 'sort']);
const unset = (v: unknown) => v === undefined || v === null || v === '';

/** Whether income_pool_amounts can place a page of this filter in this scope. */
export function amountBucketsAnswer(f: Partial<PoolFilter>, scope: Scope): boolean {
  if (scope === 'abnormal') return false;
  return Object.entries(f).every(([k, v]) => BY_AMOUNT.has(k) || unset(v));
}

/** The lowest and highest amount (分) of a bucket (the inverse of 0053's AMOUNT_KEY). */
export function bucketBounds(key: number): { lo: number; hi: number } {
  const k = Math.abs(key);
  const digits = Math.floor(k / 100);
  const lead = k % 100;
  const p = digits <= 1 ? 1 : 10 ** (digits - 2);
  const lo = lead * p;
  const hi = digits <= 1 ? lead : (lead + 1) * p - 1;
  return key < 0 ? { lo: -hi, hi: -lo } : { lo, hi };
}

/** The buckets of a filter amountBucketsAnswer() accepted, with their counts, in the order asked. */
export async function amountBuckets(db: Kysely<Database>, f: Partial<PoolFilter>, scope: Scope, order: 'asc' | 'desc'): Promise<Array<{ key: number; n: number }>> {
  let q = db.selectFrom('income_pool_amounts as a');
  if (scope === 'other') q = q.where('a.kind', 'in', OTHER_INCOME_KINDS as string[]);
  if (f.kind !== undefined) q = q.where('a.kind', '=', String(f.kind));
  // PostgreSQL sums bigint as numeric (slow per group): an int sum, as summary.ts's count per day.
  const n = db.getExecutor().adapter instanceof PostgresAdapter ? sql<number>`sum(cast(a.n as integer))` : sql<number>`sum(a.n)`;
  const rows = await q.select(['a.amount_key', n.as('n')]).groupBy('a.amount_key').orderBy('a.amount_key', order).execute();
  return rows.map((r) => ({ key: Number(r.amount_key), n: Number(r.n) })).filter((b) => b.n > 0);
}
