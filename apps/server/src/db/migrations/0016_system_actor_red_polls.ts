/**
 * Issue 12.
 * #18: what the platform did by itself (tax-service callbacks on an invoice) was written with no actor and
 * read 匿名 in the operation log while the invoice detail said 系统. New rows carry the name 系统; this names
 * the rows written before.
 * #21: a submitted 红字确认单 is asked about soon after, then less and less often (as issuing does), instead of
 * waiting for the 5-minute refresh: its next poll and how many polls it had.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('operation_logs')
    .set({ user_name: '系统' })
    .where('user_id', 'is', null)
    .where('login_name', '=', '')
    .where('user_name', '=', '')
    .where('record_kind', 'is not', null)
    .execute();
  await db.schema.alterTable('invoice_red_confirms').addColumn('next_poll_at', 'text').execute();
  await db.schema.alterTable('invoice_red_confirms').addColumn('poll_count', 'integer', (c) => c.notNull().defaultTo(sql`0`)).execute();
  await db.schema.createIndex('invoice_red_confirms_poll_idx').on('invoice_red_confirms').column('next_poll_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('invoice_red_confirms_poll_idx').execute();
  await db.schema.alterTable('invoice_red_confirms').dropColumn('poll_count').execute();
  await db.schema.alterTable('invoice_red_confirms').dropColumn('next_poll_at').execute();
  // The 系统 name is what those log rows always meant; nothing to undo.
}
