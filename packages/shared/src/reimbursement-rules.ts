/**
 * 费用报销 (issue 15): the bill arithmetic and the line checks, the same on the server (which stores
 * them) and in the editor (which shows them while typing). Money in integer 分, rounded half-up.
 */
import { Decimal } from 'decimal.js';
import type { ReimbCheck } from './api/reimbursement.js';
import { formatFen } from './workflow-rules.js';
import { travelClassAllowed } from './travel-classes.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** A tax rate as text: 0, 0.01 … 1 (e.g. '0.06'). */
export const TAX_RATE_PATTERN = /^(0(\.\d{1,4})?|1(\.0{1,4})?)$/;

/** The tax included in an amount: amount ÷ (1 + rate) × rate, half-up to 分. */
export function taxOfIncluded(amountFen: number, rate: string): number {
  if (!TAX_RATE_PATTERN.test(rate)) return 0;
  const r = new D(rate);
  return new D(amountFen).dividedBy(r.plus(1)).times(r).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** A rate as the screen shows it: '0.06' → '6%'. */
export const reimbRateLabel = (rate: string): string => (TAX_RATE_PATTERN.test(rate) ? `${new D(rate).times(100).toString()}%` : rate);

export interface BillLineSums {
  amount: number;
  /** 核定: null while nobody reduced it. */
  approvedAmount: number | null;
  tax: number;
  deductibleTax: number;
}

/** The bill's sums: claimed, approved (核定, the claim where nobody reduced it), tax, deductible tax, line count. */
export function billSums(lines: readonly BillLineSums[]) {
  let amount = 0;
  let approvedAmount = 0;
  let tax = 0;
  let deductibleTax = 0;
  for (const l of lines) {
    amount += l.amount;
    approvedAmount += l.approvedAmount ?? l.amount;
    tax += l.tax;
    deductibleTax += l.deductibleTax;
  }
  return { amount, approvedAmount, tax, deductibleTax, lineCount: lines.length };
}

/** Days from one calendar day (YYYY-MM-DD) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Money in the findings' words: the one format of the screens (16,916.10). */
const yuan = (fen: number) => formatFen(fen);

/** What the checks need to know about one line (the server gathers it; the editor has part of it). */
export interface LineCheckFacts {
  amount: number;
  /** hotel | transport | allowance | '' */
  travelKind: string;
  nights: number | null;
  seatClass: string;
  /** The day the age is measured to (the save). */
  today: string;
  invoiceAgeDays: number;
  invoice?: {
    number: string;
    total: number;
    issueDate: string;
    buyerMismatch: boolean;
    /** The invoice's state when it is not usable (作废, 已红冲, 全额红冲), else ''. */
    deadState: string;
    /** Files uploaded with it that did not show its number (no evidence of the typed face: an approver compares the original). */
    unreadFiles?: string[];
  } | null;
  /** Another bill already claiming the same invoice (by identity, file, or seller + date + total). */
  duplicateInvoiceBill?: string | null;
  /** Another bill of the same person with the same category, date and amount. */
  duplicateClaimBill?: string | null;
  /** The travel standard of the applicant's grade and the line's city tier, when the category has one; its seat classes are ceilings (travel-classes.ts). */
  standard?: { hotelPerNight: number; seatClasses: string[]; allowancePerDay: number; label: string } | null;
}

/** The findings of one line: blocks refuse the submit, warnings are shown to the approvers. */
export function lineChecks(f: LineCheckFacts): ReimbCheck[] {
  const out: ReimbCheck[] = [];
  const inv = f.invoice;
  if (f.duplicateInvoiceBill) out.push({ code: 'duplicateInvoice', level: 'block', message: `该发票已在报销单 ${f.duplicateInvoiceBill} 中报销` });
  if (inv) {
    if (inv.deadState) out.push({ code: 'invoiceDead', level: 'block', message: `发票${inv.deadState}，不能报销` });
    if (inv.buyerMismatch) out.push({ code: 'buyerNotOurs', level: 'block', message: '发票购买方不是本公司' });
    if (inv.total < f.amount) out.push({ code: 'invoiceShort', level: 'block', message: `发票金额 ${yuan(inv.total)} 元小于报销金额 ${yuan(f.amount)} 元` });
    if (inv.unreadFiles?.length) out.push({ code: 'invoiceFileUnread', level: 'warn', message: `发票文件（${inv.unreadFiles.join('、')}）未能识别出发票号码，票面由上传人填写，请核对原件` });
    if (inv.issueDate && daysBetween(inv.issueDate, f.today) > f.invoiceAgeDays) out.push({ code: 'invoiceTooOld', level: 'warn', message: `发票开具于 ${inv.issueDate}，已超过 ${f.invoiceAgeDays} 天` });
  }
  const s = f.standard;
  if (s) {
    if (f.travelKind === 'hotel') {
      const nights = Math.max(f.nights ?? 1, 1);
      if (f.amount > s.hotelPerNight * nights) out.push({ code: 'hotelOverStandard', level: 'warn', message: `住宿每晚 ${yuan(Math.round(f.amount / nights))} 元，超过${s.label}标准 ${yuan(s.hotelPerNight)} 元` });
    } else if (f.travelKind === 'transport') {
      if (f.seatClass && !travelClassAllowed(f.seatClass, s.seatClasses)) out.push({ code: 'seatOverStandard', level: 'warn', message: `座席「${f.seatClass}」超出${s.label}标准（${s.seatClasses.join('、') || '无'}）` });
    } else if (f.travelKind === 'allowance') {
      const days = Math.max(f.nights ?? 1, 1);
      if (f.amount > s.allowancePerDay * days) out.push({ code: 'allowanceOverStandard', level: 'warn', message: `补助每天 ${yuan(Math.round(f.amount / days))} 元，超过${s.label}标准 ${yuan(s.allowancePerDay)} 元` });
    }
  }
  if (f.duplicateClaimBill) out.push({ code: 'duplicateClaim', level: 'warn', message: `与报销单 ${f.duplicateClaimBill} 的费用类别、日期和金额相同，疑似重复报销` });
  return out;
}

export const hasBlock = (checks: readonly ReimbCheck[]) => checks.some((c) => c.level === 'block');
