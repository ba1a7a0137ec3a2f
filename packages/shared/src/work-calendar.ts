/**
 * The work calendar of derived day counts (a leave request's 请假天数): Monday to Friday are working
 * days, Saturday and Sunday are not. Statutory holidays and the weekend days worked in their place
 * (调休) are NOT included: they change every year by State Council notice, so a leave over a holiday
 * counts the holiday's weekdays as working days. Both sides use this one function: the web shows
 * the count computed, the server recomputes it.
 */
import { isCalendarDay } from './api/common.js';

const DAY_MS = 86_400_000;
const utc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));

/** Working days from `from` to `to`, both included (0 when the range is empty or malformed). */
export function workdaysBetween(from: string, to: string): number {
  if (!isCalendarDay(from) || !isCalendarDay(to) || from > to) return 0;
  const a = utc(from);
  const b = utc(to);
  const days = Math.round((b - a) / DAY_MS) + 1;
  const weeks = Math.floor(days / 7);
  let count = weeks * 5;
  const startDow = new Date(a).getUTCDay();
  for (let i = 0; i < days % 7; i++) {
    const dow = (startDow + i) % 7;
    if (dow !== 0 && dow !== 6) count++;
  }
  return count;
}

const dayText = (t: number) => new Date(t).toISOString().slice(0, 10);
const isWorkday = (t: number) => { const dow = new Date(t).getUTCDay(); return dow !== 0 && dow !== 6; };

/** The first working day on or after `day`. */
export function nextWorkday(day: string): string {
  let t = utc(day);
  while (!isWorkday(t)) t += DAY_MS;
  return dayText(t);
}

/** The day on which `count` working days starting at `from` (a working day) end. */
export function endOfWorkdays(from: string, count: number): string {
  let t = utc(nextWorkday(from));
  for (let left = Math.max(1, Math.ceil(count)) - 1; left > 0; ) {
    t += DAY_MS;
    if (isWorkday(t)) left--;
  }
  return dayText(t);
}

/** A derived day count: the working days of a date range, less at most half a day at either end. */
export interface WorkdaysDerivation {
  workdays: number;
  /** The values the count may take: workdays, workdays - 0.5, workdays - 1 (half days), at least 0.5. */
  allowed: number[];
}

export function workdaysDerivation(range: unknown, halfDays: boolean): WorkdaysDerivation | null {
  if (!Array.isArray(range) || range.length !== 2 || typeof range[0] !== 'string' || typeof range[1] !== 'string') return null;
  const workdays = workdaysBetween(range[0], range[1]);
  const allowed = (halfDays ? [workdays, workdays - 0.5, workdays - 1] : [workdays]).filter((d) => d >= 0.5);
  // One working day with a half day at each end would be nothing: at most half a day off it.
  return { workdays, allowed: range[0] === range[1] ? allowed.filter((d) => d >= workdays - 0.5) : allowed };
}
