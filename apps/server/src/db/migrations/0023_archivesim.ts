/**
 * 0023_archivesim: the archive simulator's own record of what it filed (prefix archivesim_), so that a
 * restart keeps it and a query about an unfinished signing (签收中断) is answered from it, as the tax
 * simulator keeps its invoices (0005_taxsim). The simulated archive side's table, not the platform's:
 * the income module never reads it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('archivesim_filings')
    // The signing id the filing came with: the same id filed again is the same filing.
    .addColumn('signing_id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_key', 'text', (c) => c.notNull())
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('voucher_id', 'text', (c) => c.notNull().unique())
    /** JSON of the ArchiveRequest. */
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('filed_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoke_reason', 'text')
    .execute();
  await db.schema.createIndex('archivesim_filings_invoice_idx').on('archivesim_filings').column('invoice_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('archivesim_filings').execute();
}
