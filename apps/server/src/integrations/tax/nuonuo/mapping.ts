/**
 * Our gateway types <-> Nuonuo's field names (诺税通 SaaS V2: requestBillingNew's order and
 * invoiceDetail, queryInvoiceResult's items, the red-confirm forms), following public SDKs.
 */
import { fenToYuan, yuanToFen } from '../money.js';
import type {
  InvoiceKindCode,
  RedConfirm,
  RedConfirmState,
  RedReason,
  TaxInvoiceLine,
  TaxInvoiceRequest,
  TaxInvoiceResult,
  TaxInvoiceStatus,
  VatUsage,
} from '../types.js';

/** InvoiceKind code -> Nuonuo's invoiceLine, and back. */
export const INVOICE_LINES: Record<number, string> = { 1: 'c', 2: 's', 9: 'bs', 10: 'pc' };
const KIND_OF_LINE: Record<string, InvoiceKindCode> = { c: 1, s: 2, bs: 9, pc: 10 };
/** Our special factor -> Nuonuo's specificFactor (3 建筑服务, 6 不动产经营租赁服务). */
const SPECIFIC_FACTORS: Record<number, string> = { 0: '0', 31: '3', 32: '6' };

const SHANGHAI_MS = 8 * 3600_000;
const shanghai = (ms: number) => new Date(ms + SHANGHAI_MS).toISOString().slice(0, 19).replace('T', ' ');

type Obj = Record<string, unknown>;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const joinSpace = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ');

function detail(line: TaxInvoiceLine): Obj {
  const zeroRateFlag = line.policyFlag === 'exempt' ? '1' : line.policyFlag === 'nonTaxable' ? '2' : '';
  const policyName = { none: '', exempt: '免税', nonTaxable: '不征税', simplified: '简易征收' }[line.policyFlag];
  return {
    goodsName: line.goodsName,
    goodsCode: line.taxCode,
    specType: line.spec ?? '',
    unit: line.unit ?? '',
    ...(line.quantity !== undefined ? { num: line.quantity } : {}),
    ...(line.unitPrice !== undefined ? { price: line.unitPrice } : {}),
    withTaxFlag: line.priceIncludesTax ? '1' : '0',
    taxRate: line.taxRate,
    taxExcludedAmount: fenToYuan(line.amountExcludingTax),
    tax: fenToYuan(line.tax),
    taxIncludedAmount: fenToYuan(line.amountIncludingTax),
    invoiceLineProperty: String(line.lineProperty),
    favouredPolicyFlag: line.policyFlag === 'none' ? '0' : '1',
    favouredPolicyName: policyName,
    zeroRateFlag,
  };
}

/** requestBillingNew's body. `now` gives the order time when the request has no date. */
export function toOrder(req: TaxInvoiceRequest, now: Date): Obj {
  const pushMode = req.buyer.email && req.buyer.mobile ? '2' : req.buyer.email ? '0' : req.buyer.mobile ? '1' : '-1';
  const elements =
    req.specialFactor === 31
      ? [
          { elementName: '建筑服务发生地', elementType: '1', elementValue: req.projectSite ?? '' },
          { elementName: '建筑项目名称', elementType: '1', elementValue: req.projectName ?? '' },
        ]
      : [];
  return {
    order: {
      orderNo: req.orderNo,
      invoiceDate: req.orderDate ? `${req.orderDate} 00:00:00` : shanghai(now.getTime()),
      invoiceType: String(req.colour),
      invoiceLine: INVOICE_LINES[req.kind],
      buyerName: req.buyer.name,
      buyerTaxNum: req.buyer.taxNumber ?? '',
      buyerTel: req.buyer.phone ?? '',
      buyerAddress: req.buyer.address ?? '',
      buyerAccount: joinSpace(req.buyer.bankName, req.buyer.bankAccount),
      salerTaxNum: req.seller.taxNumber ?? '',
      salerTel: req.seller.phone ?? '',
      salerAddress: req.seller.address ?? '',
      salerAccount: joinSpace(req.seller.bankName, req.seller.bankAccount),
      clerk: req.clerk,
      payee: req.payee ?? '',
      checker: req.checker ?? '',
      remark: req.remark ?? '',
      pushMode,
      email: req.buyer.email ?? '',
      buyerPhone: req.buyer.mobile ?? '',
      specificFactor: SPECIFIC_FACTORS[req.specialFactor] ?? '0',
      ...(elements.length ? { additionalElementList: elements } : {}),
      ...(req.colour === 2
        ? { redReason: String(req.redReason ?? ''), invoiceCode: req.blueInvoiceCode ?? '', invoiceNum: req.blueInvoiceNo ?? '' }
        : {}),
      invoiceDetail: req.lines.map(detail),
    },
  };
}

/** The URLs of an item's files, by type. */
export function fileUrls(item: Obj): Array<{ type: 'pdf' | 'ofd' | 'xml'; url: string }> {
  const out: Array<{ type: 'pdf' | 'ofd' | 'xml'; url: string }> = [];
  for (const [type, key] of [['pdf', 'pdfUrl'], ['ofd', 'ofdUrl'], ['xml', 'xmlUrl']] as const) {
    const url = str(item[key]);
    if (url) out.push({ type, url });
  }
  return out;
}

/** One queryInvoiceResult item, without files (the gateway downloads them). */
export function fromResultItem(item: Obj): Omit<TaxInvoiceResult, 'files'> {
  const status = Number(item.status) as TaxInvoiceStatus;
  const kindText = str(item.invoiceKind);
  const kind = KIND_OF_LINE[str(item.invoiceLine)] ?? (kindText.includes('专用') ? (kindText.includes('电') ? 9 : 2) : kindText.includes('电') ? 10 : 1);
  const failCause = str(item.failCause);
  const allElectronicNo = str(item.allElectronicInvoiceNumber);
  const invoiceNo = str(item.invoiceNo) || allElectronicNo;
  const time = Number(item.invoiceTime ?? item.invoiceDate);
  const created = status === 2 || status === 3 || status === 31;
  const excl = yuanToFen(str(item.exTaxAmount) || '0');
  const tax = yuanToFen(str(item.taxAmount) || '0');
  return {
    serialNo: str(item.serialNo),
    orderNo: str(item.orderNo),
    status,
    statusMessage: str(item.statusMsg) || String(status),
    ...(failCause ? { failCause } : {}),
    kind,
    colour: str(item.invoiceType) === '2' ? 2 : 1,
    ...(created && invoiceNo ? { invoiceNo } : {}),
    ...(created && str(item.invoiceCode) ? { invoiceCode: str(item.invoiceCode) } : {}),
    ...(created && allElectronicNo ? { allElectronicNo } : {}),
    ...(created && time > 0 ? { issuedAt: shanghai(time) } : {}),
    ...(created ? { amountExcludingTax: excl, tax, amountIncludingTax: item.orderAmount ? yuanToFen(str(item.orderAmount)) : excl + tax } : {}),
  };
}

const negative = (yuan: unknown) => -Math.abs(yuanToFen(str(yuan) || '0'));

/** One red-confirm form of queryInvoiceRedConfirm. */
export function fromRedForm(form: Obj): RedConfirm {
  const state = (str(form.billStatus) || '15') as RedConfirmState;
  const applicant = str(form.applySource) === '1' ? 1 : 0;
  const details = Array.isArray(form.detailList) ? (form.detailList as Obj[]) : [];
  const billTime = str(form.billTime);
  return {
    billId: str(form.billId),
    billNo: applicant === 0 ? str(form.billId) : '',
    ...(str(form.billNo) ? { confirmNo: str(form.billNo) } : {}),
    state,
    stateMessage: str(form.billStatusDesc) || str(form.requestStatusDesc) || state,
    applicant,
    awaitingUs: applicant === 1 && state === '03',
    blueInvoiceNo: str(form.blueElecInvoiceNumber) || str(form.blueInvoiceNumber),
    blueIssueDate: str(form.blueInvoiceTime).slice(0, 10),
    redReason: (Number(form.redReason) || 1) as RedReason,
    ...(Number(form.vatUsage) ? { vatUsage: Number(form.vatUsage) as VatUsage } : {}),
    buyerName: str(form.buyerName),
    ...(str(form.buyerTaxNo) ? { buyerTaxNumber: str(form.buyerTaxNo) } : {}),
    amountExcludingTax: negative(form.taxExcludedAmount),
    tax: negative(form.taxAmount),
    lines: details.map((d, i) => ({
      blueLineNo: Number(d.blueDetailIndex ?? i + 1),
      goodsName: str(d.goodsName),
      ...(str(d.num) ? { quantity: str(d.num) } : {}),
      amountExcludingTax: negative(d.taxExcludedAmount),
      tax: negative(d.taxAmount ?? d.tax),
      taxRate: str(d.taxRate),
    })),
    ...(str(form.invoiceSerialNum) ? { redSerialNo: str(form.invoiceSerialNum) } : {}),
    ...(str(form.redInvoiceNumber) ? { redInvoiceNo: str(form.redInvoiceNumber) } : {}),
    ...(str(form.billMessage) && state === '16' ? { failCause: str(form.billMessage) } : {}),
    appliedAt: /^\d+$/.test(billTime) ? new Date(Number(billTime)).toISOString() : billTime ? new Date(`${billTime.replace(' ', 'T')}+08:00`).toISOString() : '',
  };
}
