/**
 * 0048_reimb_duplicate_claims (issue 32 item 4): duplicate claims that carry no invoice number.
 *
 * - `reimb_lines.seller_name`: the seller the line's expense was paid to — the pool invoice's seller when an
 *   invoice backs the line, else the 收款方 typed on the line (a taxi company, a car park, a toll station);
 *   `reimb_lines.seller_key`: the same name normalised (NFKC, lower case, no spaces, punctuation or symbols,
 *   one legal-form ending dropped), '' when no seller is known.
 * - `reimb_lines_dup_idx (seller_key, amount, expense_date)`: what the check looks up — one seller, one amount,
 *   a few days — so a line's matches are an index range whatever the number of bills.
 * - `reimb_dup_accepts`: an approver's acceptance of one match (this line, the other line) with an opinion.
 *
 * Backfill: the lines backed by an invoice take its seller; the key is computed here with a copy of
 * `sellerKey` of packages/shared/src/reimbursement-rules.ts as it is today (a migration never imports live code),
 * once per distinct name through a scratch table, so the existing claims are found by the check from the start
 * (0048_reimb_duplicate_claims.backfill.ts).
 */
import type { Kysely } from 'kysely';
import { backfillSellers } from './0048_reimb_duplicate_claims.backfill.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reimb_lines').addColumn('seller_name', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('reimb_lines').addColumn('seller_key', 'text', (c) => c.notNull().defaultTo('')).execute();

  await backfillSellers(db);
  await db.schema.createIndex('reimb_lines_dup_idx').on('reimb_lines').columns(['seller_key', 'amount', 'expense_date']).execute();

  await db.schema
    .createTable('reimb_dup_accepts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('line_id', 'text', (c) => c.notNull().references('reimb_lines.id').onDelete('cascade'))
    .addColumn('bill_id', 'text', (c) => c.notNull().references('reimb_bills.id').onDelete('cascade'))
    // The other claim as it was accepted (the other bill may be changed or deleted later: no reference).
    .addColumn('other_line_id', 'text', (c) => c.notNull())
    .addColumn('other_bill_id', 'text', (c) => c.notNull())
    .addColumn('other_bill_no', 'text', (c) => c.notNull())
    .addColumn('opinion', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reimb_dup_accepts_pair').unique().on('reimb_dup_accepts').columns(['line_id', 'other_line_id']).execute();
  await db.schema.createIndex('reimb_dup_accepts_bill').on('reimb_dup_accepts').column('bill_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reimb_dup_accepts').execute();
  await db.schema.dropIndex('reimb_lines_dup_idx').execute();
  await db.schema.alterTable('reimb_lines').dropColumn('seller_key').execute();
  await db.schema.alterTable('reimb_lines').dropColumn('seller_name').execute();
}
