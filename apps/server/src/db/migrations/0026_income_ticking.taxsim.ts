/**
 * The ticking simulator's own state (part of migration 0026_income_ticking): the bureau's calendar per
 * period (deadline, statistics state), the invoices ticked (one row per invoice), and the invoices the
 * service knows besides the drawn ones (income-ticks.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('taxsim_income_periods')
    .addColumn('period', 'text', (c) => c.primaryKey())
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('stat_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('taxsim_income_ticks')
    .addColumn('invoice_key', 'text', (c) => c.primaryKey())
    .addColumn('usage', 'integer', (c) => c.notNull())
    .addColumn('reason', 'integer')
    .addColumn('effective_tax', 'bigint', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('ticked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxsim_income_ticks_period_idx').on('taxsim_income_ticks').columns(['period', 'usage']).execute();
  await db.schema
    .createTable('taxsim_income_known')
    .addColumn('invoice_key', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('invoice_state', 'integer', (c) => c.notNull())
    .addColumn('registered_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['taxsim_income_known', 'taxsim_income_ticks', 'taxsim_income_periods']) await db.schema.dropTable(t).execute();
}
