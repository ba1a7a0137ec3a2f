/**
 * Issue 32 item 1, 统计对比: after 申请统计 the bureau's counted invoices (the gateway's 抵扣统计明细) against our
 * tick ledger, line by line — ticked on the bureau's platform outside the product (the simulator's control
 * 模拟税务端勾选), ticked here but not counted there, a different effective tax, an invoice the pool does not
 * hold — with each side's count and tax; 采纳税务端 (one line or all) written to the tick log as adopt with who
 * and when; 确认统计 refused while differences are open unless a reason is given (recorded); only roles 1 and 13.
 *
 * The simulator's clock is the 5th of this month: the statistics are last month's (P), whose ticks the demo made.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTaxGateway, registerKnownIncoming, TaxGatewayError, tickOutside, untickOutside } from '../src/integrations/tax/index.js';
import { SimulatorStats } from '../src/integrations/tax/simulator/income-stats.js';
import { shiftPeriod } from '../src/integrations/tax/tick-rules.js';
import { differencesOpen } from '../src/modules/income/statistics/service.js';
import { startTestServer, type TestServer } from './helpers.js';
import { D, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';
import { nextDigital } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
let tickPeriod: TickPeriodFacts;
const S = '/api/income/statistics';
const THIS = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');
const P = shiftPeriod(THIS, -1);
const SIM_NOW = `${THIS.slice(0, 4)}-${THIS.slice(4)}-05T02:00:00Z`;

beforeAll(async () => {
  process.env.TAX_SIMULATOR_NOW = SIM_NOW;
  s = await startTestServer();
  await s.app.incomeJob.stop();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
  tickPeriod = (await s.call(`${D}/period`, {}, t13)).r;
});
afterAll(async () => {
  delete process.env.TAX_SIMULATOR_NOW;
  await s?.close();
});
const { fresh, facts, tick, inWindow } = tickHelpers(() => ({ s, t13, period: tickPeriod }));
const deps = () => ({ db: s.db, synclog: s.app.synclog, clock: { now: () => new Date(SIM_NOW) } });
const view = async () => (await s.call(`${S}/deduction/view`, { period: P }, t13)).r;
const outside = (body: Record<string, unknown>, t = t13) => s.call(`${S}/deduction/sim-outside-tick`, body, t);
const adoptLogs = (id: string) => s.db.kysely.selectFrom('income_tick_logs').selectAll().where('invoice_id', '=', id).where('action', '=', 'adopt').execute();

describe('permissions: adopt, the simulator control and confirming with a reason are the statistics roles\' (1, 13); 14 and 16 get 权限不足', () => {
  it.each(['deduction/adopt', 'deduction/sim-outside-tick', 'rebate/adopt', 'deduction/confirm'])('%s', async (path) => {
    const body = path.endsWith('sim-outside-tick') ? { ids: ['00000000-0000-4000-8000-000000000000'], action: 'tick', vatUsage: 1 } : { period: '209901', reason: '原因' };
    for (const t of [t14, t16]) expect([(await s.call(`${S}/${path}`, body, t)).status, (await s.call(`${S}/${path}`, body, t)).message]).toEqual([403, '权限不足']);
    for (const t of [t1, t13]) expect((await s.call(`${S}/${path}`, body, t)).status).not.toBe(403);
  });
});

describe('统计对比 on 抵扣统计', () => {
  let a: { id: string; no: string };
  let b: { id: string; no: string };
  let c: { id: string; no: string };
  let d: { id: string; no: string };
  const stranger = nextDigital();
  let base: { ours: { count: number; effectiveTax: number }; bureau: { count: number; effectiveTax: number } };

  it('before 申请统计 there is no comparison; the demo\'s ledger and the bureau agree once applied', async () => {
    expect(tickPeriod.period).toBe(P);
    const v = await view();
    expect([v.state, v.comparison, v.simulator]).toEqual([0, null, true]);
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).r.comparison).toMatchObject({ open: 0, lines: [] });
    const c0 = (await view()).comparison;
    expect(c0.ours).toEqual(c0.bureau);
    expect(c0.ours).toEqual({ count: v.totals.count, tax: v.totals.tax, effectiveTax: v.totals.effectiveTax });
    base = c0;
    // The bureau freezes the ticks once applied for: the outside control meets its refusal too.
    const x = await fresh();
    const refused = await outside({ ids: [x.id], action: 'tick', vatUsage: 1 });
    expect([refused.status, refused.message]).toEqual([400, `税款所属期${P}已申请统计，不能再勾选或撤销勾选；如需修改，请先撤销申请`]);
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).r.state).toBe(0);
  });

  it('outside ticks (the simulator control), then 申请统计: the lines that differ with both sides, and each side\'s count and tax', async () => {
    [a, b, c, d] = [await fresh(), await fresh(), await fresh({ tax: 1300 }), await fresh()];
    expect((await tick({ items: [{ id: a.id }, { id: c.id }, { id: d.id }] })).code).toBe(20000);
    // On the bureau's platform, outside the product: b ticked (5.00), c re-ticked at 6.50, d undone; an invoice the pool lacks ticked.
    const o1 = await outside({ ids: [b.id], action: 'tick', vatUsage: 1, effectiveTax: 500 });
    expect([o1.code, o1.message, o1.r.accepted]).toEqual([20000, '模拟税务端：勾选成功1张', 1]);
    expect((await outside({ ids: [c.id], action: 'tick', vatUsage: 1, effectiveTax: 650 })).r.accepted).toBe(1);
    expect((await outside({ numbers: [d.no], action: 'untick', vatUsage: 1 })).r.accepted).toBe(1);
    await registerKnownIncoming(deps(), [{ key: stranger, kind: '81', issueDate: inWindow(), tax: 700 }]);
    expect((await tickOutside(deps(), { period: P, usage: 1, items: [{ invoiceCode: '', invoiceNo: stranger, issueDate: inWindow(), effectiveTax: 700 }] }))[0]!.accepted).toBe(true);
    // Our ledger knows nothing of them.
    expect(await facts(b.id)).toMatchObject({ tick_state: 0 });
    expect(await facts(c.id)).toMatchObject({ tick_state: 1, effective_tax: 1300 });
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).r.state).toBe(1);
    const cmp = (await view()).comparison;
    const side = (eff: number, tax = eff) => ({ vatUsage: 1, deductReason: null, tax, effectiveTax: eff });
    const expected = [
      { key: b.no, kind: 'outside', invoiceId: b.id, ours: null, bureau: side(500, 900), adoptable: true, note: '' },
      { key: c.no, kind: 'tax', invoiceId: c.id, ours: side(1300), bureau: side(650, 1300), adoptable: true, note: '' },
      { key: d.no, kind: 'missing', invoiceId: d.id, ours: side(900), bureau: null, adoptable: true, note: '' },
      { key: stranger, kind: 'outside', invoiceId: null, ours: null, bureau: side(700), adoptable: false, note: '票池中无此发票，请先采集或录入后再采纳' },
    ].sort((x, y) => x.key.localeCompare(y.key));
    expect(cmp.lines.map((l: Record<string, unknown>) => ({ key: l.key, kind: l.kind, invoiceId: l.invoiceId, ours: l.ours, bureau: l.bureau, adoptable: l.adoptable, note: l.note }))).toEqual(expected);
    expect(cmp.open).toBe(4);
    // Ours: a, c (13.00), d on top of the demo; the bureau's: a, b (5.00), c (6.50) and the stranger (7.00).
    expect(cmp.ours).toEqual({ count: base.ours.count + 3, tax: expect.any(Number), effectiveTax: base.ours.effectiveTax + 900 + 1300 + 900 });
    expect(cmp.bureau).toEqual({ count: base.bureau.count + 4, tax: expect.any(Number), effectiveTax: base.bureau.effectiveTax + 900 + 500 + 650 + 700 });
  });

  it('确认统计 is refused while differences are open (no call to the bureau); a blank reason is no reason', async () => {
    for (const body of [{ period: P }, { period: P, reason: '   ' }]) {
      const r = await s.call(`${S}/deduction/confirm`, body, t13);
      expect([r.status, r.code, r.message]).toEqual([400, 30000, differencesOpen(4)]);
    }
    expect(differencesOpen(4)).toBe('税务端统计与本系统勾选记录有4处差异，请先采纳税务端状态，或填写原因后确认');
    expect((await view()).state).toBe(1);
  });

  it('采纳税务端, one line: the ledger takes the bureau\'s tick, the tick log says adopted with who and when; a line the pool lacks cannot be adopted', async () => {
    const no = await s.call(`${S}/deduction/adopt`, { period: P, keys: [stranger] }, t13);
    expect([no.status, no.message]).toEqual([400, `发票 ${stranger} 不能采纳：票池中无此发票，请先采集或录入后再采纳`]);
    expect((await s.call(`${S}/deduction/adopt`, { period: P, keys: ['99999999999999999999'] }, t13)).message).toBe('发票 99999999999999999999 不在差异清单中，请刷新后重试');
    const before = Date.now();
    const r = await s.call(`${S}/deduction/adopt`, { period: P, keys: [b.no] }, t13);
    expect([r.code, r.message, r.r.comparison.open]).toEqual([20000, '已采纳税务端勾选状态1张', 3]);
    const who = await s.db.kysely.selectFrom('users').select(['id', 'name']).where('login_name', '=', 'demo13').executeTakeFirstOrThrow();
    expect(await facts(b.id)).toMatchObject({ vat_usage: 1, tick_state: 1, effective_tax: 500, tick_period: P, ticked_by: who.name });
    const [log] = await adoptLogs(b.id);
    expect(log).toMatchObject({ action: 'adopt', result: 1, vat_usage: 1, effective_tax: 500, period: P, message: '采纳税务端：税务端已勾选为抵扣（有效税额5.00元）' });
    expect([log!.user_id, log!.user_name]).toEqual([who.id, who.name]);
    expect(Date.parse(log!.created_at)).toBeGreaterThanOrEqual(before - 1000);
    // The tick log page shows it with its label.
    const page = await s.call(`${D}/log`, { action: 'adopt', number: b.no }, t13);
    expect(page.r.items.map((x: Record<string, unknown>) => [x.action, x.userName, x.effectiveTax, x.result])).toEqual([['adopt', who.name, 500, 1]]);
  });

  it('采纳税务端, all: the other adoptable lines (a different tax, a tick the bureau does not count); the one the pool lacks stays open', async () => {
    const r = await s.call(`${S}/deduction/adopt`, { period: P }, t1);
    expect([r.code, r.message]).toEqual([20000, '已采纳税务端勾选状态2张']);
    expect(r.r.comparison.lines.map((l: { key: string }) => l.key)).toEqual([stranger]);
    expect(await facts(c.id)).toMatchObject({ tick_state: 1, effective_tax: 650 });
    expect(await facts(d.id)).toMatchObject({ vat_usage: 0, tick_state: 0, effective_tax: null, tick_period: '' });
    expect((await adoptLogs(d.id))[0]).toMatchObject({ message: '采纳税务端：税务端未勾选，撤销本系统勾选', effective_tax: 0 });
    const admin = await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo1').executeTakeFirstOrThrow();
    expect((await adoptLogs(c.id))[0]!.user_name).toBe(admin.name);
    // Nothing left to adopt.
    expect((await s.call(`${S}/deduction/adopt`, { period: P }, t13)).message).toBe('差异清单中没有可采纳的发票');
    // The ledger's figures now agree with the bureau but for the stranger.
    const v = await view();
    expect(v.comparison.bureau.count - v.comparison.ours.count).toBe(1);
    expect(v.comparison.bureau.effectiveTax - v.comparison.ours.effectiveTax).toBe(700);
    expect(v.totals.effectiveTax).toBe(v.comparison.ours.effectiveTax);
  });

  it('确认统计 with a reason: allowed, the reason and the open differences recorded with the action and in the operation log; no adoption after', async () => {
    const r = await s.call(`${S}/deduction/confirm`, { period: P, reason: '该发票为税务端代为勾选，待采集后补录' }, t13);
    expect([r.code, r.message, r.r.state]).toEqual([20000, '确认统计成功', 2]);
    expect(r.r.lastAction).toMatchObject({ action: 'confirm', result: 1, reason: '该发票为税务端代为勾选，待采集后补录', differences: 1 });
    const row = await s.db.kysely.selectFrom('income_stat_actions').selectAll().where('period', '=', P).where('action', '=', 'confirm').where('result', '=', 1).executeTakeFirstOrThrow();
    expect([row.reason, Number(row.differences)]).toEqual(['该发票为税务端代为勾选，待采集后补录', 1]);
    const op = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', `%税款所属期${P}确认统计成功%`).execute();
    expect(op.map((x) => x.description)).toContain(`抵扣统计：税款所属期${P}确认统计成功（与税务端存在1处差异，确认原因：该发票为税务端代为勾选，待采集后补录）`);
    expect((await s.call(`${S}/deduction/adopt`, { period: P }, t13)).message).toBe(`税款所属期${P}的统计已确认，不能再采纳；如需修改，请先撤销确认`);
  });

  it('without differences 确认统计 needs no reason (and records none)', async () => {
    expect((await s.call(`${S}/deduction/revoke-confirm`, { period: P }, t13)).r.state).toBe(1);
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).r.state).toBe(0);
    expect((await untickOutside(deps(), { period: P, usage: 1, items: [{ invoiceCode: '', invoiceNo: stranger, issueDate: inWindow() }] }))[0]!.accepted).toBe(true);
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).r.comparison.open).toBe(0);
    const r = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
    expect([r.code, r.r.state, r.r.lastAction.reason]).toEqual([20000, 2, undefined]);
  });
});

describe('a detail the bureau cannot give', () => {
  it('the view says so instead of failing; 确认统计 then needs a reason (recorded as one difference)', async () => {
    expect((await s.call(`${S}/deduction/revoke-confirm`, { period: P }, t13)).r.state).toBe(1);
    const spy = vi.spyOn(SimulatorStats.prototype, 'statDetails').mockRejectedValue(new TaxGatewayError('TRANSPORT', '税务端连接超时', 'test'));
    try {
      const v = await view();
      expect([v.state, v.comparison, v.comparisonError]).toEqual([1, null, '税务端统计明细获取失败（税务端连接超时），暂不能逐张对比']);
      const r = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
      expect([r.status, r.message]).toEqual([400, '税务端统计明细获取失败（税务端连接超时），无法逐张对比；请稍后重试，或填写原因后确认']);
      const ok = await s.call(`${S}/deduction/confirm`, { period: P, reason: '明细暂不可用，已在电子税务局核对' }, t13);
      expect([ok.code, ok.r.state, ok.r.lastAction.reason, ok.r.lastAction.differences]).toEqual([20000, 2, '明细暂不可用，已在电子税务局核对', 1]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the simulator control', () => {
  it('refused when the tax gateway is not the simulator; its body checked in Chinese', async () => {
    const bad = await outside({ ids: [], action: 'tick', vatUsage: 1 });
    expect([bad.status, bad.message]).toEqual([400, '参数错误：请选择发票']);
    const x = await s.db.kysely.selectFrom('income_invoices').select('id').limit(1).executeTakeFirstOrThrow();
    expect((await outside({ ids: [x.id], action: 'tick', vatUsage: 4 })).message).toBe('请选择不抵扣原因');
    expect((await outside({ action: 'tick', vatUsage: 1 })).message).toBe('参数错误：请选择发票');
    expect((await outside({ numbers: ['26442000009999999999'], action: 'tick', vatUsage: 1 })).message).toBe('票池中无发票 26442000009999999999');
    await s.db.kysely.updateTable('invoice_settings').set({ gateway_mode: 'nuonuo' }).execute();
    try {
      const r = await outside({ ids: [x.id], action: 'tick', vatUsage: 1 });
      expect([r.status, r.message]).toEqual([400, '当前连接的是真实税务端，请在税务端操作']);
    } finally {
      await s.db.kysely.updateTable('invoice_settings').set({ gateway_mode: 'simulator' }).execute();
    }
    // The gateway in Nuonuo mode has no controls at all.
    expect(createTaxGateway(deps(), { mode: 'nuonuo', nuonuo: { appKey: 'k', appSecret: 's', taxNumber: '91310000MA1FL0000X' } }).simulator).toBeUndefined();
  });
});
