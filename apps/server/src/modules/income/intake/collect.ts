/**
 * 采集 (issue 13): the tax digital account's incoming invoices of a window of issue dates, page by page
 * through the tax gateway, each into the pool through `arrive(…, collected)` in its own transaction; then its
 * customs notices (海关缴款书, issue 29) of the same window by their own call (collectCustoms), each arriving as a
 * document of kind customs numbered by its 缴款书号码.
 * An invoice already in the pool whose state or risk level the tax account now reports differently
 * (作废, 红冲, 失控, 异常凭证 …) gets them updated with a history event (`applyTaxState`, also used by 查验).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeRiskLevel, IncomeSource, type CollectResult, type PoolLineInput } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { TaxGatewayError, type CustomsNotice, type IncomeTaxGateway, type IncomingInvoice } from '../../../integrations/tax/index.js';
import { Breather } from '../../../platform/breather.js';
import { AppError } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import { raiseCases } from '../abnormal/raise.js';
import { arrive, FaceMismatch, recordFaceMismatch, type ArrivalContext, type ArrivingInvoice } from './arrival.js';
import { addEvent } from '../pool/events.js';
import { identityKey } from '../identity/identity.js';
import '../pool/tables.js';

/** The tax service's ticket kinds in the pool's words (51 铁路, 61 航空, 99 公路水路); invoice kinds are the same codes. */
const TICKET_KINDS: Record<string, string> = { '51': 'rail', '61': 'air', '99': 'road' };
export const poolKindOf = (taxKind: string) => TICKET_KINDS[taxKind] ?? taxKind;

export const taxLines = (inv: Pick<IncomingInvoice, 'lines'>): PoolLineInput[] =>
  inv.lines.map((l) => ({ name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice, amount: l.amountExcludingTax, taxRate: l.taxRate, tax: l.tax }));

/** A collected invoice as an arrival: 数电 kinds keep their 20-digit number as the pool's 数电 number. */
export function toArriving(inv: IncomingInvoice): ArrivingInvoice {
  const digitalOnly = inv.invoiceNo.length === 20;
  return {
    kind: poolKindOf(inv.kind),
    invoiceCode: inv.invoiceCode,
    invoiceNo: digitalOnly ? '' : inv.invoiceNo,
    digitalNo: inv.allElectronicNo || (digitalOnly ? inv.invoiceNo : ''),
    issueDate: inv.issueDate,
    sellerName: inv.seller.name,
    sellerTaxNo: inv.seller.taxNumber,
    buyerName: inv.buyer.name,
    buyerTaxNo: inv.buyer.taxNumber,
    amountExcl: inv.amountExcludingTax,
    tax: inv.tax,
    amountIncl: inv.total,
    checkCode: inv.checkCode,
    remark: inv.remark.slice(0, 200),
    invoiceState: inv.state,
    riskLevel: inv.riskLevel,
    lines: taxLines(inv),
    ...(inv.passengerName ? { passengerName: inv.passengerName } : {}),
    ...(inv.travelDate ? { travelDate: inv.travelDate } : {}),
  };
}

/**
 * A collected customs notice as an arrival (kind customs): its 缴款书号码 as the number (no code), 填发日期 as the day,
 * the customs office as the issuer (no tax number), the payer (缴款单位) as the buyer, 完税价格 + 税款金额 as the face.
 */
export function customsArriving(n: CustomsNotice): ArrivingInvoice {
  return {
    kind: 'customs',
    invoiceCode: '',
    invoiceNo: n.noticeNo,
    digitalNo: '',
    issueDate: n.fillDate,
    sellerName: n.customsName || '海关',
    sellerTaxNo: '',
    buyerName: n.payer.name,
    buyerTaxNo: n.payer.taxNumber,
    amountExcl: n.dutiablePrice,
    tax: n.tax,
    amountIncl: n.dutiablePrice + n.tax,
    checkCode: '',
    remark: n.customsCode ? `海关代码：${n.customsCode}` : '',
    invoiceState: n.state,
    riskLevel: '01',
    lines: [],
  };
}

/**
 * Sets the invoice state and risk level the tax service reports, when they differ from the row's,
 * with a history event naming the change; false when nothing changed.
 */
export async function applyTaxState(trx: Kysely<Database>, id: string, next: { state: number; risk: string }, via: string, userName = ''): Promise<boolean> {
  const row = await trx.selectFrom('income_invoices').select(['invoice_state', 'risk_level']).where('id', '=', id).executeTakeFirstOrThrow();
  if (row.invoice_state === next.state && row.risk_level === next.risk) return false;
  await trx.updateTable('income_invoices').set({ invoice_state: next.state, risk_level: next.risk, updated_at: nowIso() }).where('id', '=', id).execute();
  const parts: string[] = [];
  if (row.invoice_state !== next.state) parts.push(`发票状态「${IncomeInvoiceState.label(row.invoice_state)}」→「${IncomeInvoiceState.label(next.state)}」`);
  if (row.risk_level !== next.risk) parts.push(`风险等级「${IncomeRiskLevel.label(row.risk_level)}」→「${IncomeRiskLevel.label(next.risk)}」`);
  await addEvent(trx, id, 'state', `${via}：${parts.join('，')}`, userName);
  // The refresh raises the cases of a flag that appeared (作废, 红冲, 失控, 异常凭证).
  await raiseCases(trx, id);
  return true;
}

export interface CollectOptions {
  ctx: ArrivalContext;
  /** Called before each page (the job's lease check). */
  beforePage?: () => Promise<void>;
  /**
   * The background job: an invoice already in the pool with the same state and risk is left alone
   * (no merge event every ten minutes for the day being re-collected); changed ones are updated.
   */
  skipKnown?: boolean;
  /**
   * Progress (the on-demand task's counts): called every PROGRESS_EVERY invoices and after each page,
   * with the pages answered and the invoices handled so far. May throw to stop (the task's abort).
   */
  onProgress?: (r: CollectResult, p: { pages: number; seen: number }) => Promise<void>;
}

export const PROGRESS_EVERY = 25;

const emptyResult = (from: string, to: string): CollectResult => ({ from, to, total: 0, created: 0, merged: 0, flagged: 0, stateChanged: 0, failed: 0, failures: [] });

/** The pool rows of a page's invoices, by identity key: one query per page instead of one per invoice. */
type Known = Map<string, { id: string; state: number; risk: string }>;
async function knownOf(db: Kysely<Database>, idents: string[]): Promise<Known> {
  const out: Known = new Map();
  if (!idents.length) return out;
  const rows = await db.selectFrom('income_invoices').select(['id', 'ident', 'invoice_state', 'risk_level']).where('ident', 'in', idents).execute();
  for (const r of rows) out.set(r.ident, { id: r.id, state: Number(r.invoice_state), risk: r.risk_level });
  return out;
}

/**
 * One invoice or customs notice: arrive (or, for the job, skip when known and unchanged, without a
 * transaction: `known` is the page's lookup), then its state.
 */
async function collectOne(db: Kysely<Database>, arriving: ArrivingInvoice, label: string, r: CollectResult, opts: CollectOptions, known: Known): Promise<void> {
  const next = { state: arriving.invoiceState ?? 0, risk: arriving.riskLevel ?? '01' };
  const was = opts.skipKnown ? known.get(identityKey(arriving)) : undefined;
  if (was && was.state === next.state && was.risk === next.risk) return;
  try {
    await db.transaction().execute(async (trx) => {
      // PostgreSQL: the invoice's commit does not wait for its WAL flush (one fsync per invoice was most of a
      // year's 83 s). A crash may lose the last fraction of a second of arrivals, never half of one; they are
      // collected again, since the task then ends 已中断 and the job's cursor moves only after its window (both
      // written by an ordinary commit, which flushes every earlier one).
      if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`set local synchronous_commit = off`.execute(trx);
      if (was) {
        if (await applyTaxState(trx, was.id, next, '税务数字账户采集', opts.ctx.userName)) r.stateChanged++;
        return;
      }
      const a = await arrive(arriving, IncomeSource.collected, trx, opts.ctx);
      if (a.outcome === 'created') {
        r.created++;
        if (a.warnings.length) r.flagged++;
      } else {
        r.merged++;
        if (await applyTaxState(trx, a.id, next, '税务数字账户采集', opts.ctx.userName)) r.stateChanged++;
      }
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err instanceof FaceMismatch) await recordFaceMismatch(db, err, IncomeSource.collected, opts.ctx.userName ?? '');
    r.failed++;
    if (r.failures.length < 20) r.failures.push(`${label}：${err.message}`);
  }
}

/**
 * The arrivals of one page, each in its own transaction, the event loop given its turn between them
 * (platform/breather.ts: on SQLite the loop would otherwise hold every other request until the window ends).
 */
async function collectPage(db: Kysely<Database>, items: Array<{ arriving: ArrivingInvoice; label: string }>, r: CollectResult, opts: CollectOptions, at: { pages: number; seen: number }, breather: Breather): Promise<void> {
  const known = opts.skipKnown ? await knownOf(db, items.map((i) => identityKey(i.arriving))) : new Map();
  for (const { arriving, label } of items) {
    await collectOne(db, arriving, label, r, opts, known);
    at.seen++;
    if (opts.onProgress && at.seen % PROGRESS_EVERY === 0) await opts.onProgress(r, { pages: at.pages - 1, seen: at.seen });
    await breather.breathe();
  }
}

/** Collects one window (at most 366 days: the gateway refuses more with 采集日期区间不能超过366天，请分段采集). */
export async function collectWindow(db: Kysely<Database>, gateway: IncomeTaxGateway, from: string, to: string, opts: CollectOptions): Promise<CollectResult> {
  const r = emptyResult(from, to);
  const breather = new Breather();
  const at = { pages: 0, seen: 0 };
  let cursor: string | undefined;
  do {
    await opts.beforePage?.();
    const page = await gateway.collectIncoming({ from, to, pageSize: 200, ...(cursor ? { cursor } : {}) }, { userId: opts.ctx.userId ?? null });
    r.total = page.total;
    at.pages++;
    await collectPage(db, page.invoices.map((inv) => ({ arriving: toArriving(inv), label: inv.allElectronicNo || `${inv.invoiceCode} ${inv.invoiceNo}`.trim() })), r, opts, at, breather);
    await opts.onProgress?.(r, { ...at });
    await breather.breathe();
    cursor = page.nextCursor;
  } while (cursor);
  // The customs notices of the window, by their own call (the bureau lists them apart from invoices). A page that
  // brings notices counts as a page of the task; the empty answer of a window without any does not. A refusal of
  // that call (a service without it, a provisional method name) does not undo the invoices: it is said in the result.
  const invoices = r.total;
  cursor = undefined;
  try {
    do {
      await opts.beforePage?.();
      const page = await gateway.collectCustoms({ from, to, pageSize: 200, ...(cursor ? { cursor } : {}) }, { userId: opts.ctx.userId ?? null });
      r.total = invoices + page.total;
      if (page.total) r.customs = page.total;
      if (page.notices.length) at.pages++;
      await collectPage(db, page.notices.map((n) => ({ arriving: customsArriving(n), label: `海关缴款书 ${n.noticeNo}` })), r, opts, at, breather);
      if (page.notices.length) await opts.onProgress?.(r, { ...at });
      cursor = page.nextCursor;
    } while (cursor);
  } catch (err) {
    if (!(err instanceof TaxGatewayError)) throw err;
    r.customsError = err.message;
  }
  return r;
}

/** The answer's sentence: 采集完成：税务端 n 张，新增 a 张，合并 b 张 … */
export function collectMessage(r: CollectResult): string {
  const parts = [`税务端 ${r.total} 张${r.customs ? `（其中海关缴款书 ${r.customs} 份）` : ''}`, `新增 ${r.created} 张`, `合并 ${r.merged} 张`];
  if (r.flagged) parts.push(`标记异常 ${r.flagged} 张`);
  if (r.stateChanged) parts.push(`状态更新 ${r.stateChanged} 张`);
  if (r.failed) parts.push(`未入池 ${r.failed} 张`);
  return `采集完成：${parts.join('，')}${r.customsError ? `；海关缴款书未采集：${r.customsError}` : ''}`;
}
