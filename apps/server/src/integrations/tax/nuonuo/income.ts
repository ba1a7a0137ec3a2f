/**
 * The Nuonuo client's incoming-invoice calls: collection (paged by pageNo) and 查验, signed and
 * logged by the same transport as the outgoing calls, answers mapped to income-types.ts. The method
 * names (exchange.ts IncomeMethods) and the answer fields below are provisional: see the comment
 * there; the request checks (window, fields per kind, date rules) are the same as the simulator's.
 */
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { IncomeMethods as M } from '../exchange.js';
import { checkCollectQuery, checkVerifyQuery, IncomeMessages, queryKey, VERIFY_FIELD_LABELS } from '../income-rules.js';
import { bookingKey, checkBookingItems } from '../booking-rules.js';
import { checkStatusItems, statusKey } from '../status-rules.js';
import type {
  BookingItem,
  BookingOutcome,
  IncomeCollectPage,
  IncomeCollectQuery,
  IncomeInvoiceState,
  IncomeKind,
  IncomeRiskLevel,
  IncomeStatGateway,
  IncomeTaxGateway,
  IncomeVerifyField,
  IncomeVerifyQuery,
  IncomeVerifyResult,
  IncomingInvoice,
  StatusItem,
  StatusOutcome,
  CustomsCollectPage,
  CustomsNotice,
  CustomsTickRequest,
  CustomsUntickRequest,
  TickOutcome,
  TickPeriod,
  TickRequest,
  UntickRequest,
} from '../income-types.js';
import { checkCustomsTickRequest, checkCustomsUntickRequest, checkTickRequest, checkUntickRequest, tickKey } from '../tick-rules.js';
import { fenToYuan, yuanToFen } from '../money.js';
import type { TaxCallContext, TaxClock } from '../types.js';
import type { NuonuoTransport } from './transport.js';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const SHANGHAI_MS = 8 * 3600_000;

/** 查验 result codes as the national verification platform gives them. */
const CHECK = { ok: '001', limit: '002', mismatch: '006', notFound: '009' } as const;
/** Nuonuo's names of the fields an inconsistency may name -> ours. */
const FIELD_OF: Record<string, IncomeVerifyField> = { invoiceCode: 'invoiceCode', invoiceNo: 'invoiceNo', invoiceDate: 'issueDate' };

/** One incoming invoice of Nuonuo's answer -> ours. */
export function fromIncomeItem(o: Obj): IncomingInvoice {
  const invoiceCode = str(o.invoiceCode);
  const allElectronicNo = str(o.allElectronicInvoiceNumber);
  const invoiceNo = str(o.invoiceNo) || allElectronicNo;
  const time = str(o.invoiceDate);
  const issueDate = time.slice(0, 10);
  const extra: Partial<IncomingInvoice> = {};
  if (o.passengerName) extra.passengerName = str(o.passengerName);
  if (o.travelDate) extra.travelDate = str(o.travelDate).slice(0, 10);
  return {
    key: allElectronicNo || `${invoiceCode}${invoiceNo}`,
    kind: str(o.invoiceType) as IncomeKind,
    invoiceCode,
    invoiceNo,
    allElectronicNo,
    issueDate,
    issuedAt: time.length >= 19 ? time.slice(0, 19) : `${issueDate} 00:00:00`,
    seller: { name: str(o.salerName), taxNumber: str(o.salerTaxNum) },
    buyer: { name: str(o.buyerName), taxNumber: str(o.buyerTaxNum) },
    amountExcludingTax: yuanToFen(str(o.exTaxAmount)),
    tax: yuanToFen(str(o.taxAmount)),
    total: yuanToFen(str(o.totalAmount)),
    checkCode: str(o.checkCode),
    lines: list(o.invoiceItems).map((l) => ({
      name: str(l.goodsName),
      spec: str(l.specType),
      unit: str(l.unit),
      quantity: str(l.num),
      unitPrice: str(l.price),
      amountExcludingTax: yuanToFen(str(l.taxExcludedAmount)),
      taxRate: str(l.taxRate),
      tax: yuanToFen(str(l.taxAmount)),
    })),
    state: Number(o.invoiceStatus ?? 0) as IncomeInvoiceState,
    riskLevel: (str(o.riskLevel) || '01') as IncomeRiskLevel,
    changedAt: str(o.statusChangeTime),
    remark: str(o.remark),
    ...extra,
  };
}

/**
 * One customs notice of the answer -> ours. The names are the tax platform's that a published 进项 channel relays for
 * 海关缴款书 (hgjkshm 海关缴款书号码, tfrq 填发日期, skje 税款金额, jkdwrnsrsbh / jkdwrnsrmc 缴款单位, hgjhjgDm / hgjhjgmc 海关);
 * wsjg 完税价格 and zt 状态 are ours by analogy. NOT CONFIRMED: check in the first joint test.
 */
export function fromCustomsItem(o: Obj): CustomsNotice {
  const state = Number(o.zt ?? 0);
  return {
    noticeNo: str(o.hgjkshm),
    fillDate: str(o.tfrq).slice(0, 10),
    customsName: str(o.hgjhjgmc),
    customsCode: str(o.hgjhjgDm),
    payer: { name: str(o.jkdwrnsrmc), taxNumber: str(o.jkdwrnsrsbh) },
    dutiablePrice: yuanToFen(str(o.wsjg) || '0'),
    tax: yuanToFen(str(o.skje)),
    state: (state === 2 ? 2 : 0) as IncomeInvoiceState,
  };
}

export class NuonuoIncome implements Omit<IncomeTaxGateway, keyof IncomeStatGateway> {
  constructor(
    private readonly t: NuonuoTransport,
    private readonly clock: TaxClock,
  ) {}

  async collectIncoming(q: IncomeCollectQuery, ctx?: TaxCallContext): Promise<IncomeCollectPage> {
    const size = checkCollectQuery(q, M.collect);
    if (q.cursor !== undefined && !/^[1-9]\d{0,5}$/.test(q.cursor)) throw new TaxGatewayError(TaxErrorCode.invalid, IncomeMessages.badCursor, M.collect);
    const pageNo = Number(q.cursor ?? '1');
    const answer = await this.t.call(M.collect, { startDate: q.from, endDate: q.to, pageNo: String(pageNo), pageSize: String(size) }, ctx);
    const result = (answer.result ?? {}) as Obj;
    const invoices = list(result.list).map(fromIncomeItem);
    const total = Number(result.total ?? invoices.length);
    return { invoices, total, ...(pageNo * size < total && invoices.length > 0 ? { nextCursor: String(pageNo + 1) } : {}) };
  }

  /** 海关缴款书采集: tfrqq / tfrqz (填发日期起止), pageNo / pageSize; the answer's result.total and result.list[] (fromCustomsItem). */
  async collectCustoms(q: IncomeCollectQuery, ctx?: TaxCallContext): Promise<CustomsCollectPage> {
    const size = checkCollectQuery(q, M.customsCollect);
    if (q.cursor !== undefined && !/^[1-9]\d{0,5}$/.test(q.cursor)) throw new TaxGatewayError(TaxErrorCode.invalid, IncomeMessages.badCursor, M.customsCollect);
    const pageNo = Number(q.cursor ?? '1');
    const answer = await this.t.call(M.customsCollect, { tfrqq: q.from, tfrqz: q.to, pageNo: String(pageNo), pageSize: String(size) }, ctx);
    const result = (answer.result ?? {}) as Obj;
    const notices = list(result.list).map(fromCustomsItem);
    const bad = notices.find((n) => !n.noticeNo || !/^\d{4}-\d{2}-\d{2}$/.test(n.fillDate));
    if (bad) throw new TaxGatewayError(TaxErrorCode.transport, `税务端返回的海关缴款书缺少号码或填发日期（${bad.noticeNo || '无号码'}）`, M.customsCollect);
    const total = Number(result.total ?? notices.length);
    return { notices, total, ...(pageNo * size < total && notices.length > 0 ? { nextCursor: String(pageNo + 1) } : {}) };
  }

  async verifyIncoming(q: IncomeVerifyQuery, ctx?: TaxCallContext): Promise<IncomeVerifyResult> {
    const today = new Date(this.clock.now().getTime() + SHANGHAI_MS).toISOString().slice(0, 10);
    const form = checkVerifyQuery(q, today, M.verify);
    const optionField = form === 'digital' ? fenToYuan(q.total!) : q.amountExcludingTax !== undefined ? fenToYuan(q.amountExcludingTax) : q.checkCodeLast6!;
    const body = { invoiceCode: q.invoiceCode ?? '', invoiceNo: q.invoiceNo, invoiceDate: q.issueDate, optionField };
    const answer = await this.t.call(M.verify, body, ctx, [], [queryKey(q)]);
    const result = (answer.result ?? {}) as Obj;
    const code = str(result.checkResult);
    const checksToday = Number(result.checkCount ?? 0);
    if (code === CHECK.limit) throw new TaxGatewayError(TaxErrorCode.verifyLimit, IncomeMessages.verifyLimit, M.verify);
    if (code === CHECK.notFound) return { outcome: 'notFound', message: IncomeMessages.notFound, checksToday };
    if (code === CHECK.mismatch) {
      const optionOf: IncomeVerifyField = form === 'digital' ? 'total' : q.amountExcludingTax !== undefined ? 'amountExcludingTax' : 'checkCodeLast6';
      const named = Array.isArray(result.inconsistentFields) ? (result.inconsistentFields as unknown[]).map(String) : [];
      const fields = [...new Set(named)]
        .map((f) => (f === 'optionField' ? optionOf : FIELD_OF[f]))
        .filter((f): f is IncomeVerifyField => Boolean(f));
      const message = fields.length ? IncomeMessages.mismatch(fields.map((f) => VERIFY_FIELD_LABELS[f])) : `信息不一致：${str(result.checkMsg) || '查验信息与税务端不符'}`;
      return { outcome: 'mismatch', message, fields, checksToday };
    }
    if (code !== CHECK.ok || !result.invoice) throw new TaxGatewayError(TaxErrorCode.transport, `税务端查验未返回结果（${code || '无代码'} ${str(result.checkMsg)}）`, M.verify);
    return { outcome: 'match', invoice: fromIncomeItem(result.invoice as Obj), message: IncomeMessages.matched, checksToday };
  }

  /** 当前税款所属期: skssq (YYYYMM), gxjzrq (勾选截止日期), the window kprqq / kprqz, tjzt (统计状态 0 / 1 / 2). */
  async tickPeriod(ctx?: TaxCallContext): Promise<TickPeriod> {
    const answer = await this.t.call(M.period, {}, ctx);
    const r = (answer.result ?? {}) as Obj;
    const period = str(r.skssq);
    if (!/^\d{6}$/.test(period)) throw new TaxGatewayError(TaxErrorCode.transport, `税务端未返回当前税款所属期（${str(r.skssq) || '空'}）`, M.period);
    const end = str(r.gxjzrq);
    const deadline = /^\d{4}-\d{2}-\d{2}/.test(end) ? new Date(Date.parse(`${end.slice(0, 10)}T${end.length >= 19 ? end.slice(11, 19) : '23:59:59'}.000Z`) - SHANGHAI_MS).toISOString() : '';
    if (!deadline) throw new TaxGatewayError(TaxErrorCode.transport, '税务端未返回勾选截止日期', M.period);
    const stat = Number(r.tjzt ?? 0);
    return { period, deadline, windowFrom: str(r.kprqq).slice(0, 10), windowTo: str(r.kprqz).slice(0, 10), statState: (stat === 1 || stat === 2 ? stat : 0) as 0 | 1 | 2 };
  }

  /** 发票勾选: gxlx 1 / 2 / 3 / 4 (bdkyy with 4), one entry per invoice; the answer's list names each refusal (gxjg 0 拒绝, 1 成功; msg). */
  async tickInvoices(req: TickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    checkTickRequest(req, M.tick);
    const list = req.items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate, yxse: fenToYuan(i.effectiveTax) }));
    const body = { skssq: req.period, gxlx: String(req.usage), ...(req.reason ? { bdkyy: String(req.reason) } : {}), list };
    return outcomesOf(await this.t.call(M.tick, body, ctx, [], req.items.map(tickKey)), req.items.map(tickKey), M.tick);
  }

  /** 撤销勾选: gxlx 6 撤销抵扣, 7 撤销不抵扣, 13 撤销退税 (both rebates). */
  async untickInvoices(req: UntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    checkUntickRequest(req, M.untick);
    const list = req.items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate }));
    const body = { skssq: req.period, gxlx: req.usage === 1 ? '6' : req.usage === 4 ? '7' : '13', list };
    return outcomesOf(await this.t.call(M.untick, body, ctx, [], req.items.map(tickKey)), req.items.map(tickKey), M.untick);
  }

  /** 海关缴款书勾选: the notices' own call (jkshm 缴款书号码, tfrq 填发日期, yxse 有效税额 in 元). */
  async tickCustoms(req: CustomsTickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    checkCustomsTickRequest(req, M.customsTick);
    const list = req.items.map((i) => ({ jkshm: i.noticeNo, tfrq: i.fillDate, yxse: fenToYuan(i.effectiveTax) }));
    const body = { skssq: req.period, gxlx: String(req.usage), ...(req.reason ? { bdkyy: String(req.reason) } : {}), list };
    const keys = req.items.map((i) => i.noticeNo);
    return outcomesOf(await this.t.call(M.customsTick, body, ctx, [], keys), keys, M.customsTick);
  }

  async untickCustoms(req: CustomsUntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    checkCustomsUntickRequest(req, M.customsUntick);
    const list = req.items.map((i) => ({ jkshm: i.noticeNo, tfrq: i.fillDate }));
    const body = { skssq: req.period, gxlx: req.usage === 1 ? '6' : '7', list };
    const keys = req.items.map((i) => i.noticeNo);
    return outcomesOf(await this.t.call(M.customsUntick, body, ctx, [], keys), keys, M.customsUntick);
  }

  /** 入账标识: rzzt 01 / 02 / 03 / 06 and rzrq (入账日期) per invoice; the answer's list names each result (cljg 1 成功, 0 拒绝; msg). */
  async setBookingState(items: BookingItem[], ctx?: TaxCallContext): Promise<BookingOutcome[]> {
    checkBookingItems(items, M.booking);
    const list = items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate, rzzt: i.state, rzrq: i.bookedAt ?? '' }));
    const keys = items.map(bookingKey);
    const answer = await this.t.call(M.booking, { list }, ctx, [], keys);
    return outcomesOf(answer, keys, M.booking, 'cljg', '入账标识');
  }

  /** 发票状态查询: fpdm / fphm / qdfphm / kprq per invoice (statusOutcomesOf reads the answer). */
  async queryIncomeStatus(items: StatusItem[], ctx?: TaxCallContext): Promise<StatusOutcome[]> {
    checkStatusItems(items, M.status);
    const list = items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate }));
    const keys = items.map(statusKey);
    return statusOutcomesOf(await this.t.call(M.status, { list }, ctx, [], keys), keys, M.status);
  }
}

const STATES: ReadonlySet<number> = new Set([0, 1, 2, 3, 7, 8]);
const RISKS: ReadonlySet<string> = new Set(['01', '02', '03']);

/**
 * 发票状态查询: the answer's list names each invoice (qdfphm, else fpdm + fphm) with fpzt (发票状态 0 正常, 1 失控,
 * 2 作废, 3 已红冲, 7 部分红冲, 8 全额红冲), fxdj (风险等级 01 正常, 02 异常凭证, 03 疑点发票) and ztbgsj (状态变更时间);
 * an invoice the answer leaves out, or answers with cxjg 0 (查无此票), is not found; a code outside those lists is
 * the service's failure (TRANSPORT), never read as 正常.
 */
export function statusOutcomesOf(answer: { result?: unknown }, keys: string[], method: string): StatusOutcome[] {
  const r = (answer.result ?? {}) as Obj;
  if (!Array.isArray(r.list)) throw new TaxGatewayError(TaxErrorCode.transport, '税务端未返回逐张发票状态', method);
  const byKey = new Map<string, Obj>();
  for (const o of list(r.list)) byKey.set(str(o.qdfphm) || `${str(o.fpdm)}${str(o.fphm)}`, o);
  return keys.map((key): StatusOutcome => {
    const o = byKey.get(key);
    if (!o || str(o.cxjg) === '0') return { key, found: false, state: 0, riskLevel: '01', changedAt: '' };
    const state = Number(str(o.fpzt) || '0');
    const risk = str(o.fxdj) || '01';
    if (!STATES.has(state) || !RISKS.has(risk)) throw new TaxGatewayError(TaxErrorCode.transport, `税务端返回的发票状态无法识别（${key}：fpzt=${str(o.fpzt)}，fxdj=${str(o.fxdj)}）`, method);
    return { key, found: true, state: state as IncomeInvoiceState, riskLevel: risk as IncomeRiskLevel, changedAt: str(o.ztbgsj).slice(0, 19) };
  });
}

/** The per-invoice results of a tick (or booking-flag) call, in the order asked (an invoice the answer does not name is refused). */
function outcomesOf(answer: { result?: unknown }, keys: string[], method: string, flag = 'gxjg', what = '勾选'): TickOutcome[] {
  const r = (answer.result ?? {}) as Obj;
  if (!Array.isArray(r.list)) throw new TaxGatewayError(TaxErrorCode.transport, `税务端未返回逐张${what}结果`, method);
  const byKey = new Map<string, Obj>();
  // A customs notice answers with its 缴款书号码 (jkshm), an invoice with its numbers.
  for (const o of list(r.list)) byKey.set(str(o.jkshm) || str(o.qdfphm) || `${str(o.fpdm)}${str(o.fphm)}`, o);
  return keys.map((key) => {
    const o = byKey.get(key);
    if (!o) return { key, accepted: false, message: `税务端未返回该发票的${what}结果` };
    const accepted = str(o[flag]) === '1';
    return { key, accepted, message: str(o.msg) || (accepted ? '成功' : '税务端拒绝') };
  });
}
