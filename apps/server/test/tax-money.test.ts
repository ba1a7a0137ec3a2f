/** Money words and figures of the tax gateway: 分 ↔ 元, capitals (大写), decimal strings. */
import { describe, expect, it } from 'vitest';
import { capitalAmount } from '@zhyy/shared';
import { chineseCapital, fenToYuan, formatYuan, isDecimalString, lineAmount, plainDecimal, taxOf, yuanToFen } from '../src/integrations/tax/money.js';

describe('chineseCapital', () => {
  it('is the shared rule the pages show (one 大写 for page and PDF)', () => {
    for (const fen of [0, 5, 101, 1_234_567, 100_010_000, -1_090_000]) expect(chineseCapital(fen)).toBe(capitalAmount(fen));
  });

  it.each([
    [0, '零圆整'],
    [1, '壹分'],
    [10, '壹角整'],
    [100, '壹圆整'],
    [101, '壹圆零壹分'],
    [110, '壹圆壹角整'],
    [1_000, '壹拾圆整'],
    [1_234_567, '壹万贰仟叁佰肆拾伍圆陆角柒分'],
    [10_000_500, '壹拾万零伍圆整'],
    [100_010_000, '壹佰万零壹佰圆整'],
    [1_408_053, '壹万肆仟零捌拾圆伍角叁分'],
    [20_000_000_007, '贰亿圆零柒分'],
    [1_000_000_000_000, '壹佰亿圆整'],
    [-1_090_000, '（负数）壹万零玖佰圆整'],
  ])('%i 分 → %s', (fen, words) => {
    expect(chineseCapital(fen)).toBe(words);
  });

  it('refuses fractions of a 分', () => {
    expect(() => chineseCapital(1.5)).toThrow(RangeError);
  });
});

describe('figures and decimals', () => {
  it('converts 分 and 元 exactly', () => {
    expect(fenToYuan(1_300_050)).toBe('13000.50');
    expect(fenToYuan(-5)).toBe('-0.05');
    expect(yuanToFen('13000.50')).toBe(1_300_050);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('1.005')).toBe(101);
    expect(formatYuan(123_456_789)).toBe('1,234,567.89');
    expect(formatYuan(-100)).toBe('-1.00');
  });

  it('computes with decimals, not floats', () => {
    expect(lineAmount('3', '0.1')).toBe(30);
    expect(lineAmount('1.5', '3000.33333333')).toBe(450_050);
    expect(taxOf(1_000_000, '0.09')).toBe(90_000);
    expect(taxOf(300_050, '0.06')).toBe(18_003);
    expect(plainDecimal('1.50000000')).toBe('1.5');
    expect(plainDecimal('0.123456789')).toBe('0.12345679');
    expect(isDecimalString('12.12345678')).toBe(true);
    expect(isDecimalString('12.123456789')).toBe(false);
    expect(isDecimalString('1e3')).toBe(false);
  });
});
