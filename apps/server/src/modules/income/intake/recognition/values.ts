/** Normalising what a reader found into the text forms of types.ts; null when it is not one. */
import { Decimal } from 'decimal.js';

/** '1,130.00', '¥1130', '1130.0', '-56.6' -> '1130.00' / '-56.60' (元, two decimals); null when not a sum of money. */
export function money(raw: string | undefined | null): string | null {
  if (raw === undefined || raw === null) return null;
  const s = raw.replace(/[¥￥,，\s]/g, '');
  if (!/^-?\d{1,13}(\.\d{1,8})?$/.test(s)) return null;
  return new Decimal(s).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/** A tax rate as a decimal: '0.13', '13%', '0.130' -> '0.13'; '免税' and '不征税' stay as printed. */
export function rate(raw: string | undefined | null): string {
  const s = (raw ?? '').trim();
  if (s === '') return '';
  const pct = /^(\d{1,2}(?:\.\d+)?)\s*%$/.exec(s);
  if (pct) return new Decimal(pct[1]!).div(100).toFixed();
  if (/^\d(\.\d+)?$/.test(s)) return new Decimal(s).toFixed();
  return s;
}

/** '2024-01-05 10:11:12', '2024-01-05', '20240105', '2024年1月5日' -> '2024-01-05'; null when not a real day. */
export function day(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const m = /^\s*(\d{4})\s*(?:[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?|(\d{2})(\d{2}))/.exec(raw);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2] ?? m[4]);
  const d = Number(m[3] ?? m[5]);
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1990 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A tax number upper-cased without spaces, or null unless it is 15 to 20 letters and digits (DOMAIN.md). */
export function taxNo(raw: string | undefined | null): string | null {
  const s = (raw ?? '').replace(/\s/g, '').toUpperCase();
  return /^[0-9A-Z]{15,20}$/.test(s) ? s : null;
}

/** Digits only, or null when the result is not `lengths` long. */
export function digits(raw: string | undefined | null, ...lengths: number[]): string | null {
  const s = (raw ?? '').replace(/\s/g, '');
  return /^\d+$/.test(s) && lengths.includes(s.length) ? s : null;
}

/** Trimmed text, or null when empty. */
export function plain(raw: string | undefined | null): string | null {
  const s = (raw ?? '').replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}
