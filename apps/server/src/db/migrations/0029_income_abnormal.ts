/**
 * 0029_income_abnormal: the abnormal worklist (issue 14). income_abnormal_cases holds one case per
 * (invoice, flag) — the unique index makes raising idempotent and safe with several servers (insert …
 * on conflict do nothing) — with its owner, age (raised_at), state and resolution; income_transfer_outs
 * one 进项转出 per invoice (unique) with its voucher state, the idempotency key unique too. The cases of
 * the invoices already flagged are raised here once (backfill: 0029_income_abnormal.backfill.ts, frozen).
 */
import type { Kysely } from 'kysely';
import { raiseAll } from './0029_income_abnormal.backfill.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_abnormal_cases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    .addColumn('flag', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('raised_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('action', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('doc_flagged', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notified_user_id', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema.createIndex('income_abnormal_cases_key').on('income_abnormal_cases').columns(['invoice_id', 'flag']).unique().execute();
  await db.schema.createIndex('income_abnormal_cases_state_idx').on('income_abnormal_cases').columns(['state', 'raised_at']).execute();
  await db.schema.createIndex('income_abnormal_cases_flag_idx').on('income_abnormal_cases').columns(['flag', 'state']).execute();
  await db.schema.createIndex('income_abnormal_cases_owner_idx').on('income_abnormal_cases').columns(['owner_id', 'state']).execute();

  await db.schema
    .createTable('income_transfer_outs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().unique().references('income_invoices.id').onDelete('cascade'))
    .addColumn('case_id', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.unique())
    .addColumn('reason', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('voucher_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_period', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('next_try_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('pushed_at', 'text')
    .execute();
  await db.schema.createIndex('income_transfer_outs_pending_idx').on('income_transfer_outs').columns(['state', 'next_try_at']).execute();

  await raiseAll(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('income_transfer_outs').execute();
  await db.schema.dropTable('income_abnormal_cases').execute();
}
