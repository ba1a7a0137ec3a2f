/**
 * Money and decimals of the tax gateway: amounts are integer 分; quantities, prices and rates are
 * decimal strings computed with decimal.js (never floats).
 */
import { Decimal } from 'decimal.js';

/** 分 -> '1234.56' (元, two places, '-' for negatives): what Nuonuo's amount fields carry. */
export function fenToYuan(fen: number): string {
  return new Decimal(fen).div(100).toFixed(2);
}

/** '1234.56' (元) -> 123456 分, rounded half up at the 分. */
export function yuanToFen(yuan: string | number | null | undefined): number {
  if (yuan === null || yuan === undefined || yuan === '') return 0;
  return new Decimal(yuan).mul(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** 分 -> '¥12,345.67' style figures without the sign: '12,345.67' (negatives '-12,345.67'). */
export function formatYuan(fen: number): string {
  const [int, dec] = new Decimal(Math.abs(fen)).div(100).toFixed(2).split('.') as [string, string];
  return `${fen < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** A decimal string in plain notation, at most 8 places, no trailing zeros ('3', '1.5', '0.13'). */
export function plainDecimal(value: Decimal.Value): string {
  const d = new Decimal(value).toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
  return d.toFixed().includes('.') ? d.toFixed().replace(/0+$/, '').replace(/\.$/, '') : d.toFixed();
}

/** Whether a string is a decimal with at most `places` decimals (sign allowed). */
export function isDecimalString(value: string, places = 8): boolean {
  return new RegExp(`^-?\\d{1,12}(\\.\\d{1,${places}})?$`).test(value);
}

/** The tax on an amount at a rate, in 分, rounded half up. */
export function taxOf(amountFen: number, rate: string): number {
  return new Decimal(amountFen).mul(rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** quantity × unit price in 分, rounded half up. */
export function lineAmount(quantity: string, unitPrice: string): number {
  return new Decimal(quantity).mul(unitPrice).mul(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const SMALL_UNITS = ['', '拾', '佰', '仟'];
const BIG_UNITS = ['', '万', '亿', '万亿'];

/** A 4-digit group in capitals ('0105' -> '零壹佰零伍'), without leading zeros of the whole number. */
function group(n: number): string {
  let out = '';
  let zero = false;
  for (let i = 3; i >= 0; i--) {
    const d = Math.floor(n / 10 ** i) % 10;
    if (d === 0) {
      zero = out !== '';
      continue;
    }
    if (zero) out += '零';
    zero = false;
    out += DIGITS[d]! + SMALL_UNITS[i]!;
  }
  return out;
}

/**
 * 分 -> the amount in Chinese capital numerals (大写), as printed on invoices:
 * 1234567 -> '壹万贰仟叁佰肆拾伍圆陆角柒分', 100 -> '壹圆整', 0 -> '零圆整',
 * negatives prefixed with '负'.
 */
export function chineseCapital(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError('amount must be an integer number of 分');
  const sign = fen < 0 ? '负' : '';
  const abs = Math.abs(fen);
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor(abs / 10) % 10;
  const cents = abs % 10;
  let int = '';
  if (yuan === 0) {
    int = abs === 0 ? '零' : '';
  } else {
    const groups: number[] = [];
    for (let rest = yuan; rest > 0; rest = Math.floor(rest / 10000)) groups.push(rest % 10000);
    let pendingZero = false;
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i]!;
      if (g === 0) {
        pendingZero = int !== '';
        continue;
      }
      if (int !== '' && (pendingZero || g < 1000)) int += '零';
      pendingZero = false;
      int += group(g) + BIG_UNITS[i]!;
    }
  }
  if (jiao === 0 && cents === 0) return `${sign}${int}圆整`;
  let frac = '';
  if (jiao > 0) frac += `${DIGITS[jiao]}角`;
  else if (yuan > 0) frac += '零';
  if (cents > 0) frac += `${DIGITS[cents]}分`;
  return `${sign}${int}${yuan > 0 ? '圆' : ''}${frac}`;
}
