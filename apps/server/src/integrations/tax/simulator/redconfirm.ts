/**
 * Red-letter confirmations (红字确认单) in the simulator. Ours: 15 applying → after the delay 01 (VAT
 * usage 4 不抵扣: no confirmation needed) or 02 awaiting the buyer, or 16 when the buyer name holds
 * 测试申请失败; the simulated buyer answers 02 after another delay: 04 confirmed, 05 when the name holds
 * 测试拒绝, 07 after 72 h when it holds 测试超时. Buyers' (seeded): 03 awaiting us → 04 / 06 by our
 * answer, 07 after 72 h. At 01 and 04 the red invoice is issued automatically. Withdrawal: 02 → 08.
 */
import { Decimal } from 'decimal.js';
import { InvoiceStatus } from '@zhyy/shared';
import { TaxErrorCode, TaxGatewayError, TaxMessages } from '../errors.js';
import { RED_STATE_MESSAGES } from '../states.js';
import { plainDecimal, taxOf } from '../money.js';
import type { RedConfirm, RedConfirmApplyRequest, RedConfirmQuery, RedConfirmState, RedReason, TaxInvoiceLine, TaxInvoiceRequest, VatUsage } from '../types.js';
import { newBillId, newConfirmNo, newSerialNo } from './numbers.js';
import { advanceInvoice, type SimContext } from './progress.js';
import type { InvoiceRow, RedConfirmRow } from './store.js';

const LIVE = ['01', '02', '03', '04', '15'];
const CONFIRM_WINDOW_MS = 72 * 3600_000;
const APPLY = 'nuonuo.OpeMplatform.saveInvoiceRedConfirm';

type ConfirmLine = RedConfirm['lines'][number];
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const refuse = (message: string, method = APPLY, code: string = TaxErrorCode.state) => new TaxGatewayError(code, message, method);

/** The red invoice the bureau issues for a confirmation that reached 01 or 04. */
async function issueRed(ctx: SimContext, row: RedConfirmRow, at: string): Promise<string> {
  const existing = await ctx.sdb.selectFrom('taxsim_invoices').select('serial_no').where('seller_tax_number', '=', row.seller_tax_number).where('order_no', '=', row.red_order_no).executeTakeFirst();
  if (existing) return existing.serial_no;
  const blue = await ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('serial_no', '=', row.blue_serial_no).executeTakeFirstOrThrow();
  const blueReq = JSON.parse(blue.request) as TaxInvoiceRequest;
  const lines: TaxInvoiceLine[] = (JSON.parse(row.lines) as ConfirmLine[]).map((l) => {
    const b = blueReq.lines[l.blueLineNo - 1]!;
    const { quantity: _q, ...rest } = b;
    return { ...rest, ...(l.quantity ? { quantity: l.quantity } : {}), amountExcludingTax: l.amountExcludingTax, tax: l.tax, amountIncludingTax: l.amountExcludingTax + l.tax, lineProperty: 0 };
  });
  const req: TaxInvoiceRequest = { ...blueReq, orderNo: row.red_order_no, colour: 2, redReason: row.red_reason as RedReason, blueInvoiceNo: row.blue_invoice_no, remark: `红字确认单编号：${row.confirm_no ?? ''}`, lines };
  const serialNo = await newSerialNo(ctx.sdb, new Date(at));
  await ctx.sdb
    .insertInto('taxsim_invoices')
    .values({
      serial_no: serialNo, seller_tax_number: row.seller_tax_number, order_no: row.red_order_no, kind: blue.kind, colour: 2, request: JSON.stringify(req),
      status: InvoiceStatus.creating, next_at: plus(at, ctx.delayMs), fail_stage: 0, fail_cause: null,
      amount_excluding_tax: Number(row.amount_excluding_tax), tax: Number(row.tax), amount_including_tax: Number(row.amount_excluding_tax) + Number(row.tax),
      reissue_count: 0, created_at: at, updated_at: at,
    })
    // Two advances of one confirmation at once (a query and the status poll, two app servers) both come
    // here: the first insert wins and both answer its invoice (a unique violation on PostgreSQL before).
    .onConflict((oc) => oc.columns(['seller_tax_number', 'order_no']).doNothing())
    .execute();
  const issued = await ctx.sdb.selectFrom('taxsim_invoices').select('serial_no').where('seller_tax_number', '=', row.seller_tax_number).where('order_no', '=', row.red_order_no).executeTakeFirstOrThrow();
  return issued.serial_no;
}

/** The next state of a confirmation and when it is due, or null when it waits for someone. */
function due(ctx: SimContext, row: RedConfirmRow): { at: string; state: RedConfirmState } | null {
  const name = row.buyer_name;
  switch (row.state) {
    case '15':
      return { at: plus(row.state_at, ctx.delayMs), state: name.includes('测试申请失败') ? '16' : row.vat_usage === 4 ? '01' : '02' };
    case '02':
      if (name.includes('测试超时')) return { at: plus(row.state_at, CONFIRM_WINDOW_MS), state: '07' };
      return { at: plus(row.state_at, ctx.delayMs), state: name.includes('测试拒绝') ? '05' : '04' };
    case '03':
      return { at: plus(row.state_at, CONFIRM_WINDOW_MS), state: '07' };
    default:
      return null;
  }
}

/** Moves a confirmation to `state` at `at` (guarded on its old state); issues the red invoice at 01 / 04. */
async function transition(ctx: SimContext, row: RedConfirmRow, state: RedConfirmState, at: string): Promise<RedConfirmRow> {
  const change: Partial<RedConfirmRow> = { state, state_at: at, updated_at: ctx.now().toISOString() };
  if (state === '16') change.fail_cause = '税局校验未通过：蓝字发票购买方信息不符（模拟）';
  if ((state === '01' || state === '02') && !row.confirm_no) change.confirm_no = await newConfirmNo(ctx.sdb, new Date(at));
  if (state === '01' || state === '04') change.red_serial_no = await issueRed(ctx, { ...row, ...change }, at);
  await ctx.sdb.updateTable('taxsim_red_confirms').set(change).where('bill_id', '=', row.bill_id).where('state', '=', row.state).execute();
  return ctx.sdb.selectFrom('taxsim_red_confirms').selectAll().where('bill_id', '=', row.bill_id).executeTakeFirstOrThrow();
}

export async function advanceRedConfirm(ctx: SimContext, start: RedConfirmRow): Promise<RedConfirmRow> {
  let row = start;
  for (let next = due(ctx, row); next && Date.parse(next.at) <= ctx.now().getTime(); next = due(ctx, row)) {
    const before = row.state;
    row = await transition(ctx, row, next.state, next.at);
    if (row.state === before) break;
  }
  return row;
}

async function toRedConfirm(ctx: SimContext, row: RedConfirmRow): Promise<RedConfirm> {
  let redInvoiceNo: string | undefined;
  if (row.red_serial_no) {
    const red = await ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('serial_no', '=', row.red_serial_no).executeTakeFirst();
    const current = red ? await advanceInvoice(ctx, red) : undefined;
    redInvoiceNo = current?.invoice_no ?? undefined;
  }
  const state = row.state as RedConfirmState;
  return {
    billId: row.bill_id,
    billNo: row.bill_no,
    ...(row.confirm_no ? { confirmNo: row.confirm_no } : {}),
    state,
    stateMessage: RED_STATE_MESSAGES[state],
    applicant: row.applicant === 1 ? 1 : 0,
    awaitingUs: row.applicant === 1 && state === '03',
    blueInvoiceNo: row.blue_invoice_no,
    blueIssueDate: row.blue_issue_date,
    redReason: row.red_reason as RedReason,
    ...(row.vat_usage ? { vatUsage: row.vat_usage as VatUsage } : {}),
    buyerName: row.buyer_name,
    ...(row.buyer_tax_number ? { buyerTaxNumber: row.buyer_tax_number } : {}),
    amountExcludingTax: Number(row.amount_excluding_tax),
    tax: Number(row.tax),
    lines: JSON.parse(row.lines) as ConfirmLine[],
    ...(row.red_serial_no ? { redSerialNo: row.red_serial_no } : {}),
    ...(redInvoiceNo ? { redInvoiceNo } : {}),
    ...(row.fail_cause ? { failCause: row.fail_cause } : {}),
    appliedAt: row.applied_at,
  };
}

/** The blue invoice a confirmation reverses: ours, 数电, blue and created. */
async function findBlue(ctx: SimContext, sellerTaxNumber: string, blueInvoiceNo: string): Promise<InvoiceRow> {
  const row = await ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('seller_tax_number', '=', sellerTaxNumber).where('invoice_no', '=', blueInvoiceNo).where('colour', '=', 1).executeTakeFirst();
  if (!row) throw refuse(TaxMessages.notFound(`号码为 ${blueInvoiceNo} 的蓝字发票`), APPLY, TaxErrorCode.notFound);
  const blue = await advanceInvoice(ctx, row);
  if (blue.kind !== 9 && blue.kind !== 10) throw refuse('只有数电发票可以申请红字确认单');
  if (blue.status !== InvoiceStatus.created) throw refuse(`蓝字发票当前状态（${InvoiceStatus.label(blue.status)}）不能冲红`);
  return blue;
}

/** The confirmation's lines (negative amounts): the whole invoice, or the chosen lines. */
function confirmLines(blueReq: TaxInvoiceRequest, choices: RedConfirmApplyRequest['lines']): ConfirmLine[] {
  const neg = (q?: string) => (q ? plainDecimal(new Decimal(q).abs().neg()) : undefined);
  const whole = (b: TaxInvoiceLine, no: number): ConfirmLine => ({
    blueLineNo: no, goodsName: b.goodsName, ...(b.quantity ? { quantity: neg(b.quantity)! } : {}), amountExcludingTax: -b.amountExcludingTax, tax: -b.tax, taxRate: b.taxRate,
  });
  if (!choices || choices.length === 0) return blueReq.lines.map((b, i) => whole(b, i + 1));
  const seen = new Set<number>();
  return choices.map((c) => {
    const b = blueReq.lines[c.blueLineNo - 1];
    if (!b || seen.has(c.blueLineNo)) throw refuse(`蓝字发票没有第${c.blueLineNo}行明细或明细重复`, APPLY, TaxErrorCode.invalid);
    seen.add(c.blueLineNo);
    if (c.amountExcludingTax === undefined) return whole(b, c.blueLineNo);
    if (c.amountExcludingTax >= 0 || -c.amountExcludingTax > b.amountExcludingTax) throw refuse(`第${c.blueLineNo}行冲红金额须为负数且不超过蓝字金额`, APPLY, TaxErrorCode.invalid);
    const tax = c.tax ?? -taxOf(-c.amountExcludingTax, b.taxRate);
    return { blueLineNo: c.blueLineNo, goodsName: b.goodsName, ...(c.quantity ? { quantity: neg(c.quantity)! } : {}), amountExcludingTax: c.amountExcludingTax, tax, taxRate: b.taxRate };
  });
}

export interface NewConfirm {
  applicant: 0 | 1;
  billNo: string;
  sellerTaxNumber: string;
  blueInvoiceNo: string;
  redReason: RedReason;
  vatUsage?: VatUsage;
  lines?: RedConfirmApplyRequest['lines'];
  redOrderNo?: string;
}

/** Records a confirmation (ours in 15, a buyer's in 03) against a blue invoice of the simulator. */
export async function createRedConfirm(ctx: SimContext, input: NewConfirm): Promise<RedConfirm> {
  if (ctx.taxNumber && input.sellerTaxNumber !== ctx.taxNumber) throw refuse('销售方税号与授权税号不一致', APPLY, TaxErrorCode.invalid);
  if (![1, 2, 3, 4].includes(input.redReason)) throw refuse('冲红原因无效', APPLY, TaxErrorCode.invalid);
  if (input.applicant === 0 && input.billNo) {
    const same = await ctx.sdb.selectFrom('taxsim_red_confirms').selectAll().where('seller_tax_number', '=', input.sellerTaxNumber).where('bill_no', '=', input.billNo).executeTakeFirst();
    if (same) return toRedConfirm(ctx, await advanceRedConfirm(ctx, same));
  }
  const blue = await findBlue(ctx, input.sellerTaxNumber, input.blueInvoiceNo);
  const blueReq = JSON.parse(blue.request) as TaxInvoiceRequest;
  const lines = confirmLines(blueReq, input.lines);
  const excl = lines.reduce((s, l) => s + l.amountExcludingTax, 0);
  const tax = lines.reduce((s, l) => s + l.tax, 0);
  const live = await ctx.sdb.selectFrom('taxsim_red_confirms').select(['amount_excluding_tax', 'tax']).where('blue_serial_no', '=', blue.serial_no).where('state', 'in', LIVE).execute();
  const reversed = live.reduce((s, r) => s + Number(r.amount_excluding_tax) + Number(r.tax), 0);
  if (-(reversed + excl + tax) > Number(blue.amount_including_tax)) throw refuse('冲红金额超过蓝字发票剩余可冲红金额');
  const now = ctx.now();
  const billId = await newBillId(ctx.sdb, now);
  const row: RedConfirmRow = {
    bill_id: billId, seller_tax_number: input.sellerTaxNumber, bill_no: input.billNo, confirm_no: input.applicant === 1 ? await newConfirmNo(ctx.sdb, now) : null,
    applicant: input.applicant, state: input.applicant === 1 ? '03' : '15', state_at: now.toISOString(),
    blue_serial_no: blue.serial_no, blue_invoice_no: blue.invoice_no!, blue_issue_date: blue.issued_at!.slice(0, 10),
    red_reason: input.redReason, vat_usage: input.vatUsage ?? null, buyer_name: blueReq.buyer.name, buyer_tax_number: blueReq.buyer.taxNumber ?? null,
    amount_excluding_tax: excl, tax, lines: JSON.stringify(lines), red_order_no: input.redOrderNo ?? `HZ${billId.slice(2)}`,
    red_serial_no: null, fail_cause: null, applied_at: now.toISOString(), updated_at: now.toISOString(),
  };
  await ctx.sdb.insertInto('taxsim_red_confirms').values(row).execute();
  return toRedConfirm(ctx, row);
}

export function applyRedConfirm(ctx: SimContext, req: RedConfirmApplyRequest): Promise<RedConfirm> {
  if (!req.billNo) throw refuse('红字确认单申请号不能为空', APPLY, TaxErrorCode.invalid);
  if (![1, 2, 3, 4].includes(req.vatUsage)) throw refuse('增值税用途无效', APPLY, TaxErrorCode.invalid);
  if (!req.redOrderNo) throw refuse('红字发票订单号不能为空', APPLY, TaxErrorCode.invalid);
  return createRedConfirm(ctx, { applicant: 0, billNo: req.billNo, sellerTaxNumber: req.sellerTaxNumber, blueInvoiceNo: req.blueInvoiceNo, redReason: req.redReason, vatUsage: req.vatUsage, lines: req.lines, redOrderNo: req.redOrderNo });
}

async function load(ctx: SimContext, billId: string, method: string): Promise<RedConfirmRow> {
  let q = ctx.sdb.selectFrom('taxsim_red_confirms').selectAll().where('bill_id', '=', billId);
  if (ctx.taxNumber) q = q.where('seller_tax_number', '=', ctx.taxNumber);
  const row = await q.executeTakeFirst();
  if (!row) throw refuse(TaxMessages.notFound(`申请号为 ${billId} 的红字确认单`), method, TaxErrorCode.notFound);
  return advanceRedConfirm(ctx, row);
}

export async function queryRedConfirms(ctx: SimContext, query: RedConfirmQuery): Promise<RedConfirm[]> {
  let q = ctx.sdb.selectFrom('taxsim_red_confirms').selectAll().orderBy('applied_at', 'desc');
  if (ctx.taxNumber) q = q.where('seller_tax_number', '=', ctx.taxNumber);
  if (query.billIds) {
    if (query.billIds.length === 0) return [];
    q = q.where('bill_id', 'in', query.billIds);
  }
  if (query.billNos) {
    if (query.billNos.length === 0) return [];
    q = q.where('applicant', '=', 0).where('bill_no', 'in', query.billNos);
  }
  if (query.since) q = q.where('applied_at', '>=', query.since);
  const out: RedConfirm[] = [];
  for (const row of await q.limit(500).execute()) {
    const item = await toRedConfirm(ctx, await advanceRedConfirm(ctx, row));
    if (!query.awaitingUs || item.awaitingUs) out.push(item);
  }
  return out;
}

export async function confirmRedConfirm(ctx: SimContext, billId: string, accept: boolean): Promise<RedConfirm> {
  const method = 'nuonuo.OpeMplatform.confirm';
  const row = await load(ctx, billId, method);
  if (row.applicant !== 1 || row.state !== '03') throw refuse(`该确认单当前状态（${RED_STATE_MESSAGES[row.state as RedConfirmState]}）不是待我方确认`, method);
  return toRedConfirm(ctx, await transition(ctx, row, accept ? '04' : '06', ctx.now().toISOString()));
}

export async function cancelRedConfirm(ctx: SimContext, billId: string): Promise<RedConfirm> {
  const method = 'nuonuo.OpeMplatform.confirmInfoCancel';
  const row = await load(ctx, billId, method);
  if (row.applicant !== 0) throw refuse('只能撤销我方发起的红字确认单', method);
  if (row.state === '15') throw refuse('确认单申请中，请稍后再撤销', method);
  if (row.state === '01' || row.state === '04') throw refuse('确认单已确认并已开具红字发票，不能撤销', method);
  if (row.state !== '02') throw refuse(`确认单当前状态（${RED_STATE_MESSAGES[row.state as RedConfirmState]}）不能撤销`, method);
  return toRedConfirm(ctx, await transition(ctx, row, '08', ctx.now().toISOString()));
}
