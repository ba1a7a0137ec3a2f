/**
 * 0020_income_signing (issue 13, 发票签收): signing records (one per attempt: applying → signed | failed,
 * later revoked), revocations, the per-month archive-number counter (one row per month, incremented by
 * an upsert in the transaction that records a successful signing: gap-free, never reused), incoming
 * invoices' project allocations and their change history, and the department named on an invoice.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_signings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    // applying, signed, failed, revoked
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('archive_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fail_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  const sx = (name: string, cols: string[]) => db.schema.createIndex(name).on('income_signings').columns(cols).execute();
  await sx('income_signings_invoice_idx', ['invoice_id', 'created_at']);
  await sx('income_signings_state_idx', ['state', 'created_at']);
  await sx('income_signings_doc_idx', ['doc_no']);
  // An archive number is given once, ever.
  await db.schema.createIndex('income_signings_archive_uq').on('income_signings').column('archive_no').unique().where('archive_no', '<>', '').execute();

  await db.schema
    .createTable('income_sign_revokes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('signing_id', 'text', (c) => c.notNull().references('income_signings.id').onDelete('cascade'))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('archive_no', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_sign_revokes_created_idx').on('income_sign_revokes').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('income_sign_revokes_invoice_idx').on('income_sign_revokes').column('invoice_id').execute();

  await db.schema
    .createTable('income_archive_counters')
    .addColumn('month', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('income_invoice_depts')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey().references('income_invoices.id').onDelete('cascade'))
    .addColumn('dept_id', 'text', (c) => c.notNull().references('departments.id'))
    .addColumn('updated_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_invoice_depts_dept_idx').on('income_invoice_depts').column('dept_id').execute();

  await db.schema
    .createTable('income_allocations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('income_allocations_target_uq', ['invoice_id', 'project_id'])
    .execute();
  await db.schema.createIndex('income_allocations_project_idx').on('income_allocations').column('project_id').execute();

  await db.schema
    .createTable('income_allocation_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_project_id', 'text')
    .addColumn('to_project_id', 'text')
    .addColumn('from_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('before', 'text', (c) => c.notNull())
    .addColumn('after', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_allocation_changes_invoice_idx').on('income_allocation_changes').columns(['invoice_id', 'created_at']).execute();
  await db.schema.createIndex('income_allocation_changes_created_idx').on('income_allocation_changes').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['income_allocation_changes', 'income_allocations', 'income_invoice_depts', 'income_archive_counters', 'income_sign_revokes', 'income_signings']) await db.schema.dropTable(t).execute();
}
