/**
 * Issue 14, 计算抵扣 (/invoice/calc-deduction/statistic, roles 1 and 13): the period's passenger transport
 * documents with the computed tax, totals by kind and month, the export, and transportDeductionTotal.
 * Known test tickets enter through the pool's arrival (as every arrival does) and are reimbursed through
 * the pool's usage lock or a signing against a reimbursement; the demo's periods are checked against an
 * independent reading of the pool (the lines, locks and signings) with the shared formulas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airTicketTax, IncomeSource, railTicketTax, roadTicketTax, TransportReason, type TransportRow } from '@zhyy/shared';
import { fillTransport } from '../src/db/migrations/0025_income_transport.js';
import { arrive, type ArrivingInvoice } from '../src/modules/income/intake/arrival.js';
import { lock } from '../src/modules/income/identity/locks.js';
import { transportDeductionTotal } from '../src/modules/income/transport/repo.js';
import { newId } from '../src/platform/ids.js';
import { nowIso } from '../src/platform/time.js';
import { startTestServer, type TestServer } from './helpers.js';
import { collectAndWait, creditCode, nextDigital, OUR, shanghaiDay } from './income-helpers.js';

let s: TestServer;
let tAdmin: string;
let t1: string;
let t13: string;
let t14: string;
let t16: string;

const SELLER = { name: '测试旅客运输有限公司', taxNo: creditCode('91320106MA1TR4NX0') };
/** The 15th of last month (Asia/Shanghai): the test tickets' issue day, and its period. */
const today = shanghaiDay(0);
const lastMonth = (() => {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
})();
const DAY = `${lastMonth}-15`;
const PERIOD = lastMonth.replace('-', '');

type Line = ArrivingInvoice['lines'][number];
const line = (name: string, gross: number, rate: string, tax: number): Line => ({ name, spec: '', unit: '张', quantity: '1', unitPrice: '', amount: gross - tax, taxRate: rate, tax });
const passenger = (name: string) => `乘车（机）人：${name}；出行日期：${DAY}`;

function ticket(kind: string, lines: Line[], remark: string, over: Partial<ArrivingInvoice> = {}): ArrivingInvoice {
  const tax = lines.reduce((a, l) => a + l.tax, 0);
  const excl = lines.reduce((a, l) => a + l.amount, 0);
  // Paper rail tickets and itineraries (no 20-digit number): the 数电 ones are ticked, not computed (issue 29; income-deduction-tickets.test.ts).
  const digital = kind === '82';
  return {
    kind, invoiceCode: '', invoiceNo: digital ? '' : `GLT${Date.now() % 1e6}${Math.floor(Math.random() * 1e6)}`, digitalNo: digital ? nextDigital() : '', checkCode: '',
    issueDate: DAY, sellerName: SELLER.name, sellerTaxNo: SELLER.taxNo, buyerName: OUR.name, buyerTaxNo: OUR.taxNo, amountExcl: excl, tax, amountIncl: excl + tax, remark, lines, ...over,
  };
}

/** The known tickets: [key, face, how it is used]. */
const air = (fareLine: string) => [line(fareLine, 100_000, '0.09', 8_257), line('*运输服务*燃油附加费', 5_000, '0.09', 413), line('民航发展基金', 5_000, '0', 0)];
const KNOWN: Array<[string, ArrivingInvoice, 'bx' | 'sign-bx' | 'sign-project' | 'none']> = [
  ['air', ticket('air', air('*运输服务*国内航空旅客运输服务'), passenger('测试旅客甲')), 'bx'],
  ['rail', ticket('rail', [line('*运输服务*铁路旅客运输', 10_900, '0.09', 900)], passenger('测试旅客乙')), 'bx'],
  ['road', ticket('road', [line('*运输服务*公路旅客运输', 10_300, '0.03', 300)], passenger('测试旅客丙')), 'bx'],
  ['einvoice', ticket('82', [line('*运输服务*客运服务费', 10_300, '0.03', 300)], ''), 'bx'],
  ['rail-signed', ticket('rail', [line('*运输服务*铁路旅客运输', 21_800, '0.09', 1_800)], passenger('测试旅客乙')), 'sign-bx'],
  ['rail-project', ticket('rail', [line('*运输服务*铁路旅客运输', 32_700, '0.09', 2_700)], passenger('测试旅客乙')), 'sign-project'],
  ['rail-unused', ticket('rail', [line('*运输服务*铁路旅客运输', 43_600, '0.09', 3_600)], passenger('测试旅客丁')), 'none'],
  ['road-noname', ticket('road', [line('*运输服务*公路旅客运输', 4_500, '0.03', 131)], ''), 'bx'],
  ['air-intl', ticket('air', air('*运输服务*国际航空旅客运输服务'), passenger('测试旅客甲')), 'bx'],
];
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  [tAdmin, t1, t13, t14, t16] = (await Promise.all(['admin', 'demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string, string];
  let k = 0;
  for (const [key, inv, use] of KNOWN) {
    await s.db.kysely.transaction().execute(async (trx) => {
      const a = await arrive(inv, IncomeSource.manual, trx);
      ids[key] = a.id;
      const docNo = `BX${PERIOD}-T${String(++k).padStart(3, '0')}`;
      if (use === 'bx') await lock(a.id, { kind: 'reimbursement', docNo }, trx);
      if (use === 'sign-bx' || use === 'sign-project') {
        await lock(a.id, { kind: 'sign', docNo }, trx);
        await trx.insertInto('income_signings').values({
          id: newId(), invoice_id: a.id, doc_type: use === 'sign-bx' ? 'reimbursement' : 'project', doc_no: docNo, note: '', state: 'signed', archive_no: `GDT${PERIOD}${k}`, voucher_id: '', fail_reason: '',
          user_id: null, user_name: '测试', created_at: nowIso(), finished_at: nowIso(),
        }).execute();
        await trx.updateTable('income_invoices').set({ sign_state: 1 }).where('id', '=', a.id).execute();
      }
    });
  }
});
afterAll(() => s?.close());

const list = (body: Record<string, unknown>, t = t13) => s.call('/api/income/transport/list', body, t);
const byId = (items: TransportRow[]) => Object.fromEntries(items.map((i) => [i.id, i]));

describe('the known tickets of the period', () => {
  it('computes each one: air (1,000.00 + 50.00) → 86.70, rail 109.00 → 9.00, road 103.00 → 3.00, e-invoice its tax 3.00', async () => {
    const a = await list({ period: PERIOD, sellerName: '测试旅客运输', pageSize: 100 });
    expect(a.code).toBe(20000);
    expect(a.r.total).toBe(KNOWN.length);
    const m = byId(a.r.items);
    expect(m[ids.air!]).toMatchObject({ transportKind: 'air', passengerName: '测试旅客甲', travelDate: DAY, fare: 100_000, fuel: 5_000, basis: 105_000, formulaTax: 8_670, tax: 8_670, deductible: true, reason: null, formula: '(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%', international: false, reimbursed: true });
    expect(m[ids.rail!]).toMatchObject({ transportKind: 'rail', basis: 10_900, tax: 900, deductible: true, formula: '票面金额 109.00 ÷ 1.09 × 9%' });
    expect(m[ids.road!]).toMatchObject({ transportKind: 'road', basis: 10_300, tax: 300, deductible: true, formula: '票面金额 103.00 ÷ 1.03 × 3%' });
    expect(m[ids.einvoice!]).toMatchObject({ transportKind: 'einvoice', kind: '82', passengerName: '', basis: 300, tax: 300, deductible: true, formula: '发票注明税额 3.00' });
    expect(m[ids['rail-signed']!]).toMatchObject({ tax: 1_800, deductible: true, reimbursed: true, useKind: 'sign' });
    expect(m[ids['rail-project']!]).toMatchObject({ formulaTax: 2_700, tax: 0, deductible: false, reason: 'notReimbursed' });
    expect(m[ids['rail-unused']!]).toMatchObject({ formulaTax: 3_600, tax: 0, deductible: false, reason: 'notReimbursed', reimbursed: false });
    expect(m[ids['road-noname']!]).toMatchObject({ formulaTax: 131, tax: 0, deductible: false, reason: 'noPassenger' });
    expect(m[ids['air-intl']!]).toMatchObject({ international: true, formulaTax: 8_670, tax: 0, deductible: false, reason: 'international' });
    expect(a.r.totals).toEqual({ count: 9, deductibleCount: 5, basis: 105_000 + 10_900 + 10_300 + 300 + 21_800, tax: 8_670 + 900 + 300 + 300 + 1_800 });
    const kinds = Object.fromEntries(a.r.byKind.map((k: { transportKind: string; count: number; tax: number }) => [k.transportKind, [k.count, k.tax]]));
    expect(kinds).toEqual({ air: [1, 8_670], rail: [2, 2_700], road: [1, 300], einvoice: [1, 300] });
  });

  it('filters: kind, passenger contains, deductible or not, the reason', async () => {
    const q = { period: PERIOD, sellerName: '测试旅客运输', pageSize: 100 };
    expect((await list({ ...q, transportKind: 'rail' })).r.total).toBe(4);
    expect((await list({ ...q, passengerName: '旅客甲' })).r.items.map((i: TransportRow) => i.id).sort()).toEqual([ids.air, ids['air-intl']].sort());
    expect((await list({ ...q, deductible: true })).r.total).toBe(5);
    const no = await list({ ...q, deductible: false });
    expect(no.r.total).toBe(4);
    expect(no.r.totals.tax).toBe(0);
    expect((await list({ ...q, reason: 'notReimbursed' })).r.items.map((i: TransportRow) => i.id).sort()).toEqual([ids['rail-project'], ids['rail-unused']].sort());
    expect((await list({ ...q, reason: 'noPassenger' })).r.items.map((i: TransportRow) => i.id)).toEqual([ids['road-noname']]);
    const sorted = await list({ ...q, sort: { field: 'tax', order: 'descend' } });
    expect(sorted.r.items[0].formulaTax).toBe(8_670);
  });

  it('another period does not hold them', async () => {
    const a = await list({ period: today.slice(0, 7).replace('-', ''), sellerName: '测试旅客运输' });
    expect(a.r.total).toBe(0);
    expect(a.r.totals).toEqual({ count: 0, deductibleCount: 0, basis: 0, tax: 0 });
  });
});

/** The pool read independently: each passenger document's deductible tax from its lines, locks and signings. */
async function expectedOf(period: string) {
  const db = s.db.kysely;
  const from = `${period.slice(0, 4)}-${period.slice(4)}-01`;
  const to = `${period.slice(0, 4)}-${period.slice(4)}-31`;
  const inv = await db.selectFrom('income_invoices').selectAll().where('issue_date', '>=', from).where('issue_date', '<=', to).where('kind', 'in', ['rail', 'air', 'road', '10', '82']).execute();
  const lines = await db.selectFrom('income_invoice_lines').select(['invoice_id', 'name', 'amount', 'tax']).where('invoice_id', 'in', inv.length ? inv.map((r) => r.id) : ['-']).execute();
  const signs = await db.selectFrom('income_signings').select(['invoice_id', 'doc_type', 'doc_no']).where('state', '=', 'signed').execute();
  const out = new Map<string, number>();
  for (const r of inv) {
    const ls = lines.filter((l) => l.invoice_id === r.id);
    // The 数电 rail and air tickets are ticked with their stated tax (公告2024年第8号, 第9号), not computed.
    if ((r.kind === 'rail' || r.kind === 'air') && r.digital_no) continue;
    const einvoice = r.kind === '10' || r.kind === '82';
    if (einvoice && !(ls.length && ls.every((l) => l.name.startsWith('*运输服务*') && /旅客运输|客运/.test(l.name)))) continue;
    const g = (l: { amount: number; tax: number }) => Number(l.amount) + Number(l.tax);
    const tax = r.kind === 'air'
      ? airTicketTax(ls.filter((l) => l.name.includes('航空旅客运输')).reduce((a, l) => a + g(l), 0), ls.filter((l) => l.name.includes('燃油')).reduce((a, l) => a + g(l), 0))
      : r.kind === 'rail' ? railTicketTax(Number(r.amount_incl)) : r.kind === 'road' ? roadTicketTax(Number(r.amount_incl)) : Number(r.tax);
    const named = einvoice || /乘车（机）人：\S/.test(r.remark);
    const intl = ls.some((l) => l.name.includes('国际'));
    const reimbursed = [1, 2].includes(r.usage) && (r.use_kind === 'reimbursement' || (r.use_kind === 'sign' && signs.some((x) => x.invoice_id === r.id && x.doc_type === 'reimbursement' && x.doc_no === r.doc_no)));
    out.set(r.id, r.invoice_state === 0 && r.risk_level !== '02' && named && !intl && reimbursed ? tax : 0);
  }
  return out;
}

describe('the demo periods', () => {
  const periods = [1, 2, 3].map((back) => {
    const d = new Date(Date.now() + 8 * 3600_000);
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - back);
    return d.toISOString().slice(0, 7).replace('-', '');
  });

  it.each(periods)('%s: every document and the totals agree with the pool read independently', async (period) => {
    const expected = await expectedOf(period);
    const a = await list({ period, pageSize: 500 });
    expect(a.code).toBe(20000);
    expect(a.r.total).toBe(expected.size);
    expect(a.r.total).toBeGreaterThan(5);
    for (const i of a.r.items as TransportRow[]) expect(i.tax, `${i.transportKind} ${i.digitalNo || i.invoiceNo}`).toBe(expected.get(i.id));
    const sum = [...expected.values()].reduce((x, y) => x + y, 0);
    expect(a.r.totals.tax).toBe(sum);
    expect(a.r.totals.deductibleCount).toBe([...expected.values()].filter((v) => v > 0).length);
    // Every kind appears in the demo: passengers named or not, reimbursed or not.
    expect(new Set(a.r.items.map((i: TransportRow) => i.transportKind))).toEqual(new Set(['air', 'rail', 'road', 'einvoice']));
    const t = await transportDeductionTotal(s.db.kysely, period);
    expect([t.count, t.basis, t.tax]).toEqual([a.r.totals.deductibleCount, a.r.totals.basis, a.r.totals.tax]);
  });

  it('has deductible and non-deductible tickets with each common reason', async () => {
    const reasons = new Set<string>();
    let deductible = 0;
    for (const period of periods) {
      const a = await list({ period, pageSize: 500 });
      for (const i of a.r.items as TransportRow[]) {
        if (i.reason) reasons.add(i.reason);
        else deductible += 1;
      }
    }
    expect(deductible).toBeGreaterThan(5);
    for (const r of ['noPassenger', 'notReimbursed']) expect(reasons).toContain(r);
  });

  it('summary: by month and kind over a range, the same figures as each period\'s list', async () => {
    const [p1, , p3] = periods;
    const a = await s.call('/api/income/transport/summary', { fromPeriod: p3, toPeriod: p1 }, t13);
    expect(a.code).toBe(20000);
    expect(a.r.months.map((m: { period: string }) => m.period)).toEqual([...periods].reverse());
    for (const m of a.r.months) {
      const l = await list({ period: m.period, pageSize: 1 });
      expect([m.count, m.basis, m.tax]).toEqual([l.r.totals.deductibleCount, l.r.totals.basis, l.r.totals.tax]);
      expect(m.byKind).toEqual(l.r.byKind);
    }
    expect(a.r.total.tax).toBe(a.r.months.reduce((x: number, m: { tax: number }) => x + m.tax, 0));
    expect(a.r.byKind.reduce((x: number, k: { tax: number }) => x + k.tax, 0)).toBe(a.r.total.tax);
  });
});

describe('collected tickets carry the passenger from the tax service', () => {
  it('rail and air tickets collected get the passenger and day of travel; an itinerary its fare and fuel surcharge', async () => {
    await collectAndWait(s, { from: shanghaiDay(-6), to: shanghaiDay(-5) }, t13);
    const rows = await s.db.kysely
      .selectFrom('income_transport as t')
      .innerJoin('income_invoices as p', 'p.id', 't.invoice_id')
      .select(['p.kind', 'p.source', 't.passenger_name', 't.travel_date', 't.fare', 't.fuel', 't.basis', 'p.amount_incl'])
      .where('p.source', '=', IncomeSource.collected)
      .where('p.kind', 'in', ['rail', 'air'])
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.passenger_name).not.toBe('');
      expect(r.travel_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (r.kind === 'air') {
        expect(Number(r.fare)).toBeGreaterThan(0);
        expect(Number(r.fuel)).toBeGreaterThan(0);
        // 民航发展基金 50.00 is not part of the basis.
        expect(Number(r.basis)).toBe(Number(r.amount_incl) - 5_000);
      }
    }
  });
});

describe('查验 refreshes a ticket\'s facts from the tax service', () => {
  it('a collected itinerary whose facts were lost gets them back, passenger and fare included', async () => {
    const db = s.db.kysely;
    const air = await db
      .selectFrom('income_transport as t')
      .innerJoin('income_invoices as p', 'p.id', 't.invoice_id')
      .select(['p.id', 't.passenger_name', 't.fare', 't.fuel', 't.basis', 't.formula_tax'])
      .where('p.source', '=', IncomeSource.collected)
      .where('p.kind', '=', 'air')
      .where('p.invoice_state', '=', 0)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('income_transport').where('invoice_id', '=', air.id).execute();
    const v = await s.call('/api/income/pool/verify', { ids: [air.id] }, t13);
    expect(v.code).toBe(20000);
    const back = await db.selectFrom('income_transport').select(['passenger_name', 'fare', 'fuel', 'basis', 'formula_tax']).where('invoice_id', '=', air.id).executeTakeFirstOrThrow();
    expect({ ...back, fare: Number(back.fare), fuel: Number(back.fuel), basis: Number(back.basis), formula_tax: Number(back.formula_tax) })
      .toEqual({ passenger_name: air.passenger_name, fare: Number(air.fare), fuel: Number(air.fuel), basis: Number(air.basis), formula_tax: Number(air.formula_tax) });
    expect(back.passenger_name).not.toBe('');
  });
});

describe('permissions (roles 1 and 13; 14 and 16 get 权限不足; signed out 50008)', () => {
  const ROUTES: Array<[string, Record<string, unknown>]> = [
    ['/api/income/transport/list', { period: PERIOD }],
    ['/api/income/transport/summary', { fromPeriod: PERIOD, toPeriod: PERIOD }],
    ['/api/income/transport/export', { period: PERIOD }],
  ];
  it.each(ROUTES)('%s', async (url, body) => {
    for (const t of [tAdmin, t1, t13]) {
      const a = await s.call(url, body, t);
      expect(a.status, `${url} admitted`).toBe(200);
    }
    for (const t of [t14, t16]) {
      const a = await s.call(url, body, t);
      expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
    }
    expect((await s.call(url, body)).code).toBe(50008);
  });
});

describe('validation in Chinese', () => {
  it.each([
    ['/api/income/transport/list', {}, '请选择所属期'],
    ['/api/income/transport/list', { period: '2026-11' }, '所属期格式应为YYYYMM'],
    ['/api/income/transport/list', { period: '202613' }, '所属期格式应为YYYYMM'],
    ['/api/income/transport/list', { period: PERIOD, transportKind: 'ship' }, '票据种类不正确'],
    ['/api/income/transport/list', { period: PERIOD, reason: 'x' }, '不可抵扣原因不正确'],
    ['/api/income/transport/list', { period: PERIOD, pageSize: 501 }, '每页最多500条'],
    ['/api/income/transport/summary', { fromPeriod: '202612', toPeriod: '202601' }, '开始所属期不能晚于结束所属期'],
    ['/api/income/transport/summary', { fromPeriod: '202301', toPeriod: '202601' }, '统计范围最多24个月'],
    ['/api/income/transport/summary', { toPeriod: '202601' }, '请选择所属期'],
    ['/api/income/transport/export', { period: 'abc' }, '所属期格式应为YYYYMM'],
  ])('%s %j → %s', async (url, body, message) => {
    const a = await s.call(url, body, t13);
    expect(a.status).toBe(400);
    expect(a.message).toContain(message);
  });
});

describe('export', () => {
  it('streams the filtered period as Excel with the basis, the formula and the tax in 元', async () => {
    const { res, ws } = await s.download('/api/income/transport/export', { period: PERIOD, sellerName: '测试旅客运输', sort: { field: 'tax', order: 'descend' } }, t13);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(ws!.rowCount).toBe(KNOWN.length + 1);
    const header = (ws!.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['票据种类', '发票种类', '发票代码', '发票号码', '开票日期', '销方名称', '旅客姓名', '出行日期', '国内/国际', '票面金额（元）', '票价（元）', '燃油附加费（元）', '计算依据', '计算税额（元）', '是否可抵扣', '不可抵扣原因', '可抵扣税额（元）', '报销单据']);
    const rows = Array.from({ length: KNOWN.length }, (_, i) => (ws!.getRow(i + 2).values as unknown[]).slice(1));
    const dom = rows.find((r) => r[0] === '航空运输电子客票行程单' && r[8] === '国内')!;
    expect(dom.slice(9, 17)).toEqual([1_100, 1_000, 50, '(票价+燃油附加费) 1050.00 ÷ 1.09 × 9%', 86.7, '是', undefined, 86.7].map((v) => v));
    const intl = rows.find((r) => r[8] === '国际')!;
    expect([intl[14], intl[15], intl[16]]).toEqual(['否', TransportReason.label('international'), 0]);
    const total = rows.reduce((a, r) => a + Math.round(Number(r[16]) * 100), 0);
    expect(total).toBe(8_670 + 900 + 300 + 300 + 1_800);
    const logs = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', '导出旅客运输计算抵扣%').execute();
    expect(logs.map((l) => l.description)).toContain(`导出旅客运输计算抵扣（所属期 ${PERIOD}）${KNOWN.length} 条`);
  });
});

describe('migration 0025 fills the pool already there', () => {
  it('the same facts as the arrivals and the seed recorded, for every passenger document', async () => {
    const db = s.db.kysely;
    const read = async () =>
      (await db.selectFrom('income_transport').selectAll().orderBy('invoice_id').execute()).map((r) => ({ ...r, international: Number(r.international), fare: Number(r.fare), fuel: Number(r.fuel), basis: Number(r.basis), formula_tax: Number(r.formula_tax) }));
    const before = await read();
    expect(before.length).toBeGreaterThan(100);
    await db.deleteFrom('income_transport').execute();
    expect(await fillTransport(db)).toBe(before.length);
    expect(await read()).toEqual(before);
    // Run again: nothing left to fill.
    expect(await fillTransport(db)).toBe(0);
  });
});
