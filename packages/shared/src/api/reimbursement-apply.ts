/**
 * 费用报销: the calls of apply/ (issue 15): my bills, the bill editor (header, lines, invoices from the
 * pool, attachments), submit / withdraw / delete, 核定, the payee profile. Money in 分.
 */
import { z } from '../zod-locale.js';
import { normaliseRate, taxRateProblem } from '../invoice.js';
import { formatFen } from '../workflow-rules.js';
import { isoDay, PageQuery, text, Uuid, type PageResult } from './common.js';
import type { ReimbCheck } from './reimbursement.js';
import type { TrackEntry } from './workflow.js';

/**
 * One hundred million 元: the largest amount a line takes (and a 核定), the one bound of both sides — the
 * editor's money field marks a larger figure with the same words the server refuses it with (issue 31 #7).
 */
export const REIMB_MAX_AMOUNT = 100_000_000 * 100;
/** The refusal of an amount above REIMB_MAX_AMOUNT, on the field and from the server. */
export const REIMB_MAX_AMOUNT_MESSAGE = `金额不能超过 ${formatFen(REIMB_MAX_AMOUNT)} 元`;
export const REIMB_MAX_LINES = 100;
export const REIMB_MAX_ATTACHMENTS = 20;
/** Attachments: at most 10 MiB each (base64 in the body). */
export const REIMB_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const Money = z.number({ message: '请输入金额' }).int('金额以分为单位，应为整数').min(1, '金额必须大于0').max(REIMB_MAX_AMOUNT, REIMB_MAX_AMOUNT_MESSAGE);

export const ReimbLineInput = z.object({
  categoryCode: text().trim().min(1, '请选择费用类别').max(32),
  expenseDate: isoDay(),
  description: text().trim().max(200, '说明不能超过200字').default(''),
  city: text().trim().max(50, '城市不能超过50字').default(''),
  /** Hotel: nights; allowance: days. */
  nights: z.number().int('天数应为整数').min(1, '天数至少为1').max(366, '天数过大').nullable().default(null),
  seatClass: text().trim().max(20).default(''),
  amount: Money,
  /** Empty: the category's default rate. */
  // The shared list of rates (issue 27: 0.5 is no rate); stored as the list spells it.
  taxRate: text()
    .trim()
    .superRefine((v, ctx) => {
      const problem = v === '' ? null : taxRateProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => (v === '' ? '' : (normaliseRate(v) ?? v)))
    .default(''),
  invoiceId: Uuid.nullable().default(null),
  /**
   * 收款方 (the seller or payee on the receipt: 出租车公司, 停车场, 收费站…) for a line without a pool invoice; a line
   * backed by an invoice takes the invoice's seller instead. What 疑似重复报销 matches on (issue 32 #4).
   */
  sellerName: text().trim().max(100, '收款方不能超过100字').default(''),
});
export type ReimbLineInput = z.infer<typeof ReimbLineInput>;

export const ReimbSaveBody = z
  .object({
    /** Absent: a new bill. */
    id: Uuid.optional(),
    projectId: Uuid.nullable().default(null),
    projectName: text().trim().max(100).default(''),
    contractNo: text().trim().max(64).default(''),
    periodFrom: isoDay(),
    periodTo: isoDay(),
    reason: text().trim().min(1, '请填写报销事由').max(500, '报销事由不能超过500字'),
    payeeName: text().trim().max(50).default(''),
    payeeBank: text().trim().max(100).default(''),
    payeeAccount: text().trim().max(40).regex(/^[0-9 ]*$/, '收款账号只能包含数字').default(''),
    /** Keep the payee as my default for the next bills. */
    saveAsDefault: z.boolean().default(false),
    lines: z.array(ReimbLineInput).max(REIMB_MAX_LINES, `最多${REIMB_MAX_LINES}行费用明细`).default([]),
  })
  .refine((b) => b.periodFrom <= b.periodTo, { message: '费用期间的开始日期不能晚于结束日期', path: ['periodTo'] });
export type ReimbSaveBody = z.infer<typeof ReimbSaveBody>;

export const ReimbIdBody = z.object({ id: Uuid });
export type ReimbIdBody = z.infer<typeof ReimbIdBody>;

export const ReimbListQuery = PageQuery.extend({
  billNo: text().trim().max(32).optional(),
  /** ReimbFlowState */
  flowState: z.number().int().min(0).max(3).optional(),
  from: isoDay().optional(),
  to: isoDay().optional(),
  amountMin: z.number().int().min(0).max(REIMB_MAX_AMOUNT * 100).optional(),
  amountMax: z.number().int().min(0).max(REIMB_MAX_AMOUNT * 100).optional(),
});
export type ReimbListQuery = z.infer<typeof ReimbListQuery>;

export const ReimbCandidatesBody = z.object({
  /** The bill being edited (its own invoices are offered too). */
  billId: Uuid.optional(),
  keyword: text().trim().max(50).optional(),
  /** Only this invoice (the one just uploaded in the picker), whatever the keyword; refused with the reason when it may not be picked. */
  invoiceId: Uuid.optional(),
});
export type ReimbCandidatesBody = z.infer<typeof ReimbCandidatesBody>;

/** 核定: the current handler reduces a line's approved amount (never above the claim). */
export const ReimbApproveLineBody = z.object({
  lineId: Uuid,
  approvedAmount: z.number({ message: '请输入核定金额' }).int('金额以分为单位，应为整数').min(0, '核定金额不能小于0').max(REIMB_MAX_AMOUNT, REIMB_MAX_AMOUNT_MESSAGE),
  note: text().trim().min(1, '请填写核定意见').max(200, '核定意见不能超过200字'),
});
export type ReimbApproveLineBody = z.infer<typeof ReimbApproveLineBody>;

/** 接受疑似重复 (issue 32 #4): the current handler accepts one match of a line with an opinion. */
export const ReimbAcceptDuplicateBody = z.object({
  lineId: Uuid,
  otherLineId: Uuid,
  opinion: text().trim().min(1, '请填写接受意见').max(200, '接受意见不能超过200字'),
});
export type ReimbAcceptDuplicateBody = z.infer<typeof ReimbAcceptDuplicateBody>;

/** The other bill of a 疑似重复报销 match, as the approver of `id` may see it. */
export const ReimbPeerBody = z.object({ id: Uuid, peerId: Uuid });
export type ReimbPeerBody = z.infer<typeof ReimbPeerBody>;

export const ReimbAttachmentUploadBody = z.object({
  billId: Uuid,
  name: text().trim().min(1, '缺少文件名').max(200, '文件名过长'),
  content: text().min(1, '文件为空').max(Math.ceil((REIMB_ATTACHMENT_MAX_BYTES * 4) / 3) + 4, '单个附件不能超过10MB'),
});
export type ReimbAttachmentUploadBody = z.infer<typeof ReimbAttachmentUploadBody>;

export const ReimbFileBody = z.object({ id: Uuid });
export type ReimbFileBody = z.infer<typeof ReimbFileBody>;

export const ReimbProfileSaveBody = z.object({
  payeeName: text().trim().max(50).default(''),
  payeeBank: text().trim().max(100).default(''),
  payeeAccount: text().trim().max(40).regex(/^[0-9 ]*$/, '收款账号只能包含数字').default(''),
});
export type ReimbProfileSaveBody = z.infer<typeof ReimbProfileSaveBody>;

// ---------------------------------------------------------------- answers

export interface ReimbBillRow {
  id: string;
  billNo: string;
  applicantName: string;
  deptName: string;
  projectName: string;
  reason: string;
  periodFrom: string;
  periodTo: string;
  flowState: number;
  flowStateName: string;
  reimbState: number | null;
  reimbStateName: string;
  amount: number;
  approvedAmount: number;
  tax: number;
  lineCount: number;
  /** The approval's current node and handlers, while in approval. */
  nodeName: string;
  handlerNames: string;
  submittedAt: string | null;
  approvedAt: string | null;
  createdAt: string;
}

export interface ReimbListAnswer extends PageResult<ReimbBillRow> {
  /** Sums of the whole filtered set. */
  sums: { amount: number; approvedAmount: number };
}

export interface ReimbInvoiceInfo {
  id: string;
  number: string;
  kind: string;
  issueDate: string;
  sellerName: string;
  buyerName: string;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  invoiceState: number;
  buyerMismatch: boolean;
  /** 可用 / 占用中 / 已使用 and the holding document. */
  usage: number;
  docNo: string;
  /** A passenger ticket: its passenger and the deductible tax by the transport formulas. */
  passengerName: string;
  transportTax: number | null;
  files: Array<{ id: string; name: string; format: string }>;
}

export interface ReimbLineView {
  id: string;
  lineNo: number;
  categoryCode: string;
  categoryName: string;
  travelKind: string;
  expenseDate: string;
  description: string;
  city: string;
  nights: number | null;
  seatClass: string;
  amount: number;
  taxRate: string;
  tax: number;
  /** The amount net of the deductible tax. */
  netAmount: number;
  deductibleTax: number;
  approvedAmount: number | null;
  approveNote: string;
  approvedBy: string;
  invoiceId: string | null;
  invoiceNumber: string;
  invoice: ReimbInvoiceInfo | null;
  /** The seller the duplicate-claim check matches on: the invoice's, else the one typed. */
  sellerName: string;
  subjectCode: string;
  subjectName: string;
  checks: ReimbCheck[];
}

export interface ReimbAttachmentView {
  id: string;
  name: string;
  size: number;
  createdAt: string;
}

export interface ReimbPushView {
  id: string;
  action: string;
  ok: boolean;
  voucherNo: string;
  message: string;
  userName: string;
  createdAt: string;
}

export interface ReimbBillDetail extends ReimbBillRow {
  applicantId: string;
  projectId: string | null;
  contractNo: string;
  payeeName: string;
  payeeBank: string;
  payeeAccount: string;
  deductibleTax: number;
  workId: number | null;
  voucherNo: string;
  pushMessage: string;
  lines: ReimbLineView[];
  attachments: ReimbAttachmentView[];
  track: TrackEntry[];
  pushes: ReimbPushView[];
  /** What the reader may do. */
  can: { edit: boolean; submit: boolean; withdraw: boolean; delete: boolean; approve: boolean };
}

/**
 * The other bill of a 疑似重复报销 match as its reader sees it (`/bill/peer`): the header and the lines, no payee
 * account, no files, no approval track (issue 32 #4).
 */
export interface ReimbPeerView {
  id: string;
  billNo: string;
  applicantName: string;
  deptName: string;
  reason: string;
  flowStateName: string;
  reimbStateName: string;
  amount: number;
  submittedAt: string | null;
  lines: Array<{ id: string; lineNo: number; categoryName: string; expenseDate: string; description: string; sellerName: string; amount: number; invoiceNumber: string; matched: boolean }>;
}

export interface ReimbCandidate extends ReimbInvoiceInfo {
  /** Why it is offered: 我上传的 / 我的客票. */
  origin: string;
}

export interface ReimbCategoryOption {
  code: string;
  name: string;
  travelKind: string;
  defaultTaxRate: string;
}

export interface ReimbProfile {
  grade: string;
  gradeName: string;
  payeeName: string;
  payeeBank: string;
  payeeAccount: string;
}

export interface ReimbApplyOptions {
  categories: ReimbCategoryOption[];
  profile: ReimbProfile;
  deptName: string;
  applicantName: string;
  invoiceAgeDays: number;
}
