/**
 * 0024_income_pool_summary (issue 13, "Demo data and scale"): income_pool_days, the pool's count and sums
 * per issue day, kind, invoice state, sign state, usage and buyer mismatch — the dimensions of the
 * unfiltered pool list, the 其他 list (kinds), a date range, the state filters and the waiting-to-sign
 * list. Kept exact by triggers on income_invoices (insert, delete, and an update that changes one of
 * those columns or an amount): each adds the row to its key and takes it from its old key with an
 * upsert that increments, inside the writing statement's transaction — every write path (arrival, 查验,
 * 采集's state changes, signing, locks, the seeds' bulk inserts) included without calling anything. On
 * PostgreSQL the upsert's row lock serialises concurrent increments of one key; an update that moves a
 * row between keys touches the two keys in key order (no lock-order deadlock between two such moves).
 * Filled from the invoices already there. Read by modules/income/summary.ts.
 *
 * Also an index for the waiting-to-sign list's first page (usage, buyer mismatch, then the default sort
 * issue_date, id): its rows come in order from the index instead of sorting every waiting invoice
 * (SQLite chose income_invoices_waiting_idx and a temporary B-tree: 63 ms → 0.5 ms at 221,600 invoices).
 * Then ANALYZE of the table, so SQLite's planner knows the index (as 0021).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export const KEY_COLUMNS = ['issue_date', 'kind', 'invoice_state', 'sign_state', 'usage', 'buyer_mismatch'] as const;
const keys = KEY_COLUMNS.join(', ');
const of = (row: 'new' | 'old') => KEY_COLUMNS.map((c) => `${row}.${c}`).join(', ');
/** The upsert adding `sign` (1 or -1) times the row `row` to its key. */
const upsert = (row: 'new' | 'old', sign: 1 | -1) => {
  const s = sign === 1 ? '' : '-';
  return `insert into income_pool_days (${keys}, n, amount_excl, tax, amount_incl)
      values (${of(row)}, ${s}1, ${s}${row}.amount_excl, ${s}${row}.tax, ${s}${row}.amount_incl)
      on conflict (${keys}) do update set n = income_pool_days.n + excluded.n, amount_excl = income_pool_days.amount_excl + excluded.amount_excl,
        tax = income_pool_days.tax + excluded.tax, amount_incl = income_pool_days.amount_incl + excluded.amount_incl;`;
};
const WATCHED = [...KEY_COLUMNS, 'amount_excl', 'tax', 'amount_incl'];
const changed = WATCHED.map((c) => `old.${c} <> new.${c}`).join(' or ');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('income_invoices_waiting_date_idx').on('income_invoices').columns(['usage', 'buyer_mismatch', 'issue_date', 'id']).execute();
  await sql`analyze income_invoices`.execute(db);
  await db.schema
    .createTable('income_pool_days')
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('invoice_state', 'integer', (c) => c.notNull())
    .addColumn('sign_state', 'integer', (c) => c.notNull())
    .addColumn('usage', 'integer', (c) => c.notNull())
    .addColumn('buyer_mismatch', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('income_pool_days_pk', [...KEY_COLUMNS])
    .execute();
  await sql`insert into income_pool_days (${sql.raw(keys)}, n, amount_excl, tax, amount_incl)
    select ${sql.raw(keys)}, count(*), coalesce(sum(amount_excl), 0), coalesce(sum(tax), 0), coalesce(sum(amount_incl), 0)
    from income_invoices group by ${sql.raw(keys)}`.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(`create function income_pool_days_sync() returns trigger language plpgsql as $$
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
    await sql`create trigger income_pool_days_ins after insert on income_invoices for each row execute function income_pool_days_sync()`.execute(db);
    await sql`create trigger income_pool_days_del after delete on income_invoices for each row execute function income_pool_days_sync()`.execute(db);
    await sql.raw(`create trigger income_pool_days_upd after update of ${WATCHED.join(', ')} on income_invoices for each row when (${changed}) execute function income_pool_days_sync()`).execute(db);
    return;
  }
  await sql.raw(`create trigger income_pool_days_ins after insert on income_invoices begin ${upsert('new', 1)} end`).execute(db);
  await sql.raw(`create trigger income_pool_days_del after delete on income_invoices begin ${upsert('old', -1)} end`).execute(db);
  await sql.raw(`create trigger income_pool_days_upd after update of ${WATCHED.join(', ')} on income_invoices when ${changed} begin ${upsert('old', -1)} ${upsert('new', 1)} end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of ['income_pool_days_ins', 'income_pool_days_del', 'income_pool_days_upd']) await sql.raw(`drop trigger if exists ${t}${pg ? ' on income_invoices' : ''}`).execute(db);
  if (pg) await sql`drop function if exists income_pool_days_sync()`.execute(db);
  await db.schema.dropTable('income_pool_days').execute();
  await db.schema.dropIndex('income_invoices_waiting_date_idx').execute();
}
