/**
 * 0047_reimb_reversal (issue 32 item 3): revoking a reimbursement by a red reversing voucher (红字冲销).
 *
 * - `reimb_bills.reverse_claimed_until`: the lease of a reversal in progress (the bill stays 1 已报销 until
 *   the reversing voucher is recorded); the push settling job settles a reversal cut short once it has run out.
 * - `reimb_revocations.method` ('delete' 会计删除凭证后撤销, 'reverse' 红字冲销), `reversal_voucher_no` and
 *   `reversal_period` (the reversing voucher's number and period); a reversal in progress is a row in state 0.
 * - `accountingsim_vouchers.reverses`: the simulator's reference from a reversing voucher to the original
 *   ('' for an ordinary voucher), unique where set: an original is reversed once.
 *
 * Self-contained (frozen).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reimb_bills').addColumn('reverse_claimed_until', 'text').execute();
  await db.schema.alterTable('reimb_revocations').addColumn('method', 'text', (c) => c.notNull().defaultTo('delete')).execute();
  await db.schema.alterTable('reimb_revocations').addColumn('reversal_voucher_no', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('reimb_revocations').addColumn('reversal_period', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('reimb_revocations_pending').on('reimb_revocations').columns(['bill_id', 'state']).execute();
  await db.schema.alterTable('accountingsim_vouchers').addColumn('reverses', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`create unique index accountingsim_vouchers_reverses on accountingsim_vouchers (reverses) where reverses <> ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index accountingsim_vouchers_reverses`.execute(db);
  await db.schema.alterTable('accountingsim_vouchers').dropColumn('reverses').execute();
  await db.schema.dropIndex('reimb_revocations_pending').execute();
  await db.schema.alterTable('reimb_revocations').dropColumn('reversal_period').execute();
  await db.schema.alterTable('reimb_revocations').dropColumn('reversal_voucher_no').execute();
  await db.schema.alterTable('reimb_revocations').dropColumn('method').execute();
  await db.schema.alterTable('reimb_bills').dropColumn('reverse_claimed_until').execute();
}
