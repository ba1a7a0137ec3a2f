/**
 * Period statistics (issue 14, 抵扣统计 /invoice/deduction/deduction/statistic and 退税统计
 * /invoice/deduction/tax-rebate/statistic): apply (0 未统计 → 1 已申请), the figures the tax service
 * returns by invoice kind, confirm (1 → 2 已确认; 抵扣 locks ticking of the period), revoke an application
 * (1 → 0) or a confirmation (2 → 1). Money in 分.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { text, Uuid } from './common.js';

export const StatScope = defineEnum({ deduction: ['deduction', '抵扣统计'], rebate: ['rebate', '退税统计'] });
export const StatAction = defineEnum({ apply: ['apply', '申请统计'], confirm: ['confirm', '确认统计'], revokeApply: ['revokeApply', '撤销申请'], revokeConfirm: ['revokeConfirm', '撤销确认'] });
export type StatActionCode = (typeof StatAction.values)[number];
export const StatActionResult = defineEnum({ pending: [0, '处理中'], success: [1, '成功'], failed: [2, '失败'] });
/** Which actions each state allows (the buttons; the tax service decides the calendar). */
export const STAT_ACTIONS_BY_STATE: Record<number, readonly StatActionCode[]> = { 0: ['apply'], 1: ['confirm', 'revokeApply'], 2: ['revokeConfirm'] };

const period = z.string().regex(/^\d{4}(0[1-9]|1[0-2])$/, '税款所属期须为YYYYMM');
/** The figures of a period (default: the one the tax service's calendar points to). */
export const StatViewBody = z.object({ period: period.optional() });
export type StatViewBody = z.infer<typeof StatViewBody>;
/** The most characters of the reason for confirming over open differences. */
export const STAT_CONFIRM_REASON_MAX = 200;
/**
 * An action on a period's statistics. `reason` (确认统计 only): why the clerk confirms although the bureau's
 * counted invoices and our tick ledger still differ (统计对比, issue 32 item 1); without differences it is not needed.
 */
export const StatActionBody = z.object({
  period,
  reason: text().trim().max(STAT_CONFIRM_REASON_MAX, `原因不能超过${STAT_CONFIRM_REASON_MAX}个字符`).optional(),
});
export type StatActionBody = z.infer<typeof StatActionBody>;

/** 采纳税务端: the lines (invoice keys) of the comparison to adopt; all adoptable lines when absent. */
export const StatAdoptBody = z.object({
  period,
  keys: z.array(text().min(1, '发票号码不能为空').max(40, '发票号码格式不正确'), { message: '发票号码须为列表' }).min(1, '请选择要采纳的差异').max(1000, '一次最多采纳1000条差异').optional(),
});
export type StatAdoptBody = z.infer<typeof StatAdoptBody>;

/**
 * 模拟税务端勾选 (the tax simulator's control, simulator mode only): the clerk ticks or undoes pool invoices on the
 * bureau's platform, outside the product — so the comparison can be shown and tested. `effectiveTax` (分, 抵扣)
 * defaults to each invoice's tax.
 */
export const StatOutsideTickBody = z.object({
  /** The pool invoices by id, or by number (`numbers`: 数电 number, else code + number), as the page's box sends them. */
  ids: z.array(Uuid, { message: '发票ID须为列表' }).min(1, '请选择发票').max(50, '一次最多50张发票').optional(),
  numbers: z.array(text().trim().min(1, '发票号码不能为空').max(40, '发票号码格式不正确'), { message: '发票号码须为列表' }).min(1, '请填写发票号码').max(50, '一次最多50张发票').optional(),
  action: z.enum(['tick', 'untick'], { message: '操作须为勾选或撤销勾选' }),
  vatUsage: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { message: '用途不正确' }),
  deductReason: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)], { message: '不抵扣原因不正确' }).optional(),
  effectiveTax: z.number({ message: '有效税额须为数字' }).int('有效税额须精确到分').positive('有效税额须大于0').max(99_999_999_999, '有效税额过大').optional(),
}).refine((b) => !!(b.ids?.length || b.numbers?.length), { message: '请选择发票', path: ['ids'] });
export type StatOutsideTickBody = z.infer<typeof StatOutsideTickBody>;

/** How a line of the comparison differs. */
export const StatDiffKind = defineEnum({
  outside: ['outside', '税务端已勾选，本系统未勾选'],
  missing: ['missing', '本系统已勾选，税务端未统计'],
  usage: ['usage', '用途不一致'],
  tax: ['tax', '有效税额不一致'],
});
export type StatDiffKindCode = (typeof StatDiffKind.values)[number];

/** One side of a line: how that side holds the invoice ticked (null: not ticked there). Money in 分. */
export interface StatDiffSide {
  vatUsage: number;
  deductReason: number | null;
  tax: number;
  effectiveTax: number;
}

export interface StatDiffLine {
  key: string;
  kind: StatDiffKindCode;
  /** The pool invoice (null: the pool does not hold it). */
  invoiceId: string | null;
  invoiceKind: string;
  issueDate: string;
  sellerName: string;
  ours: StatDiffSide | null;
  bureau: StatDiffSide | null;
  /** Whether 采纳税务端 can take the bureau's state for this line; `note` says why not. */
  adoptable: boolean;
  note: string;
}

/** 统计对比: what each side counts for the period (count and tax of the counted usages) and the lines that differ. */
export interface StatComparison {
  ours: { count: number; tax: number; effectiveTax: number };
  bureau: { count: number; tax: number; effectiveTax: number };
  lines: StatDiffLine[];
  /** Lines still differing (= lines.length). */
  open: number;
}

export interface StatKindFigure {
  kind: string;
  kindLabel: string;
  count: number;
  amountExcludingTax: number;
  tax: number;
  effectiveTax: number;
}

export interface StatView {
  scope: string;
  period: string;
  /** The periods that may be shown: the one before the current tick period and that one. */
  periods: Array<{ period: string; state: number }>;
  /** The current tick period (ticking screens). */
  tickPeriod: string;
  deadline: string;
  deadlineText: string;
  state: number;
  rows: StatKindFigure[];
  totals: Omit<StatKindFigure, 'kind' | 'kindLabel'>;
  /** 抵扣统计 only: the passenger transport documents of the period (计算抵扣). */
  transport: { count: number; basis: number; tax: number } | null;
  /** 抵扣统计: ticked effective tax + passenger transport tax; 退税统计: the ticked tax. */
  deductibleTotal: number;
  /** The period's other ticks, not counted in these figures (抵扣统计: 不抵扣 and 退税), as on the ticking page's header. */
  apart: Array<{ usages: number[]; label: string; count: number; tax: number }>;
  /** Set when the tax service's own totals differ from our ticks (they should not): the words saying so. */
  notice: string;
  actions: StatActionCode[];
  /** Why an action the state allows is not offered now, shown beside its button (issue 31 #10: 确认统计 in the period's own month). */
  unavailable?: Partial<Record<StatActionCode, string>>;
  lastAction: { action: string; result: number; message: string; userName: string; at: string; reason?: string; differences?: number } | null;
  /** 统计对比 (issue 32 item 1): after 申请统计 (state 1 or 2), the bureau's counted invoices against our ticks; null before. */
  comparison: StatComparison | null;
  /** Set when the comparison could not be made (the bureau's detail could not be read): the words saying so. */
  comparisonError?: string;
  /** Whether 模拟税务端勾选 is available (the tax gateway is the simulator). */
  simulator: boolean;
}
