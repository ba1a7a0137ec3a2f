/**
 * Money and decimals of the tax gateway: amounts are integer 分; quantities, prices and rates are
 * decimal strings computed with decimal.js (never floats).
 */
import { Decimal } from 'decimal.js';
import { capitalAmount } from '@zhyy/shared';

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

/**
 * 分 -> the amount in Chinese capital numerals (大写), as printed on invoices and shown on the pages:
 * the one shared rule (packages/shared capitalAmount, 圆 and （负数）), refusing fractions of a 分.
 */
export function chineseCapital(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError('amount must be an integer number of 分');
  return capitalAmount(fen);
}
