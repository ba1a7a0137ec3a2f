/**
 * 月度成本汇总: cost by month × department × project × item category, from the rounded lines
 * (cost_order_lines) of the orders in force (待审核 and 已审核; 已作废 never counts), filtered by
 * CostSummaryQuery. The trend (byMonth, every month of the range, zeros included), the composition
 * (byCategory) and the totals are sums of the same cells, so every figure adds up, and they equal the
 * ledger's totals for the same orders (an order's amount and tax are the sums of its rounded lines).
 * `totals.orderCount` counts distinct orders (an order with lines of two categories is in two cells).
 */
import { sql, type Kysely } from 'kysely';
import { CostCategory, CostOrderState, shiftMonth, type CostSummary, type CostSummaryCell, type CostSummaryQuery } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import '../tables.js';

function base(db: Kysely<Database>, q: CostSummaryQuery) {
  let b = db
    .selectFrom('cost_order_lines as l')
    .innerJoin('cost_orders as o', 'o.id', 'l.order_id')
    .where('o.month', '>=', q.monthFrom)
    .where('o.month', '<=', q.monthTo)
    .where('o.state', 'in', [CostOrderState.toAudit, CostOrderState.audited]);
  if (q.deptId) b = b.where('o.dept_id', '=', q.deptId);
  if (q.projectId) b = b.where('o.project_id', '=', q.projectId);
  if (q.category !== undefined) b = b.where('l.category', '=', String(q.category));
  return b;
}

const categoryRank = (c: string) => {
  const i = (CostCategory.values as readonly string[]).indexOf(c);
  return i < 0 ? CostCategory.values.length : i;
};

/** The closed department-months of the range (one indexed read; their digests are checked on demand, one month at a time). */
function closedOf(db: Kysely<Database>, q: CostSummaryQuery) {
  let c = db
    .selectFrom('cost_closings as c')
    .innerJoin('departments as d', 'd.id', 'c.dept_id')
    .select(['c.month', 'c.dept_id', 'd.name', 'c.closed_by', 'c.closed_at'])
    .where('c.month', '>=', q.monthFrom)
    .where('c.month', '<=', q.monthTo);
  if (q.deptId) c = c.where('c.dept_id', '=', q.deptId);
  return c.orderBy('c.month').orderBy('d.sort').orderBy('d.name').orderBy('c.dept_id').execute();
}

export async function costSummary(db: Kysely<Database>, q: CostSummaryQuery): Promise<CostSummary> {
  const [cells, count, closed] = await Promise.all([
    base(db, q)
      .select([
        'o.month', 'o.dept_id', 'o.project_id', 'l.category',
        sql<string>`max(o.dept_name)`.as('dept_name'),
        sql<string>`max(o.project_code)`.as('project_code'),
        sql<string>`max(o.project_name)`.as('project_name'),
        sql<number>`sum(l.amount)`.as('amount'),
        sql<number>`sum(l.tax)`.as('tax'),
        sql<number>`count(distinct o.id)`.as('orders'),
      ])
      .groupBy(['o.month', 'o.dept_id', 'o.project_id', 'l.category'])
      .execute(),
    base(db, q).select(sql<number>`count(distinct o.id)`.as('n')).executeTakeFirst(),
    closedOf(db, q),
  ]);
  const rows: CostSummaryCell[] = cells.map((c) => ({
    month: c.month, deptId: c.dept_id, deptName: c.dept_name, projectId: c.project_id, projectCode: c.project_code, projectName: c.project_name,
    category: c.category, amount: Number(c.amount), tax: Number(c.tax), orderCount: Number(c.orders),
  }));
  rows.sort((a, b) => a.month.localeCompare(b.month) || a.deptName.localeCompare(b.deptName, 'zh-CN') || a.deptId.localeCompare(b.deptId)
    || a.projectCode.localeCompare(b.projectCode) || a.projectId.localeCompare(b.projectId) || categoryRank(a.category) - categoryRank(b.category) || a.category.localeCompare(b.category));

  const byMonth = new Map<string, { month: string; amount: number; tax: number }>();
  for (let m = q.monthFrom; m <= q.monthTo; m = shiftMonth(m, 1)) byMonth.set(m, { month: m, amount: 0, tax: 0 });
  const byCategory = new Map<string, { category: string; amount: number }>();
  const totals = { amount: 0, tax: 0, total: 0, orderCount: Number(count?.n ?? 0) };
  for (const r of rows) {
    const m = byMonth.get(r.month)!;
    m.amount += r.amount;
    m.tax += r.tax;
    const c = byCategory.get(r.category) ?? { category: r.category, amount: 0 };
    c.amount += r.amount;
    byCategory.set(r.category, c);
    totals.amount += r.amount;
    totals.tax += r.tax;
  }
  totals.total = totals.amount + totals.tax;
  return {
    rows,
    closed: closed.map((c) => ({ month: c.month, deptId: c.dept_id, deptName: c.name, closedBy: c.closed_by, closedAt: c.closed_at })),
    byMonth: [...byMonth.values()],
    byCategory: [...byCategory.values()].sort((a, b) => categoryRank(a.category) - categoryRank(b.category) || a.category.localeCompare(b.category)),
    totals,
  };
}
