/**
 * Incoming invoices, issue 14: the abnormal worklist (异常票池 → /income/invoicePool/abnormal). One case
 * per (invoice, abnormal flag) with an owner and an age; the actions per flag kind; 进项转出 with its
 * reason (1–8) and amount, pushed to the accounting system as one voucher. Money in 分.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { PageQuery, Uuid, text } from './common.js';
import { IncomeAbnormalFlag } from './income.js';

export const AbnormalCaseState = defineEnum({ open: ['open', '待处理'], resolved: ['resolved', '已处理'] });

/** What resolved a case (or was done on it). */
export const AbnormalAction = defineEnum({
  untick: ['untick', '撤销勾选'],
  transferOut: ['transferOut', '进项转出'],
  confirm: ['confirm', '确认无误'],
  correct: ['correct', '更正'],
  reject: ['reject', '驳回'],
});

/** The three groups of flags, each with its own actions. */
export const DEAD_FLAGS: readonly string[] = [IncomeAbnormalFlag.voided, IncomeAbnormalFlag.red, IncomeAbnormalFlag.redPending];
export const RISK_FLAGS: readonly string[] = [IncomeAbnormalFlag.abnormalVoucher, IncomeAbnormalFlag.lostControl];
export const REVIEW_FLAGS: readonly string[] = [IncomeAbnormalFlag.buyerNotOurs, IncomeAbnormalFlag.duplicate, IncomeAbnormalFlag.verifyMismatch];
/** 疑点发票 (risk 03): to be checked; confirmed (even when ticked) or, ticked for 抵扣, transferred out. */
export const SUSPECT_FLAGS: readonly string[] = [IncomeAbnormalFlag.suspicious];
/** The flags the bureau's status brings (作废, 红冲, 红字确认中, 失控, 异常凭证, 疑点): the status re-check raises them, and their case names the bill or project the invoice backs. */
export const STATUS_FLAGS: readonly string[] = [...DEAD_FLAGS, ...RISK_FLAGS, ...SUSPECT_FLAGS];

/** 进项转出的原因 (the issue's list, in its order). */
export const TransferOutReason = defineEnum({
  exempt: [1, '免税项目'],
  welfare: [2, '集体福利/个人消费'],
  abnormalLoss: [3, '非正常损失'],
  simpleTax: [4, '简易计税'],
  exportNoCredit: [5, '免抵退不得抵扣'],
  taxInspection: [6, '纳税检查调减'],
  redLetter: [7, '红字信息表注明'],
  creditAgainstArrears: [8, '上期留抵抵减欠税'],
  /** Issue 32: an invoice the bureau made 失控/异常凭证 (公告2019年第38号) or voided after it was deducted. */
  abnormalVoucher: [9, '异常扣税凭证转出'],
});

/** 贷方: every 进项转出 voucher credits this account. */
export const TRANSFER_OUT_CREDIT = { code: '22210103', name: '应交税费—应交增值税（进项税额转出）' } as const;
/** 借方 per reason: the related cost or expense account (the usual entries; the accounting side may map codes). */
export const TRANSFER_OUT_DEBIT: Record<number, { code: string; name: string }> = {
  1: { code: '6401', name: '主营业务成本' },
  2: { code: '221101', name: '应付职工薪酬—职工福利' },
  3: { code: '1901', name: '待处理财产损溢' },
  4: { code: '6401', name: '主营业务成本' },
  5: { code: '6401', name: '主营业务成本' },
  6: { code: '6901', name: '以前年度损益调整' },
  7: { code: '2202', name: '应付账款' },
  8: { code: '222102', name: '应交税费—未交增值税' },
  9: { code: '2202', name: '应付账款' },
};

export const TransferOutState = defineEnum({ pending: ['pending', '待推送'], pushed: ['pushed', '已生成凭证'] });

const flagOf = z.string().refine((v) => (IncomeAbnormalFlag.values as readonly string[]).includes(v), '异常类型不正确');
const stateOf = z.string().refine((v) => (AbnormalCaseState.values as readonly string[]).includes(v), '处理状态不正确');

const CaseFilterShape = {
  flag: flagOf.optional(),
  ownerId: Uuid.optional(),
  /** Only the cases of the signed-in user (负责人为本人). */
  mine: z.boolean().optional(),
  state: stateOf.optional(),
  /** Age in days (from raised_at, Asia/Shanghai days), inclusive. */
  ageMin: z.coerce.number().int().min(0, '天数不能为负').max(3650).optional(),
  ageMax: z.coerce.number().int().min(0, '天数不能为负').max(3650).optional(),
  number: text().trim().max(30, '发票号码不能超过30个字符').optional(),
  sellerName: text().trim().max(100, '销方名称不能超过100个字符').optional(),
};
export const AbnormalCaseQuery = PageQuery.extend(CaseFilterShape);
export type AbnormalCaseQuery = z.infer<typeof AbnormalCaseQuery>;
export const AbnormalCaseExportQuery = z.object(CaseFilterShape);
export type AbnormalCaseExportQuery = z.infer<typeof AbnormalCaseExportQuery>;

export const AbnormalCaseBody = z.object({ caseId: Uuid });
export const AbnormalInvoiceBody = z.object({ invoiceId: Uuid });

export const ABNORMAL_NOTE_MESSAGE = '说明须为2至200个字符';
const note = text().trim().min(2, ABNORMAL_NOTE_MESSAGE).max(200, ABNORMAL_NOTE_MESSAGE);
export const AbnormalConfirmBody = z.object({ caseId: Uuid, note: text().trim().max(200, ABNORMAL_NOTE_MESSAGE).default('') });
export const AbnormalRejectBody = z.object({ caseId: Uuid, note });

/** The fields 更正 may change. */
export const AbnormalCorrectField = defineEnum({
  buyerName: ['buyerName', '购方名称'],
  buyerTaxNo: ['buyerTaxNo', '购方税号'],
  sellerName: ['sellerName', '销方名称'],
  sellerTaxNo: ['sellerTaxNo', '销方税号'],
  checkCode: ['checkCode', '校验码'],
  remark: ['remark', '备注'],
});
export const AbnormalCorrectBody = z.object({
  caseId: Uuid,
  field: z.string().refine((v) => (AbnormalCorrectField.values as readonly string[]).includes(v), '更正字段不正确'),
  value: text().trim().max(200, '更正后的值不能超过200个字符'),
  note,
});

export const TransferOutBody = z.object({
  caseId: Uuid,
  reason: z.coerce.number().int().refine((v) => (TransferOutReason.values as readonly number[]).includes(v), '请选择转出原因'),
  /** 分; default the effective tax. */
  amount: z.coerce.number().int('转出税额须精确到分').optional(),
  /** The client's key of this request: the same key again answers the first request's record. */
  idempotencyKey: text().trim().min(8).max(64).optional(),
});
export type TransferOutBody = z.infer<typeof TransferOutBody>;

/** 确认转出建议: the case's proposal (amount, reason, period) becomes the 进项转出 and its voucher. */
export const TransferProposalBody = z.object({ caseId: Uuid, idempotencyKey: text().trim().min(8).max(64).optional() });
export type TransferProposalBody = z.infer<typeof TransferProposalBody>;

/** The re-check's proposal on a case of an invoice ticked for 抵扣 (issue 32 item 2). */
export interface TransferProposal {
  /** 分; null: no amount yet (the note says why, e.g. the red invoice has not arrived). */
  amount: number | null;
  reason: number | null;
  /** 'YYYYMM': the period to transfer out in. */
  period: string;
  note: string;
}

export interface AbnormalCaseRow {
  id: string;
  invoiceId: string;
  invoiceNumber: string;
  kind: string;
  issueDate: string;
  sellerName: string;
  amountIncl: number;
  tax: number;
  /** 分; null while not ticked. */
  effectiveTax: number | null;
  tickState: number;
  vatUsage: number;
  flag: string;
  ownerId: string | null;
  ownerName: string;
  raisedAt: string;
  /** Whole days since raised (Asia/Shanghai). */
  ageDays: number;
  state: string;
  action: string;
  note: string;
  resolvedByName: string;
  resolvedAt: string | null;
  /** The document backing the invoice that was flagged (签收单/报销单 + number), '' when none. */
  docFlagged: string;
  /** The transfer-out of the invoice, if any. */
  transferOut: TransferOutRecord | null;
  /** The re-check's 进项转出 proposal (issue 32), null when the case has none. */
  proposal: TransferProposal | null;
  /** When the status re-check last asked the tax service about the invoice (null: never). */
  statusCheckedAt: string | null;
  riskLevel: string;
}

export interface TransferOutRecord {
  id: string;
  invoiceId: string;
  reason: number;
  amount: number;
  state: string;
  voucherNo: string;
  lastError: string;
  attempts: number;
  createdByName: string;
  createdAt: string;
  pushedAt: string | null;
  /** 'YYYYMM' of the voucher ('' before it is pushed, when none was proposed). */
  period: string;
}

export interface AbnormalActionAnswer {
  caseId: string;
  state: string;
  message: string;
  transferOut?: TransferOutRecord;
}
