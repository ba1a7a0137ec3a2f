/**
 * 0046_income_status_recheck (issue 32 item 2): the bureau's status changes become ready 进项转出.
 * - income_invoices.status_checked_at: when the status re-check (abnormal/recheck.ts) last asked the tax
 *   service about the invoice (null: never); status_found 1 the service knows it, 0 it does not (null: never
 *   asked). The job takes the invoices of the last 180 days whose check is older than 12 hours, the oldest
 *   first (index).
 * - income_abnormal_cases: the proposal of a case whose invoice is ticked for 抵扣 — proposed_amount (分; null:
 *   no proposal), proposed_reason (TransferOutReason), proposed_period ('YYYYMM'), proposal_note (how it was
 *   computed, or why there is none yet) — and doc_kind / doc_id of the document the case names (a
 *   reimbursement bill or a project) beside doc_flagged.
 * - income_transfer_outs.period: the period of the voucher ('' = the day it is made, as before).
 * - taxsim_income_status: the simulated bureau's status changes made by a test or the demo (the simulator
 *   control `setIncomingStatus`), over the drawn and registered invoices.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_invoices').addColumn('status_checked_at', 'text').execute();
  await db.schema.alterTable('income_invoices').addColumn('status_found', 'integer').execute();
  await db.schema.createIndex('income_invoices_status_check_idx').on('income_invoices').columns(['status_checked_at', 'issue_date']).execute();
  const cases: Array<[string, 'integer' | 'bigint' | 'text', (c: any) => any]> = [
    ['proposed_amount', 'bigint', (c) => c],
    ['proposed_reason', 'integer', (c) => c],
    ['proposed_period', 'text', (c) => c.notNull().defaultTo('')],
    ['proposal_note', 'text', (c) => c.notNull().defaultTo('')],
    ['doc_kind', 'text', (c) => c.notNull().defaultTo('')],
    ['doc_id', 'text', (c) => c],
  ];
  for (const [name, type, build] of cases) await db.schema.alterTable('income_abnormal_cases').addColumn(name, type, build).execute();
  await db.schema.alterTable('income_transfer_outs').addColumn('period', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .createTable('taxsim_income_status')
    .addColumn('invoice_key', 'text', (c) => c.primaryKey())
    .addColumn('invoice_state', 'integer', (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('taxsim_income_status').execute();
  await db.schema.alterTable('income_transfer_outs').dropColumn('period').execute();
  for (const c of ['doc_id', 'doc_kind', 'proposal_note', 'proposed_period', 'proposed_reason', 'proposed_amount']) await db.schema.alterTable('income_abnormal_cases').dropColumn(c).execute();
  await db.schema.dropIndex('income_invoices_status_check_idx').execute();
  for (const c of ['status_found', 'status_checked_at']) await db.schema.alterTable('income_invoices').dropColumn(c).execute();
}
