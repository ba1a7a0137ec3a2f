/**
 * 0039_tender_renewal (issue 17, DOMAIN "Tender management": 安全生产许可证 and the 三类人员 A/B/C
 * certificates last 3 years, renewed in the last 3 months). A certificate kind's 延期办理期: the months
 * before a certificate's end day from which it may be renewed (null: no renewal window). Existing kinds
 * get none; the two the domain names get 3 months where they already exist under those names.
 */
import type { Kysely } from 'kysely';

export const RENEWAL_KINDS = ['安全生产考核合格证书', '安全生产许可证'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tender_cert_kinds').addColumn('renew_months', 'integer').execute();
  await db.updateTable('tender_cert_kinds').set({ renew_months: 3 }).where('name', 'in', [...RENEWAL_KINDS]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tender_cert_kinds').dropColumn('renew_months').execute();
}
