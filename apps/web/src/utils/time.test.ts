/** Issue 12 #16: with the browser outside UTC+8 every shown time is still Asia/Shanghai wall time. */
process.env.TZ = 'America/New_York';

import { describe, expect, it } from 'vitest';
import { relativeTime } from '@zhyy/shared';
import { formatTime as invoiceTime, todayStamp } from '../components/download';
import { greeting } from '../features/dashboard/greeting';
import { formatTime as workflowTime } from '../features/common/workflowFormat';
import { calendarDay } from '../live/abnormalReminder';
import { shanghaiNow } from './time';

describe('one time base: Asia/Shanghai whatever the browser zone', () => {
  it('runs in another zone indeed', () => {
    expect(new Date('2026-11-22T12:00:00Z').getHours()).toBe(7);
  });

  it('workflow times and invoice times agree', () => {
    const at = '2026-11-22T11:30:05.000Z';
    expect(workflowTime(at)).toBe('2026-11-22 19:30');
    expect(invoiceTime(at)).toBe('2026-11-22 19:30:05');
    expect(invoiceTime(at).startsWith(workflowTime(at))).toBe(true);
  });

  it('the greeting at 20:00 in Shanghai (07:00 in New York) says 晚上好', () => {
    const evening = Date.parse('2026-11-22T12:00:00Z');
    expect(shanghaiNow(evening).hour()).toBe(20);
    expect(greeting(shanghaiNow(evening).hour())).toBe('晚上好');
    expect(shanghaiNow(evening).format('YYYY-MM-DD')).toBe('2026-11-22');
  });

  it('dates and older relative times follow Shanghai too', () => {
    const lateEvening = new Date('2026-11-22T17:00:00Z'); // 01:00 on the 23rd in Shanghai, noon on the 22nd in New York
    expect(calendarDay(lateEvening)).toBe('2026-11-23');
    expect(todayStamp(lateEvening)).toBe('20261123');
    expect(relativeTime('2026-11-20T11:30:00Z', Date.parse('2026-11-23T00:00:00Z'))).toBe('11月20日19时30分');
  });
});
