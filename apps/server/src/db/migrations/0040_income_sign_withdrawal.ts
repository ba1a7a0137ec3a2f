/**
 * 0040_income_sign_withdrawal (issue 27, 签收撤销 settled after a crash): a signing being withdrawn from the
 * archive side is marked before the archive side is asked — `revoke_started_at` (the withdrawal's start;
 * the settlement job takes it up once it is older than the grace period), with the reason and the user who
 * asked, so the job can record the revocation as that user's. Null on every signing not being withdrawn.
 * The signing stays `signed` (and the invoice 已签收) until the withdrawal is recorded or undone.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_signings').addColumn('revoke_started_at', 'text').execute();
  await db.schema.alterTable('income_signings').addColumn('revoke_reason', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('income_signings').addColumn('revoke_user_id', 'text').execute();
  await db.schema.alterTable('income_signings').addColumn('revoke_user_name', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('income_signings_revoking_idx').on('income_signings').column('revoke_started_at').where('revoke_started_at', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('income_signings_revoking_idx').execute();
  for (const c of ['revoke_user_name', 'revoke_user_id', 'revoke_reason', 'revoke_started_at']) await db.schema.alterTable('income_signings').dropColumn(c).execute();
}
