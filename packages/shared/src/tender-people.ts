/**
 * 投标管理 — people and certificates (issue 17): education and title levels, the 18-digit ID card
 * number's checksum and its mask, a certificate's derived end day, the reminder marks due on a day, and
 * the renewal (延期) window of the kinds that have one (安全生产考核合格证书: the last 3 months).
 * The states themselves (expired red, within 90 days orange) are certState in ./tender-rules.ts.
 */
import { defineEnum } from './enum.js';
import { daysBetween } from './reimbursement-rules.js';
import { CERT_REMIND_DAYS, yearsBefore } from './tender-rules.js';

/** 学历 */
export const Education = defineEnum({
  none: [0, '未填写'],
  highSchool: [1, '高中/中专'],
  college: [2, '大专'],
  bachelor: [3, '本科'],
  master: [4, '硕士研究生'],
  doctor: [5, '博士研究生'],
});

/** 职称级别 */
export const TitleLevel = defineEnum({
  junior: [1, '初级'],
  middle: [2, '中级'],
  senior: [3, '高级'],
  full: [4, '正高级'],
});

/** 性别 */
export const Gender = defineEnum({
  unknown: [0, '未填写'],
  male: [1, '男'],
  female: [2, '女'],
});

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The check character of the first 17 digits of an ID card number (GB 11643). */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

/** Why an 18-digit ID card number is not valid (format, birth day, checksum), or null when it is. */
export function idCardProblem(v: string): string | null {
  if (!/^\d{17}[\dX]$/.test(v)) return '身份证号须为18位，最后一位可为数字或X';
  const y = Number(v.slice(6, 10));
  const m = Number(v.slice(10, 12));
  const d = Number(v.slice(12, 14));
  const t = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return '身份证号中的出生日期不正确';
  if (idCardCheckChar(v.slice(0, 17)) !== v[17]) return '身份证号校验位不正确';
  return null;
}

/** The birth day 'YYYY-MM-DD' an ID card number carries. */
export function idCardBirthDay(v: string): string {
  return `${v.slice(6, 10)}-${v.slice(10, 12)}-${v.slice(12, 14)}`;
}

/** Lists show 110101********1234: the region and the last four only. */
export function maskIdCard(v: string | null | undefined): string {
  if (!v) return '';
  if (v.length < 10) return '*'.repeat(v.length);
  return `${v.slice(0, 6)}${'*'.repeat(v.length - 10)}${v.slice(-4)}`;
}

/**
 * The derived end day of a certificate: its kind's default years after the start, the day before the
 * anniversary (2024-03-01 + 3 years → 2027-02-28). Null when the kind has no default (open-ended).
 */
export function defaultValidTo(validFrom: string, years: number | null | undefined): string | null {
  if (!years || years <= 0) return null;
  const anniversary = yearsBefore(validFrom, -years);
  const t = new Date(`${anniversary}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

/** Whole days from `today` to `validTo` (negative once past). */
export function daysLeft(validTo: string, today: string): number {
  return daysBetween(today, validTo);
}

/**
 * The reminder mark due for a certificate on `today`: the smallest mark M with daysLeft ≤ M (so a
 * job that missed a day still sends the current mark, and never an earlier, larger one after it).
 * Null when expired or further away than every mark.
 */
export function reminderMark(validTo: string | null, today: string, marks: readonly number[] = CERT_REMIND_DAYS): number | null {
  if (!validTo) return null;
  const left = daysLeft(validTo, today);
  if (left < 0) return null;
  const due = marks.filter((m) => left <= m);
  return due.length ? Math.min(...due) : null;
}

/** 'YYYY-MM-DD' n months after a day (n < 0: before), the day kept but clamped to the month's end (05-31 − 3 → 02-28). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const ty = Math.floor(index / 12);
  const tm = index - ty * 12 + 1;
  const last = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
  return `${String(ty).padStart(4, '0')}-${String(tm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * The first day of a certificate's renewal (延期) window: its end day less its kind's 延期办理期 in months,
 * month-end safe (2027-05-31 with 3 months → 2027-02-28). Null when open-ended or the kind has no window.
 */
export function renewalStart(validTo: string | null | undefined, renewMonths: number | null | undefined): string | null {
  if (!validTo || !renewMonths || renewMonths <= 0) return null;
  return addMonths(validTo, -renewMonths);
}

/** Whether `day` lies in the renewal window: from its start to the end day itself (an expired certificate is not renewed). */
export function inRenewalWindow(validTo: string | null | undefined, renewMonths: number | null | undefined, day: string): boolean {
  const from = renewalStart(validTo, renewMonths);
  return !!from && from <= day && day <= validTo!;
}

/**
 * The latest end day whose renewal window has begun by `day` (for a query: a certificate is in its window
 * on `day` exactly when day ≤ validTo ≤ this). renewalStart never decreases as the end day grows, so this
 * steps from the plain month addition over the days that the month-end clamp maps back onto `day` or before.
 */
export function renewalLastEnd(day: string, renewMonths: number): string {
  const next = (d: string) => {
    const t = new Date(`${d}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + 1);
    return t.toISOString().slice(0, 10);
  };
  let end = addMonths(day, renewMonths);
  while (addMonths(next(end), -renewMonths) <= day) end = next(end);
  return end;
}
