/**
 * 0005_taxsim: the tax service simulator's own state (prefix taxsim_), so that invoices in progress,
 * red-letter confirmations and the re-issue counters survive a restart. These tables are the
 * simulated service's, not the platform's: the invoice module never reads them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('taxsim_invoices')
    .addColumn('serial_no', 'text', (c) => c.primaryKey())
    .addColumn('seller_tax_number', 'text', (c) => c.notNull())
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('colour', 'integer', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('next_at', 'text', (c) => c.notNull())
    .addColumn('fail_stage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fail_cause', 'text')
    .addColumn('invoice_no', 'text')
    .addColumn('invoice_code', 'text')
    .addColumn('all_electronic_no', 'text')
    .addColumn('issued_at', 'text')
    .addColumn('amount_excluding_tax', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_including_tax', 'bigint', (c) => c.notNull())
    .addColumn('pdf', 'text')
    .addColumn('xml', 'text')
    .addColumn('reissue_day', 'text')
    .addColumn('reissue_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('taxsim_invoices_order_uq', ['seller_tax_number', 'order_no'])
    .execute();
  await db.schema.createIndex('taxsim_invoices_number_idx').on('taxsim_invoices').column('invoice_no').execute();
  await db.schema.createIndex('taxsim_invoices_status_idx').on('taxsim_invoices').columns(['status', 'next_at']).execute();

  await db.schema
    .createTable('taxsim_red_confirms')
    .addColumn('bill_id', 'text', (c) => c.primaryKey())
    .addColumn('seller_tax_number', 'text', (c) => c.notNull())
    .addColumn('bill_no', 'text', (c) => c.notNull())
    .addColumn('confirm_no', 'text')
    .addColumn('applicant', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_at', 'text', (c) => c.notNull())
    .addColumn('blue_serial_no', 'text', (c) => c.notNull())
    .addColumn('blue_invoice_no', 'text', (c) => c.notNull())
    .addColumn('blue_issue_date', 'text', (c) => c.notNull())
    .addColumn('red_reason', 'integer', (c) => c.notNull())
    .addColumn('vat_usage', 'integer')
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_tax_number', 'text')
    .addColumn('amount_excluding_tax', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('red_order_no', 'text', (c) => c.notNull())
    .addColumn('red_serial_no', 'text')
    .addColumn('fail_cause', 'text')
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxsim_red_confirms_bill_no_idx').on('taxsim_red_confirms').columns(['seller_tax_number', 'bill_no']).execute();
  await db.schema.createIndex('taxsim_red_confirms_blue_idx').on('taxsim_red_confirms').column('blue_serial_no').execute();
  await db.schema.createIndex('taxsim_red_confirms_applied_idx').on('taxsim_red_confirms').column('applied_at').execute();

  await db.schema
    .createTable('taxsim_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('serial_no', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('mobile', 'text')
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxsim_deliveries_serial_idx').on('taxsim_deliveries').column('serial_no').execute();

  await db.schema
    .createTable('taxsim_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['taxsim_counters', 'taxsim_deliveries', 'taxsim_red_confirms', 'taxsim_invoices']) await db.schema.dropTable(t).execute();
}
