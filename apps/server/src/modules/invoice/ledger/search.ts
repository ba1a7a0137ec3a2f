/**
 * "Buyer name contains" on `invoices as i` (migration 0027): the names that contain the text are
 * found among the distinct buyer names (invoice_buyer_names: hundreds or thousands of rows, not a
 * million), and the invoices of those names are read through invoices_buyer_cover_idx. The answer
 * is the LIKE's on the invoices themselves (lower(…) LIKE '%…%' ESCAPE '\', platform/listing.ts), on
 * both engines, for a text of any length.
 *
 * A planner cannot tell how many names a LIKE keeps, and guessed wrong both ways at a million
 * invoices: every invoice of every name sorted for a first page when most names matched (0.7 s on
 * PostgreSQL), a scan of all invoices for the few that did not (0.3 s). So the repo plans a search
 * first (`planBuyerName`): whether most names match, and the names of the smaller side, listed as
 * values the planner can weigh with the column's statistics.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { contains } from '../../../platform/listing.js';

/** The smaller side is listed when it has at most this many names (else a subquery stands for it). */
const LISTED_NAMES = 500;

export interface BuyerNamePlan {
  /** More than half the distinct buyer names contain the text. */
  mostly: boolean;
  /** The names that do not contain it when `mostly`, else those that do; null when too many to list. */
  names: string[] | null;
}

const like = (text: string) => contains(sql.ref('n.name'), text);
const names = (text: string, matching: boolean) => sql`select n.name from invoice_buyer_names n where ${matching ? like(text) : sql`not ${like(text)}`}`;
const list = (values: string[]) => sql.join(values.map((v) => sql`${v}`));

export function buyerNameContains(text: string, plan?: BuyerNamePlan): RawBuilder<boolean> {
  if (!plan) return sql<boolean>`i.buyer_name in (${names(text, true)})`;
  if (plan.mostly) {
    if (!plan.names) return sql<boolean>`i.buyer_name not in (${names(text, false)})`;
    return plan.names.length ? sql<boolean>`i.buyer_name not in (${list(plan.names)})` : sql<boolean>`1 = 1`;
  }
  if (!plan.names) return sql<boolean>`i.buyer_name in (${names(text, true)})`;
  return plan.names.length ? sql<boolean>`i.buyer_name in (${list(plan.names)})` : sql<boolean>`1 = 0`;
}

/** The invoices whose buyer name does not contain the text (the complement, for totals: ledger/repo.ts). */
export function buyerNameLacks(text: string, plan?: BuyerNamePlan): RawBuilder<boolean> {
  if (plan?.mostly && plan.names) return plan.names.length ? sql<boolean>`i.buyer_name in (${list(plan.names)})` : sql<boolean>`1 = 0`;
  return sql<boolean>`i.buyer_name in (${names(text, false)})`;
}

/** How many distinct buyer names contain the text, and how many there are. */
export async function buyerNameShare(db: Kysely<any>, text: string): Promise<{ matching: number; all: number }> {
  const r = await sql<{ matching: number | string | null; all: number | string }>`select
      coalesce(sum(case when ${like(text)} then 1 else 0 end), 0) as matching, count(*) as "all"
    from invoice_buyer_names n`.execute(db);
  const row = r.rows[0];
  return { matching: Number(row?.matching ?? 0), all: Number(row?.all ?? 0) };
}

/** Two small queries of the distinct names: the share, then the smaller side's names when few. */
export async function planBuyerName(db: Kysely<any>, text: string): Promise<BuyerNamePlan> {
  const share = await buyerNameShare(db, text);
  const mostly = share.matching * 2 > share.all;
  const side = mostly ? share.all - share.matching : share.matching;
  if (side > LISTED_NAMES) return { mostly, names: null };
  const rows = await sql<{ name: string }>`${names(text, !mostly)} order by n.name`.execute(db);
  return { mostly, names: rows.rows.map((r) => r.name) };
}
