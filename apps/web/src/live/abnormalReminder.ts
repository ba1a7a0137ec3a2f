/**
 * SPEC section 9: the abnormal-invoice reminder: only for role 13, at most once per calendar day per
 * login name, only when the count is above 0.
 */
import { ABNORMAL_INVOICE_ROLE, formatShanghai } from '@zhyy/shared';
import { readText, writeText } from '../utils/storage';

export const reminderKey = (loginName: string) => `zhyy-abnormal-invoice-reminded:${loginName}`;

/** The calendar day in Asia/Shanghai, YYYY-MM-DD (the company's day, whatever the browser's zone). */
export function calendarDay(now: Date): string {
  return formatShanghai(now, 'YYYY-MM-DD');
}

export function shouldRemind(roles: readonly string[], loginName: string, count: number, lastDay: string | null, now: Date): boolean {
  return roles.includes(ABNORMAL_INVOICE_ROLE) && !!loginName && count > 0 && lastDay !== calendarDay(now);
}

/** Marks today as reminded when the reminder is due, and says whether it was. */
export function takeReminder(roles: readonly string[], loginName: string, count: number, now = new Date()): boolean {
  if (!shouldRemind(roles, loginName, count, readText(reminderKey(loginName)), now)) return false;
  writeText(reminderKey(loginName), calendarDay(now));
  return true;
}
