/**
 * Several counts in one statement: `select (q1) as a, (q2) as b, …`, each query selecting one value
 * `n`. The badge calls poll every few seconds for every signed-in user; asked one by one (or "at
 * once" with Promise.all, which on PostgreSQL takes one pooled connection per count) they were most of
 * the statements PostgreSQL ran under 200 polling users (issue 11). One statement is one round trip
 * and one connection, on either engine.
 */
import type { AliasedSelectQueryBuilder, Kysely, SelectQueryBuilder } from 'kysely';

/** A query whose single row has the count as `n` (count(*), or coalesce(sum(…), 0) of a summary). */
export type CountQuery = SelectQueryBuilder<any, any, { n: number | string | bigint | null }>;

export async function countsAtOnce<K extends string>(db: Kysely<any>, queries: Partial<Record<K, CountQuery>>): Promise<Partial<Record<K, number>>> {
  const keys = (Object.keys(queries) as K[]).filter((k) => queries[k]);
  if (!keys.length) return {};
  const selections = keys.map((k) => queries[k]!.as(k) as AliasedSelectQueryBuilder<any, K>);
  const row = (await db.selectNoFrom(selections).executeTakeFirstOrThrow()) as Record<K, unknown>;
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) out[k] = Number(row[k] ?? 0);
  return out;
}
