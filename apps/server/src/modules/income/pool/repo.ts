/**
 * Reading the pool: one page (in a stable order: the sort column then id) with the total and the sums
 * of the filtered set, every row of a filter in keyset batches (the export), one invoice with
 * everything about it. The page, the totals and the export's batches are long reads at a million
 * invoices: they run through the off-thread reader (db/read-pool.ts, registered here; read-worker.ts
 * loads this module), as the outgoing ledger's do.
 */
import { SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { PoolDetail, PoolFilter, PoolPage, PoolQuery, PoolRow, PoolTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import { readAhead } from '../../../platform/keyset.js';
import { offsetOf } from '../../../platform/listing.js';
import { offThread } from '../../../db/read-pool.js';
import { applyPoolFilters, flagsOf, planFilter, poolSort, sumsSelect, type Planned, type Scope } from './filters.js';
import { amountBuckets, amountBucketsAnswer, bucketBounds } from './amounts.js';
import { keysetBatch, type Key } from './keyset.js';
import { sellerSummaryAnswers, sellerSummaryTotals, summaryAnswers, summaryDays, summaryTotals } from './summary.js';
import type { IncomeInvoiceTable } from './tables.js';
import { displayNo } from '../identity/identity.js';

const base = (db: Kysely<Database>) => db.selectFrom('income_invoices as p');

export function toPoolRow(r: IncomeInvoiceTable): PoolRow {
  return {
    id: r.id, kind: r.kind, invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, digitalNo: r.digital_no, issueDate: r.issue_date,
    sellerName: r.seller_name, sellerTaxNo: r.seller_tax_no, buyerName: r.buyer_name, buyerTaxNo: r.buyer_tax_no,
    amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl), checkCode: r.check_code,
    invoiceState: r.invoice_state, riskLevel: r.risk_level, verifyState: r.verify_state, verifiedAt: r.verified_at, signState: r.sign_state,
    archiveNo: r.archive_no, bookingState: r.booking_state, source: r.source, usage: r.usage, useKind: r.use_kind, docNo: r.doc_no,
    abnormalFlags: flagsOf(r), arrivals: r.arrivals, createdAt: r.created_at, blueInvoiceNo: r.blue_no ?? '',
    statusCheckedAt: r.status_checked_at ?? null, statusFound: r.status_found === null || r.status_found === undefined ? null : Number(r.status_found) === 1,
  };
}

/** The totals of a planned filter: the day summary, the seller summary, else the invoices. */
async function plannedTotals(db: Kysely<Database>, f: PoolFilter & Planned, scope: Scope): Promise<PoolTotals> {
  if (summaryAnswers(f, scope)) return summaryTotals(db, f, scope);
  if (sellerSummaryAnswers(f, scope)) return sellerSummaryTotals(db, f, scope);
  return exactTotals(db, f, scope);
}

/**
 * The filtered set's count and sums with the planned filter (its seller-name search resolved to
 * names), read off the request thread on SQLite (db/read-pool.ts): an export asks for both.
 */
export const poolTotalsPlanned = offThread('pool.totals', async (db: Kysely<Database>, f: PoolFilter, scope: Scope): Promise<{ totals: PoolTotals; filter: PoolFilter & Planned }> => {
  const planned = await planFilter(db, f);
  return { totals: await plannedTotals(db, planned, scope), filter: planned };
});

/** The filtered set's count and sums (off the request thread on SQLite). */
export async function poolTotals(db: Kysely<Database>, f: PoolFilter, scope: Scope): Promise<PoolTotals> {
  return (await poolTotalsPlanned(db, f, scope)).totals;
}

/** The count and sums straight from the invoices (any filter; the summaries' tests compare against it). */
export async function exactTotals(db: Kysely<Database>, f: PoolFilter, scope: Scope): Promise<PoolTotals> {
  const r = await applyPoolFilters(base(db), f, scope).select(sumsSelect).executeTakeFirstOrThrow();
  return { count: Number(r.n), amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) };
}

/** Past this offset a page finds where it starts first (a summary's counts, or the nearer end of the order). */
const DEEP = 1000;
const flip = (o: 'asc' | 'desc') => (o === 'asc' ? 'desc' : 'asc');

/** Where a deep page starts: the rows at or after `value` of the sort column in the page's order, `before` rows ahead of them. */
type Start = { value: string | number; before: number };

/** The group (a day, an amount bucket) holding the offset, in the page's order: where the page starts, or null past the end. */
function startOf<G>(groups: G[], offset: number, n: (g: G) => number, value: (g: G) => string | number): Start | null {
  let before = 0;
  for (const g of groups) {
    if (before + n(g) > offset) return { value: value(g), before };
    before += n(g);
  }
  return null;
}

/**
 * One page and the totals. The page's ids come first (from an index, in the order), then the rows of
 * those ids only. A deep page finds where it starts from a summary's counts when one answers its
 * filter, and is read from there on, skipping at most one group's invoices (page 25,000 of a million
 * costs what page 2 does): in issue-date order the day summary's count per day says which day holds
 * the offset; by amount incl. tax, income_pool_amounts' count per amount bucket (amounts.ts). Any other
 * deep page is read from whichever end of the order is nearer.
 */
async function readPage(db: Kysely<Database>, q: PoolQuery, scope: Scope): Promise<PoolPage> {
  const f = await planFilter(db, q);
  const s = poolSort(f);
  const offset = offsetOf(f);
  const read = async (order: 'asc' | 'desc', skip: number, take: number, from?: string | number) => {
    let ids = applyPoolFilters(base(db), f, scope);
    if (from !== undefined) ids = ids.where(s.column, order === 'desc' ? '<=' : '>=', from);
    const page = ids.select('p.id').orderBy(s.column, order).orderBy('p.id', order).limit(take).offset(skip);
    const rows = await base(db).selectAll('p').where('p.id', 'in', page).orderBy(s.column, s.order).orderBy('p.id', s.order).execute();
    return rows.map(toPoolRow);
  };
  const fromStart = async (start: Promise<Start | null>, totals: Promise<PoolTotals>): Promise<PoolPage> => {
    const [at, t] = await Promise.all([start, totals]);
    const items = at ? await read(s.order, offset - at.before, f.pageSize, at.value) : [];
    return { items, total: t.count, totals: t };
  };
  if (offset < DEEP) {
    const [items, totals] = await Promise.all([read(s.order, offset, f.pageSize), plannedTotals(db, f, scope)]);
    return { items, total: totals.count, totals };
  }
  if (s.column === 'p.issue_date' && summaryAnswers(f, scope)) {
    const summary = summaryDays(db, f, scope, s.order);
    return fromStart(summary.then((x) => startOf(x.days, offset, (d) => d.n, (d) => d.day)), summary.then((x) => x.totals));
  }
  if (s.column === 'p.amount_incl' && amountBucketsAnswer(f, scope)) {
    const buckets = amountBuckets(db, f, scope, s.order);
    const bound = (key: number) => (s.order === 'desc' ? bucketBounds(key).hi : bucketBounds(key).lo);
    return fromStart(buckets.then((bs) => startOf(bs, offset, (b) => b.n, (b) => bound(b.key))), plannedTotals(db, f, scope));
  }
  const totals = await plannedTotals(db, f, scope);
  const total = totals.count;
  if (offset >= total) return { items: [], total, totals };
  const fromEnd = total - offset - f.pageSize;
  const items = fromEnd < offset ? await read(flip(s.order), Math.max(0, fromEnd), f.pageSize + Math.min(0, fromEnd)) : await read(s.order, offset, f.pageSize);
  return { items, total, totals };
}

/** The list's page with its totals: on SQLite read by a worker (db/read-pool.ts), so no request waits for it. */
export const poolPage = offThread('pool.page', readPage);

/** One batch of the export (in a worker on SQLite, and on PostgreSQL where decoding the rows is the cost). */
const exportBatch = offThread('pool.exportBatch', async (db: Kysely<Database>, f: PoolFilter & Planned, scope: Scope, after: Key | null, size: number) => {
  const { rows, last } = await keysetBatch(applyPoolFilters(base(db), f, scope), f, after, size);
  return { rows: rows.map(toPoolRow), last };
}, { postgres: true });

/**
 * Every row of the (planned) filter in the chosen order, batch by batch after the last key (the export).
 * The next batch is asked for before this one is handed over, so it is read while this one is written.
 */
export async function* poolBatches(db: Kysely<Database>, f: PoolFilter & Planned, scope: Scope, size = 1000): AsyncIterable<PoolRow[]> {
  yield* readAhead<PoolRow, Key>((after) => exportBatch(db, f, scope, after, size), size);
}

export async function poolDetail(db: Kysely<Database>, id: string): Promise<PoolDetail> {
  const r = await base(db).selectAll('p').where('p.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('发票不存在');
  const linkCols = ['id', 'invoice_code', 'invoice_no', 'digital_no', 'issue_date', 'amount_incl'] as const;
  const [lines, files, history, uses, blue, reds] = await Promise.all([
    db.selectFrom('income_invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute(),
    db.selectFrom('income_files').selectAll().where('invoice_id', '=', id).orderBy('created_at').execute(),
    db.selectFrom('income_events').selectAll().where('invoice_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200).execute(),
    db.selectFrom('income_locks').selectAll().where('invoice_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
    r.blue_id ? db.selectFrom('income_invoices').select([...linkCols]).where('id', '=', r.blue_id).executeTakeFirst() : undefined,
    db.selectFrom('income_invoices').select([...linkCols]).where('blue_id', '=', id).orderBy('issue_date').orderBy('id').execute(),
  ]);
  const linkOf = (x: { id: string; invoice_code: string; invoice_no: string; digital_no: string; issue_date: string; amount_incl: number }) => ({ id: x.id, number: displayNo(x), issueDate: x.issue_date, amountIncl: Number(x.amount_incl) });
  return {
    ...toPoolRow(r),
    remark: r.remark,
    lines: lines.map((l) => ({ lineNo: l.line_no, name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unit_price, amount: Number(l.amount), taxRate: l.tax_rate, tax: Number(l.tax) })),
    files: files.map((f) => ({ id: f.id, format: f.format, name: f.name, size: f.size, sha256: f.sha256, createdAt: f.created_at })),
    history: history.map((h) => ({ id: h.id, kind: h.kind, message: h.message, userName: h.user_name || SYSTEM_ACTOR_NAME, createdAt: h.created_at })),
    uses: uses.map((u) => ({ id: u.id, useKind: u.use_kind, docNo: u.doc_no, state: u.state, createdAt: u.created_at, endedAt: u.ended_at })),
    blue: blue ? linkOf(blue) : null,
    reds: reds.map(linkOf),
  };
}
