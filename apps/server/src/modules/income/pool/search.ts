/**
 * "Seller name contains" on `income_invoices as p` (issue 30, migration 0050): the names that contain
 * the text are found among the distinct seller names (income_pool_sellers: hundreds or thousands of
 * summary rows, not a million invoices), and the invoices of those names are read through
 * income_invoices_seller_cover_idx. The match is the same LIKE as before (lower(…) LIKE '%…%' ESCAPE
 * '\', platform/listing.ts) on the same strings, so the answer is the same: every seller name of an
 * invoice is in income_pool_sellers (its triggers add it in the writing transaction).
 *
 * The repo plans a search first (`planSellerName`): the matching names, listed as values the planner
 * can weigh with the column's statistics, or a subquery when there are too many to list.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { contains } from '../../../platform/listing.js';
import './tables.js';

/** At most this many matching names are listed (else a subquery stands for them). */
const LISTED_NAMES = 500;

/** The names that contain the text; null when more than LISTED_NAMES. */
export type SellerNamePlan = { names: string[] | null };

const matching = (text: string) => sql`select distinct s.seller_name from income_pool_sellers s where ${contains(sql.ref('s.seller_name'), text)}`;

/** The condition on `<alias>.seller_name`: in the planned names, or in the matching distinct names. */
export function sellerNameOf(text: string, plan: SellerNamePlan | undefined, alias = 'd'): RawBuilder<boolean> {
  const col = sql.ref(`${alias}.seller_name`);
  if (!plan?.names) return sql<boolean>`${col} in (${matching(text)})`;
  return plan.names.length ? sql<boolean>`${col} in (${sql.join(plan.names.map((n) => sql`${n}`))})` : sql<boolean>`1 = 0`;
}

/** The condition on the invoices `p`. */
export const sellerNameContains = (text: string, plan?: SellerNamePlan) => sellerNameOf(text, plan, 'p');

/** One small query of the distinct names. */
export async function planSellerName(db: Kysely<Database>, text: string): Promise<SellerNamePlan> {
  const rows = await sql<{ seller_name: string }>`${matching(text)} order by 1 limit ${LISTED_NAMES + 1}`.execute(db);
  return { names: rows.rows.length > LISTED_NAMES ? null : rows.rows.map((r) => r.seller_name) };
}
