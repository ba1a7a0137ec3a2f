/**
 * 部门月度报销汇总: the pushed bills (reimb_state 1 已报销) by department × month × expense category.
 * The month is the voucher date's (a YYYY-MM-DD Asia/Shanghai day kept with the voucher); the amount is
 * the lines' approved amount (核定, the claim where nobody reduced it). Each cell is read once from the
 * lines (grouped in SQL) and every total is the sum of the cells, so rows and columns add up; bill counts
 * come from the bills (a bill is in one department and one month, so they add up too; by category the
 * count is of lines, since one bill may hold several categories).
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { ReimbState, monthsBetween, type ReimbSummaryBillsQuery, type ReimbSummaryCell, type ReimbSummaryQuery, type ReimbSummaryRow, type ReimbSummaryView } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf } from '../../../platform/listing.js';
import { billRows } from './repo.js';

const monthOf = sql<string>`substr(b.voucher_date, 1, 7)`;
/** The approved amount of a line: its 核定 amount, or the claim when nobody reduced it. */
export const lineApproved = sql<number>`coalesce(l.approved_amount, l.amount)`;
const NO_DEPT = '未分配部门';

type Scope = { fromMonth: string; toMonth: string; deptIds?: string[]; deptId?: string; month?: string; categoryCode?: string };

/** The pushed bills of the scope: voucher month in range, the departments chosen. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function scoped<QB extends SelectQueryBuilder<any, any, any>>(query: QB, s: Scope): QB {
  const q = query as unknown as SelectQueryBuilder<Database & { b: Database['reimb_bills'] }, 'b', object>;
  const from = s.month ?? s.fromMonth;
  const to = s.month ?? s.toMonth;
  // '-32' sorts after every day of the month: voucher_date <= 'YYYY-MM-32' is "in or before that month".
  let out = q.where('b.reimb_state', '=', ReimbState.success).where('b.voucher_date', '>=', `${from}-01`).where('b.voucher_date', '<=', `${to}-32`);
  if (s.deptIds?.length) out = out.where('b.dept_id', 'in', s.deptIds);
  if (s.deptId !== undefined) out = s.deptId === '' ? out.where('b.dept_id', 'is', null) : out.where('b.dept_id', '=', s.deptId);
  return out as unknown as QB;
}

const cell = (): ReimbSummaryCell => ({ amount: 0, count: 0 });
const key = (deptId: string | null) => deptId ?? '';

export async function summaryView(db: Kysely<Database>, q: ReimbSummaryQuery): Promise<ReimbSummaryView> {
  const months = monthsBetween(q.fromMonth, q.toMonth);
  const [cells, bills, depts, cats] = await Promise.all([
    scoped(db.selectFrom('reimb_bills as b').innerJoin('reimb_lines as l', 'l.bill_id', 'b.id'), q)
      .select(['b.dept_id', monthOf.as('month'), 'l.category_code', sql<string>`max(l.category_name)`.as('category_name'), sql<number>`coalesce(sum(${lineApproved}), 0)`.as('amount'), sql<number>`count(*)`.as('lines')])
      .groupBy(['b.dept_id', monthOf, 'l.category_code'])
      .execute(),
    scoped(db.selectFrom('reimb_bills as b'), q)
      .select(['b.dept_id', monthOf.as('month'), sql<string>`max(b.dept_name)`.as('dept_name'), sql<number>`count(*)`.as('n')])
      .groupBy(['b.dept_id', monthOf])
      .execute(),
    db.selectFrom('departments').select(['id', 'name', 'sort']).execute(),
    db.selectFrom('reimb_categories').select(['code', 'name', 'sort']).execute(),
  ]);

  // The categories that have figures, in the settings' order (a category removed since comes last, by code).
  const catSort = new Map(cats.map((c) => [c.code, Number(c.sort)]));
  const catNames = new Map<string, string>();
  for (const c of cells) if (!catNames.has(c.category_code)) catNames.set(c.category_code, catSort.has(c.category_code) ? cats.find((x) => x.code === c.category_code)!.name : c.category_name);
  const categories = [...catNames]
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => (catSort.get(a.code) ?? Infinity) - (catSort.get(b.code) ?? Infinity) || a.code.localeCompare(b.code));
  const catIndex = new Map(categories.map((c, i) => [c.code, i]));
  const monthIndex = new Map(months.map((m, i) => [m, i]));

  const deptInfo = new Map(depts.map((d) => [d.id, d]));
  const rows = new Map<string, ReimbSummaryRow>();
  const rowOf = (deptId: string | null, billDeptName?: string) => {
    const k = key(deptId);
    let r = rows.get(k);
    if (!r) {
      r = { deptId: k, deptName: (deptId && deptInfo.get(deptId)?.name) || billDeptName || NO_DEPT, months: months.map(cell), categories: categories.map(cell), total: { ...cell(), lineCount: 0 } };
      rows.set(k, r);
    }
    return r;
  };
  for (const b of bills) {
    const r = rowOf(b.dept_id, b.dept_name);
    const n = Number(b.n);
    r.months[monthIndex.get(b.month)!]!.count += n;
    r.total.count += n;
  }
  for (const c of cells) {
    const r = rowOf(c.dept_id);
    const amount = Number(c.amount);
    const lines = Number(c.lines);
    r.months[monthIndex.get(c.month)!]!.amount += amount;
    const cc = r.categories[catIndex.get(c.category_code)!]!;
    cc.amount += amount;
    cc.count += lines;
    r.total.amount += amount;
    r.total.lineCount += lines;
  }

  const order = (r: ReimbSummaryRow) => (r.deptId ? Number(deptInfo.get(r.deptId)?.sort ?? 1e9) : Infinity);
  const list = [...rows.values()].sort((a, b) => order(a) - order(b) || a.deptName.localeCompare(b.deptName, 'zh'));
  const sumCells = (pick: (r: ReimbSummaryRow) => ReimbSummaryCell[], n: number) =>
    Array.from({ length: n }, (_, i) => list.reduce((acc, r) => ({ amount: acc.amount + pick(r)[i]!.amount, count: acc.count + pick(r)[i]!.count }), cell()));
  const total = list.reduce((acc, r) => ({ amount: acc.amount + r.total.amount, count: acc.count + r.total.count, lineCount: acc.lineCount + r.total.lineCount }), { ...cell(), lineCount: 0 });
  return { fromMonth: q.fromMonth, toMonth: q.toMonth, months, categories, rows: list, monthTotals: sumCells((r) => r.months, months.length), categoryTotals: sumCells((r) => r.categories, categories.length), total };
}

/** The bills behind a cell (department and month or category), a row or a column, with their part of it. */
export async function summaryBills(db: Kysely<Database>, q: ReimbSummaryBillsQuery) {
  const code = q.categoryCode;
  const base = () => {
    const j = scoped(db.selectFrom('reimb_bills as b').innerJoin('reimb_lines as l', 'l.bill_id', 'b.id'), q);
    return code ? j.where('l.category_code', '=', code) : j;
  };
  const [page, t] = await Promise.all([
    base()
      .select(['b.id', sql<number>`coalesce(sum(${lineApproved}), 0)`.as('cell'), sql<number>`count(*)`.as('lines')])
      .groupBy(['b.id', 'b.voucher_date', 'b.bill_no'])
      .orderBy('b.voucher_date', 'desc').orderBy('b.bill_no', 'desc')
      .limit(q.pageSize).offset(offsetOf(q))
      .execute(),
    base().select([sql<number>`count(distinct b.id)`.as('n'), sql<number>`coalesce(sum(${lineApproved}), 0)`.as('cell'), sql<number>`count(*)`.as('lines')]).executeTakeFirst(),
  ]);
  const rows = await billRows(db, page.map((p) => p.id));
  const part = new Map(page.map((p) => [p.id, p]));
  const items = rows.map((r) => ({ ...r, cellAmount: Number(part.get(r.id)!.cell), cellLines: Number(part.get(r.id)!.lines) }));
  const totals = { count: Number(t?.n ?? 0), cellAmount: Number(t?.cell ?? 0), cellLines: Number(t?.lines ?? 0) };
  return { items, total: totals.count, totals };
}
