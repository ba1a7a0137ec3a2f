/**
 * The check that migration 0052's summary tables equal the raw aggregation of the orders in force (issue 30):
 * cost_summary_cells and cost_summary_months (rows of zero skipped) against a GROUP BY over cost_order_lines ⋈
 * cost_orders computed here in SQL. Used after the real API operations of the cost tests (create, edit, move,
 * re-price, import, copy, PMS sync, audit, invalidate).
 */
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../src/db/schema.js';
import '../src/modules/cost/tables.js';

type Row = Record<string, string | number>;
const norm = (rows: Row[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'month' || k.endsWith('_id') || k === 'category' ? String(v) : Number(v)]))).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The raw aggregation (cells per category and '*', and the months with their order counts). */
async function raw(k: Kysely<Database>) {
  const byCategory = await sql<Row>`select o.month, o.dept_id, o.project_id, l.category, sum(l.amount) as amount, sum(l.tax) as tax, count(*) as lines
    from cost_order_lines l inner join cost_orders o on o.id = l.order_id where o.state <> 2 group by o.month, o.dept_id, o.project_id, l.category`.execute(k);
  const all = await sql<Row>`select o.month, o.dept_id, o.project_id, '*' as category, sum(l.amount) as amount, sum(l.tax) as tax, count(*) as lines
    from cost_order_lines l inner join cost_orders o on o.id = l.order_id where o.state <> 2 group by o.month, o.dept_id, o.project_id`.execute(k);
  const months = await sql<Row>`select month, dept_id, category, sum(amount) as amount, sum(tax) as tax, count(distinct order_id) as orders from (
      select o.month, o.dept_id, l.category, l.amount, l.tax, o.id as order_id from cost_order_lines l inner join cost_orders o on o.id = l.order_id where o.state <> 2
      union all
      select o.month, o.dept_id, '*', l.amount, l.tax, o.id from cost_order_lines l inner join cost_orders o on o.id = l.order_id where o.state <> 2
    ) x group by month, dept_id, category`.execute(k);
  return { cells: norm([...byCategory.rows, ...all.rows]), months: norm(months.rows) };
}

/** Asserts the maintained tables equal the raw aggregation; answers how many cells there are (so a test can see it is not empty). */
export async function expectSummaryTablesExact(k: Kysely<Database>): Promise<number> {
  const want = await raw(k);
  const cells = await k.selectFrom('cost_summary_cells').select(['month', 'dept_id', 'project_id', 'category', 'amount', 'tax', 'lines']).where('lines', '<>', 0).execute();
  const months = await k.selectFrom('cost_summary_months').select(['month', 'dept_id', 'category', 'amount', 'tax', 'orders']).where('orders', '<>', 0).execute();
  expect(norm(cells as unknown as Row[])).toEqual(want.cells);
  expect(norm(months as unknown as Row[])).toEqual(want.months);
  // The rows that fell to zero are all zero.
  const stale = await k.selectFrom('cost_summary_cells').select('month').where('lines', '=', 0).where((eb) => eb.or([eb('amount', '<>', 0), eb('tax', '<>', 0)])).execute();
  expect(stale).toEqual([]);
  const staleMonths = await k.selectFrom('cost_summary_months').select('month').where('orders', '=', 0).where((eb) => eb.or([eb('amount', '<>', 0), eb('tax', '<>', 0)])).execute();
  expect(staleMonths).toEqual([]);
  return want.cells.length;
}
