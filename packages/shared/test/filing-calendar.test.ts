/**
 * Issue 29 item 9: the filing calendar (申报日历). The published notices' dates as shipped, the rule of
 * 实施细则 第一百零九条 reproducing every month of them from the State Council's holiday arrangements, the
 * order published > entered > computed, and the check of a year an administrator enters.
 */
import { describe, expect, it } from 'vitest';
import {
  HOLIDAY_ARRANGEMENTS, PUBLISHED_FILING_CALENDARS, computedDeadline, deadlineInstant, filingCalendarFault, filingCalendarYear, filingCalendarYears, filingDeadline,
} from '../src/index.js';

describe('the issue examples', () => {
  it('202505 → 2025-06-16 (the notice: 6月15日为星期日), not 2025-06-15', () => {
    expect(filingDeadline('202505')).toEqual({ period: '202505', day: '2025-06-16', source: 'published', basis: '税总办征科函〔2024〕71号' });
  });

  it('202510 → 2025-11-17 (11月15日为星期六), not 2025-11-15; 202509 → 2025-10-27, extended past the October holiday (10月1日至8日放假8天)', () => {
    expect(filingDeadline('202510').day).toBe('2025-11-17');
    expect(filingDeadline('202509').day).toBe('2025-10-27');
  });

  it('a December period is filed in January of the next year', () => {
    expect(filingDeadline('202512')).toMatchObject({ day: '2026-01-20', basis: '税总办征科函〔2025〕64号' });
    expect(filingDeadline('202601').day).toBe('2026-02-24');
  });

  it('the deadline is the end of the day in Asia/Shanghai', () => {
    expect(deadlineInstant('2025-06-16')).toBe('2025-06-16T15:59:59.000Z');
  });
});

describe('the published calendars', () => {
  it('ship twelve days per year, each in its month and not before the 15th', () => {
    for (const c of Object.values(PUBLISHED_FILING_CALENDARS)) {
      expect(c.days).toHaveLength(12);
      expect(filingCalendarFault(c.year, c.days)).toBeNull();
      expect(c.source).toMatch(/^https?:\/\//);
    }
    expect(Object.keys(PUBLISHED_FILING_CALENDARS)).toEqual(['2022', '2023', '2024', '2025', '2026']);
  });

  it('2026 as 税总办征科函〔2025〕64号 gives it', () => {
    expect(PUBLISHED_FILING_CALENDARS[2026]!.days).toEqual([
      '2026-01-20', '2026-02-24', '2026-03-16', '2026-04-20', '2026-05-22', '2026-06-15', '2026-07-15', '2026-08-17', '2026-09-15', '2026-10-26', '2026-11-16', '2026-12-15',
    ]);
  });

  it('the statutory rule over the holiday arrangements reproduces every published month (60 of 60)', () => {
    let n = 0;
    for (const c of Object.values(PUBLISHED_FILING_CALENDARS)) {
      expect(HOLIDAY_ARRANGEMENTS[c.year], `holidays of ${c.year}`).toBeDefined();
      for (let m = 1; m <= 12; m++) {
        expect(`${c.year}-${m}: ${computedDeadline(c.year, m)}`).toBe(`${c.year}-${m}: ${c.days[m - 1]}`);
        n++;
      }
    }
    expect(n).toBe(60);
  });
});

describe('published > entered > computed', () => {
  const entered2027 = ['2027-01-18', '2027-02-22', '2027-03-15', '2027-04-19', '2027-05-20', '2027-06-15', '2027-07-15', '2027-08-16', '2027-09-15', '2027-10-22', '2027-11-15', '2027-12-15'];

  it('a year with no notice and no entry is computed, and says that its holidays are not known', () => {
    const c = filingCalendarYear(2027);
    expect(c.source).toBe('computed');
    expect(c.basis).toBe('按实施细则第一百零九条推算（该年节假日安排未收录，仅顺延周末）');
    // 2027-05-15 is a Saturday, 2027-08-15 a Sunday: moved to Monday.
    expect(c.days[4]).toBe('2027-05-17');
    expect(c.days[7]).toBe('2027-08-16');
    expect(filingDeadline('202611')).toMatchObject({ day: '2026-12-15', source: 'published' });
  });

  it('an entered year wins over the computed one', () => {
    const entered = new Map([[2027, entered2027]]);
    expect(filingDeadline('202609', entered)).toMatchObject({ day: '2026-10-26', source: 'published' });
    expect(filingDeadline('202612', entered)).toEqual({ period: '202612', day: '2027-01-18', source: 'entered', basis: '管理员录入' });
    expect(filingDeadline('202612')).toMatchObject({ day: '2027-01-15', source: 'computed' });
  });

  it('a published year is not replaced by an entry', () => {
    const entered = new Map([[2025, entered2027.map((d) => d.replace('2027', '2025'))]]);
    expect(filingDeadline('202505', entered)).toMatchObject({ day: '2025-06-16', source: 'published' });
  });

  it('the years the page lists', () => {
    expect(filingCalendarYears('2026-11-28', new Map([[2030, entered2027]]))).toEqual([2030, 2027, 2026, 2025, 2024, 2023, 2022]);
  });
});

describe('a year an administrator enters', () => {
  const good = filingCalendarYear(2027).days;
  it('needs twelve days, each a real day of its month, none before the 15th', () => {
    expect(filingCalendarFault(2027, good)).toBeNull();
    expect(filingCalendarFault(2027, good.slice(0, 11))).toBe('须填写1月至12月共12个申报期限');
    expect(filingCalendarFault(2027, good.map((d, i) => (i === 1 ? '2027-02-30' : d)))).toBe('2月的申报期限不是有效的日期');
    expect(filingCalendarFault(2027, good.map((d, i) => (i === 9 ? '2027-11-01' : d)))).toBe('10月的申报期限须在2027年10月内');
    expect(filingCalendarFault(2027, good.map((d, i) => (i === 3 ? '2027-04-14' : d)))).toBe('4月的申报期限不能早于4月15日');
  });
});
