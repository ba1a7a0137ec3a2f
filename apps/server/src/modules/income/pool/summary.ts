/**
 * The pool's totals from income_pool_days (migration 0024: count and sums per issue day, kind, invoice
 * state, sign state, usage and buyer mismatch, kept exact by triggers in every writing transaction)
 * when the filter uses only those dimensions: the unfiltered list, the 其他 list, a date range, a kind,
 * the invoice/sign/usage states and the waiting-to-sign list. A few thousand summary rows instead of
 * every invoice of the set; any other filter sums the invoices (repo.ts).
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeSignState, IncomeUsage, OTHER_INCOME_KINDS, type PoolFilter, type PoolTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { Scope } from './filters.js';
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

/** Totals of a filter summaryAnswers() accepted (the same conditions as applyPoolFilters). */
export async function summaryTotals(db: Kysely<Database>, f: Partial<PoolFilter>, scope: Scope | 'waiting'): Promise<PoolTotals> {
  let q = db.selectFrom('income_pool_days as d');
  if (scope === 'other') q = q.where('d.kind', 'in', OTHER_INCOME_KINDS as string[]);
  if (scope === 'waiting') q = q.where(waitingDays);
  if (f.kind !== undefined) q = q.where('d.kind', '=', String(f.kind));
  if (f.issueFrom) q = q.where('d.issue_date', '>=', f.issueFrom);
  if (f.issueTo) q = q.where('d.issue_date', '<=', f.issueTo);
  if (f.invoiceState !== undefined) q = q.where('d.invoice_state', '=', Number(f.invoiceState));
  if (f.signState !== undefined) q = q.where('d.sign_state', '=', Number(f.signState));
  if (f.usage !== undefined) q = q.where('d.usage', '=', Number(f.usage));
  const r = await q
    .select([
      sql<number>`coalesce(sum(d.n), 0)`.as('n'),
      sql<number>`coalesce(sum(d.amount_excl), 0)`.as('amount_excl'),
      sql<number>`coalesce(sum(d.tax), 0)`.as('tax'),
      sql<number>`coalesce(sum(d.amount_incl), 0)`.as('amount_incl'),
    ])
    .executeTakeFirstOrThrow();
  return { count: Number(r.n), amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) };
}
