/**
 * The pool's totals from income_pool_days (migration 0024: count and sums per issue day, kind, invoice
 * state, sign state, usage and buyer mismatch, kept exact by triggers in every writing transaction)
 * when the filter uses only those dimensions: the unfiltered list, the 其他 list, a date range, a kind,
 * the invoice/sign/usage states and the waiting-to-sign list. A few thousand summary rows instead of
 * every invoice of the set; any other filter sums the invoices (repo.ts). A seller-name search with only
 * kind and states beside it reads income_pool_sellers (0050: the same keys per seller name, no day).
 */
import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeSignState, IncomeUsage, OTHER_INCOME_KINDS, type PoolFilter, type PoolTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { Planned, Scope } from './filters.js';
import { sellerNameOf } from './search.js';
import './tables.js';

/** The filter fields the summary answers; paging and the sort do not filter. */
const SUMMARISED = new Set(['kind', 'issueFrom', 'issueTo', 'invoiceState', 'signState', 'usage', 'pageIndex', 'pageSize', 'sort']);
const unset = (v: unknown) => v === undefined || v === null || v === '';

/** Whether the summary can answer this filter in this scope ('waiting': the waiting-to-sign list). */
export function summaryAnswers(f: Partial<PoolFilter>, scope: Scope | 'waiting'): boolean {
  if (scope === 'abnormal') return false;
  return Object.entries(f).every(([k, v]) => SUMMARISED.has(k) || unset(v));
}

type EB = ExpressionBuilder<Database & { d: Database['income_pool_days'] }, 'd'>;

/** The same conditions as signing/queries.ts `waiting`, on the summary's columns. */
const waitingDays = (eb: EB) =>
  eb.and([
    eb('d.sign_state', 'in', [IncomeSignState.unsigned, IncomeSignState.failed]),
    eb('d.usage', '=', IncomeUsage.available),
    eb('d.invoice_state', 'not in', [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed]),
    eb('d.buyer_mismatch', '=', 0),
  ]);

/** The badge invoiceEntrySignCount: the waiting-to-sign invoices, from the summary. */
export const signCountQuery = (db: Kysely<Database>) =>
  db.selectFrom('income_pool_days as d').where(waitingDays).select(sql<number>`coalesce(sum(d.n), 0)`.as('n'));

/** The summary rows of a filter summaryAnswers() accepted (the same conditions as applyPoolFilters). */
function daysOf(db: Kysely<Database>, f: Partial<PoolFilter>, scope: Scope | 'waiting') {
  let q = db.selectFrom('income_pool_days as d');
  if (scope === 'other') q = q.where('d.kind', 'in', OTHER_INCOME_KINDS as string[]);
  if (scope === 'waiting') q = q.where(waitingDays);
  if (f.kind !== undefined) q = q.where('d.kind', '=', String(f.kind));
  if (f.issueFrom) q = q.where('d.issue_date', '>=', f.issueFrom);
  if (f.issueTo) q = q.where('d.issue_date', '<=', f.issueTo);
  if (f.invoiceState !== undefined) q = q.where('d.invoice_state', '=', Number(f.invoiceState));
  if (f.signState !== undefined) q = q.where('d.sign_state', '=', Number(f.signState));
  if (f.usage !== undefined) q = q.where('d.usage', '=', Number(f.usage));
  return q;
}

const sums = [
  sql<number>`coalesce(sum(d.n), 0)`.as('n'),
  sql<number>`coalesce(sum(d.amount_excl), 0)`.as('amount_excl'),
  sql<number>`coalesce(sum(d.tax), 0)`.as('tax'),
  sql<number>`coalesce(sum(d.amount_incl), 0)`.as('amount_incl'),
] as const;
type SumRow = { n: unknown; amount_excl: unknown; tax: unknown; amount_incl: unknown };
const toTotals = (r: SumRow): PoolTotals => ({ count: Number(r.n), amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) });

/** Totals of a filter summaryAnswers() accepted. */
export async function summaryTotals(db: Kysely<Database>, f: Partial<PoolFilter>, scope: Scope | 'waiting'): Promise<PoolTotals> {
  return toTotals(await daysOf(db, f, scope).select(sums).executeTakeFirstOrThrow());
}

/**
 * The count per issue day of a filter summaryAnswers() accepted, in the order asked, and the totals:
 * where a deep page of the list in issue-date order starts (repo.ts). The counts read the index
 * income_pool_days_count_idx alone (migration 0053: the key and n), the totals the summary's rows
 * beside them. On PostgreSQL, which sums bigint as numeric (slow per group), the counts as an int sum.
 */
export async function summaryDays(db: Kysely<Database>, f: Partial<PoolFilter>, scope: Scope, order: 'asc' | 'desc'): Promise<{ days: Array<{ day: string; n: number }>; totals: PoolTotals }> {
  const n = db.getExecutor().adapter instanceof PostgresAdapter ? sql<number>`sum(cast(d.n as integer))` : sql<number>`sum(d.n)`;
  const [rows, totals] = await Promise.all([
    daysOf(db, f, scope).select(['d.issue_date', n.as('n')]).groupBy('d.issue_date').orderBy('d.issue_date', order).execute(),
    summaryTotals(db, f, scope),
  ]);
  return { days: rows.map((r) => ({ day: r.issue_date, n: Number(r.n) })).filter((d) => d.n > 0), totals };
}

/** The fields income_pool_sellers answers beside the seller name (no day: it has none). */
const BY_SELLER = new Set(['sellerName', 'sellerNamePlan', 'kind', 'invoiceState', 'signState', 'usage', 'pageIndex', 'pageSize', 'sort']);

/** Whether income_pool_sellers (0050) can answer the totals: a seller-name search with only its other keys. */
export function sellerSummaryAnswers(f: Partial<PoolFilter>, scope: Scope): boolean {
  if (scope === 'abnormal' || !f.sellerName) return false;
  return Object.entries(f).every(([k, v]) => BY_SELLER.has(k) || unset(v));
}

/** Totals of a filter sellerSummaryAnswers() accepted (the same conditions as applyPoolFilters). */
export async function sellerSummaryTotals(db: Kysely<Database>, f: Partial<PoolFilter> & Planned, scope: Scope): Promise<PoolTotals> {
  let q = db.selectFrom('income_pool_sellers as d').where(sellerNameOf(f.sellerName!, f.sellerNamePlan));
  if (scope === 'other') q = q.where('d.kind', 'in', OTHER_INCOME_KINDS as string[]);
  if (f.kind !== undefined) q = q.where('d.kind', '=', String(f.kind));
  if (f.invoiceState !== undefined) q = q.where('d.invoice_state', '=', Number(f.invoiceState));
  if (f.signState !== undefined) q = q.where('d.sign_state', '=', Number(f.signState));
  if (f.usage !== undefined) q = q.where('d.usage', '=', Number(f.usage));
  return toTotals(await q.select(sums).executeTakeFirstOrThrow());
}
