/** Issue 16: the cost rules both sides apply (price windows, line arithmetic, order states, month closing). */
import { describe, expect, it } from 'vitest';
import {
  closeProblem, COST_MONTH, COST_ORDER_NO, CostOrderState, costOrderNo, lineAmount, lineTax, monthDays, monthEnded, monthLabel, nextOrderStates, orderMoveProblem,
  orderTotals, overlapping, previousMonth, priceForMonth, priceOn, shanghaiMonthOf, shiftMonth, windowsOverlap, type PriceWindow,
} from '../src/cost-rules.js';

const w = (validFrom: string, validTo: string | null, id = `${validFrom}~${validTo ?? ''}`) => ({ id, validFrom, validTo });

describe('windowsOverlap', () => {
  it('shares a day: both ends inclusive', () => {
    expect(windowsOverlap(w('2026-01-01', '2026-01-31'), w('2026-01-31', '2026-02-28'))).toBe(true);
    expect(windowsOverlap(w('2026-01-31', '2026-02-28'), w('2026-01-01', '2026-01-31'))).toBe(true);
    expect(windowsOverlap(w('2026-01-10', '2026-01-10'), w('2026-01-10', '2026-01-10'))).toBe(true);
    // One inside the other.
    expect(windowsOverlap(w('2026-01-01', '2026-12-31'), w('2026-05-01', '2026-05-31'))).toBe(true);
  });
  it('adjacent windows (one ends the day before the other starts) do not overlap', () => {
    expect(windowsOverlap(w('2026-01-01', '2026-01-31'), w('2026-02-01', '2026-02-28'))).toBe(false);
    expect(windowsOverlap(w('2026-02-01', null), w('2026-01-01', '2026-01-31'))).toBe(false);
    expect(windowsOverlap(w('2025-01-01', '2025-12-31'), w('2026-01-01', null))).toBe(false);
  });
  it('an open end (null or empty) runs for ever', () => {
    expect(windowsOverlap(w('2026-01-01', null), w('2099-06-01', '2099-06-30'))).toBe(true);
    expect(windowsOverlap(w('2026-01-01', ''), w('2099-06-01', '2099-06-30'))).toBe(true);
    expect(windowsOverlap(w('2026-01-01', null), w('2030-01-01', null))).toBe(true);
    expect(windowsOverlap(w('2030-01-01', null), w('2026-01-01', ''))).toBe(true);
    // An open window does not reach back before its start.
    expect(windowsOverlap(w('2026-01-01', null), w('2025-01-01', '2025-12-31'))).toBe(false);
  });
  it('overlapping() names the first window that overlaps', () => {
    const others = [w('2025-01-01', '2025-12-31', 'a'), w('2026-01-01', '2026-06-30', 'b'), w('2026-07-01', null, 'c')];
    expect(overlapping(w('2026-06-30', '2026-07-01'), others)?.id).toBe('b');
    expect(overlapping(w('2027-01-01', null), others)?.id).toBe('c');
    expect(overlapping(w('2024-01-01', '2024-12-31'), others)).toBeUndefined();
    expect(overlapping(w('2024-01-01', '2024-12-31'), [])).toBeUndefined();
  });
});

describe('price lookup', () => {
  const windows = [w('2026-07-01', null, 'open'), w('2025-01-01', '2025-12-31', '2025'), w('2026-01-01', '2026-03-15', 'q1'), w('2026-03-20', '2026-06-30', 'q2')];
  it('priceOn: the window whose days include the day, ends inclusive, an open end for ever', () => {
    expect(priceOn(windows, '2025-01-01')?.id).toBe('2025');
    expect(priceOn(windows, '2025-12-31')?.id).toBe('2025');
    expect(priceOn(windows, '2026-01-01')?.id).toBe('q1');
    expect(priceOn(windows, '2026-03-15')?.id).toBe('q1');
    // The gap between two windows has no price.
    expect(priceOn(windows, '2026-03-16')).toBeUndefined();
    expect(priceOn(windows, '2026-03-19')).toBeUndefined();
    expect(priceOn(windows, '2026-03-20')?.id).toBe('q2');
    expect(priceOn(windows, '2026-07-01')?.id).toBe('open');
    expect(priceOn(windows, '9999-12-31')?.id).toBe('open');
    expect(priceOn(windows, '2024-12-31')).toBeUndefined();
    expect(priceOn([w('2026-01-01', '')], '2040-01-01')).toBeDefined();
    expect(priceOn([], '2026-01-01')).toBeUndefined();
  });
  it('priceForMonth: the window in force on the first day', () => {
    expect(priceForMonth(windows, '2025-06')?.id).toBe('2025');
    expect(priceForMonth(windows, '2026-01')?.id).toBe('q1');
    // q1 ends mid-March but is in force on 1 March: it prices March.
    expect(priceForMonth(windows, '2026-03')?.id).toBe('q1');
    expect(priceForMonth(windows, '2026-07')?.id).toBe('open');
    expect(priceForMonth(windows, '2031-02')?.id).toBe('open');
  });
  it('priceForMonth: else the first window starting within the month (a price introduced mid-month prices the whole month)', () => {
    expect(priceForMonth([w('2026-05-20', null, 'late'), w('2026-05-10', '2026-05-19', 'early')], '2026-05')?.id).toBe('early');
    expect(priceForMonth([w('2026-05-31', null, 'last-day')], '2026-05')?.id).toBe('last-day');
    expect(priceForMonth([w('2026-06-01', null)], '2026-05')).toBeUndefined();
    // A window that ended before the month does not price it.
    expect(priceForMonth([w('2026-01-01', '2026-04-30')], '2026-05')).toBeUndefined();
    expect(priceForMonth(windows, '2024-12')).toBeUndefined();
  });
  it('priceForMonth: February and leap years end on the right day', () => {
    expect(priceForMonth([w('2028-02-29', null, 'leap')], '2028-02')?.id).toBe('leap');
    expect(priceForMonth([w('2026-03-01', null)], '2026-02')).toBeUndefined();
    expect(monthDays('2026-02')).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(monthDays('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthDays('2026-12')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
    expect(monthDays('2026-04').last).toBe('2026-04-30');
  });
  it('the result is the caller’s own object', () => {
    const list: Array<PriceWindow & { price: string }> = [{ validFrom: '2026-01-01', validTo: null, price: '12.5' }];
    expect(priceForMonth(list, '2026-09')?.price).toBe('12.5');
  });
});

describe('line arithmetic (half-up to 分)', () => {
  it('amount = quantity × unit price × 100, rounded half-up', () => {
    expect(lineAmount('2', '350.5')).toBe(70_100);
    expect(lineAmount('1', '0.005')).toBe(1); // 0.5 分 rounds up
    expect(lineAmount('1', '0.00499999')).toBe(0);
    expect(lineAmount('3', '0.00166667')).toBe(1); // 0.500001 分
    expect(lineAmount('0.0001', '12345.67891234')).toBe(123); // 123.4567891234 分
    expect(lineAmount('0.0005', '1')).toBe(0); // 0.05 分
    expect(lineAmount('1.2345', '99.12345678')).toBe(12_237); // 12236.7907… 分
    expect(lineAmount('2.5', '0.01')).toBe(3); // 2.5 分
    expect(lineAmount(4, 25)).toBe(10_000);
  });
  it('no binary floating point: 0.1 × 3 and 1.005 × 1 are exact', () => {
    expect(lineAmount('3', '0.1')).toBe(30);
    expect(lineAmount('1', '1.005')).toBe(101); // 100.5 分 (as a float 1.005 × 100 = 100.49999…)
    expect(lineAmount('1.15', '1')).toBe(115);
  });
  it('exact even when the product needs more than 20 significant digits', () => {
    // 864 209 807 779.4999999997 分: rounding at 20 digits first would make it …780.
    expect(lineAmount('7.0001', '1234567803.00209997')).toBe(864_209_807_779);
  });
  it('tax = amount × rate, half-up', () => {
    expect(lineTax(70_100, '0.03')).toBe(2_103);
    expect(lineTax(50, '0.01')).toBe(1); // 0.5 分
    expect(lineTax(49, '0.01')).toBe(0);
    expect(lineTax(150, '0.13')).toBe(20); // 19.5
    expect(lineTax(123, '0.06')).toBe(7); // 7.38
    expect(lineTax(12_345, '0.09')).toBe(1_111); // 1111.05
    expect(lineTax(12_345, '0')).toBe(0);
    expect(lineTax(0, '0.13')).toBe(0);
  });
  it('order totals are sums of the rounded lines', () => {
    // Three lines of 0.5 分 each: each rounds to 1 分, so the order is 3 分 (not round(1.5) = 2).
    const lines = ['1', '1', '1'].map((q) => {
      const amount = lineAmount(q, '0.005');
      return { amount, tax: lineTax(amount, '0.5') };
    });
    expect(lines).toEqual([{ amount: 1, tax: 1 }, { amount: 1, tax: 1 }, { amount: 1, tax: 1 }]);
    expect(orderTotals(lines)).toEqual({ amount: 3, tax: 3, total: 6 });
    expect(orderTotals([{ amount: 70_100, tax: 2_103 }, { amount: 1_000, tax: 130 }])).toEqual({ amount: 71_100, tax: 2_233, total: 73_333 });
    expect(orderTotals([])).toEqual({ amount: 0, tax: 0, total: 0 });
  });
});

describe('order states', () => {
  it('to-audit moves to audited or invalid; audited and invalid are final', () => {
    expect(nextOrderStates(CostOrderState.toAudit)).toEqual([CostOrderState.audited, CostOrderState.invalid]);
    expect(nextOrderStates(CostOrderState.audited)).toEqual([]);
    expect(nextOrderStates(CostOrderState.invalid)).toEqual([]);
    expect(orderMoveProblem(CostOrderState.toAudit, CostOrderState.audited)).toBeNull();
    expect(orderMoveProblem(CostOrderState.toAudit, CostOrderState.invalid)).toBeNull();
  });
  it('refuses every other move in Chinese', () => {
    expect(orderMoveProblem(CostOrderState.audited, CostOrderState.invalid)).toBe('成本单已审核，不能修改');
    expect(orderMoveProblem(CostOrderState.audited, CostOrderState.toAudit)).toBe('成本单已审核，不能修改');
    expect(orderMoveProblem(CostOrderState.audited, CostOrderState.audited)).toBe('成本单已审核，不能修改');
    expect(orderMoveProblem(CostOrderState.invalid, CostOrderState.audited)).toBe('成本单已作废，不能修改');
    expect(orderMoveProblem(CostOrderState.invalid, CostOrderState.toAudit)).toBe('成本单已作废，不能修改');
    expect(orderMoveProblem(CostOrderState.toAudit, CostOrderState.toAudit)).toBe('成本单状态不正确');
    expect(orderMoveProblem(7, CostOrderState.audited)).toBe('成本单状态不正确');
    expect(CostOrderState.label(2)).toBe('已作废');
  });
});

describe('month closing (Asia/Shanghai)', () => {
  // 2026-02-01 00:00 in Shanghai is 2026-01-31 16:00 UTC.
  const lastInstantOfJanuary = new Date('2026-01-31T15:59:59.999Z');
  const firstInstantOfFebruary = new Date('2026-01-31T16:00:00.000Z');
  it('a month ends at midnight Shanghai time, not UTC', () => {
    expect(shanghaiMonthOf(lastInstantOfJanuary)).toBe('2026-01');
    expect(shanghaiMonthOf(firstInstantOfFebruary)).toBe('2026-02');
    expect(monthEnded('2026-01', lastInstantOfJanuary)).toBe(false);
    expect(monthEnded('2026-01', firstInstantOfFebruary)).toBe(true);
    expect(monthEnded('2026-02', firstInstantOfFebruary)).toBe(false);
    expect(monthEnded('2026-03', firstInstantOfFebruary)).toBe(false);
    expect(monthEnded('2025-12', lastInstantOfJanuary)).toBe(true);
    // New year: 2026-12-31 16:00 UTC is 2027-01-01 in Shanghai.
    expect(monthEnded('2026-12', new Date('2026-12-31T15:59:59Z'))).toBe(false);
    expect(monthEnded('2026-12', new Date('2026-12-31T16:00:00Z'))).toBe(true);
  });
  it('closeProblem: already closed, then not ended, then orders awaiting audit', () => {
    expect(closeProblem('2026-01', firstInstantOfFebruary, 0, false)).toBeNull();
    expect(closeProblem('2026-01', lastInstantOfJanuary, 0, false)).toBe('该月尚未结束，不能结账');
    expect(closeProblem('2026-02', firstInstantOfFebruary, 0, false)).toBe('该月尚未结束，不能结账');
    expect(closeProblem('2026-01', firstInstantOfFebruary, 3, false)).toBe('该部门该月还有 3 张成本单待审核，不能结账');
    expect(closeProblem('2026-01', firstInstantOfFebruary, 1, true)).toBe('该部门该月已结账');
    expect(closeProblem('2026-02', firstInstantOfFebruary, 1, false)).toBe('该月尚未结束，不能结账');
  });
});

describe('months and numbers', () => {
  it('shiftMonth crosses years both ways', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2026-03', 0)).toBe('2026-03');
    expect(shiftMonth('2026-11', 14)).toBe('2028-01');
    expect(shiftMonth('2026-02', -26)).toBe('2023-12');
    expect(shiftMonth('2026-12', -12)).toBe('2025-12');
    expect(shiftMonth('2026-01', -13)).toBe('2024-12');
    expect(previousMonth('2026-01')).toBe('2025-12');
    expect(previousMonth('2026-10')).toBe('2026-09');
  });
  it('order numbers and labels', () => {
    expect(costOrderNo('2026-11', 7)).toBe('CB2026110007');
    expect(costOrderNo('2026-01', 12_345)).toBe('CB20260112345');
    expect(COST_ORDER_NO.test(costOrderNo('2026-11', 1))).toBe(true);
    expect(COST_ORDER_NO.test('CB202611001')).toBe(false);
    expect(monthLabel('2026-01')).toBe('2026年1月');
    expect(monthLabel('2026-11')).toBe('2026年11月');
    expect(COST_MONTH.test('2026-12')).toBe(true);
    expect(COST_MONTH.test('2026-13')).toBe(false);
    expect(COST_MONTH.test('2026-1')).toBe(false);
  });
});
