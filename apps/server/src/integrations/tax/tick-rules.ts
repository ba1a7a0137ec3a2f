/**
 * Ticking (勾选) rules both implementations apply before (or instead of) asking the service: the shape
 * of a batch, the periods (税款所属期 'YYYYMM') and the service's refusal messages. The simulator also
 * answers the period from periodAt (the bureau's calendar: a period may be ticked until its filing
 * deadline, the 申报日历 of packages/shared filing-calendar.ts, unless its statistics are confirmed earlier).
 */
import { deadlineInstant, filingDeadline } from '@zhyy/shared';
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import type { CustomsTickRequest, CustomsUntickRequest, NonDeductReason, TickItem, TickRequest, TickUsage, UntickRequest } from './income-types.js';

/** At most this many invoices in one tick or undo call. */
export const TICK_BATCH_MAX = 1000;
/** The first issue day that may be ticked at all (the bureau lifted the 360-day limit for invoices from 2017 on). */
export const TICK_WINDOW_START = '2017-01-01';

export const TICK_USAGE_LABELS: Record<TickUsage, string> = { 1: '抵扣', 2: '出口退税', 3: '代办退税', 4: '不抵扣' };
export const NON_DEDUCT_REASON_LABELS: Record<NonDeductReason, string> = { 1: '非应税项目', 2: '免税项目', 3: '集体福利或个人消费', 4: '非正常损失', 5: '其他' };

export const TickMessages = {
  pastDeadline: (period: string, deadline: string) => `税款所属期${period}的勾选截止时间（${deadline}）已过，不能再勾选或撤销勾选`,
  confirmed: (period: string) => `税款所属期${period}的统计已确认，不能再勾选或撤销勾选`,
  /** From 申请统计 until 撤销申请 the period's ticks of that statistics' scope are frozen. */
  applied: (period: string) => `税款所属期${period}已申请统计，不能再勾选或撤销勾选；如需修改，请先撤销申请`,
  notCurrent: (period: string, current: string) => `税款所属期${period}不是当前可勾选的所属期（当前为${current}）`,
  unknown: '税务端无此发票信息',
  abnormalVoucher: '异常凭证不能勾选抵扣',
  usedOtherwise: (was: TickUsage, want: TickUsage) => `该发票已勾选为${TICK_USAGE_LABELS[was]}，不能再勾选为${TICK_USAGE_LABELS[want]}`,
  otherPeriod: (period: string) => `该发票已于税款所属期${period}勾选，不能在本期更改`,
  notTicked: '该发票未勾选，无需撤销',
  effectiveTax: '有效税额须大于0且不超过发票税额',
  badState: (label: string) => `该发票${label}，不能勾选`,
} as const;

const invalid = (message: string, method: string) => new TaxGatewayError(TaxErrorCode.invalid, message, method);
const PERIOD = /^\d{4}(0[1-9]|1[0-2])$/;

/** The invoice's key as the service names it: the 20-digit number, else code + number. */
export const tickKey = (i: Pick<TickItem, 'invoiceCode' | 'invoiceNo'>) => (i.invoiceNo.length === 20 ? i.invoiceNo : `${i.invoiceCode}${i.invoiceNo}`);

function checkItems(items: ReadonlyArray<Pick<TickItem, 'invoiceCode' | 'invoiceNo' | 'issueDate'>>, method: string): void {
  if (!items.length) throw invalid('请至少选择一张发票', method);
  if (items.length > TICK_BATCH_MAX) throw invalid(`一次最多勾选${TICK_BATCH_MAX}张发票`, method);
  const seen = new Set<string>();
  for (const i of items) {
    if (!/^(\d{8}|\d{20})$/.test(i.invoiceNo) || (i.invoiceNo.length === 8 && !/^\d{10}(\d{2})?$/.test(i.invoiceCode))) throw invalid(`发票号码不正确：${i.invoiceCode}${i.invoiceNo}`, method);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(i.issueDate)) throw invalid(`开票日期不正确：${i.issueDate}`, method);
    const k = tickKey(i);
    if (seen.has(k)) throw invalid(`同一批次中发票重复：${k}`, method);
    seen.add(k);
  }
}

export function checkTickRequest(r: TickRequest, method: string): void {
  if (!PERIOD.test(r.period)) throw invalid('税款所属期须为YYYYMM', method);
  if (![1, 2, 3, 4].includes(r.usage)) throw invalid('勾选用途不正确', method);
  if (r.usage === 4 ? ![1, 2, 3, 4, 5].includes(r.reason ?? 0) : r.reason !== undefined) throw invalid(r.usage === 4 ? '不抵扣勾选须选择不抵扣原因' : '只有不抵扣勾选需要原因', method);
  checkItems(r.items, method);
  // An amount in 分; a 抵扣 tick's must be positive and at most the invoice's tax: the per-invoice check (income-ticks.ts).
  for (const i of r.items) if (!Number.isInteger(i.effectiveTax) || i.effectiveTax < 0) throw invalid(`${TickMessages.effectiveTax}：${tickKey(i)}`, method);
}

export function checkUntickRequest(r: UntickRequest, method: string): void {
  if (!PERIOD.test(r.period)) throw invalid('税款所属期须为YYYYMM', method);
  if (![1, 2, 3, 4].includes(r.usage)) throw invalid('勾选用途不正确', method);
  checkItems(r.items, method);
}

/** A 缴款书号码 as the pool holds it: letters, digits and '-', at most 40. */
const NOTICE_NO = /^[0-9A-Za-z-]{1,40}$/;

function checkNotices(items: ReadonlyArray<{ noticeNo: string; fillDate: string }>, method: string): void {
  if (!items.length) throw invalid('请至少选择一张海关缴款书', method);
  if (items.length > TICK_BATCH_MAX) throw invalid(`一次最多勾选${TICK_BATCH_MAX}张缴款书`, method);
  const seen = new Set<string>();
  for (const i of items) {
    if (!NOTICE_NO.test(i.noticeNo)) throw invalid(`缴款书号码不正确：${i.noticeNo}`, method);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(i.fillDate)) throw invalid(`填发日期不正确：${i.fillDate}`, method);
    if (seen.has(i.noticeNo)) throw invalid(`同一批次中缴款书重复：${i.noticeNo}`, method);
    seen.add(i.noticeNo);
  }
}

/** A customs batch: 抵扣 or 不抵扣 only (a customs notice has no rebate use), effective taxes in 分. */
export function checkCustomsTickRequest(r: CustomsTickRequest, method: string): void {
  if (!PERIOD.test(r.period)) throw invalid('税款所属期须为YYYYMM', method);
  if (r.usage !== 1 && r.usage !== 4) throw invalid('海关缴款书只能勾选为抵扣或不抵扣', method);
  if (r.usage === 4 ? ![1, 2, 3, 4, 5].includes(r.reason ?? 0) : r.reason !== undefined) throw invalid(r.usage === 4 ? '不抵扣勾选须选择不抵扣原因' : '只有不抵扣勾选需要原因', method);
  checkNotices(r.items, method);
  for (const i of r.items) if (!Number.isInteger(i.effectiveTax) || i.effectiveTax < 0) throw invalid(`${TickMessages.effectiveTax}：${i.noticeNo}`, method);
}

export function checkCustomsUntickRequest(r: CustomsUntickRequest, method: string): void {
  if (!PERIOD.test(r.period)) throw invalid('税款所属期须为YYYYMM', method);
  if (r.usage !== 1 && r.usage !== 4) throw invalid('海关缴款书只能勾选为抵扣或不抵扣', method);
  checkNotices(r.items, method);
}

const SHANGHAI_MS = 8 * 3600_000;
const pad = (n: number) => String(n).padStart(2, '0');
/** 'YYYYMM' of a Shanghai day. */
export const periodOfDay = (day: string) => day.slice(0, 4) + day.slice(5, 7);
/** The period before / after one. */
export function shiftPeriod(period: string, months: number): string {
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(4, 6)) - 1 + months;
  const d = new Date(Date.UTC(y, m, 1));
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}`;
}
/**
 * The deadline of a period by the calendar shipped (published, else computed), 23:59:59 Asia/Shanghai (ISO
 * UTC): where no database is at hand (the seed, the Nuonuo client when the service leaves it out). The
 * simulator asks calendar.ts filingDeadlines, which also knows the years an administrator entered.
 */
export function defaultDeadline(period: string): string {
  return deadlineInstant(filingDeadline(period).day);
}
/** The last day of a period ('YYYY-MM-DD'). */
export function periodEnd(period: string): string {
  const next = shiftPeriod(period, 1);
  return new Date(Date.parse(`${next.slice(0, 4)}-${next.slice(4, 6)}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
/** A deadline as the bureau prints it: 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai. */
export const deadlineText = (iso: string) => new Date(Date.parse(iso) + SHANGHAI_MS).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The current period at `now`: last month's while it is open (before its deadline and not confirmed),
 * else this month's. `previous` is last month's deadline and statistics state.
 */
export function currentPeriod(now: Date, previous: (period: string) => { deadline: string; statState: number }): string {
  const today = new Date(now.getTime() + SHANGHAI_MS).toISOString().slice(0, 10);
  const thisMonth = periodOfDay(today);
  const last = shiftPeriod(thisMonth, -1);
  const p = previous(last);
  return p.statState !== 2 && now.getTime() <= Date.parse(p.deadline) ? last : thisMonth;
}
