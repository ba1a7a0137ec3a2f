import { describe, expect, it } from 'vitest';
import { capitalAmount, unitPriceText } from '@zhyy/shared';
import { barOption } from '../features/invoice/statistics/StatShell';
import { axisWan, formatDate, formatDateTime, moneyAxis, tooltipYuan } from './format';

describe('one format everywhere', () => {
  it('dates are YYYY-MM-DD (Asia/Shanghai), never 2026/11/22', () => {
    expect(formatDateTime('2026-11-22T02:03:04.000Z')).toBe('2026-11-22 10:03:04');
    expect(formatDate('2026-11-21T17:00:00.000Z')).toBe('2026-11-22');
    expect(formatDate('2026-11-22')).toBe('2026-11-22');
    expect(formatDate(null)).toBe('');
  });

  it('unit prices carry thousands separators like amounts, and the shown price multiplies out to the amount', () => {
    expect(unitPriceText({ quantity: '2', unitPrice: '54500', priceIncludesTax: true, amountExcl: 10_000_000 })).toBe('50,000.00');
    expect(unitPriceText({ quantity: '1', unitPrice: '1234567.125', priceIncludesTax: false, amountExcl: 123_456_713 })).toBe('1,234,567.125');
  });

  it('大写 uses 圆, the same on the page and on the PDF', () => {
    expect(capitalAmount(10_900_000)).toBe('壹拾万玖仟圆整');
  });

  it('money chart axes are in 万 throughout, not full figures below 10,000 and 万 above; the unit only in the axis name', () => {
    expect([0, 5000, 10000, 25000, 1_234_567, 50_000_000].map(axisWan)).toEqual(['0', '0.5', '1', '2.5', '123.4567', '5,000']);
    const option = barOption([{ name: '项目A', value: 500_000 }], '价税合计') as { yAxis: { axisLabel: { formatter: (v: number) => string } }; tooltip: { valueFormatter: (v: number) => string } };
    expect(option.yAxis.axisLabel.formatter(5000)).toBe('0.5');
    expect(option.yAxis.axisLabel.formatter(20000)).toBe('2');
    expect(option.tooltip.valueFormatter(12345.6)).toBe('12,345.60 元');
    expect(moneyAxis().name).toBe('万元');
    expect(tooltipYuan(0.1)).toBe('0.10 元');
  });
});
