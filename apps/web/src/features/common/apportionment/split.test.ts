import { describe, expect, it } from 'vitest';
import { toItems } from './split';

describe('split editor arithmetic', () => {
  const inv = { amountIncl: 109_000, tax: 9_000 };

  it('a single row takes the whole invoice', () => {
    expect(toItems([{ targetId: 'a', yuan: '1090.00' }], inv)).toEqual([{ targetId: 'a', amountIncl: 109_000, tax: 9_000, amountExcl: 100_000 }]);
  });

  it('splits tax in proportion and gives the rounding to the last row, so every sum is exact', () => {
    const items = toItems([{ targetId: 'a', yuan: '333.33' }, { targetId: 'b', yuan: '333.33' }, { targetId: 'c', yuan: '423.34' }], inv);
    expect(items.map((x) => x.tax)).toEqual([2752, 2752, 3496]);
    expect(items.reduce((a, x) => a + x.tax, 0)).toBe(9_000);
    expect(items.reduce((a, x) => a + x.amountIncl, 0)).toBe(109_000);
    for (const x of items) expect(x.amountExcl + x.tax).toBe(x.amountIncl);
  });

  it('keeps a mismatch visible (the server refuses it) instead of hiding it in the last row', () => {
    const items = toItems([{ targetId: 'a', yuan: '500' }, { targetId: 'b', yuan: '500' }], inv);
    expect(items.reduce((a, x) => a + x.amountIncl, 0)).toBe(100_000);
    expect(items[1]!.tax).toBe(Math.round((9_000 * 50_000) / 109_000));
  });

  it('red invoices split negatively', () => {
    const items = toItems([{ targetId: 'a', yuan: '-545.00' }, { targetId: 'b', yuan: '-545.00' }], { amountIncl: -109_000, tax: -9_000 });
    expect(items).toEqual([
      { targetId: 'a', amountIncl: -54_500, tax: -4_500, amountExcl: -50_000 },
      { targetId: 'b', amountIncl: -54_500, tax: -4_500, amountExcl: -50_000 },
    ]);
  });
});
