/**
 * The Nuonuo client's incoming-invoice calls: collection (paged by pageNo) and 查验, signed and
 * logged by the same transport as the outgoing calls, answers mapped to income-types.ts. The method
 * names (exchange.ts IncomeMethods) and the answer fields below are provisional: see the comment
 * there; the request checks (window, fields per kind, date rules) are the same as the simulator's.
 */
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { IncomeMethods as M } from '../exchange.js';
import { checkCollectQuery, checkVerifyQuery, IncomeMessages, queryKey, VERIFY_FIELD_LABELS } from '../income-rules.js';
import type {
  IncomeCollectPage,
  IncomeCollectQuery,
  IncomeInvoiceState,
  IncomeKind,
  IncomeRiskLevel,
  IncomeTaxGateway,
  IncomeVerifyField,
  IncomeVerifyQuery,
  IncomeVerifyResult,
  IncomingInvoice,
} from '../income-types.js';
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

export class NuonuoIncome implements IncomeTaxGateway {
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
}
