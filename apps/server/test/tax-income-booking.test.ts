/**
 * Issue 14 (the gateway part): the booking flag (入账标识) through the simulator — the flag kept per invoice,
 * unknown invoices refused, 06 refused on an invoice not booked (accepted again on one revoked: a retry), 01
 * refused on a booked one, the batch checks, the made-up failures (failNextBookingCalls, failureRate), one
 * sync log row per call — and the Nuonuo client's request and mapping against the local fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SyncLogStatus } from '@zhyy/shared';
import { BOOKING_BATCH_MAX, BookingMessages, IncomeMethods, TaxGatewayError, clearTokenCache, createTaxGateway, failNextBookingCalls, type IncomingInvoice, type TaxGateway } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import type { TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo, type Json } from './tax-fake-nuonuo.js';
import { COMPANY, collectAll } from './tax-income-helpers.js';
import { SELLER_TAX, TestClock, simulator, startGatewayTestServer, taxLogs } from './tax-helpers.js';

const NOV21 = '2026-11-21T02:00:00Z';
const at = () => new TestClock(Date.parse(NOV21));
let s: TestServer;
let october: IncomingInvoice[];
let fake: FakeNuonuo;
let answer: Json = {};
const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';

beforeAll(async () => {
  s = await startGatewayTestServer();
  october = await collectAll(simulator(s, at(), { company: COMPANY }), '2026-10-01', '2026-10-31');
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET, (method) => (method === IncomeMethods.booking ? answer : undefined));
});
afterAll(async () => {
  await fake?.close();
  await s?.close();
});
beforeEach(async () => {
  clearTokenCache();
  await simDb(s.db).deleteFrom('taxsim_income_bookings').execute();
  await failNextBookingCalls({ db: s.db, synclog: s.app.synclog }, 0);
});

const gw = (opts: { failureRate?: number } = {}, random = () => 0.99) => simulator(s, at(), { company: COMPANY, ...opts }, random);
const item = (i: IncomingInvoice, state: '01' | '02' | '03' | '06', bookedAt?: string) => ({ invoiceCode: i.invoiceCode, invoiceNo: i.invoiceNo, issueDate: i.issueDate, state, ...(bookedAt ? { bookedAt } : {}) });
const flag = (key: string) => simDb(s.db).selectFrom('taxsim_income_bookings').select(['state', 'booked_at', 'ever_booked']).where('invoice_key', '=', key).executeTakeFirst();
const coded = () => october.find((i) => i.invoiceCode && i.invoiceNo.length === 8)!;
async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

describe('the simulator', () => {
  it('keeps the flag per invoice, refuses unknown invoices and 06 on one not booked, logs one row per call', async () => {
    const [a, b] = [october[0]!, coded()];
    const before = (await taxLogs(s)).length;
    const out = await gw().setBookingState([item(a, '02', '2026-11-20'), item(b, '06'), { invoiceCode: '', invoiceNo: '26000000000000000000', issueDate: '2026-10-09', state: '02' }]);
    expect(out).toEqual([
      { key: a.key, accepted: true, message: '入账标识已更新为已入账（企业所得税税前扣除）' },
      { key: b.key, accepted: false, message: '该发票未入账，不能撤销入账' },
      { key: '26000000000000000000', accepted: false, message: '税务端无此发票信息' },
    ]);
    expect(await flag(a.key)).toEqual({ state: '02', booked_at: '2026-11-20', ever_booked: 1 });
    expect(await flag(b.key)).toBeUndefined();
    const logs = await taxLogs(s);
    expect(logs.length - before).toBe(1);
    expect(logs.at(-1)).toMatchObject({ type: IncomeMethods.booking, status: SyncLogStatus.success, memo: '入账标识（已入账（企业所得税税前扣除）、入账撤销）3 张：成功 1 张，拒绝 2 张' });

    // 02 again (a retry) and 02 → 03 are accepted; 01 on a booked invoice is refused; 06, then 06 again (a retry); booked again.
    expect((await gw().setBookingState([item(a, '02')]))[0]!.accepted).toBe(true);
    expect((await gw().setBookingState([item(a, '03')]))[0]!.accepted).toBe(true);
    expect((await gw().setBookingState([item(a, '01')]))[0]!.message).toBe(BookingMessages.bookedUnset);
    expect((await gw().setBookingState([item(a, '06')]))[0]!.message).toBe('入账标识已更新为入账撤销');
    expect((await gw().setBookingState([item(a, '06')]))[0]!.accepted).toBe(true);
    expect(await flag(a.key)).toMatchObject({ state: '06', ever_booked: 1 });
    // The day of the call when none is given.
    expect((await gw().setBookingState([item(b, '03')]))[0]!.accepted).toBe(true);
    expect(await flag(b.key)).toEqual({ state: '03', booked_at: '2026-11-21', ever_booked: 1 });
  });

  it('checks the batch before anything is kept', async () => {
    const a = october[0]!;
    expect((await refusal(gw().setBookingState([]))).message).toBe('请至少选择一张发票');
    expect((await refusal(gw().setBookingState([item(a, '02'), item(a, '03')]))).message).toContain('同一批次中发票重复');
    expect((await refusal(gw().setBookingState([{ ...item(a, '02'), state: '04' as never }]))).message).toBe('入账标识不正确：04');
    expect((await refusal(gw().setBookingState([{ invoiceCode: '12', invoiceNo: '00000001', issueDate: '2026-10-01', state: '02' }]))).message).toBe('发票号码不正确：1200000001');
    const many = october.slice(0, BOOKING_BATCH_MAX + 1).map((i) => item(i, '02'));
    expect(many.length).toBe(BOOKING_BATCH_MAX + 1);
    const err = await refusal(gw().setBookingState(many));
    expect([err.serviceCode, err.message]).toEqual(['INVALID', `一次最多提交${BOOKING_BATCH_MAX}张发票的入账标识`]);
    expect(await flag(a.key)).toBeUndefined();
  });

  it('fails calls on demand (the next n, shared by all servers) and at the failure rate, as a lost connection, logged as failures', async () => {
    const a = october[1]!;
    await failNextBookingCalls({ db: s.db, synclog: s.app.synclog }, 2);
    for (let n = 0; n < 2; n++) {
      const err = await refusal(gw().setBookingState([item(a, '02')]));
      expect([err.serviceCode, err.message, err.status]).toEqual(['TRANSPORT', BookingMessages.simulatedFailure, 502]);
    }
    expect(await flag(a.key)).toBeUndefined();
    expect((await taxLogs(s)).at(-1)).toMatchObject({ type: IncomeMethods.booking, status: SyncLogStatus.failure });
    expect((await gw().setBookingState([item(a, '02')]))[0]!.accepted).toBe(true);
    expect((await refusal(gw({ failureRate: 0.5 }, () => 0.2).setBookingState([item(a, '03')]))).serviceCode).toBe('TRANSPORT');
    expect((await gw({ failureRate: 0.5 }, () => 0.7).setBookingState([item(a, '03')]))[0]!.accepted).toBe(true);
  });
});

describe('the Nuonuo client', () => {
  const nuonuo = (): TaxGateway =>
    createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: at() }, { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } });

  it('sends the list with the platform names and maps each result', async () => {
    answer = { code: 'E0000', describe: '成功', result: { list: [{ qdfphm: '26112000000012345678', cljg: '1', msg: '' }, { fpdm: '1100261130', fphm: '00000001', cljg: '0', msg: '该发票未入账，不能撤销入账' }] } };
    const out = await nuonuo().setBookingState([
      { invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02', state: '02', bookedAt: '2026-11-20' },
      { invoiceCode: '1100261130', invoiceNo: '00000001', issueDate: '2026-11-03', state: '06' },
      { invoiceCode: '', invoiceNo: '26112000000087654321', issueDate: '2026-11-04', state: '03' },
    ]);
    expect(out).toEqual([
      { key: '26112000000012345678', accepted: true, message: '成功' },
      { key: '110026113000000001', accepted: false, message: '该发票未入账，不能撤销入账' },
      { key: '26112000000087654321', accepted: false, message: '税务端未返回该发票的入账标识结果' },
    ]);
    const sent = fake.calls.filter((c) => c.method === IncomeMethods.booking).at(-1)!.body;
    expect(sent).toEqual({ list: [
      { fpdm: '', fphm: '', qdfphm: '26112000000012345678', kprq: '2026-11-02', rzzt: '02', rzrq: '2026-11-20' },
      { fpdm: '1100261130', fphm: '00000001', qdfphm: '', kprq: '2026-11-03', rzzt: '06', rzrq: '' },
      { fpdm: '', fphm: '', qdfphm: '26112000000087654321', kprq: '2026-11-04', rzzt: '03', rzrq: '' },
    ] });
    const row = (await taxLogs(s)).filter((l) => l.type === IncomeMethods.booking).at(-1)!;
    expect(row.status).toBe(SyncLogStatus.success);
  });

  it('an answer without the list, or a refusal of the whole call, is a TaxGatewayError; bad batches are not sent', async () => {
    answer = { code: 'E0000', describe: '成功', result: {} };
    const one = [{ invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02', state: '02' as const }];
    expect((await refusal(nuonuo().setBookingState(one))).message).toBe('税务端未返回逐张入账标识结果');
    answer = { code: 'E9999', describe: '企业未开通入账标识服务', result: null };
    expect((await refusal(nuonuo().setBookingState(one))).message).toContain('企业未开通入账标识服务');
    const calls = fake.calls.length;
    await refusal(nuonuo().setBookingState([]));
    expect(fake.calls.length).toBe(calls);
  });
});
