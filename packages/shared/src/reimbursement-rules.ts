/**
 * 费用报销 (issue 15): the bill arithmetic and the line checks, the same on the server (which stores
 * them) and in the editor (which shows them while typing). Money in integer 分, rounded half-up.
 */
import { Decimal } from 'decimal.js';
import type { ReimbCheck, ReimbDuplicateRef } from './api/reimbursement.js';
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

/**
 * 疑似重复报销 across employees (issue 32 #4): two lines of two claiming bills match when their sellers are the
 * same (sellerKey), their amounts are equal to the 分 and their dates at most this many days apart. A receipt
 * carries one date but the claimant types the line's date: the day of the trip or the day printed, a ride after
 * midnight, a 定额发票 that prints no date at all, a ticket claimed by the day it was collected; so one receipt
 * claimed twice may differ by a day or two, three over a long weekend. Wider, a recurring expense (the same
 * parking fee every week, the same fare every day) would bury the approvers in matches (docs/reimbursement.md).
 */
export const DUPLICATE_CLAIM_DAYS = 3;

/** Legal-form endings that do not tell two sellers apart (北京出租汽车有限公司 = 北京出租汽车公司 = 北京出租汽车). */
const SELLER_SUFFIXES = ['股份有限公司', '有限责任公司', '有限公司', '集团公司', '公司'];

/**
 * A seller's name as the duplicate-claim check compares it: NFKC (full-width letters, digits and brackets become
 * ordinary ones), lower case, without spaces, punctuation or symbols, and without one legal-form ending. '' when
 * nothing is left (no seller known). Migration 0048 carries a copy of this rule for its backfill.
 */
export function sellerKey(name: string): string {
  let s = name.normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]/gu, '');
  for (const suffix of SELLER_SUFFIXES)
    if (s.length > suffix.length && s.endsWith(suffix)) {
      s = s.slice(0, -suffix.length);
      break;
    }
  return s;
}

/** A match of the duplicate-claim check: the other line, and whether it is the same applicant's. */
export interface DuplicateClaimMatch {
  ref: ReimbDuplicateRef;
  sameApplicant: boolean;
  /** Matched without a seller (neither line names one): same person, category, day and amount. */
  bySeller: boolean;
  /** The other line is in the same bill (a receipt entered twice, a paper ticket scanned twice). */
  sameBill?: boolean;
}

/** What the duplicate-claim rule compares of a line. */
export interface DuplicateClaimFacts {
  /** sellerKey of the line's seller; '' when none is known. */
  sellerKey: string;
  amount: number;
  expenseDate: string;
  categoryCode: string;
  /** Backed by a pool invoice (a numbered document). */
  hasInvoice: boolean;
}

/**
 * Whether two lines are claims of the same expense by the rule of issue 32 #4: with sellers, the same seller key,
 * the same amount to the 分, dates at most DUPLICATE_CLAIM_DAYS apart and at least one without a pool invoice;
 * without a seller on either, the same category, day and amount (the same applicant is the caller's condition).
 */
export function sameClaim(a: DuplicateClaimFacts, b: DuplicateClaimFacts): boolean {
  if (a.sellerKey !== b.sellerKey || a.amount !== b.amount || !a.expenseDate || !b.expenseDate) return false;
  if (a.sellerKey) return Math.abs(daysBetween(a.expenseDate, b.expenseDate)) <= DUPLICATE_CLAIM_DAYS && !(a.hasInvoice && b.hasInvoice);
  return a.expenseDate === b.expenseDate && a.categoryCode === b.categoryCode;
}

/**
 * The same receipt entered twice in one bill (issue 32 #4, within the bill): for each line, the indexes of the
 * other lines of the same bill it matches by `sameClaim` (symmetric: both lines of a pair name each other).
 * A line without an amount matches nothing (a line still being typed).
 */
export function sameBillDuplicates(lines: readonly DuplicateClaimFacts[]): number[][] {
  return lines.map((l, i) => (l.amount > 0 ? lines.flatMap((m, j) => (j !== i && sameClaim(l, m) ? [j] : [])) : []));
}

/** The words of a 疑似重复报销 finding; another employee's bill is not named (its reference goes only to the approvers). */
export function duplicateClaimMessage(m: DuplicateClaimMatch): string {
  const r = m.ref;
  if (m.sameBill) {
    if (!m.bySeller) return `与本单第${r.lineNo}行的费用类别、日期和金额相同，疑似重复报销`;
    return `与本单第${r.lineNo}行的收款方（${r.sellerName}）、金额（${formatFen(r.amount)} 元）相同，${r.days === 0 ? '日期相同' : `日期相差 ${r.days} 天`}，疑似重复报销`;
  }
  if (!m.bySeller) return `与报销单 ${r.billNo} 的费用类别、日期和金额相同，疑似重复报销`;
  const when = r.days === 0 ? '日期相同' : `日期相差 ${r.days} 天`;
  const whose = m.sameApplicant ? `报销单 ${r.billNo} 第${r.lineNo}行` : '另一员工的报销单';
  return `与${whose}的收款方（${r.sellerName}）、金额（${formatFen(r.amount)} 元）相同，${when}，疑似重复报销`;
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
  /** Other claims of the same expense (issue 32 #4: seller, amount, date within DUPLICATE_CLAIM_DAYS, any applicant). */
  duplicateClaims?: readonly DuplicateClaimMatch[];
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
  for (const m of f.duplicateClaims ?? []) out.push({ code: 'duplicateClaim', level: 'warn', message: duplicateClaimMessage(m), ref: m.ref });
  return out;
}

export const hasBlock = (checks: readonly ReimbCheck[]) => checks.some((c) => c.level === 'block');
