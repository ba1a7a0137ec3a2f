/**
 * The filing calendar (申报日历) as the server reads it: the shared rule (packages/shared filing-calendar.ts:
 * published > entered > computed) over the years an administrator entered (filing_calendars, migration
 * 0042; written by modules/system/filing-calendar.ts). The tax simulator takes every period's deadline
 * from here; the Nuonuo client takes the service's (gxjzrq) and this calendar only when the service
 * leaves it out.
 */
import type { Kysely } from 'kysely';
import { deadlineInstant, filingDeadline, filingMonthOf, type EnteredCalendars, type FilingDeadline } from '@zhyy/shared';
import '../../db/schema.js';
import type { Database } from '../../db/schema.js';

export interface FilingCalendarTable {
  year: number;
  /** JSON array of the 12 days 'YYYY-MM-DD' of January … December. */
  days: string;
  updated_by: string;
  updated_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    filing_calendars: FilingCalendarTable;
  }
}

const parseDays = (text: string): string[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.length === 12 && v.every((d) => typeof d === 'string') ? (v as string[]) : [];
  } catch {
    return [];
  }
};

/** The entered years among `years` (all of them when absent). */
export async function enteredCalendars(db: Kysely<Database>, years?: readonly number[]): Promise<Map<number, string[]>> {
  if (years && !years.length) return new Map();
  let q = db.selectFrom('filing_calendars').select(['year', 'days']);
  if (years) q = q.where('year', 'in', [...new Set(years)]);
  const rows = await q.execute();
  return new Map(rows.map((r) => [Number(r.year), parseDays(r.days)] as const).filter(([, d]) => d.length === 12));
}

/** The deadlines of `periods` ('YYYYMM'): the day, its source, and the instant (23:59:59 Asia/Shanghai, ISO UTC). */
export async function filingDeadlines(db: Kysely<Database>, periods: readonly string[]): Promise<Map<string, FilingDeadline & { deadline: string }>> {
  const entered: EnteredCalendars = await enteredCalendars(db, periods.map((p) => filingMonthOf(p)[0]));
  return new Map(periods.map((p) => {
    const d = filingDeadline(p, entered);
    return [p, { ...d, deadline: deadlineInstant(d.day) }] as const;
  }));
}
