/**
 * Incoming invoices (issue 13): intake — collection from the tax service, upload and recognition, 查验.
 * The pool's own shapes are in income.ts.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { optText } from './system.js';
import { PoolEntryBody, PoolFileInput } from './income.js';

// ================================================================ intake (issue 13): collection, upload, verification
// Shapes of routes-intake.ts (/api/income/pool/{collect,upload-recognise,upload-save,verify,verify-history}).

/** 采集: the issue dates of one window (at most 366 days, checked by the tax gateway with its message). */
export const CollectBody = z.object({ from: isoDay('采集开始日期格式须为YYYY-MM-DD'), to: isoDay('采集结束日期格式须为YYYY-MM-DD') });
export type CollectBody = z.infer<typeof CollectBody>;

export interface CollectResult {
  from: string;
  to: string;
  /** Documents the tax account holds in the window: its invoices, and its customs notices (海关缴款书, collected by their own call). */
  total: number;
  /** Of `total`, the customs notices (issue 29); absent or 0 when none. */
  customs?: number;
  /** Why the customs notices could not be collected (the tax service's refusal); the invoices were collected all the same. */
  customsError?: string;
  /** New pool rows. */
  created: number;
  /** Already in the pool (arrival merged). */
  merged: number;
  /** New rows kept with a warning (购方非本公司, 疑似重复): on the abnormal list. */
  flagged: number;
  /** Pool rows whose invoice state or risk level the tax account now reports differently (作废, 红冲, 失控, 异常凭证…). */
  stateChanged: number;
  /** Refused by the arrival checks (each with its message, at most 20 listed). */
  failed: number;
  failures: string[];
}

/** The longest window of one 采集 (the tax service's limit). */
export const COLLECT_MAX_DAYS = 366;
/** The messages of 采集 (the tax gateway's window checks, the task; the client says the same). */
export const CollectMessages = {
  busy: '已有采集任务正在进行，请稍后',
  started: '采集任务已开始',
  notFound: '采集任务不存在',
  windowTooLong: `采集日期区间不能超过${COLLECT_MAX_DAYS}天，请分段采集`,
  windowReversed: '采集开始日期不能晚于结束日期',
} as const;

/** The state of a background 采集 task. */
export const CollectTaskState = defineEnum({ running: ['running', '采集中'], done: ['done', '已完成'], failed: ['failed', '采集失败'], interrupted: ['interrupted', '已中断'] });

export const CollectProgressBody = z.object({ taskId: Uuid });
export type CollectProgressBody = z.infer<typeof CollectProgressBody>;

/** A background 采集 task: its window, counts so far, and (once finished) the final message. */
export interface CollectTask extends CollectResult {
  taskId: string;
  /** running, done, failed, interrupted */
  state: string;
  stateLabel: string;
  finished: boolean;
  /** Pages of the tax service answered so far (200 invoices a page). */
  pages: number;
  /** Invoices handled so far (of `total`). */
  seen: number;
  /** The final sentence (采集完成：… / the failure / 已中断 …); empty while running. */
  message: string;
  userName: string;
  startedAt: string;
  finishedAt: string | null;
}

/** One file to recognise (upload with progress: the client sends one file per call). */
export const UploadRecogniseBody = PoolFileInput;
export type UploadRecogniseBody = z.infer<typeof UploadRecogniseBody>;

export interface RecognisedFieldView {
  /** kindCode, invoiceCode, invoiceNo, issueDate, buyerName, buyerTaxNo, sellerName, sellerTaxNo, amount, tax, total, checkCode */
  key: string;
  label: string;
  value: string;
  /** xml, pdf-text, qr, ofd-tag */
  source: string;
  /** XML, PDF文字, 二维码, OFD标签 */
  sourceLabel: string;
}

export interface UploadRecognition {
  fileName: string;
  /** The format read from the content: pdf, ofd, xml, jpg, png. */
  format: string;
  size: number;
  sha256: string;
  fields: RecognisedFieldView[];
  warnings: string[];
  /** The entry form filled with what was recognised (money in 分), for correction before saving. */
  draft: Partial<Pick<PoolEntryBody, 'kind' | 'invoiceCode' | 'invoiceNo' | 'digitalNo' | 'issueDate' | 'sellerName' | 'sellerTaxNo' | 'buyerName' | 'buyerTaxNo' | 'amountExcl' | 'tax' | 'amountIncl' | 'checkCode' | 'blueInvoiceNo' | 'lines'>>;
  /** The pool invoice that already holds this very file, if any (saving again merges into it). */
  inPool: { id: string; number: string } | null;
}

/** Saving a corrected upload: the entry form and the same file(s) again (the server keeps nothing between the two calls). */
export const UploadSaveBody = PoolEntryBody.extend({ files: z.array(PoolFileInput).min(1, '请上传发票文件').max(5, '一次最多上传5个文件') });
export type UploadSaveBody = z.infer<typeof UploadSaveBody>;

/** 查验: one or many pool invoices. */
export const VerifyBody = z.object({ ids: z.array(Uuid).min(1, '请选择要查验的发票').max(50, '一次最多查验50张发票') });
export type VerifyBody = z.infer<typeof VerifyBody>;

export const VerifyOutcome = defineEnum({ match: ['match', '查验一致'], mismatch: ['mismatch', '查验不一致'], notFound: ['notFound', '查无此票'] });

export interface VerifyMismatchField {
  /** kind, issueDate, sellerName, sellerTaxNo, buyerName, buyerTaxNo, amountExcl, tax, amountIncl, checkCode, lines, or the tax service's query fields */
  field: string;
  label: string;
  /** What the pool held (entered or recognised); empty when the tax service named only the field. */
  entered: string;
  /** What the tax service says. */
  tax: string;
}

export interface VerifyInvoiceResult {
  id: string;
  /** false: refused or failed, nothing recorded (retry later). */
  ok: boolean;
  outcome?: 'match' | 'mismatch' | 'notFound';
  message: string;
  fields: VerifyMismatchField[];
  verifyState?: number;
  checksToday?: number;
}

export interface VerifyAnswer {
  results: VerifyInvoiceResult[];
  matched: number;
  mismatched: number;
  failed: number;
}

export interface VerificationRecord {
  id: string;
  outcome: string;
  message: string;
  fields: VerifyMismatchField[];
  checksToday: number;
  userName: string;
  createdAt: string;
}
