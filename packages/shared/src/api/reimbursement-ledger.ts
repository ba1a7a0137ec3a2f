/**
 * 费用报销: the calls of ledger/ (issue 15) — 报销台账 (every bill that left draft: filters, sort, paging,
 * the totals of the filtered set, Excel export of the bills or of their lines), 部门月度报销汇总 (pushed
 * bills by department × month × category, drill-down, export) and 部门月度报销流水 (the pushed lines of a
 * department and month). Money in 分; the month of a pushed bill is its voucher date's (Asia/Shanghai).
 */
import { z } from '../zod-locale.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { optText } from './system.js';
import { ReimbFlowState, ReimbState } from './reimbursement.js';

const Day = isoDay('日期格式须为YYYY-MM-DD');
const Money = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(0, '金额不能为负数').max(1e13, '金额超出范围');
const oneOf = <V extends number>(values: readonly V[], message: string) =>
  z.number({ message }).int(message).refine((v): v is V => values.includes(v as V), message);
/** A month, YYYY-MM. */
export const REIMB_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const Month = text().regex(REIMB_MONTH, '月份格式须为YYYY-MM');
/** The longest month range the summary answers (two years). */
export const REIMB_SUMMARY_MAX_MONTHS = 24;

/** The ledger's sortable columns. */
export const REIMB_LEDGER_SORT_FIELDS = ['submittedAt', 'approvedAt', 'voucherDate', 'amount', 'approvedAmount', 'billNo', 'applicantName'] as const;
/** The flow states the ledger lists: every bill that left draft (drafts are the applicant's own). */
export const REIMB_LEDGER_FLOW_STATES = [ReimbFlowState.approving, ReimbFlowState.returned, ReimbFlowState.approved] as const;

const LedgerFilterShape = {
  /** 报销单号: a whole number matches exactly, a part of one is "contains". */
  billNo: optText(40),
  /** 申请人 name contains. */
  applicant: optText(40),
  deptId: Uuid.optional(),
  /** 项目 name contains. */
  project: optText(100),
  flowState: oneOf(REIMB_LEDGER_FLOW_STATES, '审批状态不正确').optional(),
  reimbState: oneOf(ReimbState.values, '报销状态不正确').optional(),
  /** Bills with at least one line of this expense category. */
  categoryCode: optText(40),
  submittedFrom: Day.optional(),
  submittedTo: Day.optional(),
  approvedFrom: Day.optional(),
  approvedTo: Day.optional(),
  voucherFrom: Day.optional(),
  voucherTo: Day.optional(),
  /** 报销金额 (the claim) range in 分, inclusive. */
  amountMin: Money.optional(),
  amountMax: Money.optional(),
  /** 凭证号 contains. */
  voucherNo: optText(40),
};
type Ranges = Partial<Record<'submittedFrom' | 'submittedTo' | 'approvedFrom' | 'approvedTo' | 'voucherFrom' | 'voucherTo', string>> & { amountMin?: number; amountMax?: number };
const checkRanges = (f: Ranges, ctx: z.RefinementCtx) => {
  const pairs = [['submittedFrom', 'submittedTo', '提交日期'], ['approvedFrom', 'approvedTo', '审批通过日期'], ['voucherFrom', 'voucherTo', '凭证日期']] as const;
  for (const [a, b, label] of pairs) if (f[a] && f[b] && f[a]! > f[b]!) ctx.addIssue({ code: 'custom', message: `${label}起不能晚于止`, path: [b] });
  if (f.amountMin !== undefined && f.amountMax !== undefined && f.amountMin > f.amountMax) ctx.addIssue({ code: 'custom', message: '金额下限不能大于上限', path: ['amountMax'] });
};

export const ReimbLedgerQuery = PageQuery.extend(LedgerFilterShape).superRefine(checkRanges);
export type ReimbLedgerQuery = z.infer<typeof ReimbLedgerQuery>;
/** The export takes the filters and the sort; `withLines` exports one row per line instead of per bill. */
export const ReimbLedgerExportQuery = PageQuery.pick({ sort: true }).extend({ ...LedgerFilterShape, withLines: z.boolean({ message: '导出明细须为是或否' }).optional() }).superRefine(checkRanges);
export type ReimbLedgerExportQuery = z.infer<typeof ReimbLedgerExportQuery>;
export type ReimbLedgerFilter = Omit<ReimbLedgerExportQuery, 'withLines'>;

/** Sums of a set of bills (分): claimed, approved (核定), tax, deductible tax; lineCount the lines they hold. */
export interface ReimbLedgerTotals {
  count: number;
  lineCount: number;
  amount: number;
  approvedAmount: number;
  tax: number;
  deductibleTax: number;
}

export interface ReimbLedgerRow {
  id: string;
  billNo: string;
  applicantName: string;
  deptId: string | null;
  deptName: string;
  projectName: string;
  reason: string;
  periodFrom: string;
  periodTo: string;
  flowState: number;
  reimbState: number | null;
  amount: number;
  approvedAmount: number;
  tax: number;
  deductibleTax: number;
  lineCount: number;
  /** The categories of its lines, joined by 、. */
  categories: string;
  voucherNo: string;
  voucherDate: string;
  submittedAt: string | null;
  approvedAt: string | null;
  pushedAt: string | null;
}

export interface ReimbLedgerPage {
  items: ReimbLedgerRow[];
  total: number;
  totals: ReimbLedgerTotals;
}

export interface ReimbReportOptions {
  depts: Array<{ id: string; name: string }>;
  categories: Array<{ code: string; name: string }>;
}

// 部门月度报销汇总

const SummaryShape = {
  fromMonth: Month,
  toMonth: Month,
  deptIds: z.array(Uuid).max(200, '部门最多选择200个').optional(),
};
const checkMonths = (f: { fromMonth: string; toMonth: string }, ctx: z.RefinementCtx) => {
  if (f.fromMonth > f.toMonth) ctx.addIssue({ code: 'custom', message: '开始月份不能晚于结束月份', path: ['toMonth'] });
  else if (monthsBetween(f.fromMonth, f.toMonth).length > REIMB_SUMMARY_MAX_MONTHS) ctx.addIssue({ code: 'custom', message: `月份范围不能超过${REIMB_SUMMARY_MAX_MONTHS}个月`, path: ['toMonth'] });
};
export const ReimbSummaryQuery = z.object(SummaryShape).superRefine(checkMonths);
export type ReimbSummaryQuery = z.infer<typeof ReimbSummaryQuery>;
/** The pivot's columns: the months (default) or the expense categories. */
export const REIMB_SUMMARY_BY = ['month', 'category'] as const;
export type ReimbSummaryBy = (typeof REIMB_SUMMARY_BY)[number];
export const ReimbSummaryExportQuery = z.object({ ...SummaryShape, by: z.enum(REIMB_SUMMARY_BY, { message: '汇总方式不正确' }).default('month') }).superRefine(checkMonths);
export type ReimbSummaryExportQuery = z.infer<typeof ReimbSummaryExportQuery>;

/** The months from `from` to `to` inclusive (YYYY-MM). */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const end = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7));
  while (y * 12 + m <= end && out.length <= 1200) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/** A figure of the pivot: the approved amount (分), the bills (a month's or a department's: they add up) or the lines (a category's). */
export interface ReimbSummaryCell {
  amount: number;
  count: number;
}

/**
 * One department's row: `months[i]` for months[i] of the view (count = bills), `categories[j]` for
 * categories[j] (count = lines; a bill with two categories has lines in both), `total` the row's.
 */
export interface ReimbSummaryRow {
  /** '' for bills without a department. */
  deptId: string;
  deptName: string;
  months: ReimbSummaryCell[];
  categories: ReimbSummaryCell[];
  total: ReimbSummaryCell & { lineCount: number };
}

export interface ReimbSummaryView {
  fromMonth: string;
  toMonth: string;
  months: string[];
  categories: Array<{ code: string; name: string }>;
  rows: ReimbSummaryRow[];
  /** Column totals (bills per month; lines per category) and the grand total. */
  monthTotals: ReimbSummaryCell[];
  categoryTotals: ReimbSummaryCell[];
  total: ReimbSummaryCell & { lineCount: number };
}

/** The bills behind one cell (or row, or column) of the summary. */
export const ReimbSummaryBillsQuery = PageQuery.pick({ pageIndex: true, pageSize: true }).extend({
  fromMonth: Month,
  toMonth: Month,
  /** '' for bills without a department; absent for every department (a column). */
  deptId: z.union([Uuid, z.literal('')]).optional(),
  deptIds: z.array(Uuid).max(200, '部门最多选择200个').optional(),
  month: Month.optional(),
  categoryCode: optText(40),
});
export type ReimbSummaryBillsQuery = z.infer<typeof ReimbSummaryBillsQuery>;

/** A bill behind a cell: `cellAmount` is its approved amount in the cell (its lines of the category, when one is given). */
export interface ReimbSummaryBill extends ReimbLedgerRow {
  cellAmount: number;
  cellLines: number;
}

export interface ReimbSummaryBillsPage {
  items: ReimbSummaryBill[];
  total: number;
  totals: { count: number; cellAmount: number; cellLines: number };
}

// 部门月度报销流水

export const REIMB_LAUNDRY_SORT_FIELDS = ['voucherDate', 'billNo', 'expenseDate', 'amount', 'approvedAmount'] as const;
const LaundryShape = {
  month: Month,
  /** Absent: every department; '' the bills without one. */
  deptId: z.union([Uuid, z.literal('')]).optional(),
  categoryCode: optText(40),
};
export const ReimbLaundryQuery = PageQuery.extend(LaundryShape);
export type ReimbLaundryQuery = z.infer<typeof ReimbLaundryQuery>;
export const ReimbLaundryExportQuery = PageQuery.pick({ sort: true }).extend(LaundryShape);
export type ReimbLaundryExportQuery = z.infer<typeof ReimbLaundryExportQuery>;

export interface ReimbLaundryRow {
  id: string;
  billId: string;
  billNo: string;
  lineNo: number;
  voucherNo: string;
  voucherDate: string;
  applicantName: string;
  deptName: string;
  categoryCode: string;
  categoryName: string;
  expenseDate: string;
  description: string;
  invoiceNumber: string;
  amount: number;
  approvedAmount: number;
  tax: number;
  deductibleTax: number;
  /** 不含税净额 = 核定金额 − 可抵扣税额. */
  netAmount: number;
}

export interface ReimbLaundryTotals {
  count: number;
  amount: number;
  approvedAmount: number;
  tax: number;
  deductibleTax: number;
  netAmount: number;
}

export interface ReimbLaundryPage {
  items: ReimbLaundryRow[];
  total: number;
  totals: ReimbLaundryTotals;
}

/** A line's net of tax: what is approved less the tax that can be recovered. */
export const reimbNetAmount = (approved: number, deductibleTax: number): number => approved - deductibleTax;
