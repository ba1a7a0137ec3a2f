/**
 * The statistics simulator's state (part of migration 0028_income_statistics): the 退税统计 state per
 * period beside stat_state (= 抵扣统计), and the amount excluding tax of the invoices registered with the
 * service (the figures by kind: income-stats.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('taxsim_income_periods').addColumn('rebate_state', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('taxsim_income_known').addColumn('amount', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('taxsim_income_known').dropColumn('amount').execute();
  await db.schema.alterTable('taxsim_income_periods').dropColumn('rebate_state').execute();
}
