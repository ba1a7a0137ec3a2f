/**
 * 0049_cost_close_digest (issue 32 item 5): a closed cost month can be proven unchanged.
 *
 * `cost_closing_snapshots`: one row per close of a department's month (kept after a reopen, so the next
 * close can list what changed): the month's digest (SHA-256 over the canonical serialisation of its orders,
 * lines and the price rows used; docs/cost.md "Closing digests"), the figures of every order at that close
 * (`orders`, JSON: id, number, project, state, amount, tax, line count, the order's own digest), the totals
 * of the orders in force, the changes against the close before (`changes`, JSON, '' on a first close),
 * who closed and when. The latest row of a department-month is the one a closed month is checked against.
 *
 * Self-contained (frozen): nothing imported from the application.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cost_closing_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dept_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('orders', 'text', (c) => c.notNull())
    .addColumn('order_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tax', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('closed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('closed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cost_closing_snapshots_month').on('cost_closing_snapshots').columns(['dept_id', 'month', 'closed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cost_closing_snapshots').execute();
}
