/**
 * 0044_customs_notices_exception_ends (issue 29, the gaps after items 8 and 11):
 *
 * - `taxsim_customs_notices`: the 海关进口增值税专用缴款书 the tax simulator holds for a company (缴款单位), answered
 *   by its customs collection call (integrations/tax/simulator/income-customs.ts): the notice's number (缴款书号码),
 *   填发日期, the customs office (海关 name and code), the payer's name and tax number, 完税价格 and 税款金额 in 分, its
 *   state (0 正常, 2 作废 …) and when it was entered.
 * - `tender_manager_exceptions.end_reason`: why an exception ended by itself (its ground no longer holds: the stopped
 *   project resumed, a project finished); '' while it runs. `reminded_for`: the end day (valid_to) the project's
 *   manager was last reminded of, so one end day is reminded once (a changed end day is reminded again).
 *
 * Self-contained (frozen).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('taxsim_customs_notices')
    .addColumn('notice_no', 'text', (c) => c.primaryKey())
    .addColumn('fill_date', 'text', (c) => c.notNull())
    .addColumn('customs_name', 'text', (c) => c.notNull())
    .addColumn('customs_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payer_name', 'text', (c) => c.notNull())
    .addColumn('payer_tax_no', 'text', (c) => c.notNull())
    .addColumn('dutiable_price', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('notice_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('entered_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxsim_customs_notices_payer_day').on('taxsim_customs_notices').columns(['payer_tax_no', 'fill_date', 'notice_no']).execute();
  await db.schema.alterTable('tender_manager_exceptions').addColumn('end_reason', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('tender_manager_exceptions').addColumn('reminded_for', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tender_manager_exceptions').dropColumn('reminded_for').execute();
  await db.schema.alterTable('tender_manager_exceptions').dropColumn('end_reason').execute();
  await db.schema.dropTable('taxsim_customs_notices').execute();
}
