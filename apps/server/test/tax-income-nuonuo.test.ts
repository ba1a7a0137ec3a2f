/**
 * Issue 13 (the gateway part): the Nuonuo client's incoming-invoice calls against the local fake of
 * the open platform (which recomputes every signature and checks the token): request bodies,
 * paging, mapping of the answers to the gateway's types, 查无此票 / 信息不一致 / the 5-a-day refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IncomeMethods, TaxGatewayError, clearTokenCache, createTaxGateway, type TaxGateway } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo, type Json } from './tax-fake-nuonuo.js';
import { SELLER_TAX, TestClock, taxLogs, startGatewayTestServer } from './tax-helpers.js';

const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';

/** Three invoices as the fake's digital account holds them (Nuonuo's field names, 元 strings). */
const ITEMS = [
  {
    invoiceType: '81', invoiceCode: '', invoiceNo: '26112000000012345678', allElectronicInvoiceNumber: '26112000000012345678', invoiceDate: '2026-11-02 09:15:00',
    salerName: '北京宏达建筑劳务有限公司', salerTaxNum: '91110105MA0000001X', buyerName: '本公司', buyerTaxNum: SELLER_TAX,
    exTaxAmount: '10000.00', taxAmount: '900.00', totalAmount: '10900.00', checkCode: '', invoiceStatus: '0', riskLevel: '01', statusChangeTime: '',
    remark: '建筑服务发生地：北京市', invoiceItems: [{ goodsName: '*建筑服务*劳务分包', specType: '', unit: '项', num: '1', price: '10000', taxExcludedAmount: '10000.00', taxRate: '0.09', taxAmount: '900.00' }],
  },
  {
    invoiceType: '04', invoiceCode: '011002600104', invoiceNo: '30600051', allElectronicInvoiceNumber: '', invoiceDate: '2026-11-03 14:00:00',
    salerName: '廊坊瑞丰五金店', salerTaxNum: '92131002MA0000002Y', buyerName: '本公司', buyerTaxNum: SELLER_TAX,
    exTaxAmount: '100.00', taxAmount: '3.00', totalAmount: '103.00', checkCode: '12345678901234567890', invoiceStatus: '2', riskLevel: '01', statusChangeTime: '2026-11-10 10:00:00',
    remark: '', invoiceItems: [{ goodsName: '*五金*钢管扣件', specType: '48型', unit: '个', num: '20', price: '5', taxExcludedAmount: '100.00', taxRate: '0.03', taxAmount: '3.00' }],
  },
  {
    invoiceType: '51', invoiceCode: '', invoiceNo: '26112000000099990001', allElectronicInvoiceNumber: '26112000000099990001', invoiceDate: '2026-11-04 08:00:00',
    salerName: '中国铁路北京局集团有限公司', salerTaxNum: '91110000MA0000003Z', buyerName: '本公司', buyerTaxNum: SELLER_TAX,
    exTaxAmount: '509.17', taxAmount: '45.83', totalAmount: '555.00', checkCode: '', invoiceStatus: '0', riskLevel: '02', statusChangeTime: '2026-11-20 00:00:00',
    passengerName: '张伟', travelDate: '2026-11-05', remark: '', invoiceItems: [{ goodsName: '*运输服务*铁路旅客运输', specType: 'G1 北京南-上海虹桥', unit: '张', num: '', price: '', taxExcludedAmount: '509.17', taxRate: '0.09', taxAmount: '45.83' }],
  },
];

let verifyAnswer: Json = {};

/** Two customs notices as the fake's account holds them. */
const CUSTOMS = [
  { hgjkshm: '220120261000123456-L01', tfrq: '2026-11-02 00:00:00', hgjhjgDm: '2201', hgjhjgmc: '中华人民共和国南京海关', jkdwrnsrsbh: SELLER_TAX, jkdwrnsrmc: '本公司', wsjg: '100000.00', skje: '13000.00', zt: '0' },
  { hgjkshm: '220120261000123457-L01', tfrq: '2026-11-05', hgjhjgDm: '2201', hgjhjgmc: '中华人民共和国南京海关', jkdwrnsrsbh: SELLER_TAX, jkdwrnsrmc: '本公司', wsjg: '2000.50', skje: '260.07', zt: '2' },
];

function income(method: string, body: any): Json | undefined {
  if (method === IncomeMethods.collect) {
    const size = Number(body.pageSize);
    const page = Number(body.pageNo);
    return { code: 'E0000', describe: '查询成功', result: { total: ITEMS.length, list: ITEMS.slice((page - 1) * size, page * size) } };
  }
  if (method === IncomeMethods.verify) return verifyAnswer;
  // 海关缴款书采集 (issue 29): the tax platform's names (hgjkshm, tfrq, skje, jkdwrnsrsbh / jkdwrnsrmc, hgjhjgDm / hgjhjgmc), 元 strings.
  if (method === IncomeMethods.customsCollect) {
    const size = Number(body.pageSize);
    const page = Number(body.pageNo);
    return { code: 'E0000', describe: '查询成功', result: { total: CUSTOMS.length, list: CUSTOMS.slice((page - 1) * size, page * size) } };
  }
  // 海关缴款书勾选 (issue 29): one answer per notice by its 缴款书号码; the second is refused.
  if (method === IncomeMethods.customsTick || method === IncomeMethods.customsUntick) {
    return { code: 'E0000', describe: '成功', result: { list: body.list.map((i: { jkshm: string }, k: number) => ({ jkshm: i.jkshm, gxjg: k === 0 ? '1' : '0', msg: k === 0 ? '成功' : '海关缴款书信息不存在' })) } };
  }
  return undefined;
}

let s: TestServer;
let fake: FakeNuonuo;
beforeAll(async () => {
  s = await startGatewayTestServer();
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET, income);
});
afterAll(async () => {
  await fake.close();
  await s.close();
});
beforeEach(() => clearTokenCache());

function nuonuo(clock = new TestClock(Date.parse('2026-11-21T02:00:00Z')), http?: typeof fetch): TaxGateway {
  return createTaxGateway(
    { db: s.db, synclog: s.app.synclog, clock, ...(http ? { fetch: http } : {}) },
    { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } },
  );
}

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

const calls = (method: string) => fake.calls.filter((c) => c.method === method);

describe('collection', () => {
  it('sends signed, paged requests and maps the answer (元 → 分, lines, state, risk, passenger)', async () => {
    const gw = nuonuo();
    const before = calls(IncomeMethods.collect).length;
    const p1 = await gw.collectIncoming({ from: '2026-11-01', to: '2026-11-20', pageSize: 2 });
    expect(calls(IncomeMethods.collect).slice(before)[0]!.body).toEqual({ startDate: '2026-11-01', endDate: '2026-11-20', pageNo: '1', pageSize: '2' });
    expect(p1.total).toBe(3);
    expect(p1.nextCursor).toBe('2');
    expect(p1.invoices[0]).toEqual({
      key: '26112000000012345678', kind: '81', invoiceCode: '', invoiceNo: '26112000000012345678', allElectronicNo: '26112000000012345678',
      issueDate: '2026-11-02', issuedAt: '2026-11-02 09:15:00',
      seller: { name: '北京宏达建筑劳务有限公司', taxNumber: '91110105MA0000001X' }, buyer: { name: '本公司', taxNumber: SELLER_TAX },
      amountExcludingTax: 1_000_000, tax: 90_000, total: 1_090_000, checkCode: '', state: 0, riskLevel: '01', changedAt: '', remark: '建筑服务发生地：北京市',
      lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: '10000', amountExcludingTax: 1_000_000, taxRate: '0.09', tax: 90_000 }],
    });
    expect(p1.invoices[1]).toMatchObject({ key: '01100260010430600051', kind: '04', state: 2, changedAt: '2026-11-10 10:00:00', checkCode: '12345678901234567890', total: 10_300 });
    const p2 = await gw.collectIncoming({ from: '2026-11-01', to: '2026-11-20', pageSize: 2, cursor: p1.nextCursor! });
    expect(calls(IncomeMethods.collect).at(-1)!.body.pageNo).toBe('2');
    expect(p2.nextCursor).toBeUndefined();
    expect(p2.invoices[0]).toMatchObject({ kind: '51', riskLevel: '02', passengerName: '张伟', travelDate: '2026-11-05', amountExcludingTax: 50_917, tax: 4_583, total: 55_500 });
  });

  it('refuses a window longer than 366 days before anything is sent', async () => {
    const before = fake.calls.length;
    expect((await refusal(nuonuo().collectIncoming({ from: '2025-01-01', to: '2026-01-02' }))).message).toBe('采集日期区间不能超过366天，请分段采集');
    expect(fake.calls.length).toBe(before);
  });

  it('is refused by the service when the body was changed after signing', async () => {
    const tamper: typeof fetch = (input, init) => fetch(input, { ...init, body: typeof init?.body === 'string' ? init.body.replace('"pageNo":"1"', '"pageNo":"9"') : init?.body });
    const err = await refusal(nuonuo(undefined, tamper).collectIncoming({ from: '2026-11-01', to: '2026-11-20' }));
    expect(err.message).toBe('税务端拒绝：签名校验失败（E0101）');
  });
});

describe('verification', () => {
  it('sends optionField per form: 数电 the total, 专票 the amount excluding tax, 普票 the check code’s last 6', async () => {
    verifyAnswer = { code: 'E0000', describe: '查验成功', result: { checkResult: '001', checkMsg: '查验成功', checkCount: 1, invoice: ITEMS[0] } };
    const gw = nuonuo();
    const r = await gw.verifyIncoming({ invoiceNo: '26112000000012345678', issueDate: '2026-11-02', total: 1_090_000 });
    expect(calls(IncomeMethods.verify).at(-1)!.body).toEqual({ invoiceCode: '', invoiceNo: '26112000000012345678', invoiceDate: '2026-11-02', optionField: '10900.00' });
    expect(r).toMatchObject({ outcome: 'match', message: '查验成功，发票信息一致', checksToday: 1, invoice: { key: '26112000000012345678', total: 1_090_000, lines: [{ tax: 90_000 }] } });
    await gw.verifyIncoming({ invoiceCode: '1100261230', invoiceNo: '30600052', issueDate: '2026-11-02', amountExcludingTax: 1_234_567 });
    expect(calls(IncomeMethods.verify).at(-1)!.body.optionField).toBe('12345.67');
    await gw.verifyIncoming({ invoiceCode: '011002600104', invoiceNo: '30600051', issueDate: '2026-11-03', checkCodeLast6: '567890' });
    expect(calls(IncomeMethods.verify).at(-1)!.body).toEqual({ invoiceCode: '011002600104', invoiceNo: '30600051', invoiceDate: '2026-11-03', optionField: '567890' });
  });

  it('maps 009 to 查无此票 and 006 to 信息不一致 with the fields named', async () => {
    verifyAnswer = { code: 'E0000', describe: '查验完成', result: { checkResult: '009', checkMsg: '查无此票', checkCount: 2 } };
    expect(await nuonuo().verifyIncoming({ invoiceNo: '26112000000012345678', issueDate: '2026-11-02', total: 1 })).toEqual({ outcome: 'notFound', message: '查无此票', checksToday: 2 });
    verifyAnswer = { code: 'E0000', describe: '查验完成', result: { checkResult: '006', checkMsg: '不一致', checkCount: 3, inconsistentFields: ['invoiceDate', 'optionField'] } };
    expect(await nuonuo().verifyIncoming({ invoiceNo: '26112000000012345678', issueDate: '2026-11-03', total: 1 })).toEqual({
      outcome: 'mismatch', message: '信息不一致：开票日期、价税合计与税务端不符', fields: ['issueDate', 'total'], checksToday: 3,
    });
  });

  it('turns the service’s 002 into the 5-a-day refusal', async () => {
    verifyAnswer = { code: 'E0000', describe: '查验完成', result: { checkResult: '002', checkMsg: '超过该张发票当日查验次数(请于次日再次查验)!' } };
    const err = await refusal(nuonuo().verifyIncoming({ invoiceNo: '26112000000012345678', issueDate: '2026-11-02', total: 1_090_000 }));
    expect(err.serviceCode).toBe('002');
    expect(err.message).toBe('该发票今日查验次数已达上限（5次），请明日再查');
  });

  it('applies the day-after rule before sending, and logs the exchange with the invoice key as ref', async () => {
    const before = calls(IncomeMethods.verify).length;
    expect((await refusal(nuonuo().verifyIncoming({ invoiceNo: '26112000000012345678', issueDate: '2026-11-21', total: 1 }))).message).toBe('发票开具当日不能查验，请于开票次日起查验');
    expect(calls(IncomeMethods.verify).length).toBe(before);
    verifyAnswer = { code: 'E0000', describe: '查验成功', result: { checkResult: '001', checkCount: 1, invoice: ITEMS[1] } };
    const logsBefore = (await taxLogs(s)).length;
    await nuonuo().verifyIncoming({ invoiceCode: '011002600104', invoiceNo: '30600051', issueDate: '2026-11-03', checkCodeLast6: '567890' });
    const row = (await taxLogs(s)).slice(logsBefore).find((r) => r.type === IncomeMethods.verify)!;
    expect(row.status).toBe(0);
    const refs = await s.db.kysely.selectFrom('sync_log_refs').select('ref').where('sync_log_id', '=', row.id).execute();
    expect(refs.map((r) => r.ref)).toEqual(['01100260010430600051']);
  });
});

describe('customs notices (issue 29): their own call', () => {
  it('collects 海关缴款书 by their own call: tfrqq / tfrqz, paged; 元 to 分, the payer and the customs office mapped', async () => {
    const gw = nuonuo();
    const invoiceCalls = calls(IncomeMethods.collect).length;
    const first = await gw.collectCustoms({ from: '2026-11-01', to: '2026-11-20', pageSize: 1 });
    expect(calls(IncomeMethods.customsCollect).at(-1)!.body).toEqual({ tfrqq: '2026-11-01', tfrqz: '2026-11-20', pageNo: '1', pageSize: '1' });
    expect(first).toEqual({
      total: 2,
      nextCursor: '2',
      notices: [{ noticeNo: '220120261000123456-L01', fillDate: '2026-11-02', customsName: '中华人民共和国南京海关', customsCode: '2201', payer: { name: '本公司', taxNumber: SELLER_TAX }, dutiablePrice: 10_000_000, tax: 1_300_000, state: 0 }],
    });
    const second = await gw.collectCustoms({ from: '2026-11-01', to: '2026-11-20', pageSize: 1, cursor: first.nextCursor! });
    expect(second.nextCursor).toBeUndefined();
    expect(second.notices[0]).toMatchObject({ noticeNo: '220120261000123457-L01', dutiablePrice: 200_050, tax: 26_007, state: 2 });
    expect(calls(IncomeMethods.collect).length).toBe(invoiceCalls);
    // The window rule before anything is sent.
    const before = fake.calls.length;
    expect((await refusal(gw.collectCustoms({ from: '2025-01-01', to: '2026-11-20' }))).message).toBe('采集日期区间不能超过366天，请分段采集');
    expect(fake.calls.length).toBe(before);
  });

  it('sends 海关缴款书勾选 with jkshm, tfrq and yxse in 元, and reads each notice by its number; the invoices\' call is not used', async () => {
    const gw = nuonuo();
    const invoiceCalls = calls(IncomeMethods.tick).length;
    const out = await gw.tickCustoms({ period: '202611', usage: 1, items: [{ noticeNo: '530120261000123456-L01', fillDate: '2026-11-02', effectiveTax: 130_000 }, { noticeNo: '530120261000123457-L02', fillDate: '2026-11-03', effectiveTax: 5 }] });
    expect(out).toEqual([
      { key: '530120261000123456-L01', accepted: true, message: '成功' },
      { key: '530120261000123457-L02', accepted: false, message: '海关缴款书信息不存在' },
    ]);
    const sent = calls(IncomeMethods.customsTick).at(-1)!.body;
    expect(sent).toEqual({ skssq: '202611', gxlx: '1', list: [{ jkshm: '530120261000123456-L01', tfrq: '2026-11-02', yxse: '1300.00' }, { jkshm: '530120261000123457-L02', tfrq: '2026-11-03', yxse: '0.05' }] });
    expect(calls(IncomeMethods.tick).length).toBe(invoiceCalls);
    await gw.untickCustoms({ period: '202611', usage: 1, items: [{ noticeNo: '530120261000123456-L01', fillDate: '2026-11-02' }] });
    expect(calls(IncomeMethods.customsUntick).at(-1)!.body).toEqual({ skssq: '202611', gxlx: '6', list: [{ jkshm: '530120261000123456-L01', tfrq: '2026-11-02' }] });
    // Refused before anything is sent: a rebate use.
    const before = fake.calls.length;
    expect((await refusal(gw.tickCustoms({ period: '202611', usage: 2, items: [{ noticeNo: '530120261000123456-L01', fillDate: '2026-11-02', effectiveTax: 1 }] }))).message).toBe('海关缴款书只能勾选为抵扣或不抵扣');
    expect(fake.calls.length).toBe(before);
  });
});
