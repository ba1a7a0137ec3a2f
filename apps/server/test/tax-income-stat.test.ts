/**
 * Issue 14 (the gateway part): period statistics (抵扣统计 / 退税统计) — the pure rules (stat-rules.ts),
 * the simulator's state machine per period and scope (0 未统计 → 1 已申请 → 2 已确认, 撤销申请, 撤销确认)
 * with each refusal (08 不能重复确认, 09 当前月与属期相等时不符合确认条件, 10 已确认统计不能撤销 and ours),
 * figures by kind from the ticks, confirmed 抵扣 locking ticking, two confirms at once, one sync log row per
 * call — and the Nuonuo client's requests and mapping against the local fake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeMethods, TaxGatewayError, clearTokenCache, createTaxGateway, registerKnownIncoming, simulatorClockFromEnv, type TaxGateway } from '../src/integrations/tax/index.js';
import { loadConfig } from '../src/config.js';
import { statRefusal, StatMessages } from '../src/integrations/tax/stat-rules.js';
import { defaultDeadline } from '../src/integrations/tax/tick-rules.js';
import type { TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo, type Json } from './tax-fake-nuonuo.js';
import { COMPANY } from './tax-income-helpers.js';
import { SELLER_TAX, TestClock, simulator, startGatewayTestServer, taxLogs } from './tax-helpers.js';

const at = (iso: string) => new TestClock(Date.parse(iso));
const NOV05 = '2026-11-05T02:00:00Z';
const OCT20 = '2026-10-20T02:00:00Z';
/** Past 202610's deadline: 2026-11-16 by 税总办征科函〔2025〕64号 (11月15日为星期日). */
const NOV17 = '2026-11-17T02:00:00Z';

const refusal = async (p: Promise<unknown>): Promise<TaxGatewayError> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TaxGatewayError);
    return e as TaxGatewayError;
  }
  throw new Error('expected a refusal');
};

describe('statistics rules (pure)', () => {
  const D = defaultDeadline('202610');
  const nov = new Date(NOV05);
  it('each action from each state', () => {
    expect(statRefusal('apply', 0, '202610', D, nov)).toBeNull();
    expect(statRefusal('apply', 1, '202610', D, nov)?.message).toBe('税款所属期202610已申请统计，请勿重复申请');
    expect(statRefusal('apply', 2, '202610', D, nov)?.message).toBe('税款所属期202610的统计已确认，不能再申请统计');
    expect(statRefusal('confirm', 0, '202610', D, nov)?.message).toBe('税款所属期202610尚未申请统计，请先申请统计');
    expect(statRefusal('confirm', 1, '202610', D, nov)).toBeNull();
    expect(statRefusal('confirm', 2, '202610', D, nov)).toEqual({ code: '08', message: '不能重复确认' });
    expect(statRefusal('revokeApply', 0, '202610', D, nov)?.message).toBe('税款所属期202610尚未申请统计，无需撤销');
    expect(statRefusal('revokeApply', 2, '202610', D, nov)?.message).toBe('税款所属期202610的统计已确认，请先撤销确认');
    expect(statRefusal('revokeConfirm', 1, '202610', D, nov)?.message).toBe('税款所属期202610的统计未确认，无需撤销确认');
    expect(statRefusal('revokeConfirm', 2, '202610', D, nov)).toBeNull();
  });
  it('the calendar: 09 in the period own month, 10 after the deadline, not before the period, not after its deadline', () => {
    expect(statRefusal('confirm', 1, '202610', D, new Date(OCT20))).toEqual({ code: '09', message: '当前月与属期相等时不符合确认条件' });
    expect(statRefusal('apply', 0, '202610', D, new Date(OCT20))).toBeNull();
    expect(statRefusal('revokeConfirm', 2, '202610', D, new Date(NOV17))).toEqual({ code: '10', message: '已确认统计不能撤销' });
    expect(statRefusal('revokeConfirm', 2, '202610', D, new Date('2026-11-16T15:59:59Z'))).toBeNull();
    expect(statRefusal('apply', 0, '202610', D, new Date(NOV17))?.message).toBe('税款所属期202610的统计截止时间（2026-11-16 23:59:59）已过');
    expect(statRefusal('apply', 0, '202612', defaultDeadline('202612'), nov)?.message).toBe('税款所属期202612尚未开始，不能统计');
    // Asia/Shanghai: 2026-10-31T16:30Z is already November there.
    expect(statRefusal('confirm', 1, '202610', D, new Date('2026-10-31T16:30:00Z'))).toBeNull();
    expect(statRefusal('confirm', 1, '202610', D, new Date('2026-10-31T15:30:00Z'))?.code).toBe('09');
  });
  it('TAX_SIMULATOR_NOW: starts at the instant and runs on; unset: none', () => {
    expect(simulatorClockFromEnv({})).toBeNull();
    // An instant no other file sets: the clock of a value starts where the process first saw it, and
    // API files share a worker (income-statistics-api sets the 5th of this month at 02:00, which this
    // value was until a run on 2026-11-27 found the clock already minutes on).
    const c = simulatorClockFromEnv({ TAX_SIMULATOR_NOW: '2026-11-05T02:00:00.417Z' })!;
    const t = c.now().getTime();
    expect(t).toBeGreaterThanOrEqual(Date.parse('2026-11-05T02:00:00.417Z'));
    expect(t).toBeLessThan(Date.parse('2026-11-05T02:01:00Z'));
    expect(() => simulatorClockFromEnv({ TAX_SIMULATOR_NOW: 'yesterday' })).toThrow('TAX_SIMULATOR_NOW');
    // Checked at start.
    expect(() => loadConfig({ TAX_SIMULATOR_NOW: '2026-11-05' }, [])).toThrow('TAX_SIMULATOR_NOW: must be an ISO instant such as 2026-11-05T02:00:00Z');
    expect(() => loadConfig({ TAX_SIMULATOR_NOW: '2026-11-05T02:00:00+08:00' }, [])).not.toThrow();
  });
});

let s: TestServer;
let fake: FakeNuonuo;
let statAnswer: Json = {};
let actAnswer: Json = {};
let detailAnswer: Json = {};
const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';
const K = (n: number) => `2644200000000000${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startGatewayTestServer();
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET, (method) => {
    if (method === IncomeMethods.statFigures) return statAnswer;
    if (method === IncomeMethods.statApply || method === IncomeMethods.statConfirm) return actAnswer;
    if (method === IncomeMethods.statDetails) return detailAnswer;
    return undefined;
  });
  // October invoices known to the service: two 数电专票 and a 专票 for deduction, a rebate, a 不抵扣.
  await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [
    { key: K(1), kind: '81', issueDate: '2026-10-08', tax: 1300, amountExcludingTax: 10000 },
    { key: K(2), kind: '81', issueDate: '2026-10-09', tax: 900, amountExcludingTax: 10000 },
    { key: '320012345612345678', kind: '01', issueDate: '2026-10-10', tax: 600, amountExcludingTax: 10000 },
    { key: K(4), kind: '81', issueDate: '2026-10-11', tax: 1300, amountExcludingTax: 10000 },
    { key: K(5), kind: '81', issueDate: '2026-10-12', tax: 500, amountExcludingTax: 5000 },
  ]);
  const g = gw();
  const item = (key: string, issueDate: string, effectiveTax: number) => (key.length === 20 ? { invoiceCode: '', invoiceNo: key, issueDate, effectiveTax } : { invoiceCode: key.slice(0, 10), invoiceNo: key.slice(10), issueDate, effectiveTax });
  const ok = (o: Array<{ accepted: boolean; message: string }>) => expect(o.filter((x) => !x.accepted)).toEqual([]);
  ok(await g.tickInvoices({ period: '202610', usage: 1, items: [item(K(1), '2026-10-08', 1300), item(K(2), '2026-10-09', 450), item('320012345612345678', '2026-10-10', 600)] }));
  ok(await g.tickInvoices({ period: '202610', usage: 2, items: [item(K(4), '2026-10-11', 1300)] }));
  ok(await g.tickInvoices({ period: '202610', usage: 4, reason: 1, items: [item(K(5), '2026-10-12', 500)] }));
});
afterAll(async () => {
  await fake?.close();
  await s?.close();
});

const gw = (iso = NOV05): TaxGateway => simulator(s, at(iso), { company: COMPANY });
const D = { period: '202610', scope: 'deduction' as const };
const R = { period: '202610', scope: 'rebate' as const };

describe('simulator: figures and the state machine', () => {
  it('figures by kind from the ticks of the period and scope (抵扣 at the effective tax; 不抵扣 not counted)', async () => {
    const f = await gw().statFigures(D);
    expect(f).toMatchObject({ period: '202610', scope: 'deduction', state: 0, deadline: '2026-11-16T15:59:59.000Z' });
    expect(f.rows).toEqual([
      { kind: '01', count: 1, amountExcludingTax: 10000, tax: 600, effectiveTax: 600 },
      { kind: '81', count: 2, amountExcludingTax: 20000, tax: 2200, effectiveTax: 1750 },
    ]);
    expect(f.totals).toEqual({ count: 3, amountExcludingTax: 30000, tax: 2800, effectiveTax: 2350 });
    const r = await gw().statFigures(R);
    expect(r.rows).toEqual([{ kind: '81', count: 1, amountExcludingTax: 10000, tax: 1300, effectiveTax: 1300 }]);
  });

  it('apply, revoke, apply; confirm refused before applying and in the period own month; confirm locks ticking; 08 on a second confirmation', async () => {
    expect((await refusal(gw().confirmStat(D))).message).toBe(StatMessages.notApplied('202610'));
    expect((await refusal(gw().revokeStatApply(D))).message).toBe('税款所属期202610尚未申请统计，无需撤销');
    expect((await gw().applyStat(D)).state).toBe(1);
    expect((await refusal(gw().applyStat(D))).message).toBe('税款所属期202610已申请统计，请勿重复申请');
    expect((await gw().revokeStatApply(D)).state).toBe(0);
    expect((await gw(OCT20).applyStat(D)).state).toBe(1);
    const e09 = await refusal(gw(OCT20).confirmStat(D));
    expect([e09.serviceCode, e09.message]).toEqual(['09', '当前月与属期相等时不符合确认条件']);
    expect((await gw().tickPeriod()).period).toBe('202610');
    const done = await gw().confirmStat(D);
    expect(done.state).toBe(2);
    expect(done.totals.count).toBe(3);
    // The confirmed period no longer ticks: the current period moves on, a tick for 202610 is refused.
    expect(await gw().tickPeriod()).toMatchObject({ period: '202611', statState: 0 });
    expect((await refusal(gw().tickInvoices({ period: '202610', usage: 1, items: [{ invoiceCode: '', invoiceNo: K(5), issueDate: '2026-10-12', effectiveTax: 1 }] }))).message).toBe('税款所属期202610不是当前可勾选的所属期（当前为202611）');
    const e08 = await refusal(gw().confirmStat(D));
    expect([e08.serviceCode, e08.message]).toEqual(['08', '不能重复确认']);
    expect((await refusal(gw().applyStat(D))).message).toBe('税款所属期202610的统计已确认，不能再申请统计');
    expect((await refusal(gw().revokeStatApply(D))).message).toBe('税款所属期202610的统计已确认，请先撤销确认');
    // The rebate statistics are separate.
    expect((await gw().statFigures(R)).state).toBe(0);
  });

  it('revoking a confirmation until the deadline (ticking opens again), after it 10 已确认统计不能撤销', async () => {
    expect((await gw().revokeStatConfirm(D)).state).toBe(1);
    expect(await gw().tickPeriod()).toMatchObject({ period: '202610', statState: 1 });
    expect((await refusal(gw().revokeStatConfirm(D))).message).toBe('税款所属期202610的统计未确认，无需撤销确认');
    expect((await gw().confirmStat(D)).state).toBe(2);
    const e10 = await refusal(gw(NOV17).revokeStatConfirm(D));
    expect([e10.serviceCode, e10.message]).toEqual(['10', '已确认统计不能撤销']);
    expect((await gw(NOV17).statFigures(D)).state).toBe(2);
  });

  it('outside the calendar: a period not begun, a period past its deadline', async () => {
    expect((await refusal(gw().applyStat({ period: '202612', scope: 'rebate' }))).message).toBe('税款所属期202612尚未开始，不能统计');
    expect((await refusal(gw().applyStat({ period: '202609', scope: 'rebate' }))).message).toBe('税款所属期202609的统计截止时间（2026-10-26 23:59:59）已过');
    expect((await refusal(gw().applyStat({ period: '2026-10', scope: 'rebate' }))).message).toBe('税款所属期须为YYYYMM');
  });

  it('two confirmations at once: one moves the state, the other is refused 不能重复确认; one sync log row per call', async () => {
    await gw().applyStat(R);
    const before = (await taxLogs(s)).length;
    const out = await Promise.allSettled([gw().confirmStat(R), gw().confirmStat(R)]);
    expect(out.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = out.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected.map((o) => (o.reason as Error).message)).toEqual(['不能重复确认']);
    const logs = (await taxLogs(s)).slice(before);
    expect(logs.map((l) => l.type)).toEqual([IncomeMethods.statConfirm, IncomeMethods.statConfirm]);
    // Confirming 退税统计 does not lock ticking (only 抵扣 does).
    expect((await gw().statFigures(R)).state).toBe(2);
  });
});

describe('Nuonuo client (fake)', () => {
  const nuonuo = (): TaxGateway =>
    createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: at(NOV05) }, { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } });

  it('maps 统计结果 (元 -> 分, totals summed) and sends skssq / tjlx', async () => {
    clearTokenCache();
    // The service's gxjzrq is taken as it comes, even where the filing calendar says otherwise (2026-11-16).
    statAnswer = { code: 'E0000', describe: '成功', result: { tjzt: '1', gxjzrq: '2026-11-15', list: [{ fplx: '81', fs: '2', je: '200.00', se: '22.00', yxse: '17.50' }, { fplx: '01', fs: 1, je: '100.00', se: '6.00' }] } };
    const f = await nuonuo().statFigures(R);
    expect(f).toEqual({
      period: '202610', scope: 'rebate', state: 1, deadline: '2026-11-15T15:59:59.000Z',
      rows: [{ kind: '81', count: 2, amountExcludingTax: 20000, tax: 2200, effectiveTax: 1750 }, { kind: '01', count: 1, amountExcludingTax: 10000, tax: 600, effectiveTax: 600 }],
      totals: { count: 3, amountExcludingTax: 30000, tax: 2800, effectiveTax: 2350 },
    });
    expect(fake.calls.filter((c) => c.method === IncomeMethods.statFigures).at(-1)!.body).toEqual({ skssq: '202610', tjlx: '2' });
  });

  it('actions: the flags; the bureau codes 08 / 09 / 10 become the messages word for word', async () => {
    actAnswer = { code: 'E0000', describe: '成功', result: null };
    expect((await nuonuo().applyStat(D)).state).toBe(1);
    expect(fake.calls.filter((c) => c.method === IncomeMethods.statApply).at(-1)!.body).toEqual({ skssq: '202610', tjlx: '1', tjbz: '1' });
    await nuonuo().revokeStatApply(D);
    expect(fake.calls.filter((c) => c.method === IncomeMethods.statApply).at(-1)!.body.tjbz).toBe('0');
    await nuonuo().revokeStatConfirm(D);
    expect(fake.calls.filter((c) => c.method === IncomeMethods.statConfirm).at(-1)!.body).toEqual({ qrssq: '202610', tjlx: '1', qrbz: '0' });
    for (const [code, message] of [['08', '不能重复确认'], ['09', '当前月与属期相等时不符合确认条件'], ['10', '已确认统计不能撤销']]) {
      actAnswer = { code, describe: 'xx', result: null };
      const e = await refusal(nuonuo().confirmStat(D));
      expect([e.serviceCode, e.message, e.status]).toEqual([code, message, 400]);
    }
    actAnswer = { code: 'E1234', describe: '其他原因', result: null };
    expect((await refusal(nuonuo().confirmStat(D))).message).toBe('税务端拒绝：其他原因（E1234）');
  });
});

describe('抵扣统计明细 (statDetails, issue 32 item 1): the invoices the bureau counts, outside ticks included', () => {
  it('simulator: the period\'s 抵扣 and 不抵扣 ticks (退税 on its own scope) in key order, paged, with the kind and tax, one sync log row a page; bad paging refused', async () => {
    const g = gw();
    const all = await g.statDetails(D);
    expect(all.items.map((i) => [i.key, i.usage, i.effectiveTax])).toEqual([
      [K(1), 1, 1300], [K(2), 1, 450], [K(5), 4, 500], ['320012345612345678', 1, 600],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(all.total).toBe(4);
    expect(all.items.find((i) => i.key === '320012345612345678')).toMatchObject({ kind: '01', invoiceCode: '3200123456', invoiceNo: '12345678', issueDate: '2026-10-10', tax: 600, reason: null });
    expect(all.items.find((i) => i.key === K(5))).toMatchObject({ kind: '81', invoiceCode: '', invoiceNo: K(5), usage: 4, reason: 1, tax: 500 });
    expect((await g.statDetails(R)).items.map((i) => [i.key, i.usage, i.effectiveTax])).toEqual([[K(4), 2, 1300]]);
    const p1 = await g.statDetails({ ...D, pageNo: 1, pageSize: 3 });
    const p2 = await g.statDetails({ ...D, pageNo: 2, pageSize: 3 });
    expect([p1.items.length, p2.items.length, p1.total, p2.total]).toEqual([3, 1, 4, 4]);
    expect([...p1.items, ...p2.items]).toEqual(all.items);
    expect((await refusal(g.statDetails({ ...D, pageSize: 501 }))).message).toBe('每页条数须为1～500');
    expect((await refusal(g.statDetails({ ...D, pageNo: 0 }))).message).toBe('页码须为正整数');
    expect((await taxLogs(s)).filter((l) => l.type === IncomeMethods.statDetails).map((l) => l.memo)).toContain('税款所属期 202610 抵扣统计明细：第2页 1 张，共 4 张');
  });

  it('Nuonuo: sends skssq / tjlx / pageNo / pageSize, maps the lines (元 -> 分, gxyt, 数电 or code + number), pages until the total; an unreadable line refuses the page', async () => {
    clearTokenCache();
    const nuonuo = createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: at(NOV05) }, { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } });
    detailAnswer = { code: 'E0000', describe: '成功', result: { total: 2, list: [
      { fplx: '81', qdfphm: K(1), kprq: '2026-10-08', se: '13.00', yxse: '6.50', gxyt: '1', gxsj: '2026-10-20 10:00:00' },
      { fplx: '01', fpdm: '3200123456', fphm: '12345678', kprq: '2026-10-10 00:00:00', se: '6.00', gxyt: '4', bdkyy: '3' },
    ] } };
    const page = await nuonuo.statDetails({ ...D, pageNo: 1, pageSize: 100 });
    expect(fake.calls.filter((c) => c.method === IncomeMethods.statDetails).at(-1)!.body).toEqual({ skssq: '202610', tjlx: '1', pageNo: 1, pageSize: 100 });
    expect(page).toEqual({ total: 2, pageNo: 1, pageSize: 100, items: [
      { key: K(1), kind: '81', invoiceCode: '', invoiceNo: K(1), issueDate: '2026-10-08', usage: 1, reason: null, tax: 1300, effectiveTax: 650, tickedAt: '2026-10-20T02:00:00.000Z' },
      { key: '320012345612345678', kind: '01', invoiceCode: '3200123456', invoiceNo: '12345678', issueDate: '2026-10-10', usage: 4, reason: 3, tax: 600, effectiveTax: 600, tickedAt: '' },
    ] });
    detailAnswer = { code: 'E0000', describe: '成功', result: { total: 1, list: [{ fplx: '81', qdfphm: K(4), kprq: '2026-10-11', se: '13.00', gxyt: '2' }] } };
    expect((await refusal(nuonuo.statDetails(D))).message).toBe('税务端统计明细含有无法识别的发票或勾选用途');
  });
});
