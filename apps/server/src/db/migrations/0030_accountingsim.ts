/**
 * 0030_accountingsim: the accounting simulator's own tables (prefix accountingsim_): the vouchers it
 * posted, by our voucher id, and its per-month number counter (记-0001 …). The simulated accounting
 * side's, not the platform's: no module reads them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accountingsim_vouchers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('voucher_no', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accountingsim_vouchers_no_idx').on('accountingsim_vouchers').columns(['period', 'voucher_no']).unique().execute();
  await db.schema
    .createTable('accountingsim_counters')
    .addColumn('period', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('accountingsim_counters').execute();
  await db.schema.dropTable('accountingsim_vouchers').execute();
}
