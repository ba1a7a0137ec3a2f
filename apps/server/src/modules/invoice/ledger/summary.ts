/**
 * The ledger's totals without scanning the invoices. invoice_ledger_days holds, per issue day, kind,
 * colour, status and source, the count and the sums. It is exact up to its watermark (app_meta):
 * days with an invoice updated since (watermark − OVERLAP) are summed from the invoices themselves
 * (through the updated_at and issue_date indexes), the other days from the summary. A read never
 * writes unless the watermark is older than CONSOLIDATE_MS; then the touched days are recomputed
 * and the watermark moves, under a lock on the app_meta row (one consolidation at a time).
 */
import { sql, type Kysely } from 'kysely';
import { InvoiceStatus, type LedgerFilter, type LedgerSums, type LedgerTotals } from '@zhyy/shared';
import { offThread } from '../../../db/read-pool.js';
import type { Database } from '../../../db/schema.js';
import { nowIso } from '../../../platform/time.js';
import { buyerNameLacks, type BuyerNamePlan } from './search.js';
import { applyFilters, ledgerBase } from './filters.js';

const KEY = 'invoice_ledger_days';
/** A transaction that set updated_at earlier than this before the watermark and committed after it would be missed. */
const OVERLAP_MS = 5 * 60_000;
const CONSOLIDATE_MS = 60_000;
const MAX_TOUCHED = 400;

const NONE: LedgerSums = { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 };
const ZERO: LedgerTotals = { ...NONE, voided: NONE };
const sums = [
  sql<number>`coalesce(sum(i.amount_excl), 0)`.as('amount_excl'),
  sql<number>`coalesce(sum(i.tax), 0)`.as('tax'),
  sql<number>`coalesce(sum(i.amount_incl), 0)`.as('amount_incl'),
] as const;
type SumRow = { voided: unknown; n: unknown; amount_excl: unknown; tax: unknown; amount_incl: unknown };
const toSums = (r: SumRow | undefined): LedgerSums =>
  r ? { count: Number(r.n), amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) } : NONE;
/** Rows grouped by `voided` (1 for 已作废) -> the totals in force and the voided apart. */
const toTotals = (rows: readonly SumRow[]): LedgerTotals => ({
  ...toSums(rows.find((r) => Number(r.voided) !== 1)),
  voided: toSums(rows.find((r) => Number(r.voided) === 1)),
});
const addSums = (a: LedgerSums, b: LedgerSums): LedgerSums => ({ count: a.count + b.count, amountExcl: a.amountExcl + b.amountExcl, tax: a.tax + b.tax, amountIncl: a.amountIncl + b.amountIncl });
const add = (a: LedgerTotals, b: LedgerTotals): LedgerTotals => ({ ...addSums(a, b), voided: addSums(a.voided, b.voided) });
const negSums = (a: LedgerSums): LedgerSums => ({ count: -a.count, amountExcl: -a.amountExcl, tax: -a.tax, amountIncl: -a.amountIncl });
/** a − b: the totals of a set less those of a subset of it. */
export const subtractTotals = (a: LedgerTotals, b: LedgerTotals): LedgerTotals => add(a, { ...negSums(b), voided: negSums(b.voided) });
/** 1 for an invoice no longer in force (已作废), else 0: the totals group by it. */
const voidedOf = (column: 'i.status' | 'd.status') => sql<number>`case when ${sql.ref(column)} = ${sql.lit(InvoiceStatus.cancelled)} then 1 else 0 end`;

/**
 * Totals straight from the invoices (any filter): a scan at worst, so off the request thread on SQLite
 * (db/read-pool.ts). `lacking`: only the invoices whose buyer name does not contain this text.
 */
export const directTotals = offThread('ledger.directTotals', async (db: Kysely<Database>, f: LedgerFilter, days?: string[], lacking?: { text: string; plan?: BuyerNamePlan }): Promise<LedgerTotals> => {
  let q = applyFilters(ledgerBase(db), f, db);
  if (days) q = q.where('i.issue_date', 'in', days);
  if (lacking) q = q.where(buyerNameLacks(lacking.text, lacking.plan));
  const voided = voidedOf('i.status');
  return toTotals(await q.select([voided.as('voided'), sql<number>`count(*)`.as('n'), ...sums]).groupBy(voided).execute());
});

const since = (watermark: string) => new Date(Date.parse(watermark) - OVERLAP_MS).toISOString();

/** More rows updated since the watermark than this: rebuild rather than sum them one by one. */
const MAX_TOUCHED_ROWS = 50_000;

/**
 * The days with an invoice updated since the watermark (minus the overlap), or null when there are too
 * many. The inner LIMIT keeps the query on the updated_at index (a bare DISTINCT may tempt SQLite's
 * planner into walking the issue_date index over every invoice).
 */
async function touchedDays(db: Kysely<Database>, watermark: string): Promise<string[] | null> {
  const recent = db.selectFrom('invoices').select('issue_date').where('updated_at', '>=', since(watermark)).where('issue_date', 'is not', null).limit(MAX_TOUCHED_ROWS + 1);
  const rows = await db.selectFrom(recent.as('t')).select('t.issue_date').execute();
  if (rows.length > MAX_TOUCHED_ROWS) return null;
  return [...new Set(rows.map((r) => r.issue_date!))].sort();
}

/** Recomputes the given days (all when null) from the invoices. */
async function recompute(trx: Kysely<Database>, days: string[] | null): Promise<void> {
  const chunks = days === null ? [null] : Array.from({ length: Math.ceil(days.length / 200) }, (_, k) => days.slice(k * 200, k * 200 + 200));
  for (const chunk of chunks) {
    let del = trx.deleteFrom('invoice_ledger_days');
    if (chunk) del = del.where('issue_date', 'in', chunk);
    await del.execute();
    let q = ledgerBase(trx);
    if (chunk) q = q.where('i.issue_date', 'in', chunk);
    const grouped = q
      .select(['i.issue_date', 'i.kind', 'i.colour', 'i.status', 'i.source', sql<number>`count(*)`.as('n'), ...sums])
      .groupBy(['i.issue_date', 'i.kind', 'i.colour', 'i.status', 'i.source']);
    await trx.insertInto('invoice_ledger_days').columns(['issue_date', 'kind', 'colour', 'status', 'source', 'n', 'amount_excl', 'tax', 'amount_incl']).expression(grouped as never).execute();
  }
}

/** Brings the summary up to date now (the seed CLI calls it after a bulk load; `full` rebuilds it). */
export async function consolidate(db: Kysely<Database>, full = false): Promise<void> {
  await db.insertInto('app_meta').values({ key: KEY, value: '' }).onConflict((oc) => oc.column('key').doNothing()).execute();
  await db.transaction().execute(async (trx) => {
    // The update takes the row lock (PostgreSQL) or the write lock (SQLite) first: one consolidation at a time.
    await trx.updateTable('app_meta').set({ value: sql`value` }).where('key', '=', KEY).execute();
    const at = nowIso();
    const row = await trx.selectFrom('app_meta').select('value').where('key', '=', KEY).executeTakeFirst();
    const mark = row?.value ?? '';
    await recompute(trx, full || !mark ? null : await touchedDays(trx, mark));
    await trx.updateTable('app_meta').set({ value: at }).where('key', '=', KEY).execute();
  });
}

/** Totals of a filter made only of day range, kind, colour, status and source. */
export async function summaryTotals(db: Kysely<Database>, f: LedgerFilter, now = Date.now()): Promise<LedgerTotals> {
  let mark = (await db.selectFrom('app_meta').select('value').where('key', '=', KEY).executeTakeFirst())?.value ?? '';
  let found = mark ? await touchedDays(db, mark) : null;
  if (!mark || !found || now - Date.parse(mark) > CONSOLIDATE_MS || found.length > MAX_TOUCHED) {
    await consolidate(db);
    mark = (await db.selectFrom('app_meta').select('value').where('key', '=', KEY).executeTakeFirstOrThrow()).value;
    found = await touchedDays(db, mark);
  }
  // Still too many right after a consolidation (a bulk change in the last minutes): the invoices answer.
  if (!found) return directTotals(db, f);
  const touched = found.filter((d) => (!f.issueFrom || d >= f.issueFrom) && (!f.issueTo || d <= f.issueTo));
  const voided = voidedOf('d.status');
  let s = db.selectFrom('invoice_ledger_days as d').select([
    voided.as('voided'),
    sql<number>`coalesce(sum(d.n), 0)`.as('n'),
    sql<number>`coalesce(sum(d.amount_excl), 0)`.as('amount_excl'),
    sql<number>`coalesce(sum(d.tax), 0)`.as('tax'),
    sql<number>`coalesce(sum(d.amount_incl), 0)`.as('amount_incl'),
  ]);
  if (f.issueFrom) s = s.where('d.issue_date', '>=', f.issueFrom);
  if (f.issueTo) s = s.where('d.issue_date', '<=', f.issueTo);
  if (f.status !== undefined) s = s.where('d.status', '=', f.status);
  if (f.colour !== undefined) s = s.where('d.colour', '=', f.colour);
  if (f.kind !== undefined) s = s.where('d.kind', '=', f.kind);
  if (f.source !== undefined) s = s.where('d.source', '=', f.source);
  if (touched.length) s = s.where('d.issue_date', 'not in', touched);
  const [fromSummary, fromInvoices] = await Promise.all([s.groupBy(voided).execute().then(toTotals), touched.length ? directTotals(db, f, touched) : Promise.resolve(ZERO)]);
  return add(fromSummary, fromInvoices);
}
