/**
 * "Buyer name contains" on `invoices as i`, through the trigram index of migration 0013: on
 * PostgreSQL the GIN index (pg_trgm) on lower(buyer_name) serves the LIKE itself; on SQLite the
 * FTS5 trigram table narrows the rows first for searches of 3 characters or more (the trigram's
 * minimum), and the LIKE then decides, so the answer is the LIKE's on both engines, index or not.
 */
import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import { contains } from '../../platform/listing.js';

export const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/** The FTS5 phrase for a literal substring ("" escapes a double quote inside it). */
export const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function buyerNameContains(db: Kysely<any>, text: string): RawBuilder<boolean> {
  const like = contains(sql.ref('i.buyer_name'), text);
  if (!isSqlite(db) || [...text].length < 3) return like;
  return sql<boolean>`(i.rowid in (select rowid from invoices_buyer_fts where invoices_buyer_fts match ${ftsPhrase(text)}) and ${like})`;
}
