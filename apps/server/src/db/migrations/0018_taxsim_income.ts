/**
 * 0018_taxsim_income: the incoming-invoice simulator's own state. The invoices themselves are drawn
 * from a seed per company and day (nothing stored); what the simulated service must remember is how
 * many times each invoice was verified (查验) on each day, for its limit of 5 a day.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('taxsim_income_checks')
    .addColumn('invoice_key', 'text', (c) => c.notNull())
    .addColumn('check_day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('taxsim_income_checks_pk', ['invoice_key', 'check_day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('taxsim_income_checks').execute();
}
