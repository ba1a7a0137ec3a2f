/**
 * 0050_income_seller_names (issue 30: the pool's "seller name contains" under 50 ms at a million
 * invoices). A company buys from hundreds of sellers, not a million: the search now finds the matching
 * names among the distinct ones, and the totals of those names come from a small summary.
 *
 * - income_pool_sellers: the pool's count and three sums per seller name × kind × invoice state × sign
 *   state × usage × buyer mismatch (0024's dimensions without the day), kept exact by triggers on
 *   income_invoices exactly as income_pool_days is (an upsert that increments, in the writing statement's
 *   transaction; an update that moves a row between keys touches the two keys in key order on
 *   PostgreSQL). Its distinct seller names are the names searched; a name whose invoices are all gone
 *   keeps rows of zero and matches nothing. Filled from the invoices already there.
 * - income_invoices_seller_cover_idx (seller_name, issue_date, id and the three amounts): the invoices of
 *   the matching names in the default order, and their sums under a date range, from the index alone.
 *   It replaces income_invoices_seller_name_idx (its first column).
 * Then ANALYZE of both tables (as 0021, 0024).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export const SELLER_KEY_COLUMNS = ['seller_name', 'kind', 'invoice_state', 'sign_state', 'usage', 'buyer_mismatch'] as const;
const keys = SELLER_KEY_COLUMNS.join(', ');
const of = (row: 'new' | 'old') => SELLER_KEY_COLUMNS.map((c) => `${row}.${c}`).join(', ');
const upsert = (row: 'new' | 'old', sign: 1 | -1) => {
  const s = sign === 1 ? '' : '-';
  return `insert into income_pool_sellers (${keys}, n, amount_excl, tax, amount_incl)
      values (${of(row)}, ${s}1, ${s}${row}.amount_excl, ${s}${row}.tax, ${s}${row}.amount_incl)
      on conflict (${keys}) do update set n = income_pool_sellers.n + excluded.n, amount_excl = income_pool_sellers.amount_excl + excluded.amount_excl,
        tax = income_pool_sellers.tax + excluded.tax, amount_incl = income_pool_sellers.amount_incl + excluded.amount_incl;`;
};
const WATCHED = [...SELLER_KEY_COLUMNS, 'amount_excl', 'tax', 'amount_incl'];
const changed = WATCHED.map((c) => `old.${c} <> new.${c}`).join(' or ');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_pool_sellers')
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('invoice_state', 'integer', (c) => c.notNull())
    .addColumn('sign_state', 'integer', (c) => c.notNull())
    .addColumn('usage', 'integer', (c) => c.notNull())
    .addColumn('buyer_mismatch', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('income_pool_sellers_pk', [...SELLER_KEY_COLUMNS])
    .execute();
  await sql`insert into income_pool_sellers (${sql.raw(keys)}, n, amount_excl, tax, amount_incl)
    select ${sql.raw(keys)}, count(*), coalesce(sum(amount_excl), 0), coalesce(sum(tax), 0), coalesce(sum(amount_incl), 0)
    from income_invoices group by ${sql.raw(keys)}`.execute(db);
  await db.schema
    .createIndex('income_invoices_seller_cover_idx')
    .on('income_invoices')
    .columns(['seller_name', 'issue_date', 'id', 'amount_excl', 'tax', 'amount_incl'])
    .execute();
  await db.schema.dropIndex('income_invoices_seller_name_idx').ifExists().execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(`create function income_pool_sellers_sync() returns trigger language plpgsql as $$
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
    await sql`create trigger income_pool_sellers_ins after insert on income_invoices for each row execute function income_pool_sellers_sync()`.execute(db);
    await sql`create trigger income_pool_sellers_del after delete on income_invoices for each row execute function income_pool_sellers_sync()`.execute(db);
    await sql.raw(`create trigger income_pool_sellers_upd after update of ${WATCHED.join(', ')} on income_invoices for each row when (${changed}) execute function income_pool_sellers_sync()`).execute(db);
  } else {
    await sql.raw(`create trigger income_pool_sellers_ins after insert on income_invoices begin ${upsert('new', 1)} end`).execute(db);
    await sql.raw(`create trigger income_pool_sellers_del after delete on income_invoices begin ${upsert('old', -1)} end`).execute(db);
    await sql.raw(`create trigger income_pool_sellers_upd after update of ${WATCHED.join(', ')} on income_invoices when ${changed} begin ${upsert('old', -1)} ${upsert('new', 1)} end`).execute(db);
  }
  await sql`analyze income_invoices`.execute(db);
  await sql`analyze income_pool_sellers`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of ['income_pool_sellers_ins', 'income_pool_sellers_del', 'income_pool_sellers_upd']) await sql.raw(`drop trigger if exists ${t}${pg ? ' on income_invoices' : ''}`).execute(db);
  if (pg) await sql`drop function if exists income_pool_sellers_sync()`.execute(db);
  await db.schema.createIndex('income_invoices_seller_name_idx').on('income_invoices').column('seller_name').execute();
  await db.schema.dropIndex('income_invoices_seller_cover_idx').ifExists().execute();
  await db.schema.dropTable('income_pool_sellers').execute();
}
