/** Multi-row inserts for seeding: as many rows per INSERT as stay below both engines' bound-parameter limits. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Bound parameters per statement: SQLite allows 32,766, PostgreSQL 65,535. */
const MAX_PARAMS = 30_000;

export async function bulkInsert<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: ReadonlyArray<object>): Promise<void> {
  if (!rows.length) return;
  const size = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(rows[0]!).length));
  for (let k = 0; k < rows.length; k += size) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.insertInto(table).values(rows.slice(k, k + size) as any).execute();
  }
}
