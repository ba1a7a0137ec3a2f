/**
 * The filing calendar (申报日历, issue 29 item 9): the last day of each month on which the taxes
 * declared monthly or quarterly "within 15 days after the period" may be filed, and so the last day a
 * period's invoices may be ticked (勾选). A period 'YYYYMM' is filed in the month after it: 202505 in
 * June 2025, 202512 in January 2026; a year's calendar lists the deadlines of the twelve filing months.
 *
 * One function answers every deadline, on the server (the tax simulator, the seed, the Nuonuo client's
 * fallback) and in the web client: `filingDeadline(period, entered)`, in this order —
 * 1. published: the year's notice of the State Taxation Administration (国家税务总局办公厅关于明确{year}年度
 *    申报纳税期限的通知), shipped below, exactly its twelve dates;
 * 2. entered: the year's twelve dates an administrator entered in 系统管理 / 申报日历 (a year with no notice
 *    shipped yet, e.g. the next year's once its notice is out), without a release;
 * 3. computed: the statutory rule of 税收征收管理法实施细则 第一百零九条 over the State Council's holiday
 *    arrangement of the year when it is shipped below (weekends only when it is not, and then said so).
 * Sources: docs/income.md "The filing calendar".
 */
import { isCalendarDay } from './api/common.js';

export type FilingDeadlineSource = 'published' | 'entered' | 'computed';

export const FILING_SOURCE_LABELS: Record<FilingDeadlineSource, string> = { published: '税务总局公布', entered: '管理员录入', computed: '按规则推算' };

export interface PublishedFilingCalendar {
  year: number;
  /** 文号; empty when the copies found do not print it (then `title` and `source` say which text). */
  docNo: string;
  title: string;
  /** A public copy of the text the dates were taken from. */
  source: string;
  /** The deadlines of January … December of `year`, 'YYYY-MM-DD'. */
  days: readonly string[];
}

const days = (year: number, ds: readonly number[]) => ds.map((d, i) => `${year}-${String(i + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

/** The published calendars, exactly as the notices give them (one table per year). */
export const PUBLISHED_FILING_CALENDARS: Readonly<Record<number, PublishedFilingCalendar>> = {
  2022: {
    year: 2022,
    docNo: '税总办征科函〔2021〕201号',
    title: '国家税务总局办公厅关于明确2022年度申报纳税期限的通知',
    source: 'http://www.yuxi.gov.cn/yxszfxxgk/tzgg5325/20211215/1313722.html',
    days: days(2022, [19, 23, 15, 20, 19, 20, 15, 15, 20, 25, 15, 15]),
  },
  2023: {
    year: 2023,
    docNo: '税总办征科函〔2022〕245号',
    title: '国家税务总局办公厅关于明确2023年度申报纳税期限的通知',
    source: 'http://www.acfic.org.cn/zcsd/fgzc/bw/202212/t20221230_186518.html',
    days: days(2023, [16, 15, 15, 17, 18, 15, 17, 15, 15, 23, 15, 15]),
  },
  2024: {
    year: 2024,
    docNo: '',
    title: '国家税务总局办公厅关于明确2024年度申报纳税期限的通知',
    source: 'http://crsrw.com/dianzishuiwu/1586.html',
    days: days(2024, [15, 23, 15, 18, 22, 19, 15, 15, 18, 24, 15, 16]),
  },
  2025: {
    year: 2025,
    docNo: '税总办征科函〔2024〕71号',
    title: '国家税务总局办公厅关于明确2025年度申报纳税期限的通知（国家税务总局广东省税务局2025年征期日历转发）',
    source: 'http://cjtax.cn/a/202501/15wujby1fnit4.shtml',
    days: days(2025, [15, 20, 17, 18, 22, 16, 15, 15, 15, 27, 17, 15]),
  },
  2026: {
    year: 2026,
    docNo: '税总办征科函〔2025〕64号',
    title: '国家税务总局办公厅关于明确2026年度申报纳税期限的通知',
    source: 'http://www.fdctax.com/cms/sszsgl/54041.htm',
    days: days(2026, [20, 24, 16, 20, 22, 15, 15, 17, 15, 26, 16, 15]),
  },
};

export interface HolidayArrangement {
  year: number;
  docNo: string;
  title: string;
  source: string;
  /** Days off by the notice ('YYYY-MM-DD', from and to inclusive; a holiday joined to a weekend lists the holiday only). */
  holidays: ReadonlyArray<{ name: string; from: string; to: string }>;
  /** Weekend days worked in their place (调休上班). */
  workdays: readonly string[];
}

/** The State Council's holiday arrangements (国务院办公厅关于{year}年部分节假日安排的通知) the rule is computed over. */
export const HOLIDAY_ARRANGEMENTS: Readonly<Record<number, HolidayArrangement>> = {
  2022: {
    year: 2022,
    docNo: '国办发明电〔2021〕11号',
    title: '国务院办公厅关于2022年部分节假日安排的通知',
    source: 'http://www.gov.cn/zhengce/zhengceku/2021-10/25/content_5644835.htm',
    holidays: [
      { name: '元旦', from: '2022-01-01', to: '2022-01-03' },
      { name: '春节', from: '2022-01-31', to: '2022-02-06' },
      { name: '清明节', from: '2022-04-03', to: '2022-04-05' },
      { name: '劳动节', from: '2022-04-30', to: '2022-05-04' },
      { name: '端午节', from: '2022-06-03', to: '2022-06-05' },
      { name: '中秋节', from: '2022-09-10', to: '2022-09-12' },
      { name: '国庆节', from: '2022-10-01', to: '2022-10-07' },
    ],
    workdays: ['2022-01-29', '2022-01-30', '2022-04-02', '2022-04-24', '2022-05-07', '2022-10-08', '2022-10-09'],
  },
  2023: {
    year: 2023,
    docNo: '国办发明电〔2022〕16号',
    title: '国务院办公厅关于2023年部分节假日安排的通知',
    source: 'http://www.gov.cn/zhengce/zhengceku/2022-12/08/content_5730844.htm',
    holidays: [
      { name: '元旦', from: '2022-12-31', to: '2023-01-02' },
      { name: '春节', from: '2023-01-21', to: '2023-01-27' },
      { name: '清明节', from: '2023-04-05', to: '2023-04-05' },
      { name: '劳动节', from: '2023-04-29', to: '2023-05-03' },
      { name: '端午节', from: '2023-06-22', to: '2023-06-24' },
      { name: '中秋节、国庆节', from: '2023-09-29', to: '2023-10-06' },
    ],
    workdays: ['2023-01-28', '2023-01-29', '2023-04-23', '2023-05-06', '2023-06-25', '2023-10-07', '2023-10-08'],
  },
  2024: {
    year: 2024,
    docNo: '国办发明电〔2023〕7号',
    title: '国务院办公厅关于2024年部分节假日安排的通知',
    source: 'https://www.gov.cn/zhengce/zhengceku/202310/content_6911528.htm',
    holidays: [
      { name: '元旦', from: '2024-01-01', to: '2024-01-01' },
      { name: '春节', from: '2024-02-10', to: '2024-02-17' },
      { name: '清明节', from: '2024-04-04', to: '2024-04-06' },
      { name: '劳动节', from: '2024-05-01', to: '2024-05-05' },
      { name: '端午节', from: '2024-06-10', to: '2024-06-10' },
      { name: '中秋节', from: '2024-09-15', to: '2024-09-17' },
      { name: '国庆节', from: '2024-10-01', to: '2024-10-07' },
    ],
    workdays: ['2024-02-04', '2024-02-18', '2024-04-07', '2024-04-28', '2024-05-11', '2024-09-14', '2024-09-29', '2024-10-12'],
  },
  2025: {
    year: 2025,
    docNo: '国办发明电〔2024〕12号',
    title: '国务院办公厅关于2025年部分节假日安排的通知',
    source: 'https://www.gov.cn/zhengce/zhengceku/202411/content_6986383.htm',
    holidays: [
      { name: '元旦', from: '2025-01-01', to: '2025-01-01' },
      { name: '春节', from: '2025-01-28', to: '2025-02-04' },
      { name: '清明节', from: '2025-04-04', to: '2025-04-06' },
      { name: '劳动节', from: '2025-05-01', to: '2025-05-05' },
      { name: '端午节', from: '2025-05-31', to: '2025-06-02' },
      { name: '国庆节、中秋节', from: '2025-10-01', to: '2025-10-08' },
    ],
    workdays: ['2025-01-26', '2025-02-08', '2025-04-27', '2025-09-28', '2025-10-11'],
  },
  2026: {
    year: 2026,
    docNo: '国办发明电〔2025〕7号',
    title: '国务院办公厅关于2026年部分节假日安排的通知',
    source: 'https://www.gov.cn/zhengce/zhengceku/202511/content_7047091.htm',
    holidays: [
      { name: '元旦', from: '2026-01-01', to: '2026-01-03' },
      { name: '春节', from: '2026-02-15', to: '2026-02-23' },
      { name: '清明节', from: '2026-04-04', to: '2026-04-06' },
      { name: '劳动节', from: '2026-05-01', to: '2026-05-05' },
      { name: '端午节', from: '2026-06-19', to: '2026-06-21' },
      { name: '中秋节', from: '2026-09-25', to: '2026-09-27' },
      { name: '国庆节', from: '2026-10-01', to: '2026-10-07' },
    ],
    workdays: ['2026-01-04', '2026-02-14', '2026-02-28', '2026-05-09', '2026-09-20', '2026-10-10'],
  },
};

const DAY_MS = 86_400_000;
const utc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const dayText = (t: number) => new Date(t).toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** Days off and days worked of the arrangements that touch `year` (a holiday of December may run into January). */
function calendarOf(year: number): { off: Set<string>; on: Set<string>; arrangement: HolidayArrangement | null } {
  const off = new Set<string>();
  const on = new Set<string>();
  for (const y of [year - 1, year, year + 1]) {
    const a = HOLIDAY_ARRANGEMENTS[y];
    if (!a) continue;
    for (const h of a.holidays) for (let t = utc(h.from); t <= utc(h.to); t += DAY_MS) off.add(dayText(t));
    for (const w of a.workdays) on.add(w);
  }
  return { off, on, arrangement: HOLIDAY_ARRANGEMENTS[year] ?? null };
}

/**
 * The deadline of filing month `month` (1-12) of `year` by the statutory rule (实施细则 第一百零九条): the
 * 15th; when the month's 1st-15th hold 3 or more consecutive rest days of a statutory holiday (the holiday
 * with the weekend it joins), the deadline moves on by that many working days; when the last day falls on
 * a rest day, it is the next working day. This reproduces every month of the published years 2022-2026
 * from their holiday arrangements (packages/shared/test/filing-calendar.test.ts).
 */
export function computedDeadline(year: number, month: number): string {
  const { off, on } = calendarOf(year);
  const rest = (t: number) => {
    const d = dayText(t);
    if (off.has(d)) return true;
    if (on.has(d)) return false;
    const dow = new Date(t).getUTCDay();
    return dow === 0 || dow === 6;
  };
  const first = Date.UTC(year, month - 1, 1);
  const fifteenth = Date.UTC(year, month - 1, 15);
  // Runs of rest days holding a holiday, counted within the 1st-15th.
  let extension = 0;
  let run = 0;
  let holds = false;
  const close = () => {
    if (holds && run >= 3) extension += run;
    run = 0;
    holds = false;
  };
  for (let t = first; t <= fifteenth; t += DAY_MS) {
    if (rest(t)) {
      run++;
      holds ||= off.has(dayText(t));
    } else close();
  }
  // A run still open on the 15th counts its days up to the 15th.
  close();
  let t = fifteenth;
  if (extension === 0) {
    while (rest(t)) t += DAY_MS;
    return dayText(t);
  }
  for (let left = extension; left > 0; ) {
    t += DAY_MS;
    if (!rest(t)) left--;
  }
  return dayText(t);
}

export interface FilingCalendarYear {
  year: number;
  source: FilingDeadlineSource;
  /** What the dates rest on: the notice (文号 or title), 管理员录入, or the rule and the holiday arrangement used. */
  basis: string;
  /** A public copy of the notice (published years). */
  url?: string;
  days: string[];
}

/** Years an administrator entered: year -> the 12 days. */
export type EnteredCalendars = ReadonlyMap<number, readonly string[]>;

/** A year's calendar: published > entered > computed. */
export function filingCalendarYear(year: number, entered?: EnteredCalendars): FilingCalendarYear {
  const p = PUBLISHED_FILING_CALENDARS[year];
  if (p) return { year, source: 'published', basis: p.docNo || p.title, url: p.source, days: [...p.days] };
  const e = entered?.get(year);
  if (e && e.length === 12) return { year, source: 'entered', basis: '管理员录入', days: [...e] };
  const a = HOLIDAY_ARRANGEMENTS[year];
  return {
    year,
    source: 'computed',
    basis: a ? `按实施细则第一百零九条推算（节假日安排：${a.docNo}）` : '按实施细则第一百零九条推算（该年节假日安排未收录，仅顺延周末）',
    days: Array.from({ length: 12 }, (_, i) => computedDeadline(year, i + 1)),
  };
}

export interface FilingDeadline {
  period: string;
  /** 'YYYY-MM-DD' Asia/Shanghai: the last day; the deadline is its end (23:59:59). */
  day: string;
  source: FilingDeadlineSource;
  basis: string;
}

/** The month after a period 'YYYYMM', as [year, month]. */
export function filingMonthOf(period: string): [number, number] {
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(4, 6));
  return m === 12 ? [y + 1, 1] : [y, m + 1];
}

/** The deadline of a period 'YYYYMM' (filed in the month after it). */
export function filingDeadline(period: string, entered?: EnteredCalendars): FilingDeadline {
  const [y, m] = filingMonthOf(period);
  const cal = filingCalendarYear(y, entered);
  return { period, day: cal.days[m - 1]!, source: cal.source, basis: cal.basis };
}

/** The end of a deadline day, 23:59:59 Asia/Shanghai, as ISO UTC. */
export const deadlineInstant = (day: string) => new Date(utc(day) + DAY_MS - 1000 - 8 * 3600_000).toISOString();

/** The twelve days of a year an administrator enters: null when right, else the first fault (one Chinese sentence). */
export function filingCalendarFault(year: number, list: readonly string[]): string | null {
  if (list.length !== 12) return '须填写1月至12月共12个申报期限';
  for (let i = 0; i < 12; i++) {
    const d = list[i]!;
    const month = `${year}-${pad(i + 1)}`;
    if (!isCalendarDay(d)) return `${i + 1}月的申报期限不是有效的日期`;
    if (d.slice(0, 7) !== month) return `${i + 1}月的申报期限须在${year}年${i + 1}月内`;
    if (Number(d.slice(8, 10)) < 15) return `${i + 1}月的申报期限不能早于${i + 1}月15日`;
  }
  return null;
}

/** Years the calendar page lists by default: the published ones and the year before and after `today`'s. */
export function filingCalendarYears(today: string, entered?: EnteredCalendars): number[] {
  const y = Number(today.slice(0, 4));
  const set = new Set<number>([...Object.keys(PUBLISHED_FILING_CALENDARS).map(Number), ...(entered ? [...entered.keys()] : []), y - 1, y, y + 1]);
  return [...set].sort((a, b) => b - a);
}
