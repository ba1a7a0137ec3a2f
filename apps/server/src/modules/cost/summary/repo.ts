/**
 * 月度成本汇总: cost by month × department (× project × item category) of the orders in force (待审核 and
 * 已审核; 已作废 never counts), filtered by CostSummaryQuery — read from the tables migration 0052 keeps by
 * triggers (cost_summary_cells: month × department × project × category, '*' the order's all-category row;
 * cost_summary_months: the same per month × department, with the count of orders), never from the lines.
 * Issue 30: at 100,000 orders the answer was 386,768 cells; it is now a page of department-months with the
 * trend (byMonth, every month of the range, zeros included), the composition (byCategory) and the totals of
 * all of them, and a department-month drills down to its projects (paged; one order each, 0034's live-order
 * index) and their categories. The export streams every cell in the page's order, one batch of
 * department-months at a time. Every read runs off the request thread (db/read-pool.ts; read-worker.ts
 * imports this module). Names are the departments' and projects' current names.
 */
import type { Kysely } from 'kysely';
import { CostCategory, shiftMonth, type CostSummary, type CostSummaryCell, type CostSummaryPageQuery, type CostSummaryProjects, type CostSummaryProjectsQuery, type CostSummaryQuery } from '@zhyy/shared';
import { offThread } from '../../../db/read-pool.js';
import type { Database } from '../../../db/schema.js';
import '../tables.js';

type Filter = CostSummaryQuery;
/** The all-category row of the summary tables. */
const ALL = '*';

const categoryRank = (c: string) => {
  const i = (CostCategory.values as readonly string[]).indexOf(c);
  return i < 0 ? CostCategory.values.length : i;
};
const byCategoryRank = (a: string, b: string) => categoryRank(a) - categoryRank(b) || a.localeCompare(b);

/**
 * The department-months of the filter, with their figures: from cost_summary_months (the category's row,
 * or '*'), or, for one project, from that project's cells (one order a department-month).
 */
function deptMonths(db: Kysely<Database>, q: Filter) {
  const cat = q.category !== undefined ? String(q.category) : ALL;
  if (q.projectId) {
    let b = db
      .selectFrom('cost_summary_cells as s')
      .select(['s.month', 's.dept_id', 's.amount', 's.tax', (eb) => eb.lit(1).as('orders')])
      .where('s.project_id', '=', q.projectId)
      .where('s.month', '>=', q.monthFrom)
      .where('s.month', '<=', q.monthTo)
      .where('s.category', '=', cat)
      .where('s.lines', '>', 0);
    if (q.deptId) b = b.where('s.dept_id', '=', q.deptId);
    return b;
  }
  let b = db
    .selectFrom('cost_summary_months as s')
    .select(['s.month', 's.dept_id', 's.amount', 's.tax', 's.orders'])
    .where('s.month', '>=', q.monthFrom)
    .where('s.month', '<=', q.monthTo)
    .where('s.category', '=', cat)
    .where('s.orders', '>', 0);
  if (q.deptId) b = b.where('s.dept_id', '=', q.deptId);
  return b;
}

/** The composition: the filter's figures per category (not '*'), and its cells (`cells`: one per order and category). */
async function categories(db: Kysely<Database>, q: Filter): Promise<Array<{ category: string; amount: number; cells: number }>> {
  const cat = q.category !== undefined ? String(q.category) : undefined;
  let rows;
  if (q.projectId) {
    let b = db
      .selectFrom('cost_summary_cells as s')
      .select(['s.category', (eb) => eb.fn.sum<number>('s.amount').as('amount'), (eb) => eb.fn.countAll<number>().as('cells')])
      .where('s.project_id', '=', q.projectId)
      .where('s.lines', '>', 0);
    if (q.deptId) b = b.where('s.dept_id', '=', q.deptId);
    if (cat) b = b.where('s.category', '=', cat);
    rows = await b.where('s.month', '>=', q.monthFrom).where('s.month', '<=', q.monthTo).where('s.category', '<>', ALL).groupBy('s.category').execute();
  } else {
    let b = db
      .selectFrom('cost_summary_months as s')
      .select(['s.category', (eb) => eb.fn.sum<number>('s.amount').as('amount'), (eb) => eb.fn.sum<number>('s.orders').as('cells')])
      .where('s.orders', '>', 0);
    if (q.deptId) b = b.where('s.dept_id', '=', q.deptId);
    if (cat) b = b.where('s.category', '=', cat);
    rows = await b.where('s.month', '>=', q.monthFrom).where('s.month', '<=', q.monthTo).where('s.category', '<>', ALL).groupBy('s.category').execute();
  }
  return rows.map((r) => ({ category: r.category, amount: Number(r.amount), cells: Number(r.cells) })).sort((x, y) => byCategoryRank(x.category, y.category));
}

/** The closed department-months of the range (one indexed read; their digests are checked on demand, one month at a time). */
function closedOf(db: Kysely<Database>, q: Filter) {
  let c = db
    .selectFrom('cost_closings as c')
    .innerJoin('departments as d', 'd.id', 'c.dept_id')
    .select(['c.month', 'c.dept_id', 'd.name', 'c.closed_by', 'c.closed_at'])
    .where('c.month', '>=', q.monthFrom)
    .where('c.month', '<=', q.monthTo);
  if (q.deptId) c = c.where('c.dept_id', '=', q.deptId);
  return c.orderBy('c.month').orderBy('d.sort').orderBy('d.name').orderBy('c.dept_id').execute();
}

/** All the department-months of the filter in the table's order (month, the departments' order), with names. */
async function orderedDeptMonths(db: Kysely<Database>, q: Filter) {
  const rows = await db
    .selectFrom(deptMonths(db, q).as('m'))
    .innerJoin('departments as d', 'd.id', 'm.dept_id')
    .select(['m.month', 'm.dept_id', 'd.name', 'm.amount', 'm.tax', 'm.orders'])
    .orderBy('m.month')
    .orderBy('d.sort')
    .orderBy('d.name')
    .orderBy('m.dept_id')
    .execute();
  return rows.map((r) => ({ month: r.month, deptId: r.dept_id, deptName: r.name, amount: Number(r.amount), tax: Number(r.tax), orderCount: Number(r.orders) }));
}

async function readSummary(db: Kysely<Database>, q: CostSummaryPageQuery): Promise<CostSummary> {
  // A range has at most 36 months × the departments: all of them are read (the trend and totals need
  // them), only the page is answered.
  const [all, cats, closed] = await Promise.all([orderedDeptMonths(db, q), categories(db, q), closedOf(db, q)]);
  const byMonth = new Map<string, { month: string; amount: number; tax: number }>();
  for (let m = q.monthFrom; m <= q.monthTo; m = shiftMonth(m, 1)) byMonth.set(m, { month: m, amount: 0, tax: 0 });
  const totals = { amount: 0, tax: 0, total: 0, orderCount: 0 };
  for (const r of all) {
    const m = byMonth.get(r.month)!;
    m.amount += r.amount;
    m.tax += r.tax;
    totals.amount += r.amount;
    totals.tax += r.tax;
    totals.orderCount += r.orderCount;
  }
  totals.total = totals.amount + totals.tax;
  const from = (q.pageIndex - 1) * q.pageSize;
  return {
    rows: all.slice(from, from + q.pageSize),
    total: all.length,
    closed: closed.map((c) => ({ month: c.month, deptId: c.dept_id, deptName: c.name, closedBy: c.closed_by, closedAt: c.closed_at })),
    byMonth: [...byMonth.values()],
    byCategory: cats.map((c) => ({ category: c.category, amount: c.amount })),
    totals,
  };
}

/** The summary's page, trend, composition and totals (off the request thread). */
export const costSummary = offThread('cost.summary', readSummary);

/** The cells of a department-month (category '*' excluded unless asked), with the projects' names: a range of the primary key. */
function cellsOf(db: Kysely<Database>, at: { month: string; deptId: string }, q: { projectId?: string; category?: string | number }, cat: 'each' | 'all') {
  let b = db
    .selectFrom('cost_summary_cells as s')
    .innerJoin('projects as p', 'p.id', 's.project_id')
    .select(['s.month', 's.dept_id', 's.project_id', 'p.code', 'p.name', 's.category', 's.amount', 's.tax', 's.lines'])
    .where('s.month', '=', at.month)
    .where('s.dept_id', '=', at.deptId)
    .where('s.lines', '>', 0);
  b = cat === 'all' ? b.where('s.category', '=', ALL) : b.where('s.category', '<>', ALL);
  if (q.projectId) b = b.where('s.project_id', '=', q.projectId);
  if (q.category !== undefined) b = b.where('s.category', '=', String(q.category));
  return b;
}

/**
 * One department-month's projects, paged by project code, each with its categories (the filter's project
 * and category apply: with a category, a project's figures are that category's).
 */
export const costSummaryProjects = offThread('cost.summaryProjects', async (db: Kysely<Database>, q: CostSummaryProjectsQuery): Promise<CostSummaryProjects> => {
  const pair = { month: q.month, deptId: q.deptId };
  const heads = q.category !== undefined ? cellsOf(db, pair, q, 'each') : cellsOf(db, pair, q, 'all');
  const [count, page] = await Promise.all([
    heads.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    heads.orderBy('p.code').orderBy('s.project_id').limit(q.pageSize).offset((q.pageIndex - 1) * q.pageSize).execute(),
  ]);
  const ids = page.map((r) => r.project_id);
  const cells = ids.length ? await cellsOf(db, pair, q, 'each').where('s.project_id', 'in', ids).execute() : [];
  return {
    total: Number(count?.n ?? 0),
    items: page.map((r) => ({
      projectId: r.project_id, projectCode: r.code, projectName: r.name, amount: Number(r.amount), tax: Number(r.tax), lineCount: Number(r.lines),
      categories: cells.filter((c) => c.project_id === r.project_id).map((c) => ({ category: c.category, amount: Number(c.amount), tax: Number(c.tax) })).sort((a, b) => byCategoryRank(a.category, b.category)),
    })),
  };
});

/** What the export will write: the department-months in the page's order (a few hundred at most) and the number of cells. */
export const costSummaryExportPlan = offThread('cost.summaryExportPlan', async (db: Kysely<Database>, q: Filter) => {
  const [months, cats] = await Promise.all([orderedDeptMonths(db, q), categories(db, q)]);
  return { months, cells: cats.reduce((n, c) => n + c.cells, 0) };
});

/** The cells of a batch of department-months, in their order, then project code and category (the export). */
const exportCells = offThread('cost.summaryExportCells', async (db: Kysely<Database>, q: Filter, pairs: Array<{ month: string; deptId: string; deptName: string }>): Promise<CostSummaryCell[]> => {
  const out: CostSummaryCell[] = [];
  // One seek of the primary key per department-month (an OR of them made SQLite scan the table).
  for (const x of pairs) {
    const rows = await cellsOf(db, x, q, 'each').execute();
    rows.sort((a, b) => a.code.localeCompare(b.code) || a.project_id.localeCompare(b.project_id) || byCategoryRank(a.category, b.category));
    out.push(...rows.map((r) => ({
      month: r.month, deptId: r.dept_id, deptName: x.deptName, projectId: r.project_id, projectCode: r.code, projectName: r.name,
      category: r.category, amount: Number(r.amount), tax: Number(r.tax), orderCount: 1,
    })));
  }
  return out;
}, { postgres: true });

/**
 * Every cell of the filter (the export), batch by batch of department-months (about `size` cells each);
 * the next batch is asked for before this one is handed over.
 */
export async function* costSummaryCells(db: Kysely<Database>, q: Filter, months: ReadonlyArray<{ month: string; deptId: string; deptName: string; orderCount: number }>, size = 2000): AsyncIterable<CostSummaryCell[]> {
  const chunks: Array<typeof months> = [];
  for (let i = 0, n = 0, start = 0; i < months.length; i++) {
    // A department-month has at most one cell per project and category; its orders times the categories bound it.
    n += months[i]!.orderCount * (q.category !== undefined ? 1 : CostCategory.values.length);
    if (n >= size || i === months.length - 1) {
      chunks.push(months.slice(start, i + 1));
      start = i + 1;
      n = 0;
    }
  }
  const ask = (i: number) => {
    const p = exportCells(db, q, chunks[i]!.map((x) => ({ month: x.month, deptId: x.deptId, deptName: x.deptName })));
    p.catch(() => undefined);
    return p;
  };
  let next = chunks.length ? ask(0) : null;
  for (let i = 0; next; i++) {
    const rows = await next;
    next = i + 1 < chunks.length ? ask(i + 1) : null;
    if (rows.length) yield rows;
  }
}
