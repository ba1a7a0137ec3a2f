/**
 * Issue 14 (the gateway part): ticking through the simulator — the period from the bureau's calendar
 * (last month's until its deadline, the 15th, unless confirmed), per-invoice refusals (unknown, 异常凭证
 * for deduction, effective tax above the tax, another usage, undo of an invoice not ticked), call-wide
 * refusals (another period, past the deadline, confirmed), one sync log row per call — and the Nuonuo
 * client's requests and mapping against the local fake. Also the pure ticking rules of deduction/rules.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IncomeMethods, TaxGatewayError, clearTokenCache, createTaxGateway, type IncomingInvoice, type TaxGateway } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { currentPeriod, defaultDeadline, periodEnd, shiftPeriod } from '../src/integrations/tax/tick-rules.js';
import { tickRefusal, untickRefusal, needsConfirm, type TickRow } from '../src/modules/income/deduction/rules.js';
import type { TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo, type Json } from './tax-fake-nuonuo.js';
import { COMPANY, collectAll } from './tax-income-helpers.js';
import { SELLER_TAX, TestClock, simulator, startGatewayTestServer, taxLogs } from './tax-helpers.js';

const at = (iso: string) => new TestClock(Date.parse(iso));
const NOV21 = '2026-11-21T02:00:00Z';

describe('periods (pure)', () => {
  it('deadline: the filing calendar day of the next month, 23:59:59 Shanghai; period end; shifting', () => {
    // 税总办征科函〔2025〕64号: 11月15日为星期日, moved to the 16th; 2027 is computed (2027-01-15 a Friday).
    expect(defaultDeadline('202610')).toBe('2026-11-16T15:59:59.000Z');
    expect(defaultDeadline('202612')).toBe('2027-01-15T15:59:59.000Z');
    expect(periodEnd('202602')).toBe('2026-02-28');
    expect(shiftPeriod('202601', -1)).toBe('202512');
  });
  it('last month stays current until its deadline unless confirmed', () => {
    const open = (p: string) => ({ deadline: defaultDeadline(p), statState: 0 });
    expect(currentPeriod(new Date('2026-11-10T02:00:00Z'), open)).toBe('202610');
    expect(currentPeriod(new Date('2026-11-16T15:59:59Z'), open)).toBe('202610');
    expect(currentPeriod(new Date('2026-11-16T16:00:00Z'), open)).toBe('202611');
    expect(currentPeriod(new Date('2026-11-10T02:00:00Z'), (p) => ({ ...open(p), statState: 2 }))).toBe('202611');
  });
});

describe('ticking rules (pure, deduction/rules.ts)', () => {
  const P = { period: '202611', windowFrom: '2017-01-01', windowTo: '2026-11-30', tickBookedOnly: false };
  const row = (o: Partial<TickRow> = {}): TickRow => ({
    kind: '81', issue_date: '2026-11-02', tax: 900, invoice_state: 0, red_pending: 0, risk_level: '01', verify_state: 1, buyer_mismatch: 0, duplicate_of: null,
    booking_state: '01', vat_usage: 0, tick_state: 0, tick_period: '', ...o,
  });
  it('refuses each case with its reason', () => {
    expect(tickRefusal(row(), 1, 900, P)).toBe('');
    expect(tickRefusal(row(), 1, 1, P)).toBe('');
    // 抵扣's effective tax: positive, at most the tax, to the 分 (issue 27: 0 and above the tax were saved).
    expect(tickRefusal(row(), 1, 0, P)).toBe('有效税额须大于0且不超过发票税额（9.00元）');
    expect(tickRefusal(row(), 1, -5, P)).toBe('有效税额须大于0且不超过发票税额（9.00元）');
    expect(tickRefusal(row(), 1, 901, P)).toBe('有效税额须大于0且不超过发票税额（9.00元）');
    expect(tickRefusal(row(), 1, 12.5, P)).toBe('有效税额须精确到分（最多两位小数）');
    expect(tickRefusal(row({ kind: '82' }), 1, 900, P)).toContain('该发票种类不能勾选');
    expect(tickRefusal(row({ vat_usage: 2, tick_state: 1, tick_period: '202611' }), 1, 900, P)).toBe('该发票已勾选为出口退税，不能再勾选为抵扣');
    expect(tickRefusal(row({ vat_usage: 1, tick_state: 1, tick_period: '202610' }), 1, 900, P)).toBe('该发票已于税款所属期202610勾选，不能在本期更改');
    expect(tickRefusal(row({ verify_state: 0 }), 1, 900, P)).toBe('该发票未查验一致，不能勾选');
    expect(tickRefusal(row({ issue_date: '2026-12-01' }), 1, 900, P)).toBe('开票日期不在本期可勾选范围（2017-01-01至2026-11-30）内');
    expect(tickRefusal(row({ invoice_state: 2 }), 1, 900, P)).toBe('该发票作废，不能勾选');
    expect(tickRefusal(row({ risk_level: '02' }), 1, 900, P)).toBe('异常凭证不能勾选抵扣');
    expect(tickRefusal(row({ risk_level: '02' }), 4, 900, P)).toBe('');
    expect(tickRefusal(row(), 1, 900, { ...P, tickBookedOnly: true })).toBe('已开启先入账后勾选，该发票未入账，不能勾选');
    expect(tickRefusal(row({ booking_state: '03' }), 1, 900, { ...P, tickBookedOnly: true })).toBe('');
    expect(tickRefusal(row({ buyer_mismatch: 1 }), 1, 900, P)).toBe('购方非本公司的发票不能勾选');
  });
  it('undo and confirmation', () => {
    expect(untickRefusal(row(), 'deduction', '202611')).toBe('该发票未勾选，无需撤销');
    expect(untickRefusal(row({ vat_usage: 3, tick_state: 1, tick_period: '202611' }), 'deduction', '202611')).toBe('该发票勾选为代办退税，请在退税勾选中撤销');
    expect(untickRefusal(row({ vat_usage: 4, tick_state: 1, tick_period: '202610' }), 'deduction', '202611')).toBe('该发票已于税款所属期202610勾选，不能在本期撤销');
    expect(untickRefusal(row({ vat_usage: 2, tick_state: 1, tick_period: '202611' }), 'rebate', '202611')).toBe('');
    expect(needsConfirm(row())).toBe(false);
    expect(needsConfirm(row({ risk_level: '03' }))).toBe(true);
    expect(needsConfirm(row({ invoice_state: 1 }))).toBe(true);
    expect(needsConfirm(row({ duplicate_of: 'x' }))).toBe(true);
  });
});

let s: TestServer;
let october: IncomingInvoice[];
let fake: FakeNuonuo;
let tickAnswer: Json = {};
const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';

beforeAll(async () => {
  s = await startGatewayTestServer();
  october = await collectAll(simulator(s, at(NOV21), { company: COMPANY }), '2026-10-01', '2026-10-31');
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET, (method) => {
    if (method === IncomeMethods.period) return { code: 'E0000', describe: '成功', result: { skssq: '202611', gxjzrq: '2026-12-15', kprqq: '2017-01-01', kprqz: '2026-11-30', tjzt: '1' } };
    if (method === IncomeMethods.tick || method === IncomeMethods.untick) return tickAnswer;
    return undefined;
  });
});
afterAll(async () => {
  await fake?.close();
  await s?.close();
});
beforeEach(async () => {
  clearTokenCache();
  await simDb(s.db).deleteFrom('taxsim_income_ticks').execute();
  await simDb(s.db).deleteFrom('taxsim_income_periods').execute();
});

const gw = (clock = at(NOV21)) => simulator(s, clock, { company: COMPANY });
const item = (i: IncomingInvoice, effectiveTax = i.tax) => ({ invoiceCode: i.invoiceCode, invoiceNo: i.invoiceNo, issueDate: i.issueDate, effectiveTax });
const pick = (pred: (i: IncomingInvoice) => boolean, n = 0) => {
  const found = october.filter(pred)[n];
  expect(found, 'the drawn October has such an invoice').toBeDefined();
  return found!;
};
const normal81 = (n: number) => pick((i) => i.kind === '81' && i.state === 0 && i.riskLevel === '01', n);

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

describe('the simulator', () => {
  it('reports the period, deadline, window and statistics state, and logs the call', async () => {
    expect(await gw(at('2026-11-10T02:00:00Z')).tickPeriod()).toEqual({ period: '202610', deadline: '2026-11-16T15:59:59.000Z', windowFrom: '2017-01-01', windowTo: '2026-10-31', statState: 0 });
    expect((await gw().tickPeriod()).period).toBe('202611');
    await simDb(s.db).insertInto('taxsim_income_periods').values({ period: '202610', deadline: defaultDeadline('202610'), stat_state: 2, updated_at: NOV21 }).execute();
    expect((await gw(at('2026-11-10T02:00:00Z')).tickPeriod()).period).toBe('202611');
    const logs = (await taxLogs(s)).filter((l) => l.type === IncomeMethods.period);
    expect(logs.at(-1)!.memo).toContain('当前税款所属期 202611');
  });

  it('ticks what it knows, refuses each invoice with its reason, and keeps the usage exclusive', async () => {
    const a = normal81(0);
    const b = normal81(1);
    const out = await gw().tickInvoices({ period: '202611', usage: 1, items: [item(a), item(b, b.tax + 1), { invoiceCode: '', invoiceNo: '26000000000000000000', issueDate: '2026-10-09', effectiveTax: 0 }] });
    expect(out.map((o) => [o.accepted, o.message])).toEqual([[true, '勾选成功'], [false, '有效税额须大于0且不超过发票税额'], [false, '税务端无此发票信息']]);
    // A 抵扣 tick of 0 is refused by the service too.
    expect((await gw().tickInvoices({ period: '202611', usage: 1, items: [item(b, 0)] }))[0]).toMatchObject({ accepted: false, message: '有效税额须大于0且不超过发票税额' });
    expect((await gw().tickInvoices({ period: '202611', usage: 2, items: [item(a)] }))[0]!.message).toBe('该发票已勾选为抵扣，不能再勾选为出口退税');
    // The same usage again: accepted (a retry), the effective tax updated.
    expect((await gw().tickInvoices({ period: '202611', usage: 1, items: [item(a, 1)] }))[0]!.accepted).toBe(true);
    expect(Number((await simDb(s.db).selectFrom('taxsim_income_ticks').select('effective_tax').where('invoice_key', '=', a.key).executeTakeFirstOrThrow()).effective_tax)).toBe(1);
    expect((await gw().untickInvoices({ period: '202611', usage: 4, items: [item(a)] }))[0]!.message).toBe('该发票已勾选为抵扣，不能再勾选为不抵扣');
    expect((await gw().untickInvoices({ period: '202611', usage: 1, items: [item(a), item(b)] })).map((o) => o.message)).toEqual(['撤销勾选成功', '该发票未勾选，无需撤销']);
    const memo = (await taxLogs(s)).filter((l) => l.type === IncomeMethods.tick)[0]!.memo;
    expect(memo).toBe('税款所属期 202611 勾选抵扣 3 张：成功 1 张，拒绝 2 张');
  });

  it('refuses an 异常凭证 for deduction, not for non-deduction; a void invoice for any usage', async () => {
    const abnormal = pick((i) => i.riskLevel === '02' && ['01', '08', '81', '85'].includes(i.kind) && i.state === 0);
    expect((await gw().tickInvoices({ period: '202611', usage: 1, items: [item(abnormal)] }))[0]!.message).toBe('异常凭证不能勾选抵扣');
    expect((await gw().tickInvoices({ period: '202611', usage: 4, reason: 2, items: [item(abnormal)] }))[0]!.accepted).toBe(true);
    const voided = pick((i) => i.state === 2);
    expect((await gw().tickInvoices({ period: '202611', usage: 1, items: [item(voided)] }))[0]!.message).toBe('该发票作废，不能勾选');
  });

  it('refuses the whole call for another period, past the deadline, once confirmed, and bad requests', async () => {
    const a = normal81(2);
    expect((await refusal(gw().tickInvoices({ period: '202610', usage: 1, items: [item(a)] }))).message).toBe('税款所属期202610不是当前可勾选的所属期（当前为202611）');
    await simDb(s.db).insertInto('taxsim_income_periods').values({ period: '202611', deadline: '2026-11-21T01:00:00.000Z', stat_state: 0, updated_at: NOV21 }).execute();
    expect((await refusal(gw().tickInvoices({ period: '202611', usage: 1, items: [item(a)] }))).message).toBe('税款所属期202611的勾选截止时间（2026-11-21 09:00:00）已过，不能再勾选或撤销勾选');
    await simDb(s.db).updateTable('taxsim_income_periods').set({ deadline: defaultDeadline('202611'), stat_state: 2 }).execute();
    expect((await refusal(gw().untickInvoices({ period: '202611', usage: 1, items: [item(a)] }))).message).toBe('税款所属期202611的统计已确认，不能再勾选或撤销勾选');
    expect((await refusal(gw().tickInvoices({ period: '202611', usage: 4, items: [item(a)] }))).message).toBe('不抵扣勾选须选择不抵扣原因');
    expect((await refusal(gw().tickInvoices({ period: '202611', usage: 1, items: [item(a), item(a)] }))).message).toContain('同一批次中发票重复');
  });
});

describe('the Nuonuo client', () => {
  const nuonuo = (): TaxGateway =>
    createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: at(NOV21) }, { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: APP_SECRET, taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } });

  it('maps the period', async () => {
    expect(await nuonuo().tickPeriod()).toEqual({ period: '202611', deadline: '2026-12-15T15:59:59.000Z', windowFrom: '2017-01-01', windowTo: '2026-11-30', statState: 1 });
  });

  it('sends the tick list with the platform names and maps each result', async () => {
    tickAnswer = { code: 'E0000', describe: '成功', result: { list: [{ qdfphm: '26112000000012345678', gxjg: '1', msg: '' }, { fpdm: '1100261130', fphm: '00000001', gxjg: '0', msg: '发票状态异常' }] } };
    const out = await nuonuo().tickInvoices({ period: '202611', usage: 1, items: [
      { invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02', effectiveTax: 90000 },
      { invoiceCode: '1100261130', invoiceNo: '00000001', issueDate: '2026-11-03', effectiveTax: 300 },
    ] });
    expect(out).toEqual([{ key: '26112000000012345678', accepted: true, message: '成功' }, { key: '110026113000000001', accepted: false, message: '发票状态异常' }]);
    const sent = fake.calls.filter((c) => c.method === IncomeMethods.tick).at(-1)!.body;
    expect(sent).toEqual({ skssq: '202611', gxlx: '1', list: [
      { fpdm: '', fphm: '', qdfphm: '26112000000012345678', kprq: '2026-11-02', yxse: '900.00' },
      { fpdm: '1100261130', fphm: '00000001', qdfphm: '', kprq: '2026-11-03', yxse: '3.00' },
    ] });
    await nuonuo().untickInvoices({ period: '202611', usage: 4, items: [{ invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02' }] });
    expect(fake.calls.filter((c) => c.method === IncomeMethods.untick).at(-1)!.body.gxlx).toBe('7');
    tickAnswer = { code: 'E0000', describe: '成功', result: {} };
    expect((await refusal(nuonuo().tickInvoices({ period: '202611', usage: 2, items: [{ invoiceCode: '', invoiceNo: '26112000000012345678', issueDate: '2026-11-02', effectiveTax: 1 }] }))).message).toBe('税务端未返回逐张勾选结果');
  });
});
