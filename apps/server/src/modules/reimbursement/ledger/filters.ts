/**
 * 报销台账's filters and sorts as SQL on `reimb_bills as b`. The ledger lists every bill that left
 * draft (审批中, 已退回, 已通过): a draft is the applicant's own until submitted. Day filters on the
 * submit and approval instants are Asia/Shanghai days; the voucher date is already one.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { REIMB_BILL_NO, REIMB_LEDGER_FLOW_STATES, ReimbFlowState, ReimbState, type ReimbLedgerFilter } from '@zhyy/shared';
import { contains, sortOf } from '../../../platform/listing.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';
import type { Database } from '../../../db/schema.js';
import '../tables.js';

/** Sort field -> column. */
export const SORTS = {
  submittedAt: 'b.submitted_at',
  approvedAt: 'b.approved_at',
  voucherDate: 'b.voucher_date',
  amount: 'b.amount',
  approvedAmount: 'b.approved_amount',
  billNo: 'b.bill_no',
  applicantName: 'b.applicant_name',
} as const;

export const ledgerSort = (f: Pick<ReimbLedgerFilter, 'sort'>) => sortOf(f.sort, SORTS, { column: 'b.submitted_at', order: 'desc' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQ = SelectQueryBuilder<any, any, any>;
type Q = SelectQueryBuilder<Database & { b: Database['reimb_bills'] }, 'b', object>;

/** Adds "left draft" and the filters to any query that reads `reimb_bills as b`. */
export function applyLedgerFilters<QB extends AnyQ>(query: QB, f: ReimbLedgerFilter): QB {
  // "+ 0": the few drafts are not worth an index search; without it SQLite's planner (no ANALYZE) reads every
  // submitted bill through the flow-state index and sorts them all, instead of walking the sort's own index.
  let q = (query as unknown as Q).where(sql<number>`b.flow_state + 0`, 'in', [...REIMB_LEDGER_FLOW_STATES]);
  if (f.billNo) q = REIMB_BILL_NO.test(f.billNo) ? q.where('b.bill_no', '=', f.billNo) : q.where(contains(sql.ref('b.bill_no'), f.billNo));
  if (f.applicant) q = q.where(contains(sql.ref('b.applicant_name'), f.applicant));
  if (f.deptId) q = q.where('b.dept_id', '=', f.deptId);
  if (f.project) q = q.where(contains(sql.ref('b.project_name'), f.project));
  if (f.flowState !== undefined) q = q.where('b.flow_state', '=', f.flowState);
  if (f.reimbState !== undefined) q = q.where('b.reimb_state', '=', f.reimbState);
  if (f.categoryCode) {
    const code = f.categoryCode;
    q = q.where((eb) => eb.exists(eb.selectFrom('reimb_lines as cl').select('cl.id').whereRef('cl.bill_id', '=', 'b.id').where('cl.category_code', '=', code)));
  }
  if (f.submittedFrom) q = q.where('b.submitted_at', '>=', shanghaiDayStartIso(f.submittedFrom));
  if (f.submittedTo) q = q.where('b.submitted_at', '<', shanghaiDayStartIso(f.submittedTo, 1));
  if (f.approvedFrom) q = q.where('b.approved_at', '>=', shanghaiDayStartIso(f.approvedFrom));
  if (f.approvedTo) q = q.where('b.approved_at', '<', shanghaiDayStartIso(f.approvedTo, 1));
  // A bill without a voucher has voucher_date '': a date range means bills with a voucher in it.
  if (f.voucherFrom) q = q.where('b.voucher_date', '>=', f.voucherFrom);
  if (f.voucherTo) q = q.where('b.voucher_date', '<=', f.voucherTo).where('b.voucher_date', '<>', '');
  if (f.amountMin !== undefined) q = q.where('b.amount', '>=', f.amountMin);
  if (f.amountMax !== undefined) q = q.where('b.amount', '<=', f.amountMax);
  if (f.voucherNo) q = q.where(contains(sql.ref('b.voucher_no'), f.voucherNo));
  return q as unknown as QB;
}

/** A Chinese description of the filters, for the operation log of an export. */
export function describeLedgerFilters(f: ReimbLedgerFilter, categoryName?: string, deptName?: string): string {
  const parts: string[] = [];
  const range = (label: string, a?: string, b?: string) => (a || b ? parts.push(`${label} ${a ?? '…'} 至 ${b ?? '…'}`) : 0);
  if (f.billNo) parts.push(`报销单号 ${f.billNo}`);
  if (f.applicant) parts.push(`申请人含「${f.applicant}」`);
  if (f.deptId) parts.push(`部门 ${deptName ?? f.deptId}`);
  if (f.project) parts.push(`项目含「${f.project}」`);
  if (f.flowState !== undefined) parts.push(`审批状态 ${ReimbFlowState.label(f.flowState)}`);
  if (f.reimbState !== undefined) parts.push(`报销状态 ${ReimbState.label(f.reimbState)}`);
  if (f.categoryCode) parts.push(`费用类别 ${categoryName ?? f.categoryCode}`);
  range('提交日期', f.submittedFrom, f.submittedTo);
  range('审批通过日期', f.approvedFrom, f.approvedTo);
  range('凭证日期', f.voucherFrom, f.voucherTo);
  const yuan = (v: number | undefined) => (v === undefined ? '…' : (v / 100).toFixed(2));
  if (f.amountMin !== undefined || f.amountMax !== undefined) parts.push(`报销金额 ${yuan(f.amountMin)} 至 ${yuan(f.amountMax)} 元`);
  if (f.voucherNo) parts.push(`凭证号含「${f.voucherNo}」`);
  return parts.length ? parts.join('，') : '全部';
}
