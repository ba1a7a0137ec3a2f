/**
 * Issue 13 (the gateway part): 查验 through the simulator — 专票 by code, number, date and amount
 * excluding tax; 普票 by the last 6 digits of the check code; 数电 by number, date and total; from the
 * day after issue, for the last 5 years, at most 5 times per invoice per day; 查无此票 / 信息不一致.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeMethods, TaxGatewayError, type IncomingInvoice } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { COMPANY, collectAll } from './tax-income-helpers.js';
import { TestClock, simulator, taxLogs, startGatewayTestServer } from './tax-helpers.js';

let s: TestServer;
let october: IncomingInvoice[];
beforeAll(async () => {
  s = await startGatewayTestServer();
  october = await collectAll(gateway(), '2026-10-01', '2026-10-31');
});
afterAll(async () => {
  await s.close();
});

function gateway(clock = new TestClock()) {
  return simulator(s, clock, { company: COMPANY });
}

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

/** The n-th invoice of a kind (different tests take different ones: the daily count is per invoice). */
const nth = (kinds: string[], n: number) => october.filter((i) => kinds.includes(i.kind))[n]!;

describe('verification by each kind’s fields', () => {
  it('数电 by number, date and total: the face with its lines and state', async () => {
    const inv = nth(['81'], 0);
    const r = await gateway().verifyIncoming({ invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, total: inv.total });
    expect(r).toEqual({ outcome: 'match', invoice: inv, message: '查验成功，发票信息一致', checksToday: 1 });
    if (r.outcome === 'match') expect(r.invoice.lines.length).toBeGreaterThan(0);
  });

  it('专票 by code, number, date and amount excluding tax', async () => {
    for (const kind of ['01', '08', '85']) {
      const inv = nth([kind], 0);
      const r = await gateway().verifyIncoming({ invoiceCode: inv.invoiceCode, invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, amountExcludingTax: inv.amountExcludingTax });
      expect(r).toMatchObject({ outcome: 'match', invoice: { key: inv.key, kind, total: inv.total } });
    }
  });

  it('普票 by the last 6 digits of the check code', async () => {
    for (const kind of ['04', '10', '14', '86']) {
      const inv = nth([kind], 0);
      const r = await gateway().verifyIncoming({ invoiceCode: inv.invoiceCode, invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, checkCodeLast6: inv.checkCode.slice(-6) });
      expect(r).toMatchObject({ outcome: 'match', invoice: { key: inv.key, checkCode: inv.checkCode } });
    }
  });

  it('refuses a 专票 asked by check code, a 普票 asked by amount, and fields missing for the form', async () => {
    const special = nth(['01'], 1);
    expect((await refusal(gateway().verifyIncoming({ invoiceCode: special.invoiceCode, invoiceNo: special.invoiceNo, issueDate: special.issueDate, checkCodeLast6: '123456' }))).message).toBe('增值税专用发票请按不含税金额查验');
    const ordinary = nth(['04'], 1);
    expect((await refusal(gateway().verifyIncoming({ invoiceCode: ordinary.invoiceCode, invoiceNo: ordinary.invoiceNo, issueDate: ordinary.issueDate, amountExcludingTax: ordinary.amountExcludingTax }))).message).toBe('普通发票请按校验码后6位查验');
    expect((await refusal(gateway().verifyIncoming({ invoiceNo: nth(['81'], 1).invoiceNo, issueDate: '2026-10-01' }))).message).toBe('数电发票请按发票号码、开票日期和价税合计查验');
    expect((await refusal(gateway().verifyIncoming({ invoiceNo: '12345678', issueDate: '2026-10-01', amountExcludingTax: 1 }))).message).toBe('请填写10位或12位发票代码');
    expect((await refusal(gateway().verifyIncoming({ invoiceNo: '123', issueDate: '2026-10-01', total: 1 }))).message).toBe('发票号码须为8位或20位数字');
  });
});

describe('查无此票 and 信息不一致', () => {
  it('answers 信息不一致 naming the fields that differ', async () => {
    const digital = nth(['81'], 2);
    const r = await gateway().verifyIncoming({ invoiceNo: digital.invoiceNo, issueDate: digital.issueDate, total: digital.total + 1 });
    expect(r).toEqual({ outcome: 'mismatch', message: '信息不一致：价税合计与税务端不符', fields: ['total'], checksToday: 1 });
    const special = nth(['01'], 2);
    const wrongDay = special.issueDate === '2026-10-01' ? '2026-10-02' : '2026-10-01';
    const r2 = await gateway().verifyIncoming({ invoiceCode: special.invoiceCode, invoiceNo: special.invoiceNo, issueDate: wrongDay, amountExcludingTax: special.amountExcludingTax - 100 });
    expect(r2).toMatchObject({ outcome: 'mismatch', message: '信息不一致：开票日期、不含税金额与税务端不符', fields: ['issueDate', 'amountExcludingTax'] });
    const ordinary = nth(['10'], 2);
    const last6 = ordinary.checkCode.slice(-6) === '000000' ? '111111' : '000000';
    const r3 = await gateway().verifyIncoming({ invoiceCode: ordinary.invoiceCode, invoiceNo: ordinary.invoiceNo, issueDate: ordinary.issueDate, checkCodeLast6: last6 });
    expect(r3).toMatchObject({ outcome: 'mismatch', message: '信息不一致：校验码后6位与税务端不符', fields: ['checkCodeLast6'] });
  });

  it('answers 查无此票 for a number no supplier issued', async () => {
    const real = nth(['81'], 3);
    const fake = `${real.invoiceNo.slice(0, 12)}${real.invoiceNo.slice(12) === '00000000' ? '11111111' : '00000000'}`;
    expect(await gateway().verifyIncoming({ invoiceNo: fake, issueDate: real.issueDate, total: real.total })).toEqual({ outcome: 'notFound', message: '查无此票', checksToday: 1 });
    expect(await gateway().verifyIncoming({ invoiceCode: '011002611100', invoiceNo: '99999999', issueDate: '2026-10-08', checkCodeLast6: '123456' })).toMatchObject({ outcome: 'notFound', message: '查无此票' });
  });
});

describe('the service’s rules', () => {
  it('from the day after issue only', async () => {
    const clock = new TestClock(Date.parse('2026-11-21T10:00:00Z')); // 18:00 Shanghai
    const today = (await collectAll(gateway(clock), '2026-11-21', '2026-11-21')).find((i) => i.kind === '81')!;
    const q = { invoiceNo: today.invoiceNo, issueDate: today.issueDate, total: today.total };
    expect((await refusal(gateway(clock).verifyIncoming(q))).message).toBe('发票开具当日不能查验，请于开票次日起查验');
    clock.advance(6 * 3600_000); // 00:00 the next day in Shanghai
    expect(await gateway(clock).verifyIncoming(q)).toMatchObject({ outcome: 'match', invoice: { key: today.key } });
  });

  it('for the last 5 years', async () => {
    const clock = new TestClock(Date.parse('2026-11-21T02:00:00Z'));
    const old = (await collectAll(gateway(clock), '2021-11-21', '2021-11-21')).find((i) => i.kind === '81')!;
    expect(await gateway(clock).verifyIncoming({ invoiceNo: old.invoiceNo, issueDate: '2021-11-21', total: old.total })).toMatchObject({ outcome: 'match' });
    const err = await refusal(gateway(clock).verifyIncoming({ invoiceNo: old.invoiceNo, issueDate: '2021-11-20', total: old.total }));
    expect(err.message).toBe('只能查验最近5年内开具的发票');
  });

  it('at most 5 times per invoice per day: the 6th is refused with the reason, the next day counts anew', async () => {
    const clock = new TestClock();
    const inv = nth(['81'], 4);
    const q = { invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, total: inv.total };
    const answers = [];
    for (let n = 1; n <= 5; n++) answers.push(await gateway(clock).verifyIncoming(q));
    expect(answers.map((a) => a.checksToday)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(answers.map((a) => JSON.stringify({ ...a, checksToday: 0 }))).size).toBe(1); // the same answer every time
    const err = await refusal(gateway(clock).verifyIncoming(q));
    expect(err.serviceCode).toBe('002');
    expect(err.message).toBe('该发票今日查验次数已达上限（5次），请明日再查');
    // a mismatching query of the same invoice counts too
    expect((await refusal(gateway(clock).verifyIncoming({ ...q, total: q.total + 1 }))).serviceCode).toBe('002');
    clock.advance(24 * 3600_000);
    expect(await gateway(clock).verifyIncoming(q)).toMatchObject({ outcome: 'match', checksToday: 1 });
  });

  it('counts are kept by the simulated service in its tables: a new gateway (a restart) still refuses the 6th', async () => {
    const clock = new TestClock();
    const inv = nth(['82'], 0);
    const q = { invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, total: inv.total };
    for (let n = 1; n <= 5; n++) await simulator(s, clock, { company: COMPANY }).verifyIncoming(q);
    const row = await s.db.kysely.withTables<{ taxsim_income_checks: { invoice_key: string; check_day: string; count: number } }>().selectFrom('taxsim_income_checks').selectAll().where('invoice_key', '=', inv.key).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ check_day: '2026-11-21', count: 5 });
    expect((await refusal(simulator(s, clock, { company: COMPANY }).verifyIncoming(q))).message).toBe('该发票今日查验次数已达上限（5次），请明日再查');
  });

  it('shows the state the invoice has reached: an abnormal one answers its later state', async () => {
    const lateClock = new TestClock(Date.parse('2027-04-01T00:00:00Z'));
    const late = await collectAll(gateway(lateClock), '2026-10-01', '2026-10-31');
    const turned = late.find((i) => i.state !== 0 && i.allElectronicNo && ['81', '82'].includes(i.kind))!;
    const r = await gateway(lateClock).verifyIncoming({ invoiceNo: turned.invoiceNo, issueDate: turned.issueDate, total: turned.total });
    expect(r).toMatchObject({ outcome: 'match', invoice: { state: turned.state, changedAt: turned.changedAt } });
  });
});

describe('sync log', () => {
  it('writes one row per 查验 with the invoice key as its ref, and the refusal as a failure', async () => {
    const inv = nth(['01'], 5);
    const before = (await taxLogs(s)).length;
    await gateway().verifyIncoming({ invoiceCode: inv.invoiceCode, invoiceNo: inv.invoiceNo, issueDate: inv.issueDate, amountExcludingTax: inv.amountExcludingTax });
    const rows = (await taxLogs(s)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: IncomeMethods.verify, status: 0 });
    expect(rows[0]!.memo).toBe(`发票 ${inv.key}：查验一致（正常，正常，今日第1次查验）`);
    const refs = await s.db.kysely.selectFrom('sync_log_refs').select('ref').where('sync_log_id', '=', rows[0]!.id).execute();
    expect(refs.map((r) => r.ref)).toContain(inv.key);
  });
});
