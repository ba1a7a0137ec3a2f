import { describe, expect, it } from 'vitest';
import { CERT_REMIND_DAYS, CERT_WARN_DAYS, certProblemOn, certState, ContractType, missingPages, performanceProblems, requiredPages, yearsBefore } from '../src/index.js';

describe('contract pages (SPEC section 3)', () => {
  it('a frame contract needs its cover, period, amount and signature pages (2111–2114) and the acceptance certificate 2901', () => {
    expect(requiredPages(ContractType.frame)).toEqual([2111, 2112, 2113, 2114, 2901]);
    expect(requiredPages(ContractType.single)).toEqual([2211, 2212, 2213, 2214, 2901]);
    expect(requiredPages(ContractType.order)).toEqual([2310, 2901]);
  });

  it('lists what is missing in binding order; the cost composition table and approval bill are optional', () => {
    expect(missingPages(ContractType.single, [2901, 2211, 2215, 2900])).toEqual([2212, 2213, 2214]);
    expect(missingPages(ContractType.order, [2310, 2901])).toEqual([]);
  });
});

describe('performance record', () => {
  const rule = { onDay: '2026-11-23', years: 5, thresholdFen: 1_000_000_00 };
  const complete = { contractType: ContractType.order, pages: [2310, 2901], acceptedOn: '2022-01-10', amount: 2_000_000_00 };

  it('counts when complete, accepted within the window and at least the threshold', () => {
    expect(performanceProblems(complete, rule)).toEqual([]);
  });

  it('names each failed check in Chinese', () => {
    expect(performanceProblems({ ...complete, pages: [2310], acceptedOn: '2021-11-22', amount: 99_999_99 }, rule)).toEqual([
      '缺少验收证书',
      '竣工验收日期2021-11-22早于2021-11-23（近5年）',
      '合同金额低于1000000.00元',
    ]);
    expect(performanceProblems({ ...complete, acceptedOn: null }, rule)).toEqual(['未填写竣工验收日期']);
    expect(performanceProblems({ ...complete, acceptedOn: '2021-11-23' }, rule)).toEqual([]);
    expect(performanceProblems({ ...complete, acceptedOn: '2021-11-23' }, { ...rule, years: 3 })).toHaveLength(1);
  });

  it('a window from 29 February falls back to the 28th', () => {
    expect(yearsBefore('2028-02-29', 3)).toBe('2025-02-28');
    expect(yearsBefore('2026-11-23', 5)).toBe('2021-11-23');
  });
});

describe('certificates', () => {
  it(`expired in red, within ${CERT_WARN_DAYS} days orange, reminders at ${CERT_REMIND_DAYS.join(', ')} days`, () => {
    expect(CERT_WARN_DAYS).toBe(90);
    expect([...CERT_REMIND_DAYS]).toEqual([90, 60, 30, 7]);
    expect(certState('2026-11-22', '2026-11-23')).toBe('expired');
    expect(certState('2026-11-23', '2026-11-23')).toBe('expiring');
    expect(certState('2027-02-21', '2026-11-23')).toBe('expiring');
    expect(certState('2027-02-22', '2026-11-23')).toBe('valid');
    expect(certState(null, '2026-11-23')).toBe('permanent');
  });

  it('is checked on the tender deadline, not only today', () => {
    const c = { validFrom: '2024-01-01', validTo: '2026-12-31' };
    expect(certProblemOn(c, '2026-12-31')).toBeNull();
    expect(certProblemOn(c, '2027-01-05')).toBe('证书2026-12-31到期，投标截止日2027-01-05已失效');
    expect(certProblemOn(c, '2023-12-31')).toBe('证书2024-01-01起才生效，投标截止日2023-12-31尚未生效');
    expect(certProblemOn({ validFrom: null, validTo: null }, '2030-01-01')).toBeNull();
  });
});
