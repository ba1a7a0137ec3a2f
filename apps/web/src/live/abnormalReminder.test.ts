import { beforeEach, describe, expect, it } from 'vitest';
import { abnormalInvoiceText } from '@zhyy/shared';
import { calendarDay, shouldRemind, takeReminder } from './abnormalReminder';

const day1 = new Date('2026-11-21T09:00:00+08:00');
const day1Late = new Date('2026-11-21T23:59:00+08:00');
const day2 = new Date('2026-11-22T00:01:00+08:00');

describe('abnormal-invoice reminder (SPEC section 9)', () => {
  beforeEach(() => localStorage.clear());

  it('text and rules', () => {
    expect(abnormalInvoiceText(3)).toBe('税务端进项票池存在3张未处理的异常发票');
    expect(shouldRemind(['13'], 'u', 1, null, day1)).toBe(true);
    expect(shouldRemind(['14'], 'u', 1, null, day1)).toBe(false);
    expect(shouldRemind(['13'], 'u', 0, null, day1)).toBe(false);
    expect(shouldRemind(['13'], 'u', 2, '2026-11-21', day1)).toBe(false);
  });

  it('at most once per calendar day per login name', () => {
    expect(takeReminder(['13'], 'demo13', 5, day1)).toBe(true);
    expect(takeReminder(['13'], 'demo13', 5, day1Late)).toBe(false);
    expect(takeReminder(['13', '14'], 'other', 5, day1Late)).toBe(true);
    expect(takeReminder(['13'], 'demo13', 5, day2)).toBe(true);
    expect(calendarDay(day2)).toBe('2026-11-22');
  });

  it('a zero count does not use up the day', () => {
    expect(takeReminder(['13'], 'demo13', 0, day1)).toBe(false);
    expect(takeReminder(['13'], 'demo13', 1, day1Late)).toBe(true);
  });
});
