/**
 * Issue 32 item 2 (the gateway part): 发票状态查询 on both implementations. The Nuonuo client against the local fake
 * of the open platform: the request body, the answer mapped (fpzt / fxdj / ztbgsj), an invoice not named or answered
 * cxjg 0 not found, an unknown code refused as the service's failure; the batch rules of both; the simulator answering
 * the drawn and registered invoices with the control's changes over them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IncomeMethods, STATUS_BATCH_MAX, TaxGatewayError, clearTokenCache, createTaxGateway, registerKnownIncoming, setIncomingStatus, type TaxGateway } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo, type Json } from './tax-fake-nuonuo.js';
import { SELLER_TAX, TestClock, startGatewayTestServer } from './tax-helpers.js';
import { nextDigital } from './income-helpers.js';

const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';
let answer: Json = {};

let s: TestServer;
let fake: FakeNuonuo;
beforeAll(async () => {
  s = await startGatewayTestServer();
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET, (method) => (method === IncomeMethods.status ? answer : undefined));
});
afterAll(async () => {
  await fake.close();
  await s.close();
});
beforeEach(() => clearTokenCache());

const nuonuo = (): TaxGateway =>
  createTaxGateway(
    { db: s.db, synclog: s.app.synclog, clock: new TestClock(Date.parse('2026-11-21T02:00:00Z')) },
    { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } },
  );
const simulator = (): TaxGateway => createTaxGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', simulator: { delayMs: 0, company: { name: '华建工程技术服务有限公司', taxNumber: SELLER_TAX } } });
const DIGITAL = { invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02' };
const CODED = { invoiceCode: '011002600104', invoiceNo: '30600051', issueDate: '2026-11-03' };
const GONE = { invoiceCode: '', invoiceNo: '26112000000099990001', issueDate: '2026-11-04' };

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

describe('Nuonuo 发票状态查询', () => {
  it('sends the numbers and maps each answer; not named or cxjg 0 is not found', async () => {
    answer = { code: 'E0000', describe: '查询成功', result: { list: [
      { qdfphm: DIGITAL.invoiceNo, cxjg: '1', fpzt: '7', fxdj: '01', ztbgsj: '2026-11-20 10:00:00' },
      { fpdm: CODED.invoiceCode, fphm: CODED.invoiceNo, cxjg: '1', fpzt: '0', fxdj: '02', ztbgsj: '2026-11-19 09:00:00' },
      { qdfphm: '26112000000055550000', cxjg: '0' },
    ] } };
    const out = await nuonuo().queryIncomeStatus([DIGITAL, CODED, GONE, { ...GONE, invoiceNo: '26112000000055550000' }]);
    expect(fake.calls.filter((c) => c.method === IncomeMethods.status).at(-1)!.body).toEqual({ list: [
      { fpdm: '', fphm: '', qdfphm: DIGITAL.invoiceNo, kprq: '2026-11-02' },
      { fpdm: CODED.invoiceCode, fphm: CODED.invoiceNo, qdfphm: '', kprq: '2026-11-03' },
      { fpdm: '', fphm: '', qdfphm: GONE.invoiceNo, kprq: '2026-11-04' },
      { fpdm: '', fphm: '', qdfphm: '26112000000055550000', kprq: '2026-11-04' },
    ] });
    expect(out).toEqual([
      { key: DIGITAL.invoiceNo, found: true, state: 7, riskLevel: '01', changedAt: '2026-11-20 10:00:00' },
      { key: `${CODED.invoiceCode}${CODED.invoiceNo}`, found: true, state: 0, riskLevel: '02', changedAt: '2026-11-19 09:00:00' },
      { key: GONE.invoiceNo, found: false, state: 0, riskLevel: '01', changedAt: '' },
      { key: '26112000000055550000', found: false, state: 0, riskLevel: '01', changedAt: '' },
    ]);
  });

  it('an unknown state or grade is the service failing, never 正常; no list either', async () => {
    answer = { code: 'E0000', describe: '查询成功', result: { list: [{ qdfphm: DIGITAL.invoiceNo, cxjg: '1', fpzt: '9', fxdj: '01' }] } };
    expect((await refusal(nuonuo().queryIncomeStatus([DIGITAL]))).message).toBe(`税务端返回的发票状态无法识别（${DIGITAL.invoiceNo}：fpzt=9，fxdj=01）`);
    answer = { code: 'E0000', describe: '查询成功', result: {} };
    expect((await refusal(nuonuo().queryIncomeStatus([DIGITAL]))).message).toBe('税务端未返回逐张发票状态');
  });

  it('both implementations check the batch before asking', async () => {
    for (const gw of [nuonuo(), simulator()]) {
      expect((await refusal(gw.queryIncomeStatus([]))).message).toBe('请至少选择一张发票');
      expect((await refusal(gw.queryIncomeStatus([DIGITAL, DIGITAL]))).message).toBe(`同一批次中发票重复：${DIGITAL.invoiceNo}`);
      expect((await refusal(gw.queryIncomeStatus([{ ...CODED, invoiceCode: '123' }]))).message).toBe('发票号码不正确：12330600051');
      const many = Array.from({ length: STATUS_BATCH_MAX + 1 }, (_, i) => ({ invoiceCode: '', invoiceNo: `2611200000${String(i).padStart(10, '0')}`, issueDate: '2026-11-02' }));
      expect((await refusal(gw.queryIncomeStatus(many))).message).toBe(`一次最多查询${STATUS_BATCH_MAX}张发票的状态`);
    }
  });
});

describe('the simulator', () => {
  it('answers a registered invoice as registered, then with the control’s change; an unknown one not found; one log row per call', async () => {
    const deps = { db: s.db, synclog: s.app.synclog };
    const no = nextDigital();
    await registerKnownIncoming(deps, [{ key: no, kind: '81', issueDate: '2026-11-02', tax: 900 }]);
    const item = { invoiceCode: '', invoiceNo: no, issueDate: '2026-11-02' };
    const gw = simulator();
    expect(await gw.queryIncomeStatus([item])).toEqual([{ key: no, found: true, state: 0, riskLevel: '01', changedAt: '' }]);
    await setIncomingStatus(deps, { key: no, state: 8 });
    await setIncomingStatus(deps, { key: no, riskLevel: '03' });
    const [a, b] = await gw.queryIncomeStatus([item, { ...item, invoiceNo: '99990000000000000001' }]);
    expect(a).toMatchObject({ key: no, found: true, state: 8, riskLevel: '03' });
    expect(a!.changedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(b).toEqual({ key: '99990000000000000001', found: false, state: 0, riskLevel: '01', changedAt: '' });
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['memo']).where('type', '=', IncomeMethods.status).orderBy('created_at', 'desc').limit(1).execute();
    expect(logs[0]!.memo).toBe(`发票状态查询 2 张：非正常 1 张，税务端无此发票 1 张（${no} 全额红冲/疑点发票）`);
  });
});
