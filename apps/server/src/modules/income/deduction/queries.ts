/**
 * Reading for ticking: the candidates of a page (the pool's filters, the tick facts, the scope's
 * conditions), their totals, the period's ticked sums, and the tick log (page and export batches).
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  IncomeInvoiceState, IncomeVerifyState, TICKABLE_INCOME_KINDS,
  type CandidateFilter, type CandidatePage, type CandidateQuery, type CandidateRow, type TickLogExportQuery, type TickLogQuery, type TickLogRow,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf } from '../../../platform/listing.js';
import { applyPoolFilters, poolSort, sumsSelect } from '../pool/filters.js';
import { redSumsOf } from '../identity/reversals.js';
import { keysetBatches } from '../pool/keyset.js';
import { toPoolRow } from '../pool/repo.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { needsConfirm, SCOPE_USAGES, type TickScope } from './rules.js';
import type { TickLogTable } from './tables.js';

type Db = Kysely<Database>;
const LIVE = [IncomeInvoiceState.normal, IncomeInvoiceState.partRed];

export interface Window {
  windowFrom: string;
  windowTo: string;
}

/** The scope's candidates: tickable kinds in the window, verified, ours, free or ticked for one of the scope's usages; live, or ticked (to undo). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function applyCandidates<QB extends SelectQueryBuilder<any, any, any>>(query: QB, f: CandidateFilter, scope: TickScope, w: Window): QB {
  let q = applyPoolFilters(query, f, 'all') as unknown as SelectQueryBuilder<Database & { p: IncomeInvoiceTable }, 'p', object>;
  q = q
    // The tickable kinds, and the 数电 rail and air tickets (shared isTickableKind: kind rail / air with a 20-digit number).
    .where((eb) => eb.or([eb('p.kind', 'in', [...TICKABLE_INCOME_KINDS]), eb.and([eb('p.kind', 'in', ['rail', 'air']), eb('p.digital_no', '<>', '')])]))
    .where('p.amount_incl', '>=', 0) // red invoices received are not candidates (rules.ts RED_NOT_TICKABLE)
    .where('p.issue_date', '>=', w.windowFrom)
    .where('p.issue_date', '<=', w.windowTo)
    // Customs notices are matched by the bureau when ticked, not 查验'd (rules.ts).
    .where((eb) => eb.or([eb('p.verify_state', '=', IncomeVerifyState.match), eb('p.kind', '=', 'customs')]))
    .where('p.buyer_mismatch', '=', 0)
    .where('p.vat_usage', 'in', [0, ...SCOPE_USAGES[scope]])
    .where((eb) => eb.or([eb('p.invoice_state', 'in', LIVE), eb('p.tick_state', '=', 1)]));
  if (f.tickState !== undefined) q = q.where('p.tick_state', '=', Number(f.tickState));
  if (f.vatUsage !== undefined) q = q.where('p.vat_usage', '=', Number(f.vatUsage));
  if (f.tickPeriod) q = q.where('p.tick_period', '=', f.tickPeriod);
  return q as unknown as QB;
}

/** Candidate rows with their net tax: the printed tax plus the (negative) tax of the red invoices reversing each. */
async function candidatesOf(db: Db, rows: IncomeInvoiceTable[]): Promise<CandidateRow[]> {
  const reds = await redSumsOf(db, rows.map((r) => r.id));
  return rows.map((r) => toCandidate(r, reds.get(r.id)?.tax ?? 0));
}

export function toCandidate(r: IncomeInvoiceTable, redTax = 0): CandidateRow {
  return {
    ...toPoolRow(r),
    vatUsage: Number(r.vat_usage ?? 0),
    tickState: Number(r.tick_state ?? 0),
    effectiveTax: r.effective_tax === null || r.effective_tax === undefined ? null : Number(r.effective_tax),
    deductReason: r.deduct_reason === null || r.deduct_reason === undefined ? null : Number(r.deduct_reason),
    tickPeriod: r.tick_period ?? '',
    tickedAt: r.ticked_at ?? null,
    tickedBy: r.ticked_by ?? '',
    needsConfirm: needsConfirm(r as Parameters<typeof needsConfirm>[0]),
    netTax: Number(r.tax) + redTax,
  };
}

const base = (db: Db) => db.selectFrom('income_invoices as p');

export async function candidatePage(db: Db, q: CandidateQuery, scope: TickScope, w: Window): Promise<CandidatePage> {
  const s = poolSort(q);
  const [rows, sums] = await Promise.all([
    applyCandidates(base(db), q, scope, w).selectAll('p').orderBy(s.column, s.order).orderBy('p.id', s.order).limit(q.pageSize).offset(offsetOf(q)).execute(),
    applyCandidates(base(db), q, scope, w).select([...sumsSelect, sql<number>`coalesce(sum(case when p.tick_state = 1 then p.effective_tax else 0 end), 0)`.as('eff')]).executeTakeFirstOrThrow(),
  ]);
  const totals = { count: Number(sums.n), amountExcl: Number(sums.amount_excl), tax: Number(sums.tax), amountIncl: Number(sums.amount_incl), effectiveTax: Number(sums.eff) };
  return { items: await candidatesOf(db, rows as IncomeInvoiceTable[]), total: totals.count, totals };
}

/** The ids of a filter's candidates (select all), at most `limit` + 1 so the caller can tell it overflowed. */
export async function candidateIds(db: Db, f: CandidateFilter, scope: TickScope, w: Window, limit: number): Promise<string[]> {
  const s = poolSort(f);
  const rows = await applyCandidates(base(db), f, scope, w).select('p.id').orderBy(s.column, s.order).orderBy('p.id', s.order).limit(limit + 1).execute();
  return rows.map((r) => r.id);
}

/** The filter's candidates in the list's order, in keyset batches (the export). */
export async function* candidateBatches(db: Db, f: CandidateFilter, scope: TickScope, w: Window, size = 1000): AsyncIterable<CandidateRow[]> {
  for await (const rows of keysetBatches(() => applyCandidates(base(db), f, scope, w), f, size)) yield await candidatesOf(db, rows);
}

/** The number of a filter's candidates (the export's count). */
export async function candidateCount(db: Db, f: CandidateFilter, scope: TickScope, w: Window): Promise<number> {
  return Number((await applyCandidates(base(db), f, scope, w).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
}

/** Every candidate of the scope (ticked or not): count and tax. (What is ticked: figures.ts tickedFigures.) */
export async function candidateSums(db: Db, scope: TickScope, w: Window) {
  const c = await applyCandidates(base(db), {} as CandidateFilter, scope, w).select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(p.tax), 0)`.as('tax')]).executeTakeFirstOrThrow();
  return { count: Number(c.n), tax: Number(c.tax) };
}

// ---------------------------------------------------------------- the tick log

const SHANGHAI_MS = 8 * 3600_000;
/** The UTC instant a Shanghai day starts. */
const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - SHANGHAI_MS).toISOString();
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function logFiltered(db: Db, f: TickLogExportQuery) {
  let q = db.selectFrom('income_tick_logs as l');
  if (f.userName) q = q.where('l.user_name', '=', f.userName);
  if (f.from) q = q.where('l.created_at', '>=', dayStart(f.from));
  if (f.to) q = q.where('l.created_at', '<', dayStart(nextDay(f.to)));
  if (f.number) q = q.where('l.invoice_number', '=', f.number);
  if (f.vatUsage !== undefined) q = q.where('l.vat_usage', '=', Number(f.vatUsage));
  if (f.action !== undefined) q = q.where('l.action', '=', String(f.action));
  if (f.result !== undefined) q = q.where('l.result', '=', Number(f.result));
  if (f.batchId) q = q.where('l.batch_id', '=', f.batchId);
  return q;
}

export function toLogRow(r: TickLogTable): TickLogRow {
  return {
    id: r.id, batchId: r.batch_id, invoiceId: r.invoice_id, invoiceNumber: r.invoice_number, kind: r.kind, issueDate: r.issue_date, sellerName: r.seller_name,
    action: r.action, vatUsage: Number(r.vat_usage), deductReason: r.deduct_reason === null ? null : Number(r.deduct_reason), tax: Number(r.tax), effectiveTax: Number(r.effective_tax),
    period: r.period, result: Number(r.result), message: r.message, userName: r.user_name, createdAt: r.created_at,
  };
}

export async function logPage(db: Db, q: TickLogQuery): Promise<{ items: TickLogRow[]; total: number }> {
  const [rows, n] = await Promise.all([
    logFiltered(db, q).selectAll('l').orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    logFiltered(db, q).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toLogRow), total: Number(n.n) };
}

export async function logCount(db: Db, f: TickLogExportQuery): Promise<number> {
  return Number((await logFiltered(db, f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
}

/** Every row of the filter, newest first, in keyset batches (the export). */
export async function* logBatches(db: Db, f: TickLogExportQuery, size = 1000): AsyncIterable<TickLogRow[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    let q = logFiltered(db, f).selectAll('l');
    if (after) {
      const a: { at: string; id: string } = after;
      q = q.where(sql<boolean>`(l.created_at, l.id) < (${a.at}, ${a.id})`);
    }
    const rows = await q.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(size).execute();
    if (!rows.length) return;
    yield rows.map(toLogRow);
    const last = rows[rows.length - 1]!;
    after = { at: last.created_at, id: last.id };
    if (rows.length < size) return;
  }
}
