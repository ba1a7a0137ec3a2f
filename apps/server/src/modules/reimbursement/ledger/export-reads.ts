/**
 * 报销台账's export reads, off the request thread (db/read-pool.ts; read-worker.ts loads this module): the
 * count and sums of the filtered set (one aggregate over the bills, a scan at 100,000 bills), and the
 * filtered bills — or their lines — in the list's order in keyset batches (platform/keyset.ts), each
 * batch read by a worker on SQLite and on PostgreSQL (where decoding the rows is the cost).
 */
import { sql, type Kysely } from 'kysely';
import type { ReimbLedgerFilter, ReimbLedgerRow } from '@zhyy/shared';
import { offThread } from '../../../db/read-pool.js';
import type { Database } from '../../../db/schema.js';
import { keysetAfter, readAhead, type KeysetKey } from '../../../platform/keyset.js';
import { applyLedgerFilters, ledgerSort } from './filters.js';
import { BILL_COLUMNS, categoriesOf, ledgerTotals, toLedgerRow, type BillRecord } from './repo.js';

/** One row per line of the filtered bills: the bill's columns and the line's. */
export interface LedgerLineRow {
  bill: ReimbLedgerRow;
  lineNo: number;
  categoryName: string;
  expenseDate: string;
  description: string;
  invoiceNumber: string;
  amount: number;
  approvedAmount: number;
  taxRate: string;
  tax: number;
  deductibleTax: number;
  subjectCode: string;
  subjectName: string;
}

/** The export's count and sums (in a worker on SQLite; one aggregate row, read in place on PostgreSQL). */
export const exportTotals = offThread('reimb.ledgerTotals', ledgerTotals);

/** Sort columns holding numbers (bigint: a string from PostgreSQL, compared as a number in the next batch's key). */
const NUMERIC = new Set(['b.amount', 'b.approved_amount']);

/** The bills after the key in the list's order (repo.ts idsOf: a bill without approval time last). */
async function bills(db: Kysely<Database>, f: ReimbLedgerFilter, after: KeysetKey | null, size: number) {
  const s = ledgerSort(f);
  const nullable = s.column === 'b.approved_at';
  let q = applyLedgerFilters(db.selectFrom('reimb_bills as b'), f).select([...BILL_COLUMNS]);
  if (after) q = q.where(keysetAfter(sql.ref(s.column), sql.ref('b.id'), s.order, after, nullable));
  if (nullable) q = q.orderBy(sql`case when b.approved_at is null then 1 else 0 end`);
  const rows = await q.orderBy(s.column, s.order).orderBy('b.id', s.order).limit(size).execute();
  const end = rows[rows.length - 1] as Record<string, string | number | null> | undefined;
  const v = end ? end[s.column.slice(2)]! : null;
  const last: KeysetKey | null = end ? { v: v !== null && NUMERIC.has(s.column) ? Number(v) : v, t: String(end.id) } : null;
  return { rows: rows as BillRecord[], last };
}

/** One batch of bills, as the list's rows. */
const billBatch = offThread('reimb.ledgerBatch', async (db: Kysely<Database>, f: ReimbLedgerFilter, after: KeysetKey | null, size: number): Promise<{ rows: ReimbLedgerRow[]; last: KeysetKey | null }> => {
  const { rows, last } = await bills(db, f, after, size);
  const cats = await categoriesOf(db, rows.map((r) => r.id));
  return { rows: rows.map((r) => toLedgerRow(r, cats.get(r.id) ?? '')), last };
}, { postgres: true });

/** One batch of bills, as the rows of their lines (in bill order, then line number). */
const lineBatch = offThread('reimb.ledgerLineBatch', async (db: Kysely<Database>, f: ReimbLedgerFilter, after: KeysetKey | null, size: number): Promise<{ rows: LedgerLineRow[]; last: KeysetKey | null; bills: number }> => {
  const { rows, last } = await bills(db, f, after, size);
  if (!rows.length) return { rows: [], last, bills: 0 };
  const ids = rows.map((r) => r.id);
  const [cats, lines] = await Promise.all([
    categoriesOf(db, ids),
    db
      .selectFrom('reimb_lines')
      .select(['bill_id', 'line_no', 'category_name', 'expense_date', 'description', 'invoice_number', 'amount', 'approved_amount', 'tax_rate', 'tax', 'deductible_tax', 'subject_code', 'subject_name'])
      .where('bill_id', 'in', ids)
      .orderBy('bill_id').orderBy('line_no')
      .execute(),
  ]);
  const byBill = new Map<string, typeof lines>();
  for (const l of lines) {
    const list = byBill.get(l.bill_id);
    if (list) list.push(l);
    else byBill.set(l.bill_id, [l]);
  }
  const out = rows.flatMap((r) => {
    const bill = toLedgerRow(r, cats.get(r.id) ?? '');
    return (byBill.get(r.id) ?? []).map((l) => ({
      bill, lineNo: Number(l.line_no), categoryName: l.category_name, expenseDate: l.expense_date, description: l.description, invoiceNumber: l.invoice_number,
      amount: Number(l.amount), approvedAmount: l.approved_amount === null ? Number(l.amount) : Number(l.approved_amount), taxRate: l.tax_rate, tax: Number(l.tax),
      deductibleTax: Number(l.deductible_tax), subjectCode: l.subject_code, subjectName: l.subject_name,
    }));
  });
  return { rows: out, last, bills: rows.length };
}, { postgres: true });

/** The filtered bills in the list's order, batch by batch (the export by bill). */
export function ledgerBatches(db: Kysely<Database>, f: ReimbLedgerFilter, size = 1000): AsyncIterable<ReimbLedgerRow[]> {
  return readAhead((after) => billBatch(db, f, after, size), size);
}

/** The lines of the filtered bills, bill by bill in the list's order, batch by batch (the export by line). */
export async function* ledgerLineBatches(db: Kysely<Database>, f: ReimbLedgerFilter, size = 300): AsyncIterable<LedgerLineRow[]> {
  // readAhead stops at a short batch: a batch of `size` bills may have any number of lines, so it is
  // told the number of bills read.
  const read = async (after: KeysetKey | null) => {
    const b = await lineBatch(db, f, after, size);
    return { rows: [b], last: b.bills === size ? b.last : null };
  };
  for await (const [b] of readAhead(read, 1)) if (b!.rows.length) yield b!.rows;
}
