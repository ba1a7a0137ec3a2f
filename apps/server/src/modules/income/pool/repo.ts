/**
 * Reading the pool: one page (offset, in a stable order: the sort column then id) with the total and
 * the sums of the filtered set, every row of a filter in keyset batches (the export), one invoice
 * with everything about it.
 */
import { SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { PoolDetail, PoolFilter, PoolPage, PoolQuery, PoolRow, PoolTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import { offsetOf } from '../../../platform/listing.js';
import { applyPoolFilters, flagsOf, isAbnormal, poolSort, sumsSelect, type Scope } from './filters.js';
import { keysetBatches } from './keyset.js';
import { summaryAnswers, summaryTotals } from './summary.js';
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

/** The filtered set's count and sums: from the summary when it answers the filter, else from the invoices. */
export async function poolTotals(db: Kysely<Database>, f: PoolFilter, scope: Scope): Promise<PoolTotals> {
  return summaryAnswers(f, scope) ? summaryTotals(db, f, scope) : exactTotals(db, f, scope);
}

/** The count and sums straight from the invoices (any filter; the summary's test compares against it). */
export async function exactTotals(db: Kysely<Database>, f: PoolFilter, scope: Scope): Promise<PoolTotals> {
  const r = await applyPoolFilters(base(db), f, scope).select(sumsSelect).executeTakeFirstOrThrow();
  return { count: Number(r.n), amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) };
}

export async function poolPage(db: Kysely<Database>, q: PoolQuery, scope: Scope): Promise<PoolPage> {
  const s = poolSort(q);
  const [rows, totals] = await Promise.all([
    applyPoolFilters(base(db), q, scope).selectAll('p').orderBy(s.column, s.order).orderBy('p.id', s.order).limit(q.pageSize).offset(offsetOf(q)).execute(),
    poolTotals(db, q, scope),
  ]);
  return { items: rows.map(toPoolRow), total: totals.count, totals };
}

/** Every row of the filter in the chosen order, batch by batch after the last key (the export). */
export async function* poolBatches(db: Kysely<Database>, f: PoolFilter, scope: Scope, size = 1000): AsyncIterable<PoolRow[]> {
  for await (const rows of keysetBatches(() => applyPoolFilters(base(db), f, scope), f, size)) yield rows.map(toPoolRow);
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
