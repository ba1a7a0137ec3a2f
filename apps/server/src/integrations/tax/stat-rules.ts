/**
 * Period statistics (抵扣统计 / 退税统计) rules both implementations share: the state machine per period
 * and scope (0 未统计 → 1 已申请 → 2 已确认; 1 → 0 撤销申请; 2 → 1 撤销确认), the bureau's refusal codes
 * and messages (DOMAIN.md: 08 不能重复确认, 09 当前月与属期相等时不符合确认条件, 10 已确认统计不能撤销),
 * and the simulator's calendar:
 * - a period's statistics may be applied for, confirmed or revoked only until its deadline (the filing
 *   deadline of the 申报日历, 23:59:59 Asia/Shanghai: ./calendar.ts) and not before the period began;
 * - confirmation is refused while the current month (Asia/Shanghai) is the period itself (09);
 * - a confirmation may be revoked until the period's deadline, after it no longer (10).
 * Confirming the deduction statistics locks ticking of the period (income-ticks.ts open()).
 */
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import type { PeriodStatState, StatRequest, StatScope } from './income-types.js';
import { deadlineText } from './tick-rules.js';

export type StatAction = 'apply' | 'revokeApply' | 'confirm' | 'revokeConfirm';
export const STAT_SCOPE_LABELS: Record<StatScope, string> = { deduction: '抵扣统计', rebate: '退税统计' };
export const STAT_STATE_LABELS: Record<PeriodStatState, string> = { 0: '未统计', 1: '已申请', 2: '已确认' };
export const STAT_ACTION_LABELS: Record<StatAction, string> = { apply: '申请统计', revokeApply: '撤销申请', confirm: '确认统计', revokeConfirm: '撤销确认' };
/** The state each action moves from and to. */
export const STAT_MOVES: Record<StatAction, { from: PeriodStatState; to: PeriodStatState }> = {
  apply: { from: 0, to: 1 },
  revokeApply: { from: 1, to: 0 },
  confirm: { from: 1, to: 2 },
  revokeConfirm: { from: 2, to: 1 },
};
/** Usages counted in each scope's figures: 抵扣 (1); 出口退税 and 代办退税 (2, 3). */
export const STAT_SCOPE_USAGES: Record<StatScope, readonly number[]> = { deduction: [1], rebate: [2, 3] };

/** The usages the statistics detail (抵扣统计明细) lists: the ticks 申请统计 freezes together — 抵扣 and 不抵扣; 出口退税 and 代办退税. */
export const STAT_DETAIL_USAGES: Record<StatScope, readonly number[]> = { deduction: [1, 4], rebate: [2, 3] };
/** One page of the statistics detail holds at most this many invoices. */
export const STAT_DETAIL_PAGE_MAX = 500;

/** A detail request's paging, checked alike by both implementations (page from 1, size 1…500). */
export function detailPaging(r: { pageNo?: number | undefined; pageSize?: number | undefined }, method: string): { pageNo: number; pageSize: number } {
  const pageNo = r.pageNo ?? 1;
  const pageSize = r.pageSize ?? STAT_DETAIL_PAGE_MAX;
  if (!Number.isInteger(pageNo) || pageNo < 1) throw new TaxGatewayError(TaxErrorCode.invalid, '页码须为正整数', method);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > STAT_DETAIL_PAGE_MAX) throw new TaxGatewayError(TaxErrorCode.invalid, `每页条数须为1～${STAT_DETAIL_PAGE_MAX}`, method);
  return { pageNo, pageSize };
}

/** The bureau's codes of the refusals DOMAIN.md names. */
export const StatCodes = { duplicateConfirm: '08', sameMonth: '09', noRevoke: '10' } as const;

export const StatMessages = {
  duplicateConfirm: '不能重复确认',
  sameMonth: '当前月与属期相等时不符合确认条件',
  noRevoke: '已确认统计不能撤销',
  alreadyApplied: (p: string) => `税款所属期${p}已申请统计，请勿重复申请`,
  confirmedAlready: (p: string) => `税款所属期${p}的统计已确认，不能再申请统计`,
  notApplied: (p: string) => `税款所属期${p}尚未申请统计，请先申请统计`,
  notAppliedRevoke: (p: string) => `税款所属期${p}尚未申请统计，无需撤销`,
  confirmedRevokeFirst: (p: string) => `税款所属期${p}的统计已确认，请先撤销确认`,
  notConfirmed: (p: string) => `税款所属期${p}的统计未确认，无需撤销确认`,
  pastDeadline: (p: string, deadline: string) => `税款所属期${p}的统计截止时间（${deadline}）已过`,
  notStarted: (p: string) => `税款所属期${p}尚未开始，不能统计`,
} as const;

const PERIOD = /^\d{4}(0[1-9]|1[0-2])$/;

export function checkStatRequest(r: StatRequest, method: string): void {
  if (!PERIOD.test(r.period ?? '')) throw new TaxGatewayError(TaxErrorCode.invalid, '税款所属期须为YYYYMM', method);
  if (r.scope !== 'deduction' && r.scope !== 'rebate') throw new TaxGatewayError(TaxErrorCode.invalid, '统计类型须为抵扣或退税', method);
}

/** 'YYYYMM' of `now` in Asia/Shanghai. */
export const monthOf = (now: Date) => new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');

export interface StatRefusal {
  code: string;
  message: string;
}

/**
 * Why the bureau refuses `action` on a period's statistics in `state` at `now` (null: allowed). The order:
 * the state (08 before anything for a second confirmation), the calendar, then 09.
 */
export function statRefusal(action: StatAction, state: number, period: string, deadline: string, now: Date): StatRefusal | null {
  const st = (message: string): StatRefusal => ({ code: TaxErrorCode.state, message });
  const past = now.getTime() > Date.parse(deadline);
  const month = monthOf(now);
  switch (action) {
    case 'apply':
      if (state === 1) return st(StatMessages.alreadyApplied(period));
      if (state === 2) return st(StatMessages.confirmedAlready(period));
      break;
    case 'revokeApply':
      if (state === 0) return st(StatMessages.notAppliedRevoke(period));
      if (state === 2) return st(StatMessages.confirmedRevokeFirst(period));
      break;
    case 'confirm':
      if (state === 2) return { code: StatCodes.duplicateConfirm, message: StatMessages.duplicateConfirm };
      if (state === 0) return st(StatMessages.notApplied(period));
      break;
    case 'revokeConfirm':
      if (state !== 2) return st(StatMessages.notConfirmed(period));
      if (past) return { code: StatCodes.noRevoke, message: StatMessages.noRevoke };
      break;
  }
  if (period > month) return st(StatMessages.notStarted(period));
  if (past) return st(StatMessages.pastDeadline(period, deadlineText(deadline)));
  if (action === 'confirm' && period === month) return { code: StatCodes.sameMonth, message: StatMessages.sameMonth };
  return null;
}

/** The refusal as the gateway throws it. */
export const statError = (r: StatRefusal, method: string) => new TaxGatewayError(r.code, r.message, method);
