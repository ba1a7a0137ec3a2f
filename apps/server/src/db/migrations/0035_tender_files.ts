/**
 * 0035_tender_files: 投标管理's attachments and settings (issue 17).
 * - tender_attachments: one row per stored file of a tender record (a contract's page, a title's or a
 *   certificate's scan…): owner_kind/owner_id name the record (modules/tender/attachment/owners.ts),
 *   kind its AttachmentType code (0: none in particular); the content is in file storage under
 *   storage_key (platform/storage), never in the database.
 * - tender_settings: key/value (watermark, windowYears, thresholdFen, remindDays as JSON).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tender_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('uploaded_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uploaded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tender_attachments_owner_idx').on('tender_attachments').columns(['owner_kind', 'owner_id', 'kind']).execute();

  await db.schema
    .createTable('tender_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sql`''`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tender_settings').execute();
  await db.schema.dropTable('tender_attachments').execute();
}
