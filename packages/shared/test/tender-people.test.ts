import { describe, expect, it } from 'vitest';
import { certState, defaultValidTo, idCardBirthDay, idCardCheckChar, idCardProblem, maskIdCard, reminderMark } from '../src/index.js';

describe('ID card numbers', () => {
  it('checks the check character (GB 11643), the birth day and the format', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardProblem('11010519491231002X')).toBeNull();
    expect(idCardProblem('110105194912310021')).toBe('身份证号校验位不正确');
    expect(idCardProblem('11010519490231002X')).toBe('身份证号中的出生日期不正确');
    expect(idCardProblem('11010519491231002')).toBe('身份证号须为18位，最后一位可为数字或X');
    expect(idCardBirthDay('11010519491231002X')).toBe('1949-12-31');
  });
  it('masks all but the region and the last four', () => {
    expect(maskIdCard('11010519491231002X')).toBe('110105********002X');
    expect(maskIdCard('')).toBe('');
  });
});

describe('derived end day', () => {
  it('is the day before the anniversary; none without default years', () => {
    expect(defaultValidTo('2024-03-01', 3)).toBe('2027-02-28');
    expect(defaultValidTo('2024-01-01', 5)).toBe('2028-12-31');
    expect(defaultValidTo('2024-02-29', 1)).toBe('2025-02-27');
    expect(defaultValidTo('2024-01-01', null)).toBeNull();
  });
});

describe('states and reminder marks on the boundary days', () => {
  it('expired the day after the end; expiring from 90 days before it', () => {
    expect(certState('2026-01-10', '2026-01-10')).toBe('expiring');
    expect(certState('2026-01-09', '2026-01-10')).toBe('expired');
    expect(certState('2026-04-10', '2026-01-10')).toBe('expiring');
    expect(certState('2026-04-11', '2026-01-10')).toBe('valid');
  });
  it('the smallest mark reached; none beyond 90 days or once expired', () => {
    expect(reminderMark('2026-04-11', '2026-01-10')).toBeNull();
    expect(reminderMark('2026-04-10', '2026-01-10')).toBe(90);
    expect(reminderMark('2026-03-11', '2026-01-10')).toBe(60);
    expect(reminderMark('2026-03-10', '2026-01-10')).toBe(60);
    expect(reminderMark('2026-01-17', '2026-01-10')).toBe(7);
    expect(reminderMark('2026-01-10', '2026-01-10')).toBe(7);
    expect(reminderMark('2026-01-09', '2026-01-10')).toBeNull();
    expect(reminderMark(null, '2026-01-10')).toBeNull();
  });
});
