/**
 * 0013_search_index (issue 11): a trigram index for "buyer name contains" on the invoices, so the
 * ledger's search reads the matching rows instead of scanning a million (docs/performance.md).
 *
 * - SQLite: invoices_buyer_fts, an FTS5 table with the trigram tokenizer over invoices.buyer_name
 *   (external content: it holds only the index), kept in step by triggers on insert, delete and a
 *   change of buyer_name. It answers searches of 3 characters or more; shorter ones use LIKE alone.
 * - PostgreSQL: a GIN index on lower(buyer_name) with pg_trgm's operator class, which LIKE
 *   '%…%' uses by itself. Creating the extension may need a superuser: when it cannot be created
 *   (and is not there already), the migration goes on without the index and LIKE scans as before.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const schema = await trigramSchema(db);
    if (schema) await sql`create index invoices_buyer_trgm_idx on invoices using gin (lower(buyer_name) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table invoices_buyer_fts using fts5(buyer_name, content='invoices', tokenize='trigram')`.execute(db);
  await sql`insert into invoices_buyer_fts(invoices_buyer_fts) values ('rebuild')`.execute(db);
  await sql`create trigger invoices_buyer_fts_ai after insert on invoices begin
    insert into invoices_buyer_fts(rowid, buyer_name) values (new.rowid, new.buyer_name); end`.execute(db);
  await sql`create trigger invoices_buyer_fts_ad after delete on invoices begin
    insert into invoices_buyer_fts(invoices_buyer_fts, rowid, buyer_name) values ('delete', old.rowid, old.buyer_name); end`.execute(db);
  await sql`create trigger invoices_buyer_fts_au after update of buyer_name on invoices begin
    insert into invoices_buyer_fts(invoices_buyer_fts, rowid, buyer_name) values ('delete', old.rowid, old.buyer_name);
    insert into invoices_buyer_fts(rowid, buyer_name) values (new.rowid, new.buyer_name); end`.execute(db);
}

/** The schema pg_trgm lives in, creating it (in public) when allowed; null when it cannot be had. */
export async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const find = async () =>
    (await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.nspname ?? null;
  const found = await find();
  if (found) return found;
  // A savepoint: a refused CREATE EXTENSION must not abort the migration's transaction.
  await sql`savepoint trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint trgm`.execute(db);
    return null;
  }
  return find();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists invoices_buyer_trgm_idx`.execute(db);
    return;
  }
  for (const t of ['invoices_buyer_fts_ai', 'invoices_buyer_fts_ad', 'invoices_buyer_fts_au']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  await sql`drop table if exists invoices_buyer_fts`.execute(db);
}
