/**
 * 费用报销 (issue 15): the states and codes every part of the area shares. The calls' shapes live by
 * capability: reimbursement-apply.ts (my bills, lines, checks, 核定), reimbursement-accounting.ts
 * (一键报销, edit, revoke, sync log), reimbursement-ledger.ts (台账, 汇总, 流水),
 * reimbursement-settings.ts (报销设置). Money is in 分 (integers).
 */
import { defineEnum } from '../enum.js';

/** The approval side of a bill. Withdrawn bills return to 草稿. */
export const ReimbFlowState = defineEnum({ draft: [0, '草稿'], approving: [1, '审批中'], returned: [2, '已退回'], approved: [3, '已通过'] });
/** The accounting side, once approved (DOMAIN: 0 or 2 → applying -1 → success 1 or failed 2). */
export const ReimbState = defineEnum({ applying: [-1, '报销中'], unReimburse: [0, '未报销'], success: [1, '已报销'], failed: [2, '报销失败'] });
/** A revocation record: 0 冲销中 (a 红字冲销 waiting for the accounting side's answer), 1 已撤销, 2 被拒绝. */
export const ReimbRevocationState = defineEnum({ pending: [0, '冲销中'], done: [1, '已撤销'], refused: [2, '被拒绝'] });
/** Which travel standard a category is checked against. */
export const ReimbTravelKind = defineEnum({ none: ['', '不适用'], hotel: ['hotel', '住宿'], transport: ['transport', '交通'], allowance: ['allowance', '补助'] });
/** The grades the travel standards are set for. */
export const ReimbGrade = defineEnum({ staff: ['staff', '员工'], manager: ['manager', '部门负责人'], leader: ['leader', '公司领导'] });
export const ReimbCityTier = defineEnum({ first: [1, '一类城市'], second: [2, '二类城市'], other: [3, '其他城市'] });

/**
 * The checks of a line (DOMAIN "Checks that users rely on"). `block` refuses the submit; `warn` is shown
 * to the applicant and the approvers.
 */
export const ReimbCheckCode = defineEnum({
  duplicateInvoice: ['duplicateInvoice', '发票重复报销'],
  buyerNotOurs: ['buyerNotOurs', '购方非本公司'],
  invoiceShort: ['invoiceShort', '发票金额不足'],
  invoiceTooOld: ['invoiceTooOld', '发票超期'],
  hotelOverStandard: ['hotelOverStandard', '住宿超标准'],
  seatOverStandard: ['seatOverStandard', '交通超标准'],
  allowanceOverStandard: ['allowanceOverStandard', '补助超标准'],
  duplicateClaim: ['duplicateClaim', '疑似重复报销'],
  invoiceDead: ['invoiceDead', '发票状态异常'],
  invoiceFileUnread: ['invoiceFileUnread', '发票文件未识别'],
});
export type ReimbCheckCodeValue = (typeof ReimbCheckCode.values)[number];
export interface ReimbCheck {
  code: ReimbCheckCodeValue;
  level: 'block' | 'warn';
  message: string;
  /**
   * duplicateClaim: the other claim the line matches (issue 32 #4). Sent only to whoever may look at it: the
   * bill's approvers (current or past handlers), roles 1, 12, 16, and the applicant when the other bill is theirs too.
   */
  ref?: ReimbDuplicateRef;
  /** duplicateClaim: the approver accepted this match with an opinion. */
  accepted?: { by: string; at: string; opinion: string };
}

/** The other line of a 疑似重复报销 match. */
export interface ReimbDuplicateRef {
  billId: string;
  billNo: string;
  lineId: string;
  lineNo: number;
  applicantName: string;
  expenseDate: string;
  amount: number;
  sellerName: string;
  /** Days between the two lines' dates (0 … DUPLICATE_CLAIM_DAYS). */
  days: number;
}

/** BX{yyyyMM}{seq}: the month the bill was made and a 4-digit sequence of that month. */
export const REIMB_BILL_NO = /^BX\d{6}\d{4,}$/;
