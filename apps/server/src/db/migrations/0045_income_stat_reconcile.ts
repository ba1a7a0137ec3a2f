/**
 * 0045_income_stat_reconcile (issue 32 item 1, 统计对比): 确认统计 while our tick ledger and the bureau's
 * counted invoices differ needs the clerk's reason. `income_stat_actions` gains `reason` (the clerk's words,
 * '' when none was needed) and `differences` (how many lines differed when the action was taken), so the
 * action history says who confirmed over which differences and why. Adoptions are written to the tick log
 * (`income_tick_logs.action` 'adopt'), which needs no new column.
 *
 * Self-contained (frozen).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_stat_actions').addColumn('reason', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('income_stat_actions').addColumn('differences', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_stat_actions').dropColumn('differences').execute();
  await db.schema.alterTable('income_stat_actions').dropColumn('reason').execute();
}
