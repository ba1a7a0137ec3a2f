/**
 * 成本管理 (issue 16): the rules both sides apply (DOMAIN "Cost management"). Price windows of one item,
 * spec and unit never overlap (an empty end is open); a date finds at most one price. A line's amount is
 * quantity × unit price excluding tax rounded half-up to 分, its tax amount × rate rounded half-up; an
 * order's totals are sums of its rounded lines. A month is closed per department only once it has ended
 * and nothing in it awaits audit.
 */
import { Decimal } from 'decimal.js';
import { defineEnum } from './enum.js';
import { TAX_RATE_VALUES } from './invoice.js';

/** to-audit → audited, or → invalid with a reason (SPEC "Cost order"). */
export const CostOrderState = defineEnum({ toAudit: [0, '待审核'], audited: [1, '已审核'], invalid: [2, '已作废'] });
/** How an order arrived. */
export const CostOrderSource = defineEnum({ pms: ['pms', '项目管理系统'], import: ['import', 'Excel导入'], entry: ['entry', '手工录入'] });
/** The item categories of the price list (the summary's composition). */
export const CostCategory = defineEnum({
  labour: ['labour', '人工'],
  equipment: ['equipment', '机械设备'],
  vehicle: ['vehicle', '车辆'],
  material: ['material', '材料耗材'],
  service: ['service', '专业服务'],
  other: ['other', '其他'],
});
/** The VAT rates a price may carry (as stored): the shared list (invoice.ts). */
export const COST_TAX_RATES = TAX_RATE_VALUES;
/** CB{yyyyMM}{seq}: the order's month and a 4-digit sequence of that month. */
export const COST_ORDER_NO = /^CB\d{6}\d{4,}$/;
/** Unit prices keep up to 8 decimal places (yuan); quantities up to 4. */
export const COST_PRICE_SCALE = 8;
export const COST_QUANTITY_SCALE = 4;

export interface PriceWindow {
  /** 'YYYY-MM-DD' */
  validFrom: string;
  /** 'YYYY-MM-DD', or null/'' for an open end. */
  validTo: string | null;
}

const endOf = (w: PriceWindow) => (w.validTo ? w.validTo : '9999-12-31');

/** Whether two windows share a day (both ends inclusive; an empty end is open). */
export function windowsOverlap(a: PriceWindow, b: PriceWindow): boolean {
  return a.validFrom <= endOf(b) && b.validFrom <= endOf(a);
}

/** The first window of `others` that overlaps `w`, or undefined. */
export function overlapping<W extends PriceWindow>(w: PriceWindow, others: readonly W[]): W | undefined {
  return others.find((o) => windowsOverlap(w, o));
}

/** The window in force on `day` ('YYYY-MM-DD'); at most one since windows never overlap. */
export function priceOn<W extends PriceWindow>(windows: readonly W[], day: string): W | undefined {
  return windows.find((w) => w.validFrom <= day && day <= endOf(w));
}

/** Months are 'YYYY-MM' as in the other areas' APIs (the order number drops the dash). */
export const COST_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** 'YYYY-MM' → 'YYYY-MM-01' and the month's last day. */
export function monthDays(month: string): { first: string; last: string } {
  const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` };
}

/**
 * The price for an order's month: the one in force on the month's first day, else the first window
 * starting within the month (a price introduced mid-month prices the whole month).
 */
export function priceForMonth<W extends PriceWindow>(windows: readonly W[], month: string): W | undefined {
  const { first, last } = monthDays(month);
  return priceOn(windows, first) ?? [...windows].filter((w) => w.validFrom > first && w.validFrom <= last).sort((a, b) => a.validFrom.localeCompare(b.validFrom))[0];
}

/** The month `n` months after 'YYYY-MM' (negative: before). */
export function shiftMonth(month: string, n: number): string {
  const i = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The month before 'YYYY-MM'. */
export const previousMonth = (month: string) => shiftMonth(month, -1);

/** 'CB' + yyyyMM + the month's 4-digit sequence. */
export const costOrderNo = (month: string, seq: number) => `CB${month.replace('-', '')}${String(seq).padStart(4, '0')}`;

/**
 * Exact products: decimal.js rounds every operation to 20 significant digits by default, and a
 * 4-place quantity × 8-place price in 分 of 11 or more integer digits needs more, so the product was
 * rounded once there and again to 分 (…779.4999999997 became …780). 64 digits hold any product of
 * the schemas' values exactly.
 */
const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });

/** Amount in 分: quantity × unit price (yuan, excluding tax) × 100, half-up. */
export function lineAmount(quantity: string | number, unitPrice: string | number): number {
  return new Exact(quantity).mul(unitPrice).mul(100).toDecimalPlaces(0, Exact.ROUND_HALF_UP).toNumber();
}

/** Tax in 分: amount × rate, half-up. */
export function lineTax(amount: number, taxRate: string | number): number {
  return new Exact(amount).mul(taxRate).toDecimalPlaces(0, Exact.ROUND_HALF_UP).toNumber();
}

/** An order's totals: sums of its rounded lines. */
export function orderTotals(lines: ReadonlyArray<{ amount: number; tax: number }>): { amount: number; tax: number; total: number } {
  const amount = lines.reduce((s, l) => s + l.amount, 0);
  const tax = lines.reduce((s, l) => s + l.tax, 0);
  return { amount, tax, total: amount + tax };
}

/** The states an order may move to from `from` (audited and invalid are final). */
export function nextOrderStates(from: number): number[] {
  return from === CostOrderState.toAudit ? [CostOrderState.audited, CostOrderState.invalid] : [];
}

/** The Chinese refusal of moving an order from `from` to `to`, or null when allowed. */
export function orderMoveProblem(from: number, to: number): string | null {
  if (nextOrderStates(from).includes(to)) return null;
  if (from === CostOrderState.audited) return '成本单已审核，不能修改';
  if (from === CostOrderState.invalid) return '成本单已作废，不能修改';
  return '成本单状态不正确';
}

/** The month of `now` in Asia/Shanghai, 'YYYY-MM'. */
export const shanghaiMonthOf = (now: Date) => new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 7);

/** Whether 'YYYY-MM' has ended at `now` (Asia/Shanghai). */
export const monthEnded = (month: string, now: Date) => month < shanghaiMonthOf(now);

/** The Chinese refusal of closing `month` for a department, or null when it may close. */
export function closeProblem(month: string, now: Date, toAudit: number, alreadyClosed: boolean): string | null {
  if (alreadyClosed) return '该部门该月已结账';
  if (!monthEnded(month, now)) return '该月尚未结束，不能结账';
  if (toAudit > 0) return `该部门该月还有 ${toAudit} 张成本单待审核，不能结账`;
  return null;
}

/** 'YYYY-MM' → '2026年11月'. */
export const monthLabel = (month: string) => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;
