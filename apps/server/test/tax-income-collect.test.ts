/**
 * Issue 13 (the gateway part): collection of incoming invoices from the simulated tax digital account —
 * deterministic per window, at most 366 days a call, paged, about 1,800 a month in the stated mix,
 * a small share turning void / red-reversed / 失控 / 异常凭证 later.
 */
import { taxNumberProblem } from '@zhyy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeMethods, TaxGatewayError, type IncomingInvoice } from '../src/integrations/tax/index.js';
import { forgetDrawnDays } from '../src/integrations/tax/simulator/income-invoices.js';
import type { TestServer } from './helpers.js';
import { TestClock, simulator, taxLogs, startGatewayTestServer } from './tax-helpers.js';
import { COMPANY, collectAll } from './tax-income-helpers.js';


let s: TestServer;
beforeAll(async () => {
  s = await startGatewayTestServer();
});
afterAll(async () => {
  await s.close();
});

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}


const gateway = (clock = new TestClock()) => simulator(s, clock, { company: COMPANY });

describe('collection window', () => {
  it('refuses more than 366 days in one call with a Chinese message, accepts 366', async () => {
    const gw = gateway();
    const err = await refusal(gw.collectIncoming({ from: '2025-01-01', to: '2026-01-02' }));
    expect(err.message).toBe('采集日期区间不能超过366天，请分段采集');
    expect(err.serviceCode).toBe('INVALID');
    const page = await gw.collectIncoming({ from: '2025-01-01', to: '2026-01-01', pageSize: 10 });
    expect(page.total).toBeGreaterThan(12 * 1500);
    expect(page.invoices).toHaveLength(10);
    expect((await refusal(gw.collectIncoming({ from: '2026-02-01', to: '2026-01-31' }))).message).toBe('采集开始日期不能晚于结束日期');
    expect((await refusal(gw.collectIncoming({ from: '2026-02-30', to: '2026-03-01' }))).message).toBe('采集开始日期格式不正确，应为YYYY-MM-DD');
  });

  it('refuses collection when the simulator has no company (the buyer) configured', async () => {
    const err = await refusal(simulator(s, new TestClock()).collectIncoming({ from: '2026-10-01', to: '2026-10-02' }));
    expect(err.message).toBe('模拟器未设置本公司名称和税号（开票设置中的销方信息），无法提供进项发票');
  });
});

describe('collection', () => {
  it('gives the same invoices for the same window every time, across gateways and a fresh draw', async () => {
    const a = await collectAll(gateway(), '2026-10-01', '2026-10-10');
    forgetDrawnDays();
    const b = await collectAll(gateway(), '2026-10-01', '2026-10-10', 137);
    expect(b).toEqual(a);
    const other = await collectAll(simulator(s, new TestClock(), { company: { name: '另一家公司', taxNumber: '91310000MA1FL4LQ2W' } }), '2026-10-01', '2026-10-10');
    expect(other.map((i) => i.key)).not.toEqual(a.map((i) => i.key));
  });

  it('pages with a cursor in issue order and refuses a cursor it did not give', async () => {
    const gw = gateway();
    const first = await gw.collectIncoming({ from: '2026-10-05', to: '2026-10-06', pageSize: 50 });
    expect(first.invoices).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    const all = await collectAll(gw, '2026-10-05', '2026-10-06', 50);
    expect(all.slice(0, 50)).toEqual(first.invoices);
    const times = all.map((i) => i.issuedAt);
    expect([...times].sort()).toEqual(times);
    expect(new Set(all.map((i) => i.key)).size).toBe(all.length);
    expect((await refusal(gw.collectIncoming({ from: '2026-10-05', to: '2026-10-06', cursor: 'abc' }))).message).toBe('翻页标记无效，请从第一页重新采集');
    expect((await refusal(gw.collectIncoming({ from: '2026-10-05', to: '2026-10-06', cursor: '2026-09-01#0' }))).message).toBe('翻页标记无效，请从第一页重新采集');
  });

  it('shows only what was issued by now: nothing from later today or from future days', async () => {
    const clock = new TestClock(Date.parse('2026-11-21T04:00:00Z')); // 12:00 Shanghai
    const gw = gateway(clock);
    const today = await collectAll(gw, '2026-11-21', '2026-11-30');
    expect(today.length).toBeGreaterThan(0);
    expect(today.every((i) => i.issuedAt <= '2026-11-21 12:00:00')).toBe(true);
    clock.advance(10 * 3600_000);
    const later = await collectAll(gw, '2026-11-21', '2026-11-30');
    expect(later.length).toBeGreaterThan(today.length);
    expect(later.slice(0, today.length)).toEqual(today);
  });

  it('writes one sync log row per page with the keys collected', async () => {
    const before = (await taxLogs(s)).length;
    await gateway().collectIncoming({ from: '2026-10-01', to: '2026-10-01', pageSize: 5 });
    const rows = (await taxLogs(s)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe(IncomeMethods.collect);
    expect(rows[0]!.memo).toMatch(/^采集 2026-10-01 至 2026-10-01 的进项发票：本页 5 张，共 \d+ 张，未完待续$/);
    expect(JSON.parse(rows[0]!.response!).keys).toHaveLength(5);
  });
});

describe('a month of the demo company (about 1,800 invoices)', () => {
  let month: IncomingInvoice[];
  beforeAll(async () => {
    month = await collectAll(gateway(new TestClock(Date.parse('2026-11-21T02:00:00Z'))), '2026-10-01', '2026-10-31');
  });

  const share = (f: (i: IncomingInvoice) => boolean) => month.filter(f).length / month.length;

  it('has about 1,800 invoices in the stated mix of kinds and rates', () => {
    expect(month.length).toBeGreaterThan(1600);
    expect(month.length).toBeLessThan(2000);
    const rated = (rate: string) => share((i) => i.lines.some((l) => l.taxRate === rate));
    expect(rated('0.13')).toBeGreaterThan(0.2); // materials
    expect(rated('0.09')).toBeGreaterThan(0.3); // subcontractors and rail / air
    expect(rated('0.06')).toBeGreaterThan(0.02); // design
    expect(rated('0.03')).toBeGreaterThan(0.15); // simplified and tolls
    expect(share((i) => i.kind === '51')).toBeGreaterThan(0.1); // rail
    expect(share((i) => i.kind === '61')).toBeGreaterThan(0.04); // air itineraries
    expect(share((i) => i.kind === '99')).toBeGreaterThan(0.02); // road / water
    expect(share((i) => i.kind === '14')).toBeGreaterThan(0.08); // tolls
    for (const kind of ['01', '04', '08', '10', '81', '82', '85', '86'] as const) expect(month.some((i) => i.kind === kind)).toBe(true);
    expect(share((i) => i.kind === '81')).toBeGreaterThan(0.3);
  });

  it('has exact money: amount + tax = total per line and in sum, in 分', () => {
    for (const i of month) {
      expect(i.amountExcludingTax + i.tax).toBe(i.total);
      expect(i.lines.reduce((t, l) => t + l.amountExcludingTax, 0)).toBe(i.amountExcludingTax);
      expect(i.lines.reduce((t, l) => t + l.tax, 0)).toBe(i.tax);
      for (const l of i.lines) {
        expect(Number.isSafeInteger(l.amountExcludingTax) && Number.isSafeInteger(l.tax)).toBe(true);
        if (l.quantity) expect(Math.abs(Number(l.quantity) * Number(l.unitPrice) * 100 - l.amountExcludingTax)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('has numbers, check codes and sellers as the service gives them', () => {
    for (const i of month) {
      expect(taxNumberProblem(i.seller.taxNumber)).toBeNull();
      expect(i.seller.taxNumber).toHaveLength(18);
      if (['81', '82', '85', '86', '51', '61'].includes(i.kind)) expect(i.allElectronicNo).toMatch(/^\d{20}$/);
      if (['81', '82', '51', '61'].includes(i.kind)) expect(i).toMatchObject({ invoiceCode: '', invoiceNo: i.allElectronicNo, key: i.allElectronicNo });
      if (i.kind === '01') expect(i.invoiceCode).toMatch(/^\d{10}$/);
      if (['04', '08', '10', '14', '85', '86', '99'].includes(i.kind)) expect(i.invoiceCode).toMatch(/^\d{12}$/);
      if (i.invoiceCode) expect(i.invoiceNo).toMatch(/^\d{8}$/);
      if (['04', '10', '14', '86'].includes(i.kind)) expect(i.checkCode).toMatch(/^\d{20}$/);
      else expect(i.checkCode).toBe('');
      if (['51', '61', '99'].includes(i.kind)) expect(i.passengerName).toBeTruthy();
      expect(i.issueDate >= '2026-10-01' && i.issueDate <= '2026-10-31').toBe(true);
    }
  });

  it('is addressed to the company, a few per cent with a wrong buyer name or tax number', () => {
    const wrong = share((i) => i.buyer.name !== COMPANY.name || i.buyer.taxNumber !== COMPANY.taxNumber);
    expect(wrong).toBeGreaterThan(0.01);
    expect(wrong).toBeLessThan(0.06);
  });
});

describe('abnormal invoices turn later', () => {
  it('void (2), red-reversed (3/7/8), 失控 (1) and 异常凭证 (02) appear after a delay, a small share', async () => {
    const early = await collectAll(gateway(new TestClock(Date.parse('2026-10-31T15:00:00Z'))), '2026-10-01', '2026-10-31');
    const late = await collectAll(gateway(new TestClock(Date.parse('2027-04-01T00:00:00Z'))), '2026-10-01', '2026-10-31');
    expect(late.map((i) => i.key)).toEqual(early.map((i) => i.key));
    const abnormal = (i: IncomingInvoice) => i.state !== 0 || i.riskLevel !== '01';
    const lateShare = late.filter(abnormal).length / late.length;
    expect(lateShare).toBeGreaterThan(0.02);
    expect(lateShare).toBeLessThan(0.09);
    expect(early.filter(abnormal).length).toBeLessThan(late.filter(abnormal).length);
    for (const state of [1, 2, 3, 7, 8] as const) expect(late.some((i) => i.state === state)).toBe(true);
    expect(late.some((i) => i.riskLevel === '02')).toBe(true);
    const turned = late.filter((i, n) => abnormal(i) && !abnormal(early[n]!));
    expect(turned.length).toBeGreaterThan(10);
    for (const i of late.filter(abnormal)) {
      expect(i.changedAt > i.issuedAt).toBe(true);
      if (i.state === 2) expect(['01', '04', '85', '86']).toContain(i.kind);
      if (i.state === 2) expect(i.changedAt.slice(0, 7)).toBe(i.issueDate.slice(0, 7));
      if (i.state === 7 || i.state === 8) expect(['81', '82', '85', '86']).toContain(i.kind);
    }
    for (const i of late.filter((x) => !abnormal(x))) expect(i.changedAt).toBe('');
  });
});
