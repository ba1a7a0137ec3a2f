/**
 * Period statistics (issue 14, 抵扣统计 /invoice/deduction/deduction/statistic and 退税统计
 * /invoice/deduction/tax-rebate/statistic): apply (0 未统计 → 1 已申请), the figures the tax service
 * returns by invoice kind, confirm (1 → 2 已确认; 抵扣 locks ticking of the period), revoke an application
 * (1 → 0) or a confirmation (2 → 1). Money in 分.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';

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
export const StatActionBody = z.object({ period });
export type StatActionBody = z.infer<typeof StatActionBody>;

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
  lastAction: { action: string; result: number; message: string; userName: string; at: string } | null;
}
