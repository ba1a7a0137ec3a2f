/**
 * Reading 报销台账: one page through a deferred join (the filtered, sorted ids first, then the rows of
 * those ids) and the totals of the filtered set (one aggregate); the export's reads are in
 * export-reads.ts. bigint sums come back as strings on PostgreSQL: every figure passes through Number().
 */
import { sql, type Kysely } from 'kysely';
import type { ReimbLedgerFilter, ReimbLedgerQuery, ReimbLedgerRow, ReimbLedgerTotals, ReimbReportOptions } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf } from '../../../platform/listing.js';
import type { ReimbBillTable } from '../tables.js';
import { applyLedgerFilters, ledgerSort } from './filters.js';

export type BillRecord = Pick<
  ReimbBillTable,
  | 'id' | 'bill_no' | 'applicant_name' | 'dept_id' | 'dept_name' | 'project_name' | 'reason' | 'period_from' | 'period_to' | 'flow_state' | 'reimb_state'
  | 'amount' | 'approved_amount' | 'tax' | 'deductible_tax' | 'line_count' | 'voucher_no' | 'voucher_date' | 'submitted_at' | 'approved_at' | 'pushed_at'
>;

export const BILL_COLUMNS = [
  'b.id', 'b.bill_no', 'b.applicant_name', 'b.dept_id', 'b.dept_name', 'b.project_name', 'b.reason', 'b.period_from', 'b.period_to', 'b.flow_state', 'b.reimb_state',
  'b.amount', 'b.approved_amount', 'b.tax', 'b.deductible_tax', 'b.line_count', 'b.voucher_no', 'b.voucher_date', 'b.submitted_at', 'b.approved_at', 'b.pushed_at',
] as const;

export function toLedgerRow(r: BillRecord, categories: string): ReimbLedgerRow {
  return {
    id: r.id, billNo: r.bill_no, applicantName: r.applicant_name, deptId: r.dept_id, deptName: r.dept_name, projectName: r.project_name, reason: r.reason,
    periodFrom: r.period_from, periodTo: r.period_to, flowState: Number(r.flow_state), reimbState: r.reimb_state === null ? null : Number(r.reimb_state),
    amount: Number(r.amount), approvedAmount: Number(r.approved_amount), tax: Number(r.tax), deductibleTax: Number(r.deductible_tax), lineCount: Number(r.line_count),
    categories, voucherNo: r.voucher_no, voucherDate: r.voucher_date, submittedAt: r.submitted_at, approvedAt: r.approved_at, pushedAt: r.pushed_at,
  };
}

/** The categories of each bill's lines (names in line order, each once), for a page of bills. */
export async function categoriesOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string[]>();
  if (ids.length) {
    const rows = await db.selectFrom('reimb_lines').select(['bill_id', 'category_name']).where('bill_id', 'in', [...ids]).orderBy('bill_id').orderBy('line_no').execute();
    for (const r of rows) {
      const list = out.get(r.bill_id) ?? [];
      if (!list.includes(r.category_name)) list.push(r.category_name);
      out.set(r.bill_id, list);
    }
  }
  return new Map([...out].map(([k, v]) => [k, v.join('、')]));
}

/** Rows of the given bills (any order of `ids`), in the order of `ids`. */
export async function billRows(db: Kysely<Database>, ids: readonly string[]): Promise<ReimbLedgerRow[]> {
  if (!ids.length) return [];
  const [rows, cats] = await Promise.all([db.selectFrom('reimb_bills as b').select([...BILL_COLUMNS]).where('b.id', 'in', [...ids]).execute(), categoriesOf(db, ids)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toLedgerRow(r as BillRecord, cats.get(id) ?? '')] : [];
  });
}

const ZERO: ReimbLedgerTotals = { count: 0, lineCount: 0, amount: 0, approvedAmount: 0, tax: 0, deductibleTax: 0 };

export async function ledgerTotals(db: Kysely<Database>, f: ReimbLedgerFilter): Promise<ReimbLedgerTotals> {
  const r = await applyLedgerFilters(db.selectFrom('reimb_bills as b'), f)
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(b.line_count), 0)`.as('line_count'),
      sql<number>`coalesce(sum(b.amount), 0)`.as('amount'),
      sql<number>`coalesce(sum(b.approved_amount), 0)`.as('approved_amount'),
      sql<number>`coalesce(sum(b.tax), 0)`.as('tax'),
      sql<number>`coalesce(sum(b.deductible_tax), 0)`.as('deductible_tax'),
    ])
    .executeTakeFirst();
  if (!r) return ZERO;
  return { count: Number(r.n), lineCount: Number(r.line_count), amount: Number(r.amount), approvedAmount: Number(r.approved_amount), tax: Number(r.tax), deductibleTax: Number(r.deductible_tax) };
}

/** The ids of one stretch of the filtered, sorted set (every one when `limit` is null). */
async function idsOf(db: Kysely<Database>, f: ReimbLedgerFilter, offset: number, limit: number | null): Promise<string[]> {
  const s = ledgerSort(f);
  let q = applyLedgerFilters(db.selectFrom('reimb_bills as b'), f).select('b.id');
  // A bill still in approval has no approval time: last in either direction, on both databases (they differ by default).
  if (s.column === 'b.approved_at') q = q.orderBy(sql`case when b.approved_at is null then 1 else 0 end`);
  q = q.orderBy(s.column, s.order).orderBy('b.id', s.order);
  if (limit !== null) q = q.limit(limit).offset(offset);
  return (await q.execute()).map((r) => r.id);
}

export async function ledgerPage(db: Kysely<Database>, q: ReimbLedgerQuery) {
  const [ids, totals] = await Promise.all([idsOf(db, q, offsetOf(q), q.pageSize), ledgerTotals(db, q)]);
  return { items: await billRows(db, ids), total: totals.count, totals };
}

/**
 * The departments and expense categories the filters offer: the company's departments and the
 * categories of 报销设置, plus any a bill names that is no longer there (a category removed since).
 */
export async function reportOptions(db: Kysely<Database>): Promise<ReimbReportOptions> {
  const [depts, cats, used] = await Promise.all([
    db.selectFrom('departments').select(['id', 'name']).orderBy('sort').orderBy('name').limit(2000).execute(),
    db.selectFrom('reimb_categories').select(['code', 'name']).orderBy('sort').orderBy('code').execute(),
    db.selectFrom('reimb_lines').select(['category_code', sql<string>`max(category_name)`.as('name')]).groupBy('category_code').orderBy('category_code').limit(500).execute(),
  ]);
  const categories = cats.map((c) => ({ code: c.code, name: c.name }));
  for (const u of used) if (!categories.some((c) => c.code === u.category_code)) categories.push({ code: u.category_code, name: u.name });
  return { depts: depts.map((d) => ({ id: d.id, name: d.name })), categories };
}
