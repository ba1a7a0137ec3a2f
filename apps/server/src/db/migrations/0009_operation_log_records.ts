/**
 * The record an operation concerns (kind and id, e.g. an invoice), so a record's history is read
 * through an index instead of searching the log's text.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('operation_logs').addColumn('record_kind', 'text').execute();
  await db.schema.alterTable('operation_logs').addColumn('record_id', 'text').execute();
  await db.schema.createIndex('operation_logs_record_idx').on('operation_logs').columns(['record_kind', 'record_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operation_logs_record_idx').execute();
  await db.schema.alterTable('operation_logs').dropColumn('record_id').execute();
  await db.schema.alterTable('operation_logs').dropColumn('record_kind').execute();
}
