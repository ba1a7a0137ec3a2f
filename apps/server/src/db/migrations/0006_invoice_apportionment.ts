/**
 * 0006_invoice_apportionment (issue 7): allocations of an invoice to projects and to orders/contracts
 * (one table, `dim` project | contract), and their change history. Money BIGINT 分; the invoice's
 * issue day is copied onto the allocation so the ledgers and statistics filter and group by month
 * without touching the invoices first.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_allocations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('dim', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addColumn('issue_date', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invoice_allocations_target_uq', ['invoice_id', 'dim', 'target_id'])
    .execute();
  const ix = (name: string, cols: string[]) => db.schema.createIndex(name).on('invoice_allocations').columns(cols).execute();
  // Ledger pages by date, per project / contract, and statistics grouped by target and month.
  await ix('invoice_allocations_dim_date_idx', ['dim', 'issue_date', 'id']);
  await ix('invoice_allocations_target_idx', ['dim', 'target_id', 'issue_date']);

  await db.schema
    .createTable('invoice_allocation_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('dim', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_target_id', 'text')
    .addColumn('to_target_id', 'text')
    .addColumn('from_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    // JSON AllocationSnapshot[]: the invoice's allocations on this dimension before and after.
    .addColumn('before', 'text', (c) => c.notNull())
    .addColumn('after', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const cx = (name: string, cols: string[]) => db.schema.createIndex(name).on('invoice_allocation_changes').columns(cols).execute();
  await cx('invoice_allocation_changes_invoice_idx', ['invoice_id', 'created_at']);
  await cx('invoice_allocation_changes_dim_idx', ['dim', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice_allocation_changes').execute();
  await db.schema.dropTable('invoice_allocations').execute();
}
