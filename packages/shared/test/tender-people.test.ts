import { describe, expect, it } from 'vitest';
import { addMonths, certState, CertKindBody, defaultValidTo, inRenewalWindow, renewalLastEnd, renewalStart, idCardBirthDay, idCardCheckChar, idCardProblem, maskIdCard, reminderMark } from '../src/index.js';

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

describe('renewal (延期) window', () => {
  it('starts the kind\'s months before the end day, month-end safe', () => {
    expect(renewalStart('2027-05-31', 3)).toBe('2027-02-28');
    expect(renewalStart('2028-05-31', 3)).toBe('2028-02-29');
    expect(renewalStart('2027-02-28', 3)).toBe('2026-11-28');
    expect(renewalStart('2027-01-15', 24)).toBe('2025-01-15');
    expect(renewalStart('2027-03-31', 1)).toBe('2027-02-28');
    expect(renewalStart(null, 3)).toBeNull();
    expect(renewalStart('2027-05-31', null)).toBeNull();
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-01-31', -13)).toBe('2024-12-31');
  });
  it('a day lies in it from the start to the end day itself, not after', () => {
    expect(inRenewalWindow('2027-05-31', 3, '2027-02-27')).toBe(false);
    expect(inRenewalWindow('2027-05-31', 3, '2027-02-28')).toBe(true);
    expect(inRenewalWindow('2027-05-31', 3, '2027-05-31')).toBe(true);
    expect(inRenewalWindow('2027-05-31', 3, '2027-06-01')).toBe(false);
    expect(inRenewalWindow('2027-05-31', null, '2027-05-01')).toBe(false);
    expect(inRenewalWindow(null, 3, '2027-05-01')).toBe(false);
  });
  it('renewalLastEnd bounds exactly the end days in their window on a day (every day of 2026 to 2028, 1 to 24 months)', () => {
    const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    for (const months of [1, 2, 3, 6, 12, 24]) {
      for (const day of ['2026-11-28', '2026-11-30', '2026-02-28', '2027-01-31', '2027-12-31', '2027-08-29']) {
        const last = renewalLastEnd(day, months);
        expect(inRenewalWindow(last, months, day)).toBe(true);
        expect(inRenewalWindow(next(last), months, day)).toBe(false);
        // Every end day from the day to the bound is in the window.
        for (let end = day; end <= last; end = next(end)) expect([end, inRenewalWindow(end, months, day)]).toEqual([end, true]);
      }
    }
    // 2026-02-28 + 3 months: the ends up to 05-31 all start on 02-28 (the clamp).
    expect(renewalLastEnd('2026-02-28', 3)).toBe('2026-05-31');
    expect(renewalLastEnd('2026-11-28', 3)).toBe('2027-02-28');
  });
  it('the kind setting: 1 to 24 months or none, not beyond the default years', () => {
    const parse = (renewMonths: unknown, validYears: number | null = 3) => CertKindBody.safeParse({ name: '安全生产考核合格证书', validYears, renewMonths });
    expect(parse(3).data?.renewMonths).toBe(3);
    expect(parse(null).data?.renewMonths).toBeNull();
    expect(parse(undefined).data?.renewMonths).toBeNull();
    expect(parse(0).error?.issues[0]?.message).toBe('延期办理期至少1个月');
    expect(parse(25).error?.issues[0]?.message).toBe('延期办理期不能超过24个月');
    expect(parse(2.5).error?.issues[0]?.message).toBe('延期办理期须为整数');
    expect(parse(24, 1).error?.issues[0]?.message).toBe('延期办理期不能超过默认有效年限');
    expect(parse(24, null).data?.renewMonths).toBe(24);
  });
});
