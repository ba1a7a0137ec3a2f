/**
 * 0051_reimb_summary_cells (issue 30: 部门月度报销汇总 under 100 ms at 100,000 bills). The pivot reads two
 * small tables instead of grouping the pushed bills' lines on every call:
 *
 * - reimb_summary_cells: per department × voucher month × category code × category name, the approved
 *   amount (coalesce(approved_amount, amount)) and the number of lines of the pushed bills (reimb_state 1).
 * - reimb_summary_bills: per department × voucher month × the bill's department name, the number of
 *   pushed bills.
 *
 * The department is `coalesce(dept_id, '')`, the month `substr(voucher_date, 1, 7)`. The names are part
 * of the keys so that the view's max(name) stays exact when bills leave. A key whose bills all left keeps
 * a row of zeros (the reads skip rows whose count is 0).
 *
 * Kept exact by triggers (as 0024 / 0050 keep the invoice pool's summaries), in the writing statement's
 * transaction, because the writes are scattered: the push (accounting/service.ts succeed), the push
 * settling job, 撤销 after deleting the voucher, 红字冲销 and its settling job, the seeds, and anything
 * that changes a line of a pushed bill. On reimb_bills: insert, update of the state / voucher date /
 * department, and a BEFORE delete of a pushed bill that deletes its lines first (their triggers take them
 * off while the bill still counts). On reimb_lines: insert, delete, update of the bill / category /
 * amounts. Each trigger writes each table in one statement whose rows are grouped and ordered by key, so
 * that on PostgreSQL concurrent writers lock the summary rows in the same order (bills table first).
 * Filled from the rows already there. Then ANALYZE.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type Row = 'old' | 'new';
type Part = { row: Row; sign: 1 | -1 };
const CELL_KEYS = 'dept_key, month, category_code, category_name';
const BILL_KEYS = 'dept_key, month, dept_name';
const minus = (sign: 1 | -1) => (sign === 1 ? '' : '-');

const upsertCells = (select: string) => `insert into reimb_summary_cells (${CELL_KEYS}, amount, lines)
    select ${CELL_KEYS}, sum(amount), sum(lines) from (${select}) x where true group by ${CELL_KEYS} order by ${CELL_KEYS}
    on conflict (${CELL_KEYS}) do update set amount = reimb_summary_cells.amount + excluded.amount, lines = reimb_summary_cells.lines + excluded.lines;`;

/** A bill's own count, taken off (old) and / or put on (new) where the bill is pushed. */
const billCount = (parts: Part[]) => `insert into reimb_summary_bills (${BILL_KEYS}, bills)
    select ${BILL_KEYS}, sum(bills) from (${parts
      .map((p) => `select coalesce(${p.row}.dept_id, '') as dept_key, substr(${p.row}.voucher_date, 1, 7) as month, ${p.row}.dept_name as dept_name, ${p.sign} as bills where ${p.row}.reimb_state = 1`)
      .join(' union all ')}) x where true group by ${BILL_KEYS} order by ${BILL_KEYS}
    on conflict (${BILL_KEYS}) do update set bills = reimb_summary_bills.bills + excluded.bills;`;

/** A bill's lines, taken off (old) and / or put on (new) under the bill's key where it is pushed. */
const billLines = (parts: Part[]) =>
  upsertCells(
    parts
      .map(
        (p) => `select coalesce(${p.row}.dept_id, '') as dept_key, substr(${p.row}.voucher_date, 1, 7) as month, l.category_code, l.category_name,
        ${minus(p.sign)}coalesce(l.approved_amount, l.amount) as amount, ${p.sign} as lines from reimb_lines l where l.bill_id = ${p.row}.id and ${p.row}.reimb_state = 1`,
      )
      .join(' union all '),
  );

/** A line, taken off (old) and / or put on (new) under its bill's key where the bill is pushed. */
const oneLine = (parts: Part[]) =>
  upsertCells(
    parts
      .map(
        (p) => `select coalesce(b.dept_id, '') as dept_key, substr(b.voucher_date, 1, 7) as month, ${p.row}.category_code as category_code, ${p.row}.category_name as category_name,
        ${minus(p.sign)}coalesce(${p.row}.approved_amount, ${p.row}.amount) as amount, ${p.sign} as lines from reimb_bills b where b.id = ${p.row}.bill_id and b.reimb_state = 1`,
      )
      .join(' union all '),
  );

const OLD: Part = { row: 'old', sign: -1 };
const NEW: Part = { row: 'new', sign: 1 };
const BILL_WATCHED = ['reimb_state', 'voucher_date', 'dept_id', 'dept_name'];
const LINE_WATCHED = ['bill_id', 'category_code', 'category_name', 'amount', 'approved_amount'];
const changed = (cols: string[]) => cols.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
const BILL_UPDATE_WHEN = `(old.reimb_state = 1 or new.reimb_state = 1) and (${changed(BILL_WATCHED)})`;

/** The statements of each trigger: [name, table, timing and event, when, body]. */
const TRIGGERS: Array<[string, string, string, string, string]> = [
  ['reimb_summary_bill_ins', 'reimb_bills', 'after insert', 'new.reimb_state = 1', billCount([NEW]) + billLines([NEW])],
  ['reimb_summary_bill_upd', 'reimb_bills', `after update of ${BILL_WATCHED.join(', ')}`, BILL_UPDATE_WHEN, billCount([OLD, NEW]) + billLines([OLD, NEW])],
  ['reimb_summary_bill_del', 'reimb_bills', 'before delete', 'old.reimb_state = 1', `delete from reimb_lines where bill_id = old.id; ${billCount([OLD])}`],
  ['reimb_summary_line_ins', 'reimb_lines', 'after insert', '', oneLine([NEW])],
  ['reimb_summary_line_upd', 'reimb_lines', `after update of ${LINE_WATCHED.join(', ')}`, changed(LINE_WATCHED), oneLine([OLD, NEW])],
  ['reimb_summary_line_del', 'reimb_lines', 'after delete', '', oneLine([OLD])],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reimb_summary_cells')
    .addColumn('dept_key', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('category_name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reimb_summary_cells_pk', ['dept_key', 'month', 'category_code', 'category_name'])
    .execute();
  await db.schema
    .createTable('reimb_summary_bills')
    .addColumn('dept_key', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('dept_name', 'text', (c) => c.notNull())
    .addColumn('bills', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reimb_summary_bills_pk', ['dept_key', 'month', 'dept_name'])
    .execute();
  // The month first: every read is a month range (and maybe departments).
  await db.schema.createIndex('reimb_summary_cells_month_idx').on('reimb_summary_cells').columns(['month', 'dept_key']).execute();
  await db.schema.createIndex('reimb_summary_bills_month_idx').on('reimb_summary_bills').columns(['month', 'dept_key']).execute();

  await sql`insert into reimb_summary_cells (dept_key, month, category_code, category_name, amount, lines)
    select coalesce(b.dept_id, ''), substr(b.voucher_date, 1, 7), l.category_code, l.category_name, sum(coalesce(l.approved_amount, l.amount)), count(*)
    from reimb_bills b join reimb_lines l on l.bill_id = b.id where b.reimb_state = 1
    group by coalesce(b.dept_id, ''), substr(b.voucher_date, 1, 7), l.category_code, l.category_name`.execute(db);
  await sql`insert into reimb_summary_bills (dept_key, month, dept_name, bills)
    select coalesce(dept_id, ''), substr(voucher_date, 1, 7), dept_name, count(*) from reimb_bills where reimb_state = 1
    group by coalesce(dept_id, ''), substr(voucher_date, 1, 7), dept_name`.execute(db);

  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name, table, event, when, body] of TRIGGERS) {
    if (pg) {
      const ret = event.startsWith('before') ? 'old' : 'null';
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return ${ret}; end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when ? `when (${when})` : ''} execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when ? `when ${when}` : ''} begin ${body} end`).execute(db);
    }
  }
  await sql`analyze reimb_summary_cells`.execute(db);
  await sql`analyze reimb_summary_bills`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name, table] of TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name}${pg ? ` on ${table}` : ''}`).execute(db);
    if (pg) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable('reimb_summary_bills').execute();
  await db.schema.dropTable('reimb_summary_cells').execute();
}
