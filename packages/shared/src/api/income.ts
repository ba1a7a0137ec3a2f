/**
 * Incoming invoices, part 1 (issue 13): the pool (进项票池) — one row per invoice, its usage lock,
 * the list with filters and totals, the other documents, the abnormal list, manual entry.
 * Money is in 分 (integers), as the outgoing-invoice API carries it.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { optText } from './system.js';
import { normaliseRate, taxRateProblem } from '../invoice.js';

/** Kinds as the tax service names them, plus the other deductible documents. */
export const IncomeKind = defineEnum({
  special: ['01', '增值税专用发票'],
  ordinary: ['04', '增值税普通发票'],
  eSpecial: ['08', '增值税电子专用发票'],
  eOrdinary: ['10', '增值税电子普通发票'],
  toll: ['14', '通行费电子普通发票'],
  digitalSpecial: ['81', '数电发票（增值税专用发票）'],
  digitalOrdinary: ['82', '数电发票（普通发票）'],
  digitalPaperSpecial: ['85', '数电纸质发票（增值税专用发票）'],
  digitalPaperOrdinary: ['86', '数电纸质发票（普通发票）'],
  /** 数电 toll invoice (收费公路通行费): a 20-digit number, no 专/普 label, lines of 通行费 with 通行日期起止 (issue 29). */
  digitalToll: ['dtoll', '数电发票（通行费）'],
  rail: ['rail', '铁路电子客票'],
  air: ['air', '航空运输电子客票行程单'],
  road: ['road', '公路水路客票'],
  customs: ['customs', '海关进口增值税专用缴款书'],
  withholding: ['withholding', '代扣代缴完税凭证'],
});
export type IncomeKindCode = (typeof IncomeKind.values)[number];
/** The 其他票池 kinds: customs notes, withholding certificates, passenger tickets, tolls. */
export const OTHER_INCOME_KINDS: readonly IncomeKindCode[] = ['customs', 'withholding', 'rail', 'air', 'road', '14', 'dtoll'];
/** Kinds identified by 发票代码 + 发票号码 (paper and pre-数电 electronic invoices). */
export const CODED_INCOME_KINDS: readonly IncomeKindCode[] = ['01', '04', '08', '10', '14'];
/** 数电 kinds: the 20-digit number is the key. */
export const DIGITAL_INCOME_KINDS: readonly IncomeKindCode[] = ['81', '82', '85', '86', 'dtoll'];
/**
 * A 数电 railway e-ticket (公告2024年第8号) or 数电 air itinerary (公告2024年第9号): kind rail / air with
 * its 20-digit number. Its tax is stated and ticked on the platform like a 专票; a paper rail ticket or
 * paper itinerary (no 20-digit number) stays with the formula of 公告2019年第39号 (transport-rules.ts).
 */
export const isDigitalTicket = (kind: string, digitalNo: string | null | undefined): boolean => (kind === 'rail' || kind === 'air') && /^\d{20}$/.test(digitalNo ?? '');

export const IncomeInvoiceState = defineEnum({ normal: [0, '正常'], lostControl: [1, '失控'], voided: [2, '作废'], red: [3, '已红冲'], partRed: [7, '部分红冲'], fullRed: [8, '全额红冲'] });
export const IncomeRiskLevel = defineEnum({ normal: ['01', '正常'], abnormalVoucher: ['02', '异常凭证'], suspicious: ['03', '疑点发票'] });
export const IncomeVerifyState = defineEnum({ none: [0, '未查验'], match: [1, '查验一致'], mismatch: [2, '查验不一致'] });
export const IncomeSignState = defineEnum({ applying: [-1, '签收中'], unsigned: [0, '未签收'], signed: [1, '已签收'], failed: [2, '签收失败'] });
export const IncomeBookingState = defineEnum({ none: ['01', '未入账'], bookedDeduct: ['02', '已入账（企业所得税税前扣除）'], bookedNoDeduct: ['03', '已入账（不扣除）'], revoked: ['06', '入账撤销'] });
export const IncomeSource = defineEnum({ collected: [1, '采集'], uploaded: [2, '上传'], scanned: [3, '扫描'], manual: [4, '手工录入'] });
export const IncomeUsage = defineEnum({ available: [0, '可用'], locked: [1, '占用中'], closed: [2, '已使用'] });
/** What may hold an invoice: the document named in the refusal (该发票已用于报销单 BX202611-0012). */
export const IncomeUseKind = defineEnum({ reimbursement: ['reimbursement', '报销单'], sign: ['sign', '签收单'], contract: ['contract', '合同'] });
export type IncomeUseKindCode = (typeof IncomeUseKind.values)[number];

/** The abnormal flags (异常票池), in the order the screen shows them. */
export const IncomeAbnormalFlag = defineEnum({
  voided: ['voided', '已作废'],
  red: ['red', '已红冲'],
  redPending: ['redPending', '红字确认中'],
  lostControl: ['lostControl', '失控'],
  abnormalVoucher: ['abnormalVoucher', '异常凭证'],
  buyerNotOurs: ['buyerNotOurs', '购方非本公司'],
  duplicate: ['duplicate', '疑似重复'],
  verifyMismatch: ['verifyMismatch', '查验不一致'],
  /** 0046 (issue 32): the bureau graded the invoice 03 疑点发票. */
  suspicious: ['suspicious', '疑点发票'],
});

/** A calendar day of the income shapes (also used by intake and signing). */
export const IncomeDay = isoDay('日期格式须为YYYY-MM-DD');
export const incomeOneOf = <V extends number | string>(values: readonly V[], message: string) =>
  z.union([z.number(), z.string()], { message }).refine((v): v is V => values.includes(v as V), message);
const Money = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');

export const POOL_SORT_FIELDS = ['issueDate', 'amountIncl', 'amountExcl', 'tax', 'sellerName', 'invoiceNo', 'createdAt'] as const;

/** The pool's filter fields (also the ticking candidates', income-deduction.ts). */
export const PoolFilterShape = {
  kind: incomeOneOf(IncomeKind.values, '发票种类不正确').optional(),
  issueFrom: IncomeDay.optional(),
  issueTo: IncomeDay.optional(),
  /** 发票代码, 发票号码 or 数电号码 (exact). */
  number: optText(40),
  invoiceCode: optText(20),
  sellerName: optText(100),
  sellerTaxNo: optText(20),
  buyerName: optText(100),
  buyerTaxNo: optText(20),
  amountMin: Money.optional(),
  amountMax: Money.optional(),
  invoiceState: incomeOneOf(IncomeInvoiceState.values, '发票状态不正确').optional(),
  riskLevel: incomeOneOf(IncomeRiskLevel.values, '风险等级不正确').optional(),
  verifyState: incomeOneOf(IncomeVerifyState.values, '查验状态不正确').optional(),
  signState: incomeOneOf(IncomeSignState.values, '签收状态不正确').optional(),
  bookingState: incomeOneOf(IncomeBookingState.values, '入账状态不正确').optional(),
  source: incomeOneOf(IncomeSource.values, '来源不正确').optional(),
  usage: incomeOneOf(IncomeUsage.values, '使用状态不正确').optional(),
  archiveNo: optText(40),
  /** The business document's number (exact). */
  docNo: optText(40),
  checkCode: optText(40),
  abnormalFlag: incomeOneOf(IncomeAbnormalFlag.values, '异常类型不正确').optional(),
};
type Ranges = { issueFrom?: string; issueTo?: string; amountMin?: number; amountMax?: number };
export const checkRanges = (f: Ranges, ctx: z.RefinementCtx) => {
  if (f.issueFrom && f.issueTo && f.issueFrom > f.issueTo) ctx.addIssue({ code: 'custom', message: '开票日期起不能晚于止', path: ['issueTo'] });
  if (f.amountMin !== undefined && f.amountMax !== undefined && f.amountMin > f.amountMax) ctx.addIssue({ code: 'custom', message: '金额下限不能大于上限', path: ['amountMax'] });
};

export const PoolQuery = PageQuery.extend(PoolFilterShape).superRefine(checkRanges);
export type PoolQuery = z.infer<typeof PoolQuery>;
export const PoolExportQuery = PageQuery.pick({ sort: true }).extend(PoolFilterShape).superRefine(checkRanges);
export type PoolExportQuery = z.infer<typeof PoolExportQuery>;
export type PoolFilter = PoolExportQuery;
export const PoolIdBody = z.object({ id: Uuid });

export interface PoolTotals {
  count: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export interface PoolRow {
  id: string;
  kind: string;
  invoiceCode: string;
  invoiceNo: string;
  digitalNo: string;
  issueDate: string;
  sellerName: string;
  sellerTaxNo: string;
  buyerName: string;
  buyerTaxNo: string;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  checkCode: string;
  invoiceState: number;
  riskLevel: string;
  verifyState: number;
  verifiedAt: string | null;
  signState: number;
  archiveNo: string;
  bookingState: string;
  source: number;
  usage: number;
  useKind: string;
  docNo: string;
  abnormalFlags: string[];
  arrivals: number;
  createdAt: string;
  /** 对应蓝字发票号码 of a red invoice (价税合计 < 0); '' on a blue one or when the red invoice did not state it. */
  blueInvoiceNo: string;
  /** When the status re-check last asked the tax service (issue 32; null: never), and whether it knew the invoice. */
  statusCheckedAt: string | null;
  statusFound: boolean | null;
}

export interface PoolPage {
  items: PoolRow[];
  total: number;
  totals: PoolTotals;
}

export interface PoolLine {
  lineNo: number;
  name: string;
  spec: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  amount: number;
  taxRate: string;
  tax: number;
}

export interface PoolDetail extends PoolRow {
  remark: string;
  lines: PoolLine[];
  files: Array<{ id: string; format: string; name: string; size: number; sha256: string; createdAt: string }>;
  /** Every arrival, merge, verification, signing and usage change, newest first. */
  history: Array<{ id: string; kind: string; message: string; userName: string; createdAt: string }>;
  /** Usage locks taken on the invoice, newest first (released ones included). */
  uses: Array<{ id: string; useKind: string; docNo: string; state: string; createdAt: string; endedAt: string | null }>;
  /** A red invoice: the pool's blue invoice it reverses, when that is in the pool. */
  blue: PoolInvoiceLink | null;
  /** A blue invoice: the red invoices received that reverse it (linked by 对应蓝字发票号码). */
  reds: PoolInvoiceLink[];
}

/** Another pool invoice named on a detail: a red invoice's blue one, or a blue one's red invoices. */
export interface PoolInvoiceLink {
  id: string;
  number: string;
  issueDate: string;
  amountIncl: number;
}

// ---------------------------------------------------------------- manual entry (paper invoices)

const Amount = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(0, '金额不能为负数').max(1e13, '金额超出范围');
/**
 * A sum on an invoice's face or line: negative on a red invoice (红字发票) and on a discount line (折扣行);
 * which sign is right where, and that the lines add up to the face, is the face's rule (incomeFaceProblems,
 * income-face-rules.ts), applied by every arrival (checkFace, answered 400 with its Chinese message as before)
 * and by the entry form before sending.
 */
const SignedAmount = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');
const Decimal = (label: string) => text().trim().max(20, `${label}不能超过20个字符`).regex(/^$|^\d+(\.\d+)?$/, `${label}须为数字`).default('');

export const PoolLineInput = z.object({
  name: text().trim().min(1, '请填写项目名称').max(100, '项目名称不能超过100个字符'),
  spec: text().trim().max(40, '规格型号不能超过40个字符').default(''),
  unit: text().trim().max(20, '单位不能超过20个字符').default(''),
  // Negative on a red invoice's line (数量（冲红时项目数量为负数）), as the bureau prints it.
  quantity: text().trim().max(20, '数量不能超过20个字符').regex(/^$|^-?\d+(\.\d+)?$/, '数量须为数字').default(''),
  unitPrice: Decimal('单价'),
  amount: SignedAmount,
  // The shared list of rates (issue 27); stored as the list spells it.
  taxRate: text()
    .trim()
    .superRefine((v, ctx) => {
      const problem = taxRateProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => normaliseRate(v) ?? v)
    .default('0'),
  tax: SignedAmount,
});
export type PoolLineInput = z.infer<typeof PoolLineInput>;

export const PoolFileInput = z.object({
  fileName: text().trim().min(1, '请选择文件').max(120, '文件名不能超过120个字符'),
  /** The file, base64. */
  content: text().min(1, '文件内容为空').max(Math.ceil((10 * 1024 * 1024 * 4) / 3) + 8, '文件不能超过10MB'),
});

export const PoolEntryBody = z.object({
  kind: incomeOneOf(IncomeKind.values, '发票种类不正确'),
  invoiceCode: text().trim().max(12, '发票代码不能超过12个字符').default(''),
  invoiceNo: text().trim().max(40, '发票号码不能超过40个字符').default(''),
  digitalNo: text().trim().max(20, '数电发票号码不能超过20个字符').default(''),
  issueDate: IncomeDay,
  sellerName: text().trim().min(1, '请填写销方名称').max(100, '销方名称不能超过100个字符'),
  sellerTaxNo: text().trim().max(20, '销方税号不能超过20个字符').default(''),
  buyerName: text().trim().min(1, '请填写购方名称').max(100, '购方名称不能超过100个字符'),
  buyerTaxNo: text().trim().max(20, '购方税号不能超过20个字符').default(''),
  amountExcl: SignedAmount,
  tax: SignedAmount,
  amountIncl: SignedAmount,
  checkCode: text().trim().max(20, '校验码不能超过20个字符').default(''),
  /** 对应蓝字发票号码: the blue invoice a red one reverses (20-digit 数电 number or 8-digit number); red invoices only. */
  blueInvoiceNo: text().trim().regex(/^$|^\d{8}$|^\d{20}$/, '对应蓝字发票号码须为8位或20位数字').default(''),
  remark: text().trim().max(200, '备注不能超过200个字符').default(''),
  lines: z.array(PoolLineInput).max(200, '明细不能超过200行').default([]),
  files: z.array(PoolFileInput).max(5, '一次最多上传5个文件').default([]),
  /**
   * A paper air itinerary (kind air) without lines: its printed 票价, 燃油附加费 and 民航发展基金 in 分,
   * so that the deduction base is fare + fuel surcharge (transport-rules.ts airFareAndFuel).
   */
  fare: Amount.optional(),
  fuelSurcharge: Amount.optional(),
  developmentFund: Amount.optional(),
});
export type PoolEntryBody = z.infer<typeof PoolEntryBody>;

export interface PoolArrival {
  id: string;
  outcome: 'created' | 'merged';
  /** 已加入票池 / 该发票已在票池中…已合并到原记录. */
  message: string;
  /** What the arrival checks found that does not refuse it (购方非本公司, 疑似重复): shown, and flagged abnormal. */
  warnings: string[];
}

// ---------------------------------------------------------------- labels of the detail page (issue 13, pool screens)

/** The kinds of the pool's history (income_events.kind); verification and signing write theirs as they land. */
export const IncomeEventKind = defineEnum({
  arrive: ['arrive', '进入票池'],
  merge: ['merge', '合并'],
  lock: ['lock', '占用'],
  release: ['release', '释放'],
  close: ['close', '完成使用'],
  state: ['state', '状态变化'],
  verify: ['verify', '查验'],
  sign: ['sign', '签收'],
  signFailed: ['sign-failed', '签收失败'],
  revoke: ['revoke', '撤销签收'],
  allocate: ['allocate', '项目分摊'],
  book: ['book', '入账'],
  unbook: ['unbook', '入账撤销'],
  redLink: ['red-link', '红字冲减'],
});
/** The state of one use of an invoice (income_locks.state). */
export const IncomeLockState = defineEnum({ locked: ['locked', '占用中'], closed: ['closed', '已完成使用'], released: ['released', '已释放'] });
