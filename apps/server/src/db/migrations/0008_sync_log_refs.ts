/**
 * The business keys an exchange with an outside system concerns (order numbers, serial numbers,
 * bill ids…), so a sync log can be filtered by record through an index instead of searching bodies.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_log_refs')
    .addColumn('sync_log_id', 'text', (c) => c.notNull().references('sync_logs.id').onDelete('cascade'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_log_refs_pk', ['sync_log_id', 'ref'])
    .execute();
  await db.schema.createIndex('sync_log_refs_ref_idx').on('sync_log_refs').columns(['ref', 'sync_log_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_log_refs').execute();
}
