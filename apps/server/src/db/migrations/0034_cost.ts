/**
 * 0034_cost: 成本管理 (issue 16). The price list (cost_prices), monthly cost orders (cost_orders) with
 * their lines and log, auditor assignments, month closings with their log, the number counters and
 * key/value settings (the project-management system's interface). Money is integer 分; unit prices and
 * quantities decimal text (up to 8 and 4 places); months 'YYYY-MM'; days 'YYYY-MM-DD'; timestamps ISO
 * UTC text.
 *
 * Enforced by the database, whatever the service does:
 * - Windows of one item, spec and unit never overlap (an empty end is open): a trigger refuses the row
 *   with 'cost_price_overlap'. On PostgreSQL the trigger first takes a transaction advisory lock on the
 *   item's key, so two concurrent saves of the same item are checked one after the other; SQLite has
 *   one writer.
 * - One live order per month, department and project: a unique index over the orders not invalid (2).
 * - An order number once; a project-management push (pms_ref) once.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export const PRICE_OVERLAP = 'cost_price_overlap';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('cost_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_code', 'text', (c) => c.notNull())
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'text', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('valid_from', 'text', (c) => c.notNull())
    // null: open-ended.
    .addColumn('valid_to', 'text')
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cost_prices_key_idx').on('cost_prices').columns(['item_code', 'spec', 'unit', 'valid_from']).execute();
  await db.schema.createIndex('cost_prices_category_idx').on('cost_prices').columns(['category', 'item_code']).execute();

  if (pg) {
    await sql`
      create function cost_prices_no_overlap() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('cost_price:' || new.item_code || '|' || new.spec || '|' || new.unit));
        if exists (
          select 1 from cost_prices p
          where p.item_code = new.item_code and p.spec = new.spec and p.unit = new.unit and p.id <> new.id
            and p.valid_from <= coalesce(new.valid_to, '9999-12-31') and new.valid_from <= coalesce(p.valid_to, '9999-12-31')
        ) then
          raise exception '${sql.raw(PRICE_OVERLAP)}' using errcode = '23P01';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger cost_prices_no_overlap before insert or update on cost_prices for each row execute function cost_prices_no_overlap()`.execute(db);
  } else {
    for (const [name, event] of [['cost_prices_no_overlap_ins', 'insert'], ['cost_prices_no_overlap_upd', 'update']] as const) {
      await sql`
        create trigger ${sql.raw(name)} before ${sql.raw(event)} on cost_prices
        when exists (
          select 1 from cost_prices p
          where p.item_code = new.item_code and p.spec = new.spec and p.unit = new.unit and p.id <> new.id
            and p.valid_from <= coalesce(new.valid_to, '9999-12-31') and new.valid_from <= coalesce(p.valid_to, '9999-12-31')
        )
        begin select raise(abort, '${sql.raw(PRICE_OVERLAP)}'); end`.execute(db);
    }
  }

  await db.schema
    .createTable('cost_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('dept_id', 'text', (c) => c.notNull().references('departments.id'))
    .addColumn('dept_name', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('project_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_name', 'text', (c) => c.notNull())
    // CostOrderSource: pms, import, entry.
    .addColumn('source', 'text', (c) => c.notNull())
    // CostOrderState: 0 待审核, 1 已审核, 2 已作废.
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_reason', 'text', (c) => c.notNull().defaultTo(''))
    // Sums of the rounded lines, kept by the service whenever the lines change (never typed).
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tax', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    // The project-management system's id of a pushed order ('' for the others).
    .addColumn('pms_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audited_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audited_at', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index cost_orders_live_uq on cost_orders (month, dept_id, project_id) where state <> 2`.execute(db);
  await sql`create unique index cost_orders_pms_uq on cost_orders (pms_ref) where pms_ref <> ''`.execute(db);
  await db.schema.createIndex('cost_orders_month_idx').on('cost_orders').columns(['month', 'dept_id']).execute();
  await db.schema.createIndex('cost_orders_state_idx').on('cost_orders').columns(['state', 'dept_id', 'month']).execute();
  await db.schema.createIndex('cost_orders_project_idx').on('cost_orders').columns(['project_id', 'month']).execute();
  await db.schema.createIndex('cost_orders_created_idx').on('cost_orders').columns(['created_at']).execute();

  await db.schema
    .createTable('cost_order_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('cost_orders.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    // The window the price was copied from (null if that window was deleted since; the copy stands).
    .addColumn('price_id', 'text', (c) => c.references('cost_prices.id').onDelete('set null'))
    .addColumn('item_code', 'text', (c) => c.notNull())
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'text', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('price_from', 'text', (c) => c.notNull())
    .addColumn('price_to', 'text')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('cost_order_lines_order_idx').on('cost_order_lines').columns(['order_id', 'line_no']).execute();
  await db.schema.createIndex('cost_order_lines_item_idx').on('cost_order_lines').columns(['item_code', 'order_id']).execute();
  await db.schema.createIndex('cost_order_lines_price_idx').on('cost_order_lines').column('price_id').execute();

  await db.schema
    .createTable('cost_order_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('cost_orders.id').onDelete('cascade'))
    // create, edit, reprice, audit, invalid, import, pms
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cost_order_logs_order_idx').on('cost_order_logs').columns(['order_id', 'created_at']).execute();

  await db.schema
    .createTable('cost_auditors')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('dept_id', 'text', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('cost_auditors_pk', ['user_id', 'dept_id'])
    .execute();
  await db.schema.createIndex('cost_auditors_dept_idx').on('cost_auditors').column('dept_id').execute();

  await db.schema
    .createTable('cost_closings')
    .addColumn('dept_id', 'text', (c) => c.notNull().references('departments.id'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('closed_by', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cost_closings_pk', ['dept_id', 'month'])
    .execute();
  await db.schema
    .createTable('cost_closing_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dept_id', 'text', (c) => c.notNull())
    .addColumn('dept_name', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    // close, reopen
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cost_closing_logs_month_idx').on('cost_closing_logs').columns(['month', 'created_at']).execute();

  await db.schema
    .createTable('cost_counters')
    .addColumn('month', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('cost_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['cost_settings', 'cost_counters', 'cost_closing_logs', 'cost_closings', 'cost_auditors', 'cost_order_logs', 'cost_order_lines', 'cost_orders', 'cost_prices']) await db.schema.dropTable(t).ifExists().execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function if exists cost_prices_no_overlap()`.execute(db);
}
