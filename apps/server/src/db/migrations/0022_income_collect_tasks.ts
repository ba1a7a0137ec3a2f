/**
 * 0022_income_collect_tasks (issue 13, intake): 采集 on demand runs in the background; one row per task
 * with its window, who started it, the lease holder running it, its progress (pages, invoices seen,
 * created, merged, flagged, state changes, failures) and the final message, so any app server can answer
 * `/api/income/pool/collect-progress` and a task whose server died is reported 已中断.
 * Times ISO UTC text, days YYYY-MM-DD.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_collect_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('from_day', 'text', (c) => c.notNull())
    .addColumn('to_day', 'text', (c) => c.notNull())
    // running, done, failed, interrupted
    .addColumn('state', 'text', (c) => c.notNull())
    // The lease holder running it (job_leases 'income'): a running task whose holder no longer holds a live lease is interrupted.
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flagged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state_changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: the first 20 refusals, '<number>：<message>'
    .addColumn('failures', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('income_collect_tasks_state_idx').on('income_collect_tasks').columns(['state', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('income_collect_tasks').execute();
}
