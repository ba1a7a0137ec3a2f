/**
 * Outgoing invoices, part 2 (issue 7): the ledgers — 销项发票台账 (filters, totals, export, print),
 * the detail's history, uploads to history invoices, re-sending to the buyer, and the 数电红字 ledger.
 */
import { z } from '../zod-locale.js';
import { InvoiceColour, InvoiceKind, InvoiceStatus, SourceKind } from '../enums.js';
import type { InvoiceRow, RedConfirmRow } from '../invoice-types.js';
import { emailField, mobileField } from '../contact-rules.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { IsoTime, optText } from './system.js';

const Day = isoDay('日期格式须为YYYY-MM-DD');
const oneOf = <V extends number>(values: readonly V[], message: string) =>
  z.number({ message }).int(message).refine((v): v is V => values.includes(v as V), message);
const Money = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');

/** The ledger's sortable columns (request field -> server column). */
export const LEDGER_SORT_FIELDS = ['issueDate', 'amountIncl', 'amountExcl', 'tax', 'buyerName', 'invoiceNo', 'createdAt'] as const;

const FilterShape = {
    issueFrom: Day.optional(),
    issueTo: Day.optional(),
    buyerId: Uuid.optional(),
    buyerName: optText(100),
    /** 发票号码, 数电号码 or 订单号 (exact). */
    number: optText(40),
    status: oneOf(InvoiceStatus.values, '发票状态不正确').optional(),
    colour: oneOf(InvoiceColour.values, '发票颜色不正确').optional(),
    kind: oneOf(InvoiceKind.values, '发票种类不正确').optional(),
    source: oneOf(SourceKind.values, '来源不正确').optional(),
    projectId: Uuid.optional(),
    contractId: Uuid.optional(),
    /** 价税合计 range in 分, inclusive. */
    amountMin: Money.optional(),
    amountMax: Money.optional(),
    /** The creator's name (exact). */
    creator: optText(40),
};
type Ranges = { issueFrom?: string; issueTo?: string; amountMin?: number; amountMax?: number };
const checkRanges = (f: Ranges, ctx: z.RefinementCtx) => {
  if (f.issueFrom && f.issueTo && f.issueFrom > f.issueTo) ctx.addIssue({ code: 'custom', message: '开票日期起不能晚于止', path: ['issueTo'] });
  if (f.amountMin !== undefined && f.amountMax !== undefined && f.amountMin > f.amountMax) ctx.addIssue({ code: 'custom', message: '金额下限不能大于上限', path: ['amountMax'] });
};

export const LedgerQuery = PageQuery.extend(FilterShape).superRefine(checkRanges);
export type LedgerQuery = z.infer<typeof LedgerQuery>;
/** Export and print take the filters and the sort, no page. */
export const LedgerExportQuery = PageQuery.pick({ sort: true }).extend(FilterShape).superRefine(checkRanges);
export type LedgerExportQuery = z.infer<typeof LedgerExportQuery>;
export type LedgerFilter = LedgerExportQuery;

/** A count of invoices and their sums (分). */
export interface LedgerSums {
  count: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

/**
 * The totals of a filter (筛选结果合计): the invoices in force; 已作废 invoices are counted apart in
 * `voided` (they can be filtered to by status). The rows of the filter are count + voided.count.
 */
export interface LedgerTotals extends LedgerSums {
  voided: LedgerSums;
}

/** How many rows a filter has, voided ones included (paging, export, print). */
export const ledgerRowCount = (t: LedgerTotals): number => t.count + t.voided.count;

export interface LedgerRow extends InvoiceRow {
  issueDate: string;
  invoiceCode: string;
  blueInvoiceNo: string;
  fileCount: number;
}

export interface LedgerPage {
  items: LedgerRow[];
  total: number;
  totals: LedgerTotals;
}

export interface LedgerPrint {
  rows: LedgerRow[];
  totals: LedgerTotals;
  /** Rows beyond the print limit are left out (the export has them all). */
  truncated: boolean;
  limit: number;
  printedAt: string;
  printedBy: string;
}

export interface LedgerOption {
  id: string;
  code: string;
  name: string;
}

export interface LedgerOptions {
  projects: LedgerOption[];
  contracts: LedgerOption[];
}

/** What the detail page shows beyond /invoice/detail: the blue original, red confirmations, logs. */
export interface InvoiceHistory {
  blue: { id: string; invoiceNo: string; digitalNo: string; issueDate: string | null; amountIncl: number; status: number } | null;
  redConfirms: RedConfirmRow[];
  syncLogs: Array<{ id: string; type: string; status: number; memo: string; userName: string; createdAt: string }>;
  operations: Array<{ id: string; type: number; description: string; userName: string; createdAt: string }>;
  canChange: boolean;
}

// ---------------------------------------------------------------- files of history invoices

export const UPLOAD_FORMATS = ['pdf', 'ofd', 'xml', 'jpg', 'png'] as const;
/** Largest file accepted (bytes). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

export const UploadInvoiceFileBody = z.object({
  id: Uuid,
  /** 1000 original (PDF/OFD/XML), 1010 scan, 1011 screenshot of the query. */
  type: z.union([z.literal(1000), z.literal(1010), z.literal(1011)], { message: '文件类别不正确' }),
  fileName: text()
    .trim()
    .min(1, '请选择文件')
    .max(120, '文件名不能超过120个字符')
    .refine((n) => UPLOAD_FORMATS.some((f) => n.toLowerCase().endsWith(`.${f}`) || (f === 'jpg' && n.toLowerCase().endsWith('.jpeg'))), '只能上传PDF、OFD、XML、JPG或PNG文件'),
  /** The file, base64. */
  content: text().min(1, '文件内容为空').max(Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) + 8, `文件不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`),
});
export type UploadInvoiceFileBody = z.infer<typeof UploadInvoiceFileBody>;

export const SendInvoiceBody = z
  .object({
    id: Uuid,
    email: emailField('邮箱', 100).default(''),
    mobile: mobileField('手机号', 20).default(''),
  })
  .refine((b) => b.email !== '' || b.mobile !== '', { message: '请填写邮箱或手机号', path: ['email'] });
export type SendInvoiceBody = z.infer<typeof SendInvoiceBody>;

// ---------------------------------------------------------------- 数电红字 ledger

export const RedLedgerQuery = PageQuery.extend({
  state: optText(4),
  direction: z.enum(['seller', 'buyer'], { message: '申请方不正确' }).optional(),
  keyword: optText(100),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
});
export type RedLedgerQuery = z.infer<typeof RedLedgerQuery>;
export const RedLedgerExportQuery = RedLedgerQuery.omit({ pageIndex: true, pageSize: true });
