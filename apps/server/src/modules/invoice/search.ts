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

export function buyerNameContains(text: string): RawBuilder<boolean> {
  return sql<boolean>`i.buyer_name in (${names(text, true)})`;
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
