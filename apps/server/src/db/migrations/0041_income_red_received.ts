/**
 * 0041_income_red_received (issue 29 item 2): red invoices received (红字发票, 价税合计 < 0) in the pool.
 * `blue_no` is the 对应蓝字发票号码 a red invoice states ('' on blue invoices and on red ones that do not
 * say); `blue_id` the pool invoice of that number once both are in the pool (null otherwise), set by
 * whichever of the two arrives second. The amounts were always signed integers; nothing else changes.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_invoices').addColumn('blue_no', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('income_invoices').addColumn('blue_id', 'text').execute();
  await db.schema.createIndex('income_invoices_blue_no_idx').on('income_invoices').column('blue_no').where('blue_no', '<>', '').execute();
  await db.schema.createIndex('income_invoices_blue_id_idx').on('income_invoices').column('blue_id').where('blue_id', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('income_invoices_blue_id_idx').execute();
  await db.schema.dropIndex('income_invoices_blue_no_idx').execute();
  for (const c of ['blue_id', 'blue_no']) await db.schema.alterTable('income_invoices').dropColumn(c).execute();
}
