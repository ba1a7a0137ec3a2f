/**
 * Keyset batches for the streamed exports (报销台账, 成本单台账; the pool and the outgoing ledger build their
 * own conditions and share readAhead): each batch is the rows after the previous batch's last key — its sort value and a
 * unique tie-break column — in the list's own order, so a deep batch costs what the first one does
 * (offset batches re-read every row before theirs). The batches are read one ahead: the next is asked
 * for before this one is handed over, so it is read (in a worker, db/read-pool.ts) while this one is
 * written.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** The last row of a batch: its sort value (null for a row without one, sorted last) and its tie-break value. */
export type KeysetKey = { v: string | number | null; t: string };

/**
 * The rows after `a` in the order `col order, tie order` (rows whose `col` is null last in both
 * directions when `nullable`, as the lists' leading `case when col is null then 1 else 0 end` puts them).
 * The bound on `col` alone lets either database read an index on it as a range.
 */
export function keysetAfter(col: Expression<unknown>, tie: Expression<unknown>, order: 'asc' | 'desc', a: KeysetKey, nullable = false): RawBuilder<SqlBool> {
  const lt = sql.raw(order === 'desc' ? '<' : '>');
  const le = sql.raw(order === 'desc' ? '<=' : '>=');
  if (a.v === null) return sql<SqlBool>`(${col} is null and ${tie} ${lt} ${a.t})`;
  const beyond = sql<SqlBool>`(${col} ${le} ${a.v} and (${col} ${lt} ${a.v} or ${tie} ${lt} ${a.t}))`;
  return nullable ? sql<SqlBool>`(${beyond} or ${col} is null)` : beyond;
}

/**
 * Every batch `read` gives, from the start (`after` null) to the first short one, each asked for before
 * the previous one is handed over. A batch read ahead and then abandoned (the client went away) must
 * not reject unheard.
 */
export async function* readAhead<R, K = KeysetKey>(read: (after: K | null) => Promise<{ rows: R[]; last: K | null }>, size: number): AsyncIterable<R[]> {
  const ask = (after: K | null) => {
    const p = read(after);
    p.catch(() => undefined);
    return p;
  };
  let next = ask(null);
  for (;;) {
    const { rows, last } = await next;
    const more = rows.length === size && last !== null;
    if (more) next = ask(last);
    if (rows.length) yield rows;
    if (!more) return;
  }
}
