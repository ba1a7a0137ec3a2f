/**
 * The frozen backfill of migration 0048_reimb_duplicate_claims (issue 32 #4): the lines backed by a pool invoice
 * take its seller, and every line with a seller its key by `sellerKey` as packages/shared/src/reimbursement-rules.ts
 * had it that day (a migration carries the rules of its day instead of importing live code), computed once per
 * distinct name and written through a scratch table in one statement.
 */
import { sql, type Kysely } from 'kysely';

const SUFFIXES = ['股份有限公司', '有限责任公司', '有限公司', '集团公司', '公司'];

/** sellerKey of 2026-11 (issue 32 #4): NFKC, lower case, no spaces, punctuation or symbols, one legal-form ending dropped. */
export function sellerKey(name: string): string {
  let s = name.normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]/gu, '');
  for (const suffix of SUFFIXES)
    if (s.length > suffix.length && s.endsWith(suffix)) {
      s = s.slice(0, -suffix.length);
      break;
    }
  return s;
}

/** Fills reimb_lines.seller_name (from the line's invoice, where the line has none yet) and seller_key. */
export async function backfillSellers(db: Kysely<any>): Promise<void> {
  await sql`update reimb_lines set seller_name = coalesce((select i.seller_name from income_invoices i where i.id = reimb_lines.invoice_id), '') where invoice_id is not null and seller_name = ''`.execute(db);
  const names = (await db.selectFrom('reimb_lines').select('seller_name').distinct().where('seller_name', '<>', '').execute()) as Array<{ seller_name: string }>;
  if (!names.length) return;
  await db.schema.createTable('reimb_seller_keys_0048').addColumn('name', 'text', (c) => c.primaryKey()).addColumn('seller_key', 'text', (c) => c.notNull()).execute();
  for (let i = 0; i < names.length; i += 500)
    await db
      .insertInto('reimb_seller_keys_0048')
      .values(names.slice(i, i + 500).map((n) => ({ name: n.seller_name, seller_key: sellerKey(n.seller_name) })))
      .execute();
  await sql`update reimb_lines set seller_key = coalesce((select k.seller_key from reimb_seller_keys_0048 k where k.name = reimb_lines.seller_name), '') where seller_name <> ''`.execute(db);
  await db.schema.dropTable('reimb_seller_keys_0048').execute();
}
