/**
 * 部门月度报销汇总: the pushed bills (reimb_state 1 已报销) by department × month × expense category.
 * The month is the voucher date's (a YYYY-MM-DD Asia/Shanghai day kept with the voucher); the amount is
 * the lines' approved amount (核定, the claim where nobody reduced it). The figures are read from the
 * summary tables of migration 0051 (reimb_summary_cells, reimb_summary_bills: kept by triggers in every
 * writing transaction), not from the lines: a few thousand rows at most instead of every pushed line.
 * Each cell is read once and every total is the sum of the cells, so rows and columns add up; bill counts
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

/**
 * Figures of the pivot as read: department (null: none), month, category, amount and lines. A row with a
 * month and no category counts in the month's column only (its amount in the row's total), one with a
 * category and no month in the category's column only (its lines in the row's line count), one with both
 * in both.
 */
export type SummaryCellRow = { dept_id: string | null; month: string | null; category_code: string | null; category_name: string; amount: number | string; lines: number | string };
/** The pushed bills of a department and month, and their department name (max, as kept on the bills). */
export type SummaryBillRow = { dept_id: string | null; month: string; dept_name: string; n: number | string };

/** The summary tables' rows of the scope (month range, or one month; the departments chosen). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function summaryScoped<QB extends SelectQueryBuilder<any, any, any>>(query: QB, s: Scope): QB {
  const q = query as unknown as SelectQueryBuilder<Database & { s: Database['reimb_summary_cells'] }, 's', object>;
  let out = q.where('s.month', '>=', s.month ?? s.fromMonth).where('s.month', '<=', s.month ?? s.toMonth);
  if (s.deptIds?.length) out = out.where('s.dept_key', 'in', s.deptIds);
  if (s.deptId !== undefined) out = out.where('s.dept_key', '=', s.deptId);
  return out as unknown as QB;
}
const deptOf = sql<string | null>`nullif(s.dept_key, '')`;

/**
 * The figures and the bill counts of the scope, from the summary tables (rows of zero are keys whose bills
 * all left): by department × month and by department × category, summed in SQL, since the view shows no
 * department × month × category cell (a few hundred rows instead of thousands).
 */
async function summaryReads(db: Kysely<Database>, q: Scope): Promise<[SummaryCellRow[], SummaryBillRow[]]> {
  const cells = () => summaryScoped(db.selectFrom('reimb_summary_cells as s'), q).where('s.lines', '<>', 0);
  const [byMonth, byCategory, bills] = await Promise.all([
    cells()
      .select([deptOf.as('dept_id'), 's.month', sql<null>`null`.as('category_code'), sql<string>`''`.as('category_name'), sql<number>`sum(s.amount)`.as('amount'), sql<number>`sum(s.lines)`.as('lines')])
      .groupBy(['s.dept_key', 's.month'])
      .execute(),
    cells()
      .select([deptOf.as('dept_id'), sql<null>`null`.as('month'), 's.category_code', sql<string>`max(s.category_name)`.as('category_name'), sql<number>`sum(s.amount)`.as('amount'), sql<number>`sum(s.lines)`.as('lines')])
      .groupBy(['s.dept_key', 's.category_code'])
      .orderBy('s.dept_key').orderBy('s.category_code')
      .execute(),
    summaryScoped(db.selectFrom('reimb_summary_bills as s'), q)
      .where('s.bills', '<>', 0)
      .select([deptOf.as('dept_id'), 's.month', sql<string>`max(s.dept_name)`.as('dept_name'), sql<number>`sum(s.bills)`.as('n')])
      .groupBy(['s.dept_key', 's.month'])
      .orderBy('s.dept_key').orderBy('s.month')
      .execute(),
  ]);
  return [[...byMonth, ...byCategory], bills];
}

export async function summaryView(db: Kysely<Database>, q: ReimbSummaryQuery): Promise<ReimbSummaryView> {
  const [[cells, bills], depts, cats] = await Promise.all([
    summaryReads(db, q),
    db.selectFrom('departments').select(['id', 'name', 'sort']).execute(),
    db.selectFrom('reimb_categories').select(['code', 'name', 'sort']).execute(),
  ]);
  return assembleSummary(q, cells, bills, depts, cats);
}

/** The pivot from its cells and bill counts (the departments' and categories' names and order from the settings). */
export function assembleSummary(
  q: ReimbSummaryQuery, cells: SummaryCellRow[], bills: SummaryBillRow[],
  depts: Array<{ id: string; name: string; sort: number | string }>, cats: Array<{ code: string; name: string; sort: number | string }>,
): ReimbSummaryView {
  const months = monthsBetween(q.fromMonth, q.toMonth);
  // The categories that have figures, in the settings' order (a category removed since comes last, by code).
  const catSort = new Map(cats.map((c) => [c.code, Number(c.sort)]));
  const catNames = new Map<string, string>();
  for (const c of cells) if (c.category_code !== null && !catNames.has(c.category_code)) catNames.set(c.category_code, catSort.has(c.category_code) ? cats.find((x) => x.code === c.category_code)!.name : c.category_name);
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
    if (c.month !== null) {
      r.months[monthIndex.get(c.month)!]!.amount += amount;
      r.total.amount += amount;
    }
    if (c.category_code !== null) {
      const cc = r.categories[catIndex.get(c.category_code)!]!;
      cc.amount += amount;
      cc.count += lines;
      r.total.lineCount += lines;
    }
  }

  const order = (r: ReimbSummaryRow) => (r.deptId ? Number(deptInfo.get(r.deptId)?.sort ?? 1e9) : Infinity);
  const list = [...rows.values()].sort((a, b) => order(a) - order(b) || a.deptName.localeCompare(b.deptName, 'zh'));
  const sumCells = (pick: (r: ReimbSummaryRow) => ReimbSummaryCell[], n: number) =>
    Array.from({ length: n }, (_, i) => list.reduce((acc, r) => ({ amount: acc.amount + pick(r)[i]!.amount, count: acc.count + pick(r)[i]!.count }), cell()));
  const total = list.reduce((acc, r) => ({ amount: acc.amount + r.total.amount, count: acc.count + r.total.count, lineCount: acc.lineCount + r.total.lineCount }), { ...cell(), lineCount: 0 });
  return { fromMonth: q.fromMonth, toMonth: q.toMonth, months, categories, rows: list, monthTotals: sumCells((r) => r.months, months.length), categoryTotals: sumCells((r) => r.categories, categories.length), total };
}

/**
 * The bills behind a cell (department and month or category), a row or a column, with their part of it.
 * The page is taken from the bills in their order (voucher date, bill number, newest first) with a line of
 * the category where one is asked; only the page's lines are summed. The cell's amount and lines come from
 * the summary table, and so does its bill count without a category (a pushed bill has at least one line:
 * submitting asks for one); with a category, the bills holding a line of it are counted.
 */
export async function summaryBills(db: Kysely<Database>, q: ReimbSummaryBillsQuery) {
  const code = q.categoryCode;
  const bills = () =>
    scoped(db.selectFrom('reimb_bills as b'), q).where(({ exists, selectFrom }) =>
      exists(
        code
          ? selectFrom('reimb_lines as l').select(sql`1`.as('x')).whereRef('l.bill_id', '=', 'b.id').where('l.category_code', '=', code)
          : selectFrom('reimb_lines as l').select(sql`1`.as('x')).whereRef('l.bill_id', '=', 'b.id'),
      ),
    );
  const cellSums = summaryScoped(db.selectFrom('reimb_summary_cells as s'), q).select([sql<number>`coalesce(sum(s.amount), 0)`.as('cell'), sql<number>`coalesce(sum(s.lines), 0)`.as('lines')]);
  const [page, t, n] = await Promise.all([
    bills().select('b.id').orderBy('b.voucher_date', 'desc').orderBy('b.bill_no', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    (code ? cellSums.where('s.category_code', '=', code) : cellSums).executeTakeFirst(),
    code
      ? bills().select(sql<number>`count(*)`.as('n')).executeTakeFirst()
      : summaryScoped(db.selectFrom('reimb_summary_bills as s'), q).select(sql<number>`coalesce(sum(s.bills), 0)`.as('n')).executeTakeFirst(),
  ]);
  const ids = page.map((p) => p.id);
  const [rows, parts] = await Promise.all([
    billRows(db, ids),
    ids.length
      ? (code ? db.selectFrom('reimb_lines as l').where('l.category_code', '=', code) : db.selectFrom('reimb_lines as l'))
          .where('l.bill_id', 'in', ids)
          .select(['l.bill_id', sql<number>`coalesce(sum(${lineApproved}), 0)`.as('cell'), sql<number>`count(*)`.as('lines')])
          .groupBy('l.bill_id')
          .execute()
      : [],
  ]);
  const part = new Map(parts.map((p) => [p.bill_id, p]));
  const items = rows.map((r) => ({ ...r, cellAmount: Number(part.get(r.id)!.cell), cellLines: Number(part.get(r.id)!.lines) }));
  const totals = { count: Number(n?.n ?? 0), cellAmount: Number(t?.cell ?? 0), cellLines: Number(t?.lines ?? 0) };
  return { items, total: totals.count, totals };
}
