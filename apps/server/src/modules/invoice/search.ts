/**
 * "Buyer name contains" on `invoices as i` (migration 0027): the names that contain the text are
 * found among the distinct buyer names (invoice_buyer_names: hundreds or thousands of rows, not a
 * million), and the invoices of those names are read through invoices_buyer_cover_idx. The answer
 * is the LIKE's on the invoices themselves (lower(…) LIKE '%…%' ESCAPE '\', platform/listing.ts), on
 * both engines, for a text of any length.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { contains } from '../../platform/listing.js';

const names = (text: string, matching: boolean) =>
  sql`select n.name from invoice_buyer_names n where ${matching ? contains(sql.ref('n.name'), text) : sql`not ${contains(sql.ref('n.name'), text)}`}`;

/**
 * `mostly`: most buyer names contain the text ("有限公司"), so the same set is written as "not one of
 * the names that do not": a planner cannot know how many names a LIKE keeps, and took every invoice of
 * every name before sorting for a first page (0.7 s on PostgreSQL at a million), where walking the
 * date index and dropping the few others finds the first page at once.
 */
export function buyerNameContains(text: string, mostly = false): RawBuilder<boolean> {
  return mostly ? sql<boolean>`i.buyer_name not in (${names(text, false)})` : sql<boolean>`i.buyer_name in (${names(text, true)})`;
}

/** Whether more than half the distinct buyer names contain the text. */
export async function mostBuyersMatch(db: Kysely<any>, text: string): Promise<boolean> {
  const share = await buyerNameShare(db, text);
  return share.matching * 2 > share.all;
}

/** The invoices whose buyer name does not contain the text (the complement, for totals: ledger/repo.ts). */
export function buyerNameLacks(text: string): RawBuilder<boolean> {
  return sql<boolean>`i.buyer_name in (${names(text, false)})`;
}

/** How many distinct buyer names contain the text, and how many there are. */
export async function buyerNameShare(db: Kysely<any>, text: string): Promise<{ matching: number; all: number }> {
  const r = await sql<{ matching: number | string | null; all: number | string }>`select
      coalesce(sum(case when ${contains(sql.ref('n.name'), text)} then 1 else 0 end), 0) as matching, count(*) as "all"
    from invoice_buyer_names n`.execute(db);
  const row = r.rows[0];
  return { matching: Number(row?.matching ?? 0), all: Number(row?.all ?? 0) };
}
