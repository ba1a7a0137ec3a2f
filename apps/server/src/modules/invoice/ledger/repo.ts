/**
 * Reading the ledger: one page through a deferred join (the filtered, sorted ids first, from an
 * index, then the rows of those ids only), every row of a filter in keyset batches (the export), and
 * the totals (the day summary when the filter allows it, else the filtered invoices).
 */
import { sql, type Kysely } from 'kysely';
import { ledgerRowCount, type LedgerExportQuery, type LedgerFilter, type LedgerQuery, type LedgerRow, type LedgerTotals } from '@zhyy/shared';
import { offThread } from '../../../db/read-pool.js';
import type { Database } from '../../../db/schema.js';
import { readAhead } from '../../../platform/keyset.js';
import { contains, offsetOf } from '../../../platform/listing.js';
import { LIST_COLUMNS, toInvoiceRow, type InvoiceListRecord } from '../mapping.js';
import { applyFilters, ledgerBase, ledgerSort, onlySummaryFilters, planFilter, type Planned } from './filters.js';
import { directTotals, subtractTotals, summaryTotals } from './summary.js';

type Row = InvoiceListRecord & { issue_date: string | null; invoice_code: string; blue_invoice_no: string; file_count: number | string };

function withColumns(db: Kysely<Database>) {
  return db
    .selectFrom('invoices as i')
    .leftJoin('projects as p', 'p.id', 'i.project_id')
    .leftJoin('contracts as c', 'c.id', 'i.contract_id')
    .select([...LIST_COLUMNS, 'i.issue_date', 'i.invoice_code', 'i.blue_invoice_no'])
    .select((eb) => eb.selectFrom('invoice_files as f').select(sql<number>`count(*)`.as('n')).whereRef('f.invoice_id', '=', 'i.id').as('file_count'));
}

export function toLedgerRow(r: Row): LedgerRow {
  return { ...toInvoiceRow(r), issueDate: r.issue_date ?? '', invoiceCode: r.invoice_code, blueInvoiceNo: r.blue_invoice_no, fileCount: Number(r.file_count ?? 0) };
}

export async function ledgerTotals(db: Kysely<Database>, f: LedgerFilter): Promise<LedgerTotals> {
  if (onlySummaryFilters(f)) return summaryTotals(db, f);
  // A buyer-name search that most buyers match ("有限公司"): the totals of the same filter without the
  // name (the day summary) less those of the buyers that do not match, which are few (search.ts).
  const planned = (f as Planned).buyerNamePlan ? (f as LedgerFilter & Planned) : await planFilter(db, f);
  const rest: LedgerFilter = { ...f, buyerName: undefined };
  const plan = planned.buyerNamePlan;
  if (plan?.mostly && onlySummaryFilters(rest)) {
    const [all, others] = await Promise.all([summaryTotals(db, rest), directTotals(db, rest, undefined, { text: f.buyerName!, plan })]);
    return subtractTotals(all, others);
  }
  return directTotals(db, planned);
}

/** Past this offset a page waits for the count, so a page in the second half can be read from the other end. */
const DEEP = 1000;
const flip = (o: 'asc' | 'desc') => (o === 'asc' ? 'desc' : 'asc');

type Page = { items: LedgerRow[]; total: number; totals: LedgerTotals };

/**
 * One page and the totals. A filter the day summary answers stays on the request thread (its
 * totals may consolidate the summary, a write); any other filter may scan, so on SQLite the whole
 * page is read by a worker (db/read-pool.ts).
 */
export async function ledgerPage(db: Kysely<Database>, q: LedgerQuery): Promise<Page> {
  return onlySummaryFilters(q) ? readPage(db, q) : readPageOffThread(db, await planFilter(db, q));
}

async function readPage(db: Kysely<Database>, q: LedgerQuery): Promise<Page> {
  const s = ledgerSort(q);
  const offset = offsetOf(q);
  const read = async (order: 'asc' | 'desc', skip: number, take: number) => {
    const ids = applyFilters(ledgerBase(db), q, db).select('i.id').orderBy(s.column, order).orderBy('i.id', order).limit(take).offset(skip);
    const rows = (await withColumns(db).where('i.id', 'in', ids).orderBy(s.column, s.order).orderBy('i.id', s.order).execute()) as Row[];
    return rows.map(toLedgerRow);
  };
  if (offset < DEEP) {
    const [items, totals] = await Promise.all([read(s.order, offset, q.pageSize), ledgerTotals(db, q)]);
    return { items, total: ledgerRowCount(totals), totals };
  }
  // A deep page: the index is walked from whichever end is nearer (the last page costs what the first does).
  const totals = await ledgerTotals(db, q);
  const total = ledgerRowCount(totals);
  if (offset >= total) return { items: [], total, totals };
  const fromEnd = total - offset - q.pageSize;
  const items = fromEnd < offset ? await read(flip(s.order), Math.max(0, fromEnd), q.pageSize + Math.min(0, fromEnd)) : await read(s.order, offset, q.pageSize);
  return { items, total, totals };
}

type Key = { v: string | number; id: string };

/** One batch of the export: the rows after the key, and the key of its last row. */
const exportBatch = offThread('ledger.exportBatch', async (db: Kysely<Database>, f: LedgerExportQuery, after: Key | null, size: number): Promise<{ rows: LedgerRow[]; last: Key | null }> => {
  const s = ledgerSort(f);
  const key = s.column.slice(2) as keyof Row;
  let q = applyFilters(withColumns(db).where('i.issue_date', 'is not', null), f, db);
  if (after) {
    const a = after;
    q = q.where(s.order === 'desc' ? sql<boolean>`(${sql.ref(s.column)}, i.id) < (${a.v}, ${a.id})` : sql<boolean>`(${sql.ref(s.column)}, i.id) > (${a.v}, ${a.id})`);
  }
  const rows = (await q.orderBy(s.column, s.order).orderBy('i.id', s.order).limit(size).execute()) as Row[];
  const last = rows[rows.length - 1];
  return { rows: rows.map(toLedgerRow), last: last ? { v: last[key] as string | number, id: last.id } : null };
}, { postgres: true });

/**
 * Every row of the filter in the chosen order, batch by batch, each batch after the last key of the
 * previous one. The next batch is asked for before this one is handed over, so the database reads
 * it (in a worker on SQLite) while the caller writes this one.
 */
export async function* ledgerBatches(db: Kysely<Database>, query: LedgerExportQuery, size = 1000): AsyncIterable<LedgerRow[]> {
  const f = await planFilter(db, query);
  yield* readAhead<LedgerRow, Key>((after) => exportBatch(db, f, after, size), size);
}

/** The first `limit` rows of the filter (print). */
export async function ledgerHead(db: Kysely<Database>, query: LedgerExportQuery, limit: number): Promise<LedgerRow[]> {
  const f = await planFilter(db, query);
  const s = ledgerSort(f);
  const rows = await applyFilters(withColumns(db).where('i.issue_date', 'is not', null), f, db).orderBy(s.column, s.order).orderBy('i.id', s.order).limit(limit).execute();
  return (rows as Row[]).map(toLedgerRow);
}

const readPageOffThread = offThread('ledger.page', readPage);

export async function ledgerOptions(db: Kysely<Database>) {
  const [projects, contracts] = await Promise.all([
    db.selectFrom('projects').select(['id', 'code', 'name']).orderBy('code').limit(2000).execute(),
    db.selectFrom('contracts').select(['id', 'code', 'name']).orderBy('code').limit(2000).execute(),
  ]);
  return { projects, contracts };
}

/** Buyers whose name or tax number contains the keyword (the ledger's buyer picker: the filter then uses buyer_id). */
export async function ledgerBuyers(db: Kysely<Database>, keyword: string) {
  let q = db.selectFrom('invoice_buyers').select(['id', 'name', 'tax_no']).orderBy('name').limit(30);
  if (keyword) q = q.where((eb) => eb.or([contains(eb.ref('name'), keyword), contains(eb.ref('tax_no'), keyword)]));
  return (await q.execute()).map((b) => ({ id: b.id, name: b.name, taxNo: b.tax_no ?? '' }));
}
