/**
 * 成本单台账's export reads, off the request thread (db/read-pool.ts; read-worker.ts loads this module):
 * the count and sums of the filtered set (one aggregate, a scan at 100,000 orders), and the filtered
 * orders in the list's order in keyset batches after the last (sort value, order number) (platform/
 * keyset.ts), each batch read by a worker on SQLite and on PostgreSQL (where decoding the rows is the cost).
 */
import { sql, type Kysely } from 'kysely';
import type { CostOrderFilter, CostOrderRow } from '@zhyy/shared';
import { offThread } from '../../../db/read-pool.js';
import type { Database } from '../../../db/schema.js';
import { keysetAfter, readAhead, type KeysetKey } from '../../../platform/keyset.js';
import { applyOrderFilters, orderSort, orderSortColumn, sortExpression } from './filters.js';
import { closedExpr, orderTotals, ROW_COLUMNS, toOrderRow, type OrderRecord } from './repo.js';

/** The export's count and sums (in a worker on SQLite; one aggregate row, read in place on PostgreSQL). */
export const exportTotals = offThread('cost.orderTotals', (db: Kysely<Database>, f: CostOrderFilter) => orderTotals(db, f));

/** Sort columns holding numbers (bigint: a string from PostgreSQL, compared as a number in the next batch's key). */
const NUMERIC = new Set(['o.amount', 'o.tax', 'o.line_count', 'o.state']);

/** One batch: the orders after the key in the list's order (filters.ts orderSort; the order number is unique). */
const orderBatch = offThread('cost.orderBatch', async (db: Kysely<Database>, f: CostOrderFilter, after: KeysetKey | null, size: number): Promise<{ rows: CostOrderRow[]; last: KeysetKey | null }> => {
  const s = orderSortColumn(f);
  let q = applyOrderFilters(db.selectFrom('cost_orders as o'), f).select([...ROW_COLUMNS, closedExpr.as('closed')]);
  if (after) q = q.where(keysetAfter(sortExpression(s.column), sql.ref('o.order_no'), s.order, after, s.column === 'o.audited_at'));
  for (const [col, dir] of orderSort(f)) q = q.orderBy(col, dir);
  const rows = (await q.limit(size).execute()) as OrderRecord[];
  const end = rows[rows.length - 1];
  let last: KeysetKey | null = null;
  if (end) {
    const v = s.column === 'total' ? Number(end.amount) + Number(end.tax) : (end[s.column.slice(2) as keyof OrderRecord] as string | number | null);
    last = { v: v !== null && NUMERIC.has(s.column) ? Number(v) : v, t: end.order_no };
  }
  return { rows: rows.map(toOrderRow), last };
}, { postgres: true });

/** The filtered orders in the list's order, batch by batch (the export). */
export function orderBatches(db: Kysely<Database>, f: CostOrderFilter, size = 1000): AsyncIterable<CostOrderRow[]> {
  return readAhead((after) => orderBatch(db, f, after, size), size);
}
