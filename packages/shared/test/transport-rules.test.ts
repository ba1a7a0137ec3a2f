import { describe, expect, it } from 'vitest';
import {
  airFareAndFuel, airTicketTax, eInvoiceTransportTax, periodDays, periodOfDay, periodsBetween, railTicketTax, roadTicketTax, ticketDeduction, transportBasis, transportKindOf, TransportSummaryQuery,
  TransportQuery, type PoolTicket,
} from '../src/index.js';

describe('passenger transport formulas (worked examples, 分)', () => {
  it('air: (fare 1,000.00 + fuel 50.00) ÷ 1.09 × 9 % = 86.70', () => {
    expect(airTicketTax(100_000, 5_000)).toBe(8_670);
  });
  it('air: 民航发展基金 is not part of the base — an itinerary of 1,100.00 (1,000 + 50 + fund 50) without lines → 1,050.00 → 86.70', () => {
    const { fare, fuel } = airFareAndFuel(110_000, [], { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_000 });
    expect([fare, fuel, transportBasis({ kind: 'air', face: 110_000, fare, fuel }), airTicketTax(fare, fuel)]).toEqual([100_000, 5_000, 105_000, 8_670]);
  });
  it('rail: 109.00 ÷ 1.09 × 9 % = 9.00; 553.00 → 45.66', () => {
    expect(railTicketTax(10_900)).toBe(900);
    // 553 / 1.09 × 0.09 = 45.6605… → 45.66
    expect(railTicketTax(55_300)).toBe(4_566);
  });
  it('road and water: 103.00 ÷ 1.03 × 3 % = 3.00; 45.00 → 1.31', () => {
    expect(roadTicketTax(10_300)).toBe(300);
    // 45 / 1.03 × 0.03 = 1.31067… → 1.31
    expect(roadTicketTax(4_500)).toBe(131);
  });
  it('rounds to the nearest 分 (with whole 分 a basis never lands on an exact half under 9/109 or 3/103)', () => {
    // 108.00 → 8.9174… → 8.92 (up); 100.00 → 8.2568… → 8.26 (up); 101.00 → 8.3394… → 8.34 (down)
    expect(railTicketTax(10_800)).toBe(892);
    expect(railTicketTax(10_000)).toBe(826);
    expect(railTicketTax(10_100)).toBe(834);
    // 1 分 of face: 0.0826 → 0; 7 分 → 0.578 → 1
    expect(railTicketTax(1)).toBe(0);
    expect(railTicketTax(7)).toBe(1);
  });
  it('electronic ordinary invoices: the printed tax', () => {
    expect(eInvoiceTransportTax(1_234)).toBe(1_234);
  });
  it('the basis per kind', () => {
    expect(transportBasis({ kind: 'air', face: 110_000, fare: 100_000, fuel: 5_000 })).toBe(105_000);
    expect(transportBasis({ kind: 'rail', face: 10_900 })).toBe(10_900);
    expect(transportBasis({ kind: 'road', face: 10_300 })).toBe(10_300);
    expect(transportBasis({ kind: 'einvoice', face: 10_300, printedTax: 300 })).toBe(300);
  });
});

describe('a pool ticket', () => {
  const base: PoolTicket = { kind: 'air', basis: 105_000, passengerName: '张伟', international: false, reimbursed: true, invoiceState: 0, riskLevel: '01' };
  it('deductible: its tax, basis and formula', () => {
    expect(ticketDeduction(base)).toEqual({ deductible: true, tax: 8_670, formulaTax: 8_670, basis: 105_000, formula: '(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%', reason: null });
  });
  it('not deductible, with the reason: no passenger, international, not reimbursed, dead, 异常凭证', () => {
    const no = (over: Partial<PoolTicket>) => ticketDeduction({ ...base, ...over });
    expect(no({ passengerName: ' ' })).toMatchObject({ deductible: false, tax: 0, formulaTax: 8_670, reason: 'noPassenger' });
    expect(no({ international: true }).reason).toBe('international');
    expect(no({ reimbursed: false }).reason).toBe('notReimbursed');
    expect(no({ invoiceState: 2 }).reason).toBe('notNormal');
    expect(no({ riskLevel: '02' }).reason).toBe('abnormalVoucher');
  });
  it('an e-invoice needs no passenger name: the printed tax', () => {
    expect(ticketDeduction({ ...base, kind: 'einvoice', basis: 300, passengerName: '' })).toMatchObject({ deductible: true, tax: 300, reason: null });
  });
  it('which pool invoices are passenger transport', () => {
    expect(transportKindOf('rail', [])).toBe('rail');
    expect(transportKindOf('air', [])).toBe('air');
    expect(transportKindOf('road', [])).toBe('road');
    expect(transportKindOf('82', ['*运输服务*客运服务费'])).toBe('einvoice');
    expect(transportKindOf('10', ['*运输服务*公路旅客运输'])).toBe('einvoice');
    expect(transportKindOf('82', ['*运输服务*货物运输服务'])).toBeNull();
    expect(transportKindOf('82', ['*住宿服务*住宿费'])).toBeNull();
    expect(transportKindOf('81', ['*运输服务*客运服务费'])).toBeNull();
    expect(transportKindOf('14', ['*经营租赁*通行费'])).toBeNull();
  });
});

describe('periods', () => {
  it('a day\'s month, a month\'s days, a range of months', () => {
    expect(periodOfDay('2026-11-23')).toBe('202611');
    expect(periodDays('202602')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodDays('202412')).toEqual({ from: '2024-12-01', to: '2024-12-31' });
    expect(periodsBetween('202511', '202602')).toEqual(['202511', '202512', '202601', '202602']);
  });
  it('validates in Chinese', () => {
    const m = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) => r.error?.issues.map((i) => i.message);
    expect(m(TransportQuery.safeParse({}))).toContain('请选择所属期');
    expect(m(TransportQuery.safeParse({ period: '2026-11' }))).toContain('所属期格式应为YYYYMM');
    expect(m(TransportQuery.safeParse({ period: '202611', transportKind: 'bus' }))).toContain('票据种类不正确');
    expect(m(TransportSummaryQuery.safeParse({ fromPeriod: '202612', toPeriod: '202601' }))).toContain('开始所属期不能晚于结束所属期');
    expect(m(TransportSummaryQuery.safeParse({ fromPeriod: '202401', toPeriod: '202601' }))).toContain('统计范围最多24个月');
    expect(TransportSummaryQuery.safeParse({ fromPeriod: '202512', toPeriod: '202611' }).success).toBe(true);
  });
});
