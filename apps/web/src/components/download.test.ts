import { describe, expect, it } from 'vitest';
import { formatTime, todayStamp } from './download';
import { withRange } from '../features/common/rangeFilters';
import dayjs from 'dayjs';

describe('times shown and sent by the list pages', () => {
  it('shows instants in Asia/Shanghai whatever the browser zone', () => {
    expect(formatTime('2026-11-21T16:30:05.000Z')).toBe('2026-11-22 00:30:05');
    expect(formatTime(null)).toBe('');
    expect(formatTime('not a time')).toBe('');
    expect(todayStamp(new Date('2026-11-21T16:30:00.000Z'))).toBe('20261122');
  });

  it('turns a date range into from (start of the first day) and to (start of the day after the last), days of Asia/Shanghai', () => {
    const r = withRange({ range: [dayjs('2026-11-01T10:00:00'), dayjs('2026-11-03T08:00:00')], user: 'x' });
    expect(r.user).toBe('x');
    // Shanghai midnight is 16:00 UTC the day before, whatever zone the browser (and this test) runs in.
    expect(r.from).toBe('2026-10-31T16:00:00.000Z');
    expect(r.to).toBe('2026-11-03T16:00:00.000Z');
    expect(withRange({})).toEqual({ from: undefined, to: undefined });
  });
});
