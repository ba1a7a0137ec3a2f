/**
 * 0007_invoice_ledger (issue 7): indexes for the ledger at a million invoices, and the day summary
 * that answers the ledger's totals without scanning the invoices (docs/invoice-ledger.md).
 *
 * - invoices (updated_at): the summary's refresh finds the days touched since its watermark.
 * - invoices (amount_incl, id, issue_date, amount_excl, tax): sorting by amount, and the amount range
 *   answered from the index alone (its page and its totals).
 * - invoices (created_by_name, issue_date, id, amount_excl, tax, amount_incl): the creator filter in
 *   date order, its totals from the index alone.
 * - invoices (status, issue_date), (colour, issue_date), (source, issue_date): the single-column
 *   filters, each in the ledger's default order, so a page stops after pageSize matching rows.
 * - invoice_ledger_days: one row per issue day, kind, colour, status and source with the count and
 *   the sums; the totals of any filter made only of those columns read it (a few thousand rows).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const ix = (name: string, cols: string[]) => db.schema.createIndex(name).on('invoices').columns(cols).execute();
  await ix('invoices_updated_idx', ['updated_at']);
  await ix('invoices_amount_idx', ['amount_incl', 'id', 'issue_date', 'amount_excl', 'tax']);
  await ix('invoices_creator_idx', ['created_by_name', 'issue_date', 'id', 'amount_excl', 'tax', 'amount_incl']);
  await ix('invoices_status_date_idx', ['status', 'issue_date', 'id']);
  await ix('invoices_colour_date_idx', ['colour', 'issue_date', 'id']);
  await ix('invoices_source_date_idx', ['source', 'issue_date', 'id']);

  await db.schema
    .createTable('invoice_ledger_days')
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('colour', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('amount_excl', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount_incl', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_ledger_days_pk', ['issue_date', 'kind', 'colour', 'status', 'source'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice_ledger_days').execute();
  for (const n of ['invoices_updated_idx', 'invoices_amount_idx', 'invoices_creator_idx', 'invoices_status_date_idx', 'invoices_colour_date_idx', 'invoices_source_date_idx']) {
    await db.schema.dropIndex(n).execute();
  }
}
