/**
 * The large mode of the incoming-invoice pool (`npm run seed -- --incoming 1000000`): appends generated
 * pool invoices (with one line each unless told otherwise) to a database that holds the demo company,
 * in batches, each batch in its own transaction. Invoice i is a pure function of i (its own seeded
 * stream: largeIncomeInvoice), so a load is the same on every machine and resumes where it stopped:
 * the invoices already there (ids of the large series) are skipped. Three years of issue days ending
 * 2026-11-20; about 70 % signed (archive numbers of their own series GDLG…, so the demo's monthly
 * GD{yyyyMM}{seq} sequence is not disturbed; no signing records: these are pool rows only), 90 %
 * verified, about 0.5 % abnormal. Numbers never meet the demo's or the tax simulator's (incomeData.ts).
 */
import { raiseAll } from '../modules/income/abnormal/raise.js';
import { sql } from 'kysely';
import { IncomeBookingState, IncomeInvoiceState, IncomeRiskLevel, IncomeSignState, IncomeUsage, IncomeVerifyState } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { IncomeInvoiceTable, IncomeLineTable } from '../modules/income/pool/tables.js';
import { bulkInsert } from './bulk.js';
import { transportOf } from './income.js';
import { drawIncome, incomeRowId, OTHER_BUYER } from './incomeData.js';
import { Rng } from './rng.js';

export const LARGE_INCOME_SEED = 20261313;
const T = { invoice: 0x8001, line: 0x8002 } as const;
const END_DAY = Date.UTC(2026, 10, 20);
const SPAN_DAYS = 3 * 365;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export const largeIncomeId = (i: number) => incomeRowId(T.invoice, i);

/** Invoice i (0-based) of the large mode with its lines (at most `maxLines`, none when 0). */
export function largeIncomeInvoice(i: number, maxLines = 1): { row: IncomeInvoiceTable; lines: IncomeLineTable[] } {
  const r = new Rng(LARGE_INCOME_SEED * 31 + i * 7919);
  const dayMs = END_DAY - r.int(0, SPAN_DAYS) * 86_400_000;
  const issueDate = new Date(dayMs).toISOString().slice(0, 10);
  const at = new Date(dayMs + r.int(1, 60 * 60) * 60_000).toISOString();
  const d = drawIncome(r, i, '8', { id: largeIncomeId(i), lineId: (k) => incomeRowId(T.line, i * 4 + k), issueDate, at, maxLines: Math.max(1, maxLines) });
  const row = d.row;
  if (r.chance(0.9) && !['road', 'customs', 'withholding'].includes(row.kind)) Object.assign(row, { verify_state: IncomeVerifyState.match, verified_at: at });
  const u = r.next();
  if (u < 0.001) row.invoice_state = IncomeInvoiceState.voided;
  else if (u < 0.0025) row.invoice_state = IncomeInvoiceState.fullRed;
  else if (u < 0.003) row.invoice_state = IncomeInvoiceState.lostControl;
  else if (u < 0.004) row.risk_level = IncomeRiskLevel.abnormalVoucher;
  else if (u < 0.0045) Object.assign(row, { buyer_name: OTHER_BUYER.name, buyer_tax_no: OTHER_BUYER.taxNo, buyer_mismatch: 1 });
  else if (u < 0.005) row.verify_state = IncomeVerifyState.mismatch;
  else if (r.chance(0.7)) {
    const contract = d.supplier.category === 'construction' || d.supplier.category === 'materials';
    Object.assign(row, {
      sign_state: IncomeSignState.signed, archive_no: `GDLG${pad(i, 10)}`, usage: contract ? IncomeUsage.closed : IncomeUsage.locked, use_kind: 'sign',
      doc_no: contract ? `HT${issueDate.slice(0, 4)}-${pad(r.int(1, 400), 3)}` : `BX${issueDate.slice(0, 7).replace('-', '')}-L${pad(i, 7)}`,
      booking_state: r.chance(0.95) ? IncomeBookingState.bookedDeduct : IncomeBookingState.bookedNoDeduct,
    });
  }
  return { row, lines: maxLines > 0 ? d.lines : [] };
}

export interface LargeIncomeOptions {
  incoming: number;
  /** Invoices per transaction. */
  batch?: number;
  /** Lines per invoice at most (0: none). */
  lines?: number;
  log?: (line: string) => void;
}

/** Loads invoices 0 … n−1 of the large mode that are not there yet; returns how many it added. */
export async function seedLargeIncome(db: Db, opts: LargeIncomeOptions): Promise<number> {
  const k = db.kysely;
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 5000;
  const maxLines = opts.lines ?? 1;
  // The large series' ids share a prefix: a range of the primary key.
  const first = largeIncomeId(0);
  const have = Number((await k.selectFrom('income_invoices').select(sql<number>`count(*)`.as('n')).where('id', '>=', first).where('id', '<', incomeRowId(T.invoice + 1, 0)).executeTakeFirstOrThrow()).n);
  const started = Date.now();
  let added = 0;
  for (let from = have; from < opts.incoming; from += batch) {
    const list = Array.from({ length: Math.min(batch, opts.incoming - from) }, (_, j) => largeIncomeInvoice(from + j, maxLines));
    await k.transaction().execute(async (trx) => {
      await bulkInsert(trx, 'income_invoices', list.map((v) => v.row));
      await bulkInsert(trx, 'income_invoice_lines', list.flatMap((v) => v.lines));
      await bulkInsert(trx, 'income_transport', transportOf(list.map((v) => v.row), list.flatMap((v) => v.lines)));
    });
    added += list.length;
    if ((from / batch) % 20 === 0 || from + batch >= opts.incoming) log(`  ${from + list.length} / ${opts.incoming} incoming invoices (${Math.round((added * 1000) / Math.max(1, Date.now() - started))} a second)`);
  }
  // The abnormal worklist: the cases of the flagged invoices (about 0.5 %).
  const raised = await raiseAll(k);
  if (raised) log(`  ${raised} abnormal cases raised`);
  log('  analysing…');
  // PostgreSQL: VACUUM sets the visibility map (index-only scans for counts); both: fresh statistics.
  await (db.dialect === 'postgres' ? sql`vacuum analyze income_invoices` : sql`analyze income_invoices`).execute(k);
  if (db.dialect === 'postgres') await sql`vacuum analyze income_invoice_lines`.execute(k);
  return added;
}
