/**
 * The passenger transport deduction of a tax period (issue 14, 计算抵扣): the period's passenger
 * transport documents (income_transport joined to the pool, tickets belonging to the month of their
 * issue date) with their deductible tax, the totals by kind and month, and `transportDeductionTotal`,
 * what the period's deduction statistics add for passenger transport.
 *
 * The 数电 rail and air tickets are not computed: they are ticked (NOT_DIGITAL_TICKET below).
 *
 * Deductible (packages/shared `ticketDeduction`, the same conditions in SQL below for the sums):
 * invoice state 正常, not 异常凭证, the passenger named (tickets; an e-invoice needs none), domestic, and
 * reimbursed — used by a reimbursement (the pool's usage lock, use_kind 'reimbursement') or signed
 * against a reimbursement (the lock of a signing whose document type is 报销单). The tax is the formula's
 * (stored by facts.ts from the shared formulas), rounded half-up to 分.
 */
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  periodDays, periodsBetween, ticketDeduction, TransportKind, type TransportFilter, type TransportKindCode, type TransportKindTotal, type TransportPage, type TransportQuery,
  type TransportReasonCode, type TransportRow, type TransportSummary, type TransportSummaryQuery, type TransportTotals,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import '../signing/tables.js';
import './tables.js';

type Db = Kysely<Database>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = SelectQueryBuilder<any, any, any>;

/** Used by a reimbursement, or signed against one (the signing's lock, still held or closed). */
export const REIMBURSED = sql<SqlBool>`(p.usage in (1, 2) and (p.use_kind = 'reimbursement' or (p.use_kind = 'sign' and exists (select 1 from income_signings s where s.invoice_id = p.id and s.state = 'signed' and s.doc_type = 'reimbursement' and s.doc_no = p.doc_no))))`;

/** Each reason's own condition, in the order ticketDeduction checks them (the first that applies is the reason). */
const REASON_SQL: Array<[TransportReasonCode, RawBuilder<SqlBool>]> = [
  ['notNormal', sql<SqlBool>`p.invoice_state <> 0`],
  ['abnormalVoucher', sql<SqlBool>`p.risk_level = '02'`],
  ['noPassenger', sql<SqlBool>`(t.transport_kind <> 'einvoice' and t.passenger_name = '')`],
  ['international', sql<SqlBool>`t.international = 1`],
  ['notReimbursed', sql<SqlBool>`not ${REIMBURSED}`],
];
/** Not refused for any reason. */
export const DEDUCTIBLE = sql<SqlBool>`(not (${sql.join(REASON_SQL.map(([, c]) => c), sql` or `)}))`;
/** The reason `code` is the first that applies. */
function reasonSql(code: TransportReasonCode): RawBuilder<SqlBool> {
  const at = REASON_SQL.findIndex(([c]) => c === code);
  const before = REASON_SQL.slice(0, at).map(([, c]) => sql`not ${c}`);
  return sql<SqlBool>`(${sql.join([...before, REASON_SQL[at]![1]], sql` and `)})`;
}

/**
 * 数电 railway e-tickets (公告2024年第8号) and 数电 air itineraries (公告2024年第9号) — rail / air with a
 * 20-digit number, shared isDigitalTicket — state their tax and are ticked on the platform like a 专票
 * (deduction/): the formula of 公告2019年第39号 is for the paper ones, so the computation leaves them out.
 */
export const NOT_DIGITAL_TICKET = sql<SqlBool>`not (p.kind in ('rail', 'air') and p.digital_no <> '')`;

const base = (db: Db) => db.selectFrom('income_transport as t').innerJoin('income_invoices as p', 'p.id', 't.invoice_id').where(NOT_DIGITAL_TICKET);

/** The documents of a range of issue days, with the list's filters. */
function filtered<T extends Q>(q: T, f: Partial<TransportFilter> & { from: string; to: string }): T {
  let r = q.where('p.issue_date', '>=', f.from).where('p.issue_date', '<=', f.to) as T;
  if (f.transportKind !== undefined) r = r.where('t.transport_kind', '=', String(f.transportKind)) as T;
  if (f.passengerName) r = r.where(contains(sql.ref('t.passenger_name'), f.passengerName)) as T;
  if (f.sellerName) r = r.where(contains(sql.ref('p.seller_name'), f.sellerName)) as T;
  if (f.deductible === true) r = r.where(DEDUCTIBLE) as T;
  if (f.deductible === false) r = r.where(sql<SqlBool>`not ${DEDUCTIBLE}`) as T;
  if (f.reason !== undefined) r = r.where(reasonSql(f.reason as TransportReasonCode)) as T;
  return r;
}

const SORTS = { issueDate: 'p.issue_date', amountIncl: 'p.amount_incl', basis: 't.basis', tax: 't.formula_tax', passengerName: 't.passenger_name', sellerName: 'p.seller_name' } as const;
const sortFor = (f: Pick<TransportFilter, 'sort'>) => sortOf(f.sort, SORTS, { column: 'p.issue_date', order: 'desc' });

const columns = [
  'p.id', 'p.kind', 'p.invoice_code', 'p.invoice_no', 'p.digital_no', 'p.issue_date', 'p.seller_name', 'p.amount_incl', 'p.tax', 'p.invoice_state', 'p.risk_level', 'p.use_kind', 'p.doc_no',
  't.transport_kind', 't.passenger_name', 't.travel_date', 't.international', 't.fare', 't.fuel', 't.basis', 't.formula_tax',
] as const;

interface RawRow {
  id: string; kind: string; invoice_code: string; invoice_no: string; digital_no: string; issue_date: string; seller_name: string; amount_incl: number; tax: number;
  invoice_state: number; risk_level: string; use_kind: string; doc_no: string; transport_kind: string; passenger_name: string; travel_date: string; international: number;
  fare: number; fuel: number; basis: number; formula_tax: number; reimbursed: number;
}

/** One document with its deduction: the shared rule decides, from what the pool holds. */
export function toTransportRow(r: RawRow): TransportRow {
  const kind = r.transport_kind as TransportKindCode;
  const d = ticketDeduction({
    kind, basis: Number(r.basis), passengerName: r.passenger_name, international: Number(r.international) === 1, reimbursed: Number(r.reimbursed) === 1,
    invoiceState: Number(r.invoice_state), riskLevel: r.risk_level,
  });
  return {
    id: r.id, kind: r.kind, transportKind: kind, invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, digitalNo: r.digital_no, issueDate: r.issue_date, sellerName: r.seller_name,
    passengerName: r.passenger_name, travelDate: r.travel_date, international: Number(r.international) === 1, amountIncl: Number(r.amount_incl), printedTax: Number(r.tax),
    fare: Number(r.fare), fuel: Number(r.fuel), basis: d.basis, formula: d.formula, formulaTax: d.formulaTax, deductible: d.deductible, tax: d.tax, reason: d.reason,
    reimbursed: Number(r.reimbursed) === 1, useKind: r.use_kind, docNo: r.doc_no,
  };
}

const rowsQuery = (db: Db) => base(db).select([...columns, sql<number>`case when ${REIMBURSED} then 1 else 0 end`.as('reimbursed')]);

const deductibleSums = [
  sql<number>`count(*)`.as('n'),
  sql<number>`coalesce(sum(case when ${DEDUCTIBLE} then 1 else 0 end), 0)`.as('dn'),
  sql<number>`coalesce(sum(case when ${DEDUCTIBLE} then t.basis else 0 end), 0)`.as('basis'),
  sql<number>`coalesce(sum(case when ${DEDUCTIBLE} then t.formula_tax else 0 end), 0)`.as('tax'),
] as const;

/** The deductible documents by kind, every kind listed (zeros included), in TransportKind's order. */
function kindTotals(rows: Array<{ transport_kind: string; dn: number; basis: number; tax: number }>): TransportKindTotal[] {
  return TransportKind.values.map((k) => {
    const r = rows.find((x) => x.transport_kind === k);
    return { transportKind: k, count: Number(r?.dn ?? 0), basis: Number(r?.basis ?? 0), tax: Number(r?.tax ?? 0) };
  });
}

export async function transportPage(db: Db, q: TransportQuery): Promise<TransportPage> {
  const range = { ...q, ...periodDays(q.period) };
  const s = sortFor(q);
  const [rows, totals, kinds] = await Promise.all([
    filtered(rowsQuery(db), range).orderBy(s.column, s.order).orderBy('p.id', s.order).limit(q.pageSize).offset(offsetOf(q)).execute(),
    filtered(base(db), range).select(deductibleSums).executeTakeFirstOrThrow(),
    filtered(base(db), range).select(['t.transport_kind', ...deductibleSums]).groupBy('t.transport_kind').execute(),
  ]);
  const t: TransportTotals = { count: Number(totals.n), deductibleCount: Number(totals.dn), basis: Number(totals.basis), tax: Number(totals.tax) };
  return { items: (rows as unknown as RawRow[]).map(toTransportRow), total: t.count, totals: t, byKind: kindTotals(kinds) };
}

/** Every document of the filter, page by page (the export; a period is one month, so offsets stay small). */
export async function* transportBatches(db: Db, f: TransportFilter, size = 1000): AsyncIterable<TransportRow[]> {
  const range = { ...f, ...periodDays(f.period) };
  const s = sortFor(f);
  for (let offset = 0; ; offset += size) {
    const rows = (await filtered(rowsQuery(db), range).orderBy(s.column, s.order).orderBy('p.id', s.order).limit(size).offset(offset).execute()) as unknown as RawRow[];
    if (rows.length) yield rows.map(toTransportRow);
    if (rows.length < size) return;
  }
}

export async function transportCount(db: Db, f: TransportFilter): Promise<number> {
  const r = await filtered(base(db), { ...f, ...periodDays(f.period) }).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The deductible tax by month and kind for a range of periods (the chart and the table by month). */
export async function transportSummary(db: Db, q: TransportSummaryQuery): Promise<TransportSummary> {
  const from = periodDays(q.fromPeriod).from;
  const to = periodDays(q.toPeriod).to;
  const month = sql<string>`substr(p.issue_date, 1, 7)`;
  const rows = await base(db)
    .where('p.issue_date', '>=', from)
    .where('p.issue_date', '<=', to)
    .where(DEDUCTIBLE)
    .select([month.as('month'), 't.transport_kind', sql<number>`count(*)`.as('dn'), sql<number>`coalesce(sum(t.basis), 0)`.as('basis'), sql<number>`coalesce(sum(t.formula_tax), 0)`.as('tax')])
    .groupBy([month, 't.transport_kind'])
    .execute();
  const months = periodsBetween(q.fromPeriod, q.toPeriod).map((period) => {
    const byKind = kindTotals(rows.filter((r) => r.month.replace('-', '') === period));
    return { period, count: byKind.reduce((a, k) => a + k.count, 0), basis: byKind.reduce((a, k) => a + k.basis, 0), tax: byKind.reduce((a, k) => a + k.tax, 0), byKind };
  });
  const byKind = kindTotals(TransportKind.values.map((k) => {
    const of = rows.filter((r) => r.transport_kind === k);
    return { transport_kind: k, dn: of.reduce((a, r) => a + Number(r.dn), 0), basis: of.reduce((a, r) => a + Number(r.basis), 0), tax: of.reduce((a, r) => a + Number(r.tax), 0) };
  }));
  return {
    months,
    byKind,
    total: { count: months.reduce((a, m) => a + m.count, 0), basis: months.reduce((a, m) => a + m.basis, 0), tax: months.reduce((a, m) => a + m.tax, 0) },
  };
}

/**
 * The passenger transport deduction of a tax period (YYYYMM): the count, basis and tax of its deductible
 * documents, in total and by kind. The period's deduction statistics (issue 14, deduction/statistic)
 * add this to the ticked invoices' tax.
 */
export async function transportDeductionTotal(db: Db, period: string): Promise<{ period: string; count: number; basis: number; tax: number; byKind: TransportKindTotal[] }> {
  const s = await transportSummary(db, { fromPeriod: period, toPeriod: period });
  const m = s.months[0]!;
  return { period, count: m.count, basis: m.basis, tax: m.tax, byKind: m.byKind };
}
