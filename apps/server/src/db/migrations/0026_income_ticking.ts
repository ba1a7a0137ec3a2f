/**
 * 0026_income_ticking (issue 14, ticking): on income_invoices the tick facts — vat_usage (0 none, 1 抵扣,
 * 2 出口退税, 3 代办退税, 4 不抵扣), tick_state (0 未勾选, 1 已勾选), effective_tax (分, null while not
 * ticked), deduct_reason (不抵扣原因 1-5), tick_period ('YYYYMM'), ticked_at, ticked_by — with the
 * indexes the candidate lists and the period totals use; the tick log (income_tick_logs: one row per
 * invoice per tick or undo attempt, with the batch it belonged to); the setting 先入账后勾选
 * (invoice_settings.tick_booked_only); and the ticking simulator's own tables (0026_income_ticking.taxsim.ts).
 */
import type { Kysely } from 'kysely';
import * as sim from './0026_income_ticking.taxsim.js';

export async function up(db: Kysely<any>): Promise<void> {
  const cols: Array<[string, 'integer' | 'bigint' | 'text', (c: any) => any]> = [
    ['vat_usage', 'integer', (c) => c.notNull().defaultTo(0)],
    ['tick_state', 'integer', (c) => c.notNull().defaultTo(0)],
    ['effective_tax', 'bigint', (c) => c],
    ['deduct_reason', 'integer', (c) => c],
    ['tick_period', 'text', (c) => c.notNull().defaultTo('')],
    ['ticked_at', 'text', (c) => c],
    ['ticked_by', 'text', (c) => c.notNull().defaultTo('')],
  ];
  for (const [name, type, build] of cols) await db.schema.alterTable('income_invoices').addColumn(name, type, build).execute();
  const ix = (name: string, columns: string[]) => db.schema.createIndex(name).on('income_invoices').columns(columns).execute();
  // Candidates: by usage (free or this purpose), then the window of issue dates in the default order.
  await ix('income_invoices_vat_usage_idx', ['vat_usage', 'issue_date', 'id']);
  // The period's ticked tax (period info) and the ticked filter.
  await ix('income_invoices_tick_period_idx', ['tick_period', 'vat_usage', 'tick_state']);

  await db.schema
    .createTable('income_tick_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.references('income_invoices.id').onDelete('set null'))
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('seller_name', 'text', (c) => c.notNull())
    // tick or untick
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('vat_usage', 'integer', (c) => c.notNull())
    .addColumn('deduct_reason', 'integer')
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('effective_tax', 'bigint', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    // 1 成功, 0 失败
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const lx = (name: string, columns: string[]) => db.schema.createIndex(name).on('income_tick_logs').columns(columns).execute();
  await lx('income_tick_logs_created_idx', ['created_at', 'id']);
  await lx('income_tick_logs_invoice_idx', ['invoice_id', 'created_at']);
  await lx('income_tick_logs_number_idx', ['invoice_number']);
  await lx('income_tick_logs_batch_idx', ['batch_id']);
  await lx('income_tick_logs_user_idx', ['user_name', 'created_at']);

  await db.schema.alterTable('invoice_settings').addColumn('tick_booked_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sim.up(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sim.down(db);
  await db.schema.alterTable('invoice_settings').dropColumn('tick_booked_only').execute();
  await db.schema.dropTable('income_tick_logs').execute();
  for (const i of ['income_invoices_vat_usage_idx', 'income_invoices_tick_period_idx']) await db.schema.dropIndex(i).execute();
  for (const c of ['ticked_by', 'ticked_at', 'tick_period', 'deduct_reason', 'effective_tax', 'tick_state', 'vat_usage']) await db.schema.alterTable('income_invoices').dropColumn(c).execute();
}
