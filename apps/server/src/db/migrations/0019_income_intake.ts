/**
 * 0019_income_intake (issue 13, intake): the collection cursor of the background job (the last day
 * collected, one row per cursor name) and the verification history (每次查验: when, who, the answer,
 * the fields that differ). Times ISO UTC text, days YYYY-MM-DD.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_collect_cursor')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_day', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('income_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    // match, mismatch, notFound
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // JSON: [{ field, label, entered, tax }]
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('checks_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_verifications_invoice_idx').on('income_verifications').columns(['invoice_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('income_verifications').execute();
  await db.schema.dropTable('income_collect_cursor').execute();
}
