/**
 * Issue 29 item 7: 民航发展基金 is not part of the base. 公告2019年第39号: 航空旅客运输进项税额 =
 * (票价 + 燃油附加费) ÷ (1 + 9%) × 9%. A paper itinerary of total 1,100.00 (fare 1,000 + fuel surcharge
 * 50 + 民航发展基金 50) has base 1,050.00 and tax 86.70 (not 1,100.00 and 90.83); with no lines the
 * base is fare plus fuel surcharge, read from the itinerary's fields (the entry form's fare,
 * fuelSurcharge, developmentFund), saved through /api/income/pool/save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airFareAndFuel, airTicketTax, itineraryProblem, periodOfDay, type TransportRow } from '@zhyy/shared';
import { refreshTransport, transportFacts } from '../src/modules/income/transport/facts.js';
import type { TestServer } from './helpers.js';
import { entry, shanghaiDay, startIncomeServer } from './income-helpers.js';

describe('the base of an air itinerary (shared airFareAndFuel, transport/facts.ts)', () => {
  it('total 1,100.00 = 1,000 + 50 + 民航发展基金 50 → base 1,050.00, tax 86.70 (the fund was counted: 1,100.00 → 90.83)', () => {
    expect(airFareAndFuel(110_000, [], { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_000 })).toEqual({ fare: 100_000, fuel: 5_000 });
    expect(airFareAndFuel(110_000, [], { fuelSurcharge: 5_000, developmentFund: 5_000 })).toEqual({ fare: 100_000, fuel: 5_000 });
    expect(airTicketTax(100_000, 5_000)).toBe(8_670);
    expect(airTicketTax(110_000, 0)).toBe(9_083);
    const f = transportFacts({ invoiceId: 'x', kind: 'air', amountIncl: 110_000, tax: 0, lines: [], itinerary: { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_000 } });
    expect(f).toMatchObject({ transport_kind: 'air', fare: 100_000, fuel: 5_000, basis: 105_000, formula_tax: 8_670 });
  });

  it('itemised lines win over printed figures; a fund line alone is taken out of the fare', () => {
    const gross = (name: string, g: number) => ({ name, gross: g });
    expect(airFareAndFuel(110_000, [gross('*运输服务*国内航空旅客运输服务', 100_000), gross('*运输服务*燃油附加费', 5_000), gross('民航发展基金', 5_000)], { fare: 1 })).toEqual({ fare: 100_000, fuel: 5_000 });
    expect(airFareAndFuel(110_000, [gross('*运输服务*燃油附加费', 5_000), gross('民航发展基金', 5_000)])).toEqual({ fare: 100_000, fuel: 5_000 });
    // Nothing printed, nothing itemised: the total less nothing (as before).
    expect(airFareAndFuel(110_000, [])).toEqual({ fare: 110_000, fuel: 0 });
  });

  it('the figures are refused on other kinds, and when they pass the total', () => {
    expect(itineraryProblem('air', 110_000, {})).toBeNull();
    expect(itineraryProblem('air', 110_000, { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_000 })).toBeNull();
    expect(itineraryProblem('rail', 5_600, { fare: 5_600 })).toBe('票价、燃油附加费、民航发展基金只适用于航空运输电子客票行程单');
    expect(itineraryProblem('air', 110_000, { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_001 })).toBe('票价、燃油附加费与民航发展基金之和不能超过价税合计');
  });
});

describe('saving a paper itinerary without lines (/api/income/pool/save)', () => {
  let s: TestServer;
  let t13: string;
  beforeAll(async () => {
    ({ s, t13 } = await startIncomeServer());
  });
  afterAll(() => s?.close());

  const day = shanghaiDay(-10);
  const itinerary = (no: string, over: Record<string, unknown> = {}) =>
    entry({ kind: 'air', digitalNo: '', invoiceNo: no, issueDate: day, sellerName: '测试航空股份有限公司', amountExcl: 110_000, tax: 0, amountIncl: 110_000, lines: [], remark: `乘车（机）人：测试旅客戊；出行日期：${day}`, ...over });

  it('base 1,050.00 and 86.70 from the printed fare, fuel surcharge and 民航发展基金', async () => {
    const a = await s.call('/api/income/pool/save', itinerary('7841234567', { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 5_000 }), t13);
    expect(a.code).toBe(20000);
    const l = await s.call('/api/income/transport/list', { period: periodOfDay(day), sellerName: '测试航空', pageSize: 100 }, t13);
    const row = (l.r.items as TransportRow[]).find((i) => i.id === a.r.id);
    expect(row).toMatchObject({ transportKind: 'air', amountIncl: 110_000, fare: 100_000, fuel: 5_000, basis: 105_000, formulaTax: 8_670, formula: '(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%' });

    // Worked out again without lines (as 查验 does when the tax service gives none): the fare and fuel stay.
    await s.db.kysely.transaction().execute((trx) => refreshTransport(trx, { invoiceId: a.r.id, kind: 'air', amountIncl: 110_000, tax: 0, lines: [] }));
    const again = await s.db.kysely.selectFrom('income_transport').select(['fare', 'fuel', 'basis', 'formula_tax']).where('invoice_id', '=', a.r.id).executeTakeFirstOrThrow();
    expect([again.fare, again.fuel, again.basis, again.formula_tax].map(Number)).toEqual([100_000, 5_000, 105_000, 8_670]);
  });

  it('refuses the figures on a rail ticket and figures above the total, in Chinese', async () => {
    const rail = await s.call('/api/income/pool/save', itinerary('7841234568', { kind: 'rail', fare: 100_000 }), t13);
    expect(rail).toMatchObject({ status: 400, code: 30000, message: '票价、燃油附加费、民航发展基金只适用于航空运输电子客票行程单' });
    const over = await s.call('/api/income/pool/save', itinerary('7841234569', { fare: 100_000, fuelSurcharge: 5_000, developmentFund: 6_000 }), t13);
    expect(over).toMatchObject({ status: 400, code: 30000, message: '票价、燃油附加费与民航发展基金之和不能超过价税合计' });
  });
});
