/**
 * 费用报销: the calls of accounting/ (issue 15, 报销入账): 一键报销 (the approved bills not yet in the
 * accounting system, the push), 报销编辑 (a bill's accounting fields), 报销撤销 (revocations) and the
 * accounting sync log. Money is in 分.
 */
import { z } from '../zod-locale.js';
import { isoDay, PageQuery, text, Uuid } from './common.js';
import { IsoTime, optText } from './system.js';
import { defineEnum } from '../enum.js';

/**
 * How a pushed bill is revoked (issue 32 item 3): 删除凭证 — the accountant deletes the voucher in the
 * accounting system first (its period open); 红字冲销 — a red reversing voucher (same subjects, negative
 * amounts, referring to the original) is booked in the current open period, the original kept.
 */
export const ReimbRevokeMethod = defineEnum({ delete: ['delete', '删除凭证后撤销'], reverse: ['reverse', '红字冲销凭证'] });

const BillIds = z.array(Uuid, { message: '请选择报销单' }).min(1, '请选择报销单').max(50, '一次最多推送50张报销单');

/** 一键报销: approved bills with reimb_state 0 未报销 or 2 报销失败. */
export const ReimbApplyQuery = PageQuery.extend({
  billNo: optText(40),
  applicant: optText(40),
  deptId: Uuid.optional(),
  /** 0 未报销 or 2 报销失败; both when absent. */
  state: z.union([z.literal(0), z.literal(2)], { message: '状态不正确' }).optional(),
  /** The approval day range (YYYY-MM-DD, both inclusive). */
  from: isoDay().optional(),
  to: isoDay().optional(),
});
export type ReimbApplyQuery = z.infer<typeof ReimbApplyQuery>;

export const ReimbPushBody = z.object({ billIds: BillIds });
export type ReimbPushBody = z.infer<typeof ReimbPushBody>;

export const ReimbBillBody = z.object({ billId: Uuid });
export type ReimbBillBody = z.infer<typeof ReimbBillBody>;

const code = (label: string) => text().trim().min(1, `请填写${label}`).max(40, `${label}不能超过40个字符`);
const name = (label: string) => text().trim().min(1, `请填写${label}`).max(100, `${label}不能超过100个字符`);

/** 报销编辑: each line's accounting subject, the bill's cost centre and 摘要 (a bill not yet pushed, or failed). */
export const ReimbEditBody = z.object({
  billId: Uuid,
  costCentreCode: code('成本中心编码'),
  costCentreName: name('成本中心名称'),
  /** 摘要: blank means the default (报销 {单号} {申请人} {事由}). */
  summary: text().trim().max(200, '摘要不能超过200个字符'),
  lines: z
    .array(z.object({ id: Uuid, subjectCode: code('会计科目编码'), subjectName: name('会计科目名称') }))
    .min(1, '请填写明细行的会计科目')
    .max(200, '明细行不能超过200行'),
});
export type ReimbEditBody = z.infer<typeof ReimbEditBody>;

export const ReimbRevokeQuery = PageQuery.extend({
  billNo: optText(40),
  voucherNo: optText(40),
  /** 0 冲销中, 1 已撤销, 2 被拒绝. */
  state: z.union([z.literal(0), z.literal(1), z.literal(2)], { message: '状态不正确' }).optional(),
  method: z.enum(['delete', 'reverse'], { message: '撤销方式不正确' }).optional(),
  from: isoDay().optional(),
  to: isoDay().optional(),
});
export type ReimbRevokeQuery = z.infer<typeof ReimbRevokeQuery>;
export const ReimbRevokeExportQuery = ReimbRevokeQuery.omit({ pageIndex: true, pageSize: true, sort: true });
export type ReimbRevokeExportQuery = z.infer<typeof ReimbRevokeExportQuery>;

/** 新增撤销: the pushed bills (reimb_state 1), by bill number or applicant. */
export const ReimbPushedQuery = PageQuery.extend({ keyword: optText(40) });
export type ReimbPushedQuery = z.infer<typeof ReimbPushedQuery>;

export const ReimbRevokeBody = z.object({
  billId: Uuid,
  reason: text({ error: '请填写撤销原因' }).trim().min(2, '撤销原因至少2个字').max(200, '撤销原因不能超过200个字'),
  /** delete (the default: the voucher deleted in the accounting system first) or reverse (红字冲销). */
  method: z.enum(['delete', 'reverse'], { message: '撤销方式不正确' }).default('delete'),
});
export type ReimbRevokeBody = z.infer<typeof ReimbRevokeBody>;

export const ReimbSyncLogQuery = PageQuery.extend({
  billNo: optText(40),
  method: optText(100),
  status: z.union([z.literal(0), z.literal(1)], { message: '状态不正确' }).optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
});
export type ReimbSyncLogQuery = z.infer<typeof ReimbSyncLogQuery>;

export interface ReimbApplyRow {
  id: string;
  billNo: string;
  applicantName: string;
  deptName: string;
  projectName: string;
  reason: string;
  /** 分: claimed, approved (核定), deductible tax. */
  amount: number;
  approvedAmount: number;
  deductibleTax: number;
  lineCount: number;
  reimbState: number;
  pushMessage: string;
  approvedAt: string | null;
  costCentreName: string;
}

export interface ReimbApplyPage {
  items: ReimbApplyRow[];
  total: number;
  /** Over every bill the filters match (all pages). */
  totals: { amount: number; approvedAmount: number; deductibleTax: number };
}

export interface ReimbPushResult {
  billId: string;
  billNo: string;
  ok: boolean;
  /** The bill's state after the attempt. */
  reimbState: number | null;
  voucherNo: string;
  voucherPeriod: string;
  message: string;
}

export interface ReimbPushAnswer {
  done: number;
  failed: number;
  results: ReimbPushResult[];
}

export interface ReimbVoucherEntryView {
  dc: 'debit' | 'credit';
  accountCode: string;
  accountName: string;
  amount: number;
  summary: string;
}

export interface ReimbEditLine {
  id: string;
  lineNo: number;
  categoryCode: string;
  categoryName: string;
  expenseDate: string;
  description: string;
  amount: number;
  approvedAmount: number;
  deductibleTax: number;
  invoiceNumber: string;
  /** The line's own subject ('' when it follows the category's). */
  subjectCode: string;
  subjectName: string;
  /** The category's subject from 报销设置 ('' when not set). */
  categorySubjectCode: string;
  categorySubjectName: string;
}

export interface ReimbEditDetail {
  id: string;
  billNo: string;
  applicantName: string;
  deptName: string;
  reason: string;
  reimbState: number | null;
  flowState: number;
  amount: number;
  approvedAmount: number;
  deductibleTax: number;
  pushMessage: string;
  voucherNo: string;
  voucherPeriod: string;
  /** The bill's own (corrected) values, '' when they follow the settings / the default. */
  summary: string;
  costCentreCode: string;
  costCentreName: string;
  /** What the push would use: the default 摘要 and the department's cost centre from 报销设置. */
  defaultSummary: string;
  deptCostCentreCode: string;
  deptCostCentreName: string;
  lines: ReimbEditLine[];
  /** The voucher the push would make, or why it cannot be made (what is missing). */
  voucher: ReimbVoucherEntryView[];
  problem: string;
  /** Whether the bill may be edited and pushed (0 未报销 or 2 报销失败). */
  editable: boolean;
  history: ReimbPushHistoryRow[];
}

export interface ReimbPushHistoryRow {
  id: string;
  /** push, revoke (deleted voucher) or reverse (红字冲销: voucherNo is the reversing voucher's). */
  action: string;
  ok: boolean;
  voucherNo: string;
  message: string;
  userName: string;
  createdAt: string;
}

export interface ReimbRevocationRow {
  id: string;
  billId: string;
  billNo: string;
  applicantName: string;
  approvedAmount: number;
  voucherNo: string;
  voucherPeriod: string;
  reason: string;
  state: number;
  message: string;
  requestedByName: string;
  createdAt: string;
  /** ReimbRevokeMethod: delete or reverse. */
  method: string;
  /** The red reversing voucher's number and period ('' for a deletion). */
  reversalVoucherNo: string;
  reversalPeriod: string;
}

export interface ReimbPushedRow {
  id: string;
  billNo: string;
  applicantName: string;
  deptName: string;
  reason: string;
  approvedAmount: number;
  voucherNo: string;
  voucherPeriod: string;
  voucherDate: string;
  pushedAt: string | null;
  pushedBy: string;
}

export interface ReimbRevokeAnswer {
  billNo: string;
  voucherNo: string;
  message: string;
  method: string;
  /** The red reversing voucher (红字冲销 only; '' otherwise). */
  reversalVoucherNo: string;
  reversalPeriod: string;
}

export interface ReimbSimDeleteAnswer {
  deleted: boolean;
  voucherNo: string;
  period: string;
}

/** The accounting system's methods by their Chinese names (报销同步日志 shows and filters by them, issue 31 #9). */
export const REIMB_SYNC_METHODS: Readonly<Record<string, string>> = {
  accountingPushVoucher: '推送凭证',
  accountingVoucherState: '查询凭证状态',
  accountingPeriodState: '查询会计期间',
  accountingSimDeleteVoucher: '模拟会计删除凭证',
  accountingReverseVoucher: '红字冲销凭证',
};
/** A method's Chinese name (the code itself when it has none). */
export const reimbSyncMethodName = (type: string): string => REIMB_SYNC_METHODS[type] ?? type;
/** The method codes a typed filter means: those whose name or code contains it. */
export const reimbSyncMethodsMatching = (text: string): string[] =>
  Object.entries(REIMB_SYNC_METHODS).flatMap(([code, name]) => (name.includes(text) || code.toLowerCase().includes(text.toLowerCase()) ? [code] : []));

/** One exchange of 报销 with the accounting system (sync_logs, system 2; not 签收's nor 进项转出's). */
export interface ReimbSyncLogRow {
  id: string;
  /** The method's code (accountingPushVoucher). */
  type: string;
  /** Its Chinese name (推送凭证). */
  typeName: string;
  status: number;
  memo: string;
  durationMs: number | null;
  userName: string;
  createdAt: string;
  /** The bills it concerns by number, and the accounting period asked about (2026年05月); never an internal id. */
  refs: string[];
}
export interface ReimbSyncLogDetail extends ReimbSyncLogRow {
  request: string | null;
  response: string | null;
}
