/**
 * 0038_tender_exports: the tender file export jobs (投标文件导出) and what each one holds, and the size,
 * hash and item count of an exported or downloaded file in the file export log.
 *
 * - tender_exports: one row per export; state queued → running → done | failed. A job is run under the
 *   lease 'tender-export:<id>' (job_leases, platform/leases.ts); `attempt` is raised each time a runner
 *   claims it and fences the runner's writes (progress and the final state are written only by the
 *   attempt that holds it), so a runner that lost its lease can never finish a job another one started anew.
 * - tender_export_items: the contracts, certificates and titles an export holds, in order (the export
 *   statistic counts them per month).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tender_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // performance | certificate
    .addColumn('kind', 'text', (c) => c.notNull())
    // pdf | zip
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // JSON: the export's options (watermark, the tender's deadline…), read by its resolver.
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    // queued | running | done | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('step', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text')
    .addColumn('size', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('item_count', 'integer', (c) => c.notNull())
    .addColumn('page_count', 'integer')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  // The runner looks for work by state; the list shows a user's exports, newest first.
  await db.schema.createIndex('tender_exports_state_idx').on('tender_exports').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('tender_exports_user_idx').on('tender_exports').columns(['created_by', 'created_at']).execute();

  await db.schema
    .createTable('tender_export_items')
    .addColumn('export_id', 'text', (c) => c.notNull().references('tender_exports.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    // contract | certificate | title
    .addColumn('item_kind', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tender_export_items_pk', ['export_id', 'position'])
    .execute();
  await db.schema.createIndex('tender_export_items_item_idx').on('tender_export_items').columns(['item_kind', 'item_id']).execute();

  await db.schema.alterTable('file_export_logs').addColumn('size', 'bigint').execute();
  await db.schema.alterTable('file_export_logs').addColumn('sha256', 'text').execute();
  await db.schema.alterTable('file_export_logs').addColumn('item_count', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('file_export_logs').dropColumn('item_count').execute();
  await db.schema.alterTable('file_export_logs').dropColumn('sha256').execute();
  await db.schema.alterTable('file_export_logs').dropColumn('size').execute();
  await db.schema.dropTable('tender_export_items').execute();
  await db.schema.dropTable('tender_exports').execute();
}
