/**
 * Incoming invoices (issue 13): signing and archiving (发票签收). The pool's own shapes are in income.ts.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { optText } from './system.js';
import { IncomeDay, PoolQuery, incomeOneOf, type PoolDetail } from './income.js';

// ================================================================ signing and archiving (发票签收, issue 13 part 3)
// /income/invoice-entry/*: the invoices waiting to be signed, signing against a business document
// (archive number GD{yyyyMM}{seq}), revoking, a department's own invoices, project allocation and change.

/** The business document an invoice is signed against. */
export const IncomeSignDocType = defineEnum({ reimbursement: ['reimbursement', '报销单'], contract: ['contract', '合同'], project: ['project', '项目'], other: ['other', '其他'] });
export type IncomeSignDocTypeCode = (typeof IncomeSignDocType.values)[number];
/** A signing record's state: applying while the archive side is asked, then signed or failed; revoked later. */
export const IncomeSigningState = defineEnum({ applying: ['applying', '签收中'], signed: ['signed', '已签收'], failed: ['failed', '签收失败'], revoked: ['revoked', '已撤销'] });

const SignNote = text().trim().max(200, '说明不能超过200个字').default('');
export const SignBody = z
  .object({
    invoiceIds: z.array(Uuid, { message: '请选择要签收的发票' }).min(1, '请选择要签收的发票').max(100, '一次最多签收100张发票'),
    docType: incomeOneOf(IncomeSignDocType.values, '单据类型不正确'),
    docNo: text().trim().max(40, '单据号不能超过40个字符').regex(/^[0-9A-Za-z_\-/]*$/, '单据号只能包含字母、数字、-、_、/').default(''),
    note: SignNote,
  })
  .superRefine((b, ctx) => {
    if (b.docType !== 'other' && !b.docNo) ctx.addIssue({ code: 'custom', message: `请填写${IncomeSignDocType.label(b.docType)}号`, path: ['docNo'] });
    if (b.docType === 'other' && !b.note) ctx.addIssue({ code: 'custom', message: '单据类型为其他时请填写说明', path: ['note'] });
    if (new Set(b.invoiceIds).size !== b.invoiceIds.length) ctx.addIssue({ code: 'custom', message: '同一张发票不能重复选择', path: ['invoiceIds'] });
  });
export type SignBody = z.infer<typeof SignBody>;

export interface SignOutcome {
  invoiceId: string;
  signState: number;
  archiveNo: string;
  /** 签收成功，档案号 GD…; or why it failed / was refused. */
  message: string;
}
export interface SignAnswer {
  signed: number;
  failed: number;
  /**
   * Left 签收中 (sign state −1): the archive side did not answer (timed out, unreachable), so it may have
   * filed the invoice; the settlement job asks it and finishes or returns the signing.
   */
  pending: number;
  outcomes: SignOutcome[];
}

/** invoice-entry/list and dept/sign: the invoices waiting to be signed (filters as the pool's). */
export const EntryQuery = PoolQuery;
export type EntryQuery = PoolQuery;

export const SigningQuery = PageQuery.extend({
  state: incomeOneOf(IncomeSigningState.values, '签收状态不正确').optional(),
  docType: incomeOneOf(IncomeSignDocType.values, '单据类型不正确').optional(),
  docNo: optText(40),
  archiveNo: optText(40),
  number: optText(40),
  invoiceId: Uuid.optional(),
  from: IncomeDay.optional(),
  to: IncomeDay.optional(),
});
export type SigningQuery = z.infer<typeof SigningQuery>;

export interface SigningRow {
  id: string;
  invoiceId: string;
  invoiceNo: string;
  sellerName: string;
  issueDate: string;
  amountIncl: number;
  docType: string;
  docNo: string;
  note: string;
  state: string;
  archiveNo: string;
  voucherId: string;
  failReason: string;
  userName: string;
  createdAt: string;
  finishedAt: string | null;
}

export const RevokeBody = z.object({
  invoiceId: Uuid,
  reason: text({ message: '请填写撤销原因' }).trim().min(2, '撤销原因至少2个字').max(200, '撤销原因不能超过200个字'),
});
export type RevokeBody = z.infer<typeof RevokeBody>;

export const RevokeQuery = PageQuery.extend({ archiveNo: optText(40), number: optText(40), from: IncomeDay.optional(), to: IncomeDay.optional() });
export type RevokeQuery = z.infer<typeof RevokeQuery>;

export interface RevokeRow {
  id: string;
  invoiceId: string;
  invoiceNo: string;
  sellerName: string;
  amountIncl: number;
  archiveNo: string;
  docType: string;
  docNo: string;
  reason: string;
  userName: string;
  createdAt: string;
}

const AllocMoney = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');
export const IncomeAllocationSetBody = z.object({
  invoiceId: Uuid,
  /** The department named on the invoice (dept/sign lists it there); unchanged when absent. */
  deptId: Uuid.optional(),
  items: z
    .array(z.object({ projectId: Uuid, amountExcl: AllocMoney, tax: AllocMoney, amountIncl: AllocMoney }))
    .min(1, '请至少分摊到一个项目')
    .max(50, '一张发票最多分摊到50个项目'),
  reason: text({ message: '请填写分摊原因' }).trim().min(2, '分摊原因至少2个字').max(200, '分摊原因不能超过200个字'),
});
export type IncomeAllocationSetBody = z.infer<typeof IncomeAllocationSetBody>;

export const IncomeAllocationMoveBody = z.object({
  allocationId: Uuid,
  toProjectId: Uuid,
  amountIncl: z.number({ message: '请填写变更金额' }).int('金额须精确到分').positive('变更金额须大于0').max(1e13, '金额超出范围'),
  reason: text({ message: '请填写变更原因' }).trim().min(2, '变更原因至少2个字').max(200, '变更原因不能超过200个字'),
});
export type IncomeAllocationMoveBody = z.infer<typeof IncomeAllocationMoveBody>;

export const IncomeChangeQuery = PageQuery.extend({ invoiceId: Uuid.optional(), projectId: Uuid.optional() });
export type IncomeChangeQuery = z.infer<typeof IncomeChangeQuery>;

export interface IncomeAllocationRow {
  id: string;
  projectId: string;
  projectName: string;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  createdByName: string;
  updatedAt: string;
}
export interface IncomeAllocationChangeRow {
  id: string;
  invoiceId: string;
  invoiceNo: string;
  action: string;
  fromName: string;
  toName: string;
  amountIncl: number;
  before: Array<{ projectId: string; name: string; amountIncl: number }>;
  after: Array<{ projectId: string; name: string; amountIncl: number }>;
  reason: string;
  userName: string;
  createdAt: string;
}

export interface EntryDetail extends PoolDetail {
  deptId: string | null;
  deptName: string;
  signings: SigningRow[];
  revokes: RevokeRow[];
  allocations: IncomeAllocationRow[];
  changes: IncomeAllocationChangeRow[];
}
