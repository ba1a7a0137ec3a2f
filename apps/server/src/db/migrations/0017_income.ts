/**
 * 0017_income (issue 13): the incoming-invoice pool. One row per invoice (unique identity key:
 * the 20-digit 数电 number, else 发票代码 + 发票号码), its lines, its files (content in the
 * content-addressed invoice_blobs of migration 0004), its history events and its usage locks (at most
 * one active lock per invoice: a partial unique index). Money is BIGINT 分, times ISO UTC text,
 * issue_date the invoice's day (YYYY-MM-DD). Indexes on what the pool lists filter on.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ident', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('invoice_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invoice_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digital_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('seller_tax_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_tax_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('check_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invoice_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('red_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('risk_level', 'text', (c) => c.notNull().defaultTo('01'))
    .addColumn('verify_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verified_at', 'text')
    .addColumn('sign_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archive_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('booking_state', 'text', (c) => c.notNull().defaultTo('01'))
    .addColumn('source', 'integer', (c) => c.notNull())
    // The usage lock: 0 available, 1 locked, 2 closed; the holder's kind and document number.
    .addColumn('usage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_kind', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('doc_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_mismatch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicate_of', 'text')
    .addColumn('arrivals', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const ix = (name: string, cols: string[]) => db.schema.createIndex(name).on('income_invoices').columns(cols).execute();
  await db.schema.createIndex('income_invoices_ident_uq').on('income_invoices').column('ident').unique().execute();
  await ix('income_invoices_date_idx', ['issue_date', 'id']);
  await ix('income_invoices_kind_date_idx', ['kind', 'issue_date', 'id']);
  await ix('income_invoices_seller_idx', ['seller_tax_no', 'issue_date', 'amount_incl']);
  await ix('income_invoices_seller_name_idx', ['seller_name']);
  await ix('income_invoices_no_idx', ['invoice_no']);
  await ix('income_invoices_digital_idx', ['digital_no']);
  await ix('income_invoices_amount_idx', ['amount_incl', 'id']);
  await ix('income_invoices_state_idx', ['invoice_state', 'issue_date']);
  await ix('income_invoices_risk_idx', ['risk_level', 'issue_date']);
  await ix('income_invoices_verify_idx', ['verify_state', 'issue_date']);
  await ix('income_invoices_sign_idx', ['sign_state', 'issue_date']);
  await ix('income_invoices_usage_idx', ['usage', 'issue_date']);
  await ix('income_invoices_doc_idx', ['doc_no']);
  await ix('income_invoices_archive_idx', ['archive_no']);
  await ix('income_invoices_source_idx', ['source', 'issue_date']);
  await ix('income_invoices_booking_idx', ['booking_state', 'issue_date']);

  await db.schema
    .createTable('income_invoice_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_price', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('income_invoice_lines_no_uq', ['invoice_id', 'line_no'])
    .execute();

  await db.schema
    .createTable('income_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().references('invoice_blobs.sha256'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('income_files_content_uq', ['invoice_id', 'sha256'])
    .execute();
  await db.schema.createIndex('income_files_sha_idx').on('income_files').column('sha256').execute();

  await db.schema
    .createTable('income_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_events_invoice_idx').on('income_events').columns(['invoice_id', 'created_at']).execute();

  await db.schema
    .createTable('income_locks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('use_kind', 'text', (c) => c.notNull())
    .addColumn('doc_no', 'text', (c) => c.notNull())
    // locked, closed or released; `active` is 1 while locked or closed, null once released.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('active', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  // One active use per invoice, whatever the path that writes it.
  await db.schema.createIndex('income_locks_active_uq').on('income_locks').column('invoice_id').unique().where(sql.ref('active'), '=', 1).execute();
  await db.schema.createIndex('income_locks_doc_idx').on('income_locks').columns(['doc_no', 'use_kind']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['income_locks', 'income_events', 'income_files', 'income_invoice_lines', 'income_invoices']) await db.schema.dropTable(t).execute();
}
