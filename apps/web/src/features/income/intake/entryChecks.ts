/**
 * The checks of 手工录入 that the shared schema cannot express field by field, with the server's own
 * Chinese messages (identity.ts and checks.ts of the income module): the invoice's key by kind, the tax
 * numbers (the shared GB 32100 rule), 金额 + 税额 = 价税合计, the lines' sums against the face and a date not
 * after today (Asia/Shanghai).
 */
import { CODED_INCOME_KINDS, DIGITAL_INCOME_KINDS, formatShanghai, incomeFaceProblems, itineraryProblem, taxNumberProblem, type IncomeKindCode } from '@zhyy/shared';

export interface EntryFace {
  kind?: string;
  invoiceCode?: string;
  invoiceNo?: string;
  digitalNo?: string;
  issueDate?: string;
  sellerTaxNo?: string;
  buyerTaxNo?: string;
  amountExcl?: number;
  tax?: number;
  amountIncl?: number;
  /** The lines typed (money in 分); none is allowed. */
  lines?: Array<{ amount: number; tax: number }>;
  /** 对应蓝字发票号码 (a red invoice). */
  blueInvoiceNo?: string;
  /** A paper air itinerary's printed 票价, 燃油附加费 and 民航发展基金 (分). */
  fare?: number;
  fuelSurcharge?: number;
  developmentFund?: number;
}

/**
 * A paper air itinerary (航空运输电子客票行程单 on paper: kind air without a 数电 number) prints 票价, 燃油附加费 and
 * 民航发展基金 beside its 合计; the deduction base is 票价 + 燃油附加费 (公告2019年第39号; shared airFareAndFuel).
 */
export const asksItineraryFigures = (kind: string | undefined, digitalNo: string | undefined): boolean => kind === 'air' && !(digitalNo ?? '').trim();

export const ITINERARY_NEGATIVE = '票价、燃油附加费和民航发展基金不能为负数';

/** Which number fields the kind asks for. */
export function numberFields(kind: string | undefined): { code: boolean; number: boolean; digital: boolean } {
  if (DIGITAL_INCOME_KINDS.includes(kind as IncomeKindCode)) return { code: false, number: false, digital: true };
  // A 海关进口增值税专用缴款书 has one number, the 缴款书号码.
  if (kind === 'customs') return { code: false, number: true, digital: false };
  if (CODED_INCOME_KINDS.includes(kind as IncomeKindCode)) return { code: true, number: true, digital: false };
  return { code: true, number: true, digital: false };
}

/** Everything wrong with the face, in the server's words; [] when it may be sent. Money in 分. */
export function entryProblems(f: EntryFace, today: string = formatShanghai(new Date(), 'YYYY-MM-DD')): string[] {
  const out: string[] = [];
  const digital = (f.digitalNo ?? '').trim();
  const code = (f.invoiceCode ?? '').trim();
  const no = (f.invoiceNo ?? '').trim();
  const kind = f.kind as IncomeKindCode;
  if (digital) {
    if (!/^\d{20}$/.test(digital)) out.push('数电发票号码须为20位数字');
  } else if (DIGITAL_INCOME_KINDS.includes(kind)) out.push('数电发票须填写20位数电发票号码');
  else if (CODED_INCOME_KINDS.includes(kind)) {
    if (!code || !no) out.push('请填写数电发票号码，或发票代码和发票号码');
    else if (!/^(\d{10}|\d{12})$/.test(code)) out.push('发票代码须为10位或12位数字');
    else if (!/^\d{8}$/.test(no)) out.push('发票号码须为8位数字');
  } else if (kind && !no) out.push('请填写票据号码');
  else if (kind && (!/^[0-9A-Za-z-]{1,40}$/.test(no) || (code && !/^[0-9A-Za-z]{1,20}$/.test(code)))) out.push('票据号码只能包含字母、数字和短横线');
  const seller = (f.sellerTaxNo ?? '').trim();
  const sellerProblem = seller ? taxNumberProblem(seller) : null;
  if (sellerProblem) out.push(`销方${sellerProblem}`);
  const buyer = (f.buyerTaxNo ?? '').trim();
  const buyerProblem = buyer ? taxNumberProblem(buyer) : null;
  if (buyerProblem) out.push(`购方${buyerProblem}`);
  if (f.amountExcl !== undefined && f.tax !== undefined && f.amountIncl !== undefined) {
    // The shared face rule (income-face-rules.ts): the sum, blue/red signs, discount lines, lines against the face.
    for (const p of incomeFaceProblems({ amountExcl: f.amountExcl, tax: f.tax, amountIncl: f.amountIncl, lines: f.lines ?? [], blueInvoiceNo: f.blueInvoiceNo })) if (!out.includes(p.message)) out.push(p.message);
  } else if (f.lines?.length) {
    if (f.amountExcl !== undefined && f.lines.reduce((a, l) => a + l.amount, 0) !== f.amountExcl) out.push('明细金额合计与发票金额不一致');
    if (f.tax !== undefined && f.lines.reduce((a, l) => a + l.tax, 0) !== f.tax) out.push('明细税额合计与发票税额不一致');
  }
  if (f.issueDate && f.issueDate > today) out.push('开票日期不能晚于今天');
  if (asksItineraryFigures(f.kind, f.digitalNo)) {
    if ([f.fare, f.fuelSurcharge, f.developmentFund].some((v) => (v ?? 0) < 0)) out.push(ITINERARY_NEGATIVE);
    else if (f.amountIncl !== undefined) {
      const problem = itineraryProblem('air', f.amountIncl, { fare: f.fare, fuelSurcharge: f.fuelSurcharge, developmentFund: f.developmentFund });
      if (problem) out.push(problem);
    }
  }
  return out;
}

/** The words of the face's fields as the document prints them. */
export interface EntryLabels {
  invoiceNo: string;
  issueDate: string;
  sellerName: string;
  amountExcl: string;
  tax: string;
  amountIncl: string;
}

const INVOICE_LABELS: EntryLabels = { invoiceNo: '发票号码', issueDate: '开票日期', sellerName: '销方名称', amountExcl: '金额', tax: '税额', amountIncl: '价税合计' };

/**
 * The labels of the entry form for a kind: an invoice's, or a 海关进口增值税专用缴款书's (issue 29: 缴款书号码,
 * 填发日期, the 填发海关, 完税价格, 税款金额 and their 合计).
 */
export const entryLabels = (kind: string | undefined): EntryLabels =>
  kind === 'customs' ? { invoiceNo: '缴款书号码', issueDate: '填发日期', sellerName: '填发海关', amountExcl: '完税价格', tax: '税款金额', amountIncl: '合计' } : INVOICE_LABELS;
