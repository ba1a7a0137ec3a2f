/**
 * 0053_income_pool_deep (issue 30: any page of the pool under 50 ms at a million invoices).
 *
 * - income_pool_days_count_idx (0024's key and n): a deep page in issue-date order finds its day from the
 *   summary's count per day; with n in the index that count reads the index alone instead of every
 *   summary row of the filter (about 32,000 at a million invoices).
 * - income_invoices_seller_tax_cover_idx (seller_tax_no, issue_date, id and the three amounts): a seller
 *   tax number's invoices in the default order, and their count and sums under a date range, from the
 *   index alone. It replaces income_invoices_seller_idx (seller_tax_no, issue_date, amount_incl), whose
 *   columns it starts with.
 * - income_pool_amounts: the pool's count per amount bucket (amount_key, see AMOUNT_KEY) and kind, kept
 *   exact by triggers on income_invoices as income_pool_days is (an upsert that increments, in the
 *   writing statement's transaction; a move between keys touches the two in key order on PostgreSQL).
 *   A deep page by amount (incl. tax) of the pool, the 其他 list or one kind finds its bucket from the
 *   counts per bucket and is read from that bucket's end of the amount index, skipping at most one
 *   bucket's invoices instead of half a million. Filled from the invoices already there.
 * Then ANALYZE of the tables (as 0021, 0024, 0050), so SQLite's planner knows the new indexes.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The bucket of an amount (分, an integer): its number of digits × 100 + its first two digits (the
 * whole amount below 10), negated for a negative amount. Non-decreasing in the amount, so the buckets
 * in key order hold the invoices in amount order; bucket bounds: modules/income/pool/amounts.ts.
 * The same SQL on both engines (the amount cast to bigint: an integral REAL on SQLite prints as such).
 */
export const AMOUNT_KEY = (a: string) => {
  const pos = `cast(cast(${a} as bigint) as text)`;
  const neg = `cast(-cast(${a} as bigint) as text)`;
  return `(case when ${a} < 0 then -(length(${neg}) * 100 + cast(substr(${neg}, 1, 2) as integer)) else length(${pos}) * 100 + cast(substr(${pos}, 1, 2) as integer) end)`;
};
const KEY = 'amount_key, kind';
const of = (row: 'new' | 'old') => `${AMOUNT_KEY(`${row}.amount_incl`)}, ${row}.kind`;
const upsert = (row: 'new' | 'old', sign: 1 | -1) =>
  `insert into income_pool_amounts (${KEY}, n) values (${of(row)}, ${sign})
      on conflict (${KEY}) do update set n = income_pool_amounts.n + excluded.n;`;
const changed = 'old.amount_incl <> new.amount_incl or old.kind <> new.kind';
const TRIGGERS = ['income_pool_amounts_ins', 'income_pool_amounts_del', 'income_pool_amounts_upd'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('income_pool_days_count_idx')
    .on('income_pool_days')
    .columns(['issue_date', 'kind', 'invoice_state', 'sign_state', 'usage', 'buyer_mismatch', 'n'])
    .execute();
  await db.schema
    .createIndex('income_invoices_seller_tax_cover_idx')
    .on('income_invoices')
    .columns(['seller_tax_no', 'issue_date', 'id', 'amount_excl', 'tax', 'amount_incl'])
    .execute();
  await db.schema.dropIndex('income_invoices_seller_idx').ifExists().execute();

  await db.schema
    .createTable('income_pool_amounts')
    .addColumn('amount_key', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('income_pool_amounts_pk', ['amount_key', 'kind'])
    .execute();
  await sql.raw(`insert into income_pool_amounts (${KEY}, n)
    select k, kind, count(*) from (select ${AMOUNT_KEY('amount_incl')} as k, kind from income_invoices) x group by k, kind`).execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(`create function income_pool_amounts_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${upsert('new', 1)}
      elsif tg_op = 'DELETE' then
        ${upsert('old', -1)}
      elsif (${of('old')}) < (${of('new')}) then
        ${upsert('old', -1)}
        ${upsert('new', 1)}
      else
        ${upsert('new', 1)}
        ${upsert('old', -1)}
      end if;
      return null;
    end $$`).execute(db);
    await sql`create trigger income_pool_amounts_ins after insert on income_invoices for each row execute function income_pool_amounts_sync()`.execute(db);
    await sql`create trigger income_pool_amounts_del after delete on income_invoices for each row execute function income_pool_amounts_sync()`.execute(db);
    await sql.raw(`create trigger income_pool_amounts_upd after update of amount_incl, kind on income_invoices for each row when (${changed}) execute function income_pool_amounts_sync()`).execute(db);
  } else {
    await sql.raw(`create trigger income_pool_amounts_ins after insert on income_invoices begin ${upsert('new', 1)} end`).execute(db);
    await sql.raw(`create trigger income_pool_amounts_del after delete on income_invoices begin ${upsert('old', -1)} end`).execute(db);
    await sql.raw(`create trigger income_pool_amounts_upd after update of amount_incl, kind on income_invoices when ${changed} begin ${upsert('old', -1)} ${upsert('new', 1)} end`).execute(db);
  }
  await sql`analyze income_invoices`.execute(db);
  await sql`analyze income_pool_days`.execute(db);
  await sql`analyze income_pool_amounts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of TRIGGERS) await sql.raw(`drop trigger if exists ${t}${pg ? ' on income_invoices' : ''}`).execute(db);
  if (pg) await sql`drop function if exists income_pool_amounts_sync()`.execute(db);
  await db.schema.dropTable('income_pool_amounts').execute();
  await db.schema.createIndex('income_invoices_seller_idx').on('income_invoices').columns(['seller_tax_no', 'issue_date', 'amount_incl']).execute();
  await db.schema.dropIndex('income_invoices_seller_tax_cover_idx').ifExists().execute();
  await db.schema.dropIndex('income_pool_days_count_idx').ifExists().execute();
}
