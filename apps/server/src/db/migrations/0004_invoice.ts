/**
 * Outgoing invoices, part 1 (issue 6): projects and contracts (reference tables the tender area
 * extends), buyers, invoice settings and the tax classification codes, invoices with their lines and
 * files (content-addressed blobs), red-letter confirmations (integer ids) and cancellations.
 * Money is BIGINT 分, decimals are text, times ISO UTC text; the invoice's `issue_date` is its
 * Asia/Shanghai day (YYYY-MM-DD), the key of the ledgers' date filters (issue 7).
 */
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('is_temp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_name_idx').on('projects').column('name').execute();

  await db.schema
    .createTable('contracts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_id', 'text', (c) => c.references('projects.id'))
    .addColumn('contract_type', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('is_temp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contracts_project_idx').on('contracts').column('project_id').execute();
  await db.schema.createIndex('contracts_name_idx').on('contracts').column('name').execute();

  await db.schema
    .createTable('invoice_buyers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // null when the buyer has none (an individual); unique otherwise.
    .addColumn('tax_no', 'text', (c) => c.unique())
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('default_kind', 'integer', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_buyers_name_idx').on('invoice_buyers').column('name').execute();

  await db.schema
    .createTable('invoice_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('seller_tax_no', 'text', (c) => c.notNull())
    .addColumn('seller_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('clerk', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('checker', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('default_kind', 'integer', (c) => c.notNull())
    .addColumn('gateway_mode', 'text', (c) => c.notNull())
    .addColumn('app_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('app_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gateway_tax_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nuonuo_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('simulator_delay_ms', 'integer', (c) => c.notNull())
    .addColumn('simulator_failure_rate', 'text', (c) => c.notNull())
    // HMAC key of the short-lived file download links (never leaves the server).
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('red_refreshed_at', 'text')
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text')
    .execute();

  await db.schema
    .createTable('invoice_tax_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('short_name', 'text', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('policy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('serial_no', 'text')
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('colour', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull())
    // The approved 开票申请 (workflow WorkID) it came from; one invoice per request.
    .addColumn('request_work_id', 'integer', (c) => c.unique())
    .addColumn('project_id', 'text', (c) => c.references('projects.id'))
    .addColumn('contract_id', 'text', (c) => c.references('contracts.id'))
    .addColumn('buyer_id', 'text', (c) => c.references('invoice_buyers.id'))
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_tax_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('buyer_mobile', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('seller_tax_no', 'text', (c) => c.notNull())
    .addColumn('seller_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('clerk', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('checker', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('special_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('construction_site', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('construction_project', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('red_reason', 'integer')
    .addColumn('blue_invoice_id', 'text')
    .addColumn('blue_invoice_no', 'text', (c) => c.notNull().defaultTo(''))
    // The red-letter confirmation that produced this red invoice; one invoice per confirmation.
    .addColumn('red_confirm_id', 'integer', (c) => c.unique())
    .addColumn('invoice_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invoice_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digital_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('issued_at', 'text')
    .addColumn('issue_date', 'text')
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('failure_cause', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invalid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('submitted_at', 'text')
    .addColumn('next_poll_at', 'text')
    .addColumn('poll_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const ix = (name: string, cols: string[]) => db.schema.createIndex(name).on('invoices').columns(cols).execute();
  // The working lists (status tabs) and the poller (due rows in creating / signing).
  await ix('invoices_status_idx', ['status', 'invalid', 'updated_at']);
  await ix('invoices_poll_idx', ['status', 'next_poll_at']);
  // Ledger filters and sorts at a million rows (issue 7): date first, then the usual narrowing columns.
  await ix('invoices_issue_date_idx', ['issue_date', 'id']);
  await ix('invoices_created_idx', ['created_at']);
  await ix('invoices_buyer_idx', ['buyer_id', 'issue_date']);
  await ix('invoices_buyer_name_idx', ['buyer_name']);
  await ix('invoices_project_idx', ['project_id', 'issue_date']);
  await ix('invoices_contract_idx', ['contract_id', 'issue_date']);
  await ix('invoices_invoice_no_idx', ['invoice_no']);
  await ix('invoices_digital_no_idx', ['digital_no']);
  await ix('invoices_serial_idx', ['serial_no']);
  await ix('invoices_blue_idx', ['blue_invoice_id']);
  await ix('invoices_kind_status_idx', ['kind', 'colour', 'status', 'issue_date']);

  await db.schema
    .createTable('invoice_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('goods_name', 'text', (c) => c.notNull())
    .addColumn('tax_code', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_price', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_includes_tax', 'integer', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull())
    .addColumn('policy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('line_property', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('invoice_lines_invoice_line_uq', ['invoice_id', 'line_no'])
    .execute();

  await db.schema
    .createTable('invoice_blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoice_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().references('invoice_blobs.sha256'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invoice_files_content_uq', ['invoice_id', 'sha256'])
    .execute();

  let red = db.schema.createTable('invoice_red_confirms');
  red = postgres ? red.addColumn('id', 'serial', (c) => c.primaryKey()) : red.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await red
    .addColumn('bill_id', 'text', (c) => c.unique())
    .addColumn('bill_no', 'text', (c) => c.unique())
    .addColumn('confirm_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('blue_invoice_id', 'text', (c) => c.references('invoices.id'))
    .addColumn('blue_invoice_no', 'text', (c) => c.notNull())
    .addColumn('blue_issue_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('blue_kind', 'integer', (c) => c.notNull())
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_tax_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('red_reason', 'integer', (c) => c.notNull())
    .addColumn('vat_usage', 'integer', (c) => c.notNull())
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('red_order_no', 'text', (c) => c.notNull().unique())
    .addColumn('red_serial_no', 'text')
    .addColumn('red_invoice_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_red_confirms_state_idx').on('invoice_red_confirms').columns(['state', 'updated_at']).execute();
  await db.schema.createIndex('invoice_red_confirms_blue_idx').on('invoice_red_confirms').column('blue_invoice_id').execute();
  await db.schema.createIndex('invoice_red_confirms_created_idx').on('invoice_red_confirms').column('created_at').execute();

  await db.schema
    .createTable('invoice_cancellations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('invoice_cancellations_invoice_idx').on('invoice_cancellations').columns(['invoice_id', 'created_at']).execute();
  await db.schema.createIndex('invoice_cancellations_state_idx').on('invoice_cancellations').column('state').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['invoice_cancellations', 'invoice_red_confirms', 'invoice_files', 'invoice_blobs', 'invoice_lines', 'invoices', 'invoice_tax_codes', 'invoice_settings', 'invoice_buyers', 'contracts', 'projects']) {
    await db.schema.dropTable(t).execute();
  }
}
