/** Issue 12 item 6: the work calendar and the derived 请假天数. */
import { describe, expect, it } from 'vitest';
import { checkFormValues, endOfWorkdays, nextWorkday, routingValues, workdaysBetween, type FieldDef } from '../src/index.js';

const fields: FieldDef[] = [
  { key: 'days', label: '请假天数', type: 'number', required: true, min: 0.5, max: 180, workdaysOf: 'period', halfDays: true },
  { key: 'period', label: '请假时间', type: 'dateRange', required: true },
];

describe('workdaysBetween (weekends off, holidays not included)', () => {
  it('counts Monday to Friday, both ends included', () => {
    expect(workdaysBetween('2026-11-23', '2026-11-27')).toBe(5); // Mon-Fri
    expect(workdaysBetween('2026-11-27', '2026-11-30')).toBe(2); // Fri-Mon
    expect(workdaysBetween('2026-11-01', '2026-11-01')).toBe(0); // Sunday
    expect(workdaysBetween('2026-11-01', '2026-11-30')).toBe(21);
    expect(workdaysBetween('2026-10-01', '2026-10-07')).toBe(5); // 国庆 counted: holidays are not in the calendar
    expect(workdaysBetween('2026-11-30', '2026-11-23')).toBe(0);
    expect(workdaysBetween('2026-02-30', '2026-03-02')).toBe(0);
  });

  it('finds the next working day and where n working days end', () => {
    expect(nextWorkday('2026-11-28')).toBe('2026-11-30');
    expect(endOfWorkdays('2026-11-27', 2)).toBe('2026-11-30');
    expect(endOfWorkdays('2026-11-23', 0.5)).toBe('2026-11-23');
  });
});

describe('请假天数 derived from 请假时间', () => {
  it('rejects a contradiction with a message on the field', () => {
    const r = checkFormValues(fields, { days: 10, period: ['2026-11-02', '2026-11-02'] });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual({ days: '请假天数与请假时间不符：2026-11-02至2026-11-02共1个工作日（周末不计），请假天数应为1或0.5天' });
    expect(checkFormValues(fields, { days: 10, period: ['2026-11-01', '2026-11-01'] }).errors).toEqual({ period: '请假时间2026-11-01至2026-11-01内没有工作日（周末不计）' });
  });

  it('fills the value in when missing and allows half a day less at either end', () => {
    expect(checkFormValues(fields, { period: ['2026-11-23', '2026-11-27'] }).values).toEqual({ days: 5, period: ['2026-11-23', '2026-11-27'] });
    for (const days of [5, 4.5, 4]) expect(checkFormValues(fields, { days, period: ['2026-11-23', '2026-11-27'] }).ok).toBe(true);
    expect(checkFormValues(fields, { days: 3.5, period: ['2026-11-23', '2026-11-27'] }).ok).toBe(false);
  });

  it('routes by the derived value', () => {
    expect(routingValues(fields, { days: 10, period: ['2026-11-02', '2026-11-02'] }).days).toBe(1);
    expect(routingValues(fields, { days: 4.5, period: ['2026-11-23', '2026-11-27'] }).days).toBe(4.5);
  });
});
