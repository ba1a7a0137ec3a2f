/**
 * 0027_buyer_names (issue 11: "buyer name contains" under 50 ms at a million invoices). A company
 * invoices hundreds or thousands of buyers, not a million: the search now finds the matching names
 * among the distinct ones, then reads the invoices of those names from one covering index.
 *
 * - invoice_buyer_names: every buyer name that has appeared on an invoice, kept by triggers on insert
 *   and on a change of buyer_name (a name no longer on any invoice stays: it simply matches nothing).
 *   Searched with LIKE (a few thousand short rows); on PostgreSQL with a pg_trgm GIN index on
 *   lower(name) when the extension can be had, for companies with very many buyers.
 * - invoices_buyer_cover_idx (buyer_name, issue_date, id, status and the three amounts): the ledger's
 *   totals of the matching names read the index alone, and its page reads ids and dates from it.
 *   It replaces invoices_buyer_name_idx (its first column).
 * - 0013's trigram index over every invoice's buyer_name (FTS5 on SQLite, GIN on PostgreSQL) and its
 *   triggers are dropped: nothing reads them now, and each invoice written paid for them.
 *
 * Measured at 1,000,018 invoices with 609 distinct buyers (SQLite file, quiet machine): totals of a
 * 6-character search matching 13,628 invoices 61.5 ms → 6 ms; docs/performance.md has the figures.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { trigramSchema } from './0013_search_index.js';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('invoice_buyer_names').addColumn('name', 'text', (c) => c.primaryKey()).execute();
  await sql`insert into invoice_buyer_names (name) select distinct buyer_name from invoices`.execute(db);
  if (pg) {
    await sql`create function invoice_buyer_names_add() returns trigger language plpgsql as $$
      begin
        insert into invoice_buyer_names (name) values (new.buyer_name) on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger invoice_buyer_names_ai after insert on invoices for each row execute function invoice_buyer_names_add()`.execute(db);
    await sql`create trigger invoice_buyer_names_au after update of buyer_name on invoices for each row
      when (old.buyer_name is distinct from new.buyer_name) execute function invoice_buyer_names_add()`.execute(db);
    await sql`drop index if exists invoices_buyer_trgm_idx`.execute(db);
    const schema = await trigramSchema(db);
    if (schema) await sql`create index invoice_buyer_names_trgm_idx on invoice_buyer_names using gin (lower(name) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  } else {
    await sql`create trigger invoice_buyer_names_ai after insert on invoices begin
      insert into invoice_buyer_names (name) values (new.buyer_name) on conflict do nothing; end`.execute(db);
    await sql`create trigger invoice_buyer_names_au after update of buyer_name on invoices when old.buyer_name is not new.buyer_name begin
      insert into invoice_buyer_names (name) values (new.buyer_name) on conflict do nothing; end`.execute(db);
    for (const t of ['invoices_buyer_fts_ai', 'invoices_buyer_fts_ad', 'invoices_buyer_fts_au']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    await sql`drop table if exists invoices_buyer_fts`.execute(db);
  }
  await db.schema
    .createIndex('invoices_buyer_cover_idx')
    .on('invoices')
    .columns(['buyer_name', 'issue_date', 'id', 'status', 'amount_excl', 'tax', 'amount_incl'])
    .execute();
  await db.schema.dropIndex('invoices_buyer_name_idx').ifExists().execute();
  await sql`analyze invoices`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createIndex('invoices_buyer_name_idx').on('invoices').column('buyer_name').execute();
  await db.schema.dropIndex('invoices_buyer_cover_idx').ifExists().execute();
  if (pg) {
    await sql`drop trigger if exists invoice_buyer_names_ai on invoices`.execute(db);
    await sql`drop trigger if exists invoice_buyer_names_au on invoices`.execute(db);
    await sql`drop function if exists invoice_buyer_names_add()`.execute(db);
  } else {
    for (const t of ['invoice_buyer_names_ai', 'invoice_buyer_names_au']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await db.schema.dropTable('invoice_buyer_names').execute();
}
