/**
 * A pool query's rows in the list's order, batch by batch after the last (sort column, id): what the
 * pool, 待签收 and 抵扣勾选 exports stream. Keyset, not offset, so a deep batch costs what the first does.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { PoolFilter } from '@zhyy/shared';
import { poolSort } from './filters.js';
import type { IncomeInvoiceTable } from './tables.js';

export type Key = { v: string | number; id: string };

/** One batch: the rows after the key (from the start when null), and the key of its last row. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function keysetBatch(query: SelectQueryBuilder<any, any, any>, f: Pick<PoolFilter, 'sort'>, after: Key | null, size: number): Promise<{ rows: IncomeInvoiceTable[]; last: Key | null }> {
  const s = poolSort(f);
  const col = s.column.slice(2) as keyof IncomeInvoiceTable;
  let q = query.selectAll('p');
  if (after) {
    const a: Key = after;
    q = q.where(s.order === 'desc' ? sql<boolean>`(${sql.ref(s.column)}, p.id) < (${a.v}, ${a.id})` : sql<boolean>`(${sql.ref(s.column)}, p.id) > (${a.v}, ${a.id})`);
  }
  const rows = (await q.orderBy(s.column, s.order).orderBy('p.id', s.order).limit(size).execute()) as IncomeInvoiceTable[];
  const last = rows[rows.length - 1];
  return { rows, last: last ? { v: last[col] as string | number, id: last.id } : null };
}

/** `query()` gives the filtered query on `income_invoices as p` (a fresh one each batch). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function* keysetBatches(query: () => SelectQueryBuilder<any, any, any>, f: Pick<PoolFilter, 'sort'>, size = 1000): AsyncIterable<IncomeInvoiceTable[]> {
  let after: Key | null = null;
  for (;;) {
    const { rows, last }: { rows: IncomeInvoiceTable[]; last: Key | null } = await keysetBatch(query(), f, after, size);
    if (rows.length) yield rows;
    if (rows.length < size || !last) return;
    after = last;
  }
}
