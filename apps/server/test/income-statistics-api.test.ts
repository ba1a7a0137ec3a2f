/**
 * Issue 14, period statistics on the server: /api/income/statistics/{deduction|rebate}/… — the view (period,
 * state, figures by kind that add up, the passenger transport line and the deductible total on 抵扣统计),
 * apply, confirm, revoke-apply, revoke-confirm, export; every refusal word for word (08 不能重复确认,
 * 09 当前月与属期相等时不符合确认条件, 10 已确认统计不能撤销 and ours) as a Chinese 400, never 5xx; confirm
 * locks ticking (the ticking screens' period moves on); two confirms at once make one call to the tax
 * service; the action table, the operation log and the sync log. Roles 1 and 13; 14 and 16 get 权限不足.
 *
 * The simulator's clock is TAX_SIMULATOR_NOW (set per step): the 5th of this month puts the statistics on
 * last month (P), whose ticks the demo seed made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filingDeadline } from '@zhyy/shared';
import { IncomeMethods, createTaxGateway } from '../src/integrations/tax/index.js';
import { shiftPeriod } from '../src/integrations/tax/tick-rules.js';
import { TickMessages } from '../src/integrations/tax/index.js';
import { transportDeductionTotal } from '../src/modules/income/transport/repo.js';
import { startTestServer, type TestServer } from './helpers.js';
import { D, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
const S = '/api/income/statistics';
const shanghai = new Date(Date.now() + 8 * 3600_000).toISOString();
const THIS = shanghai.slice(0, 7).replace('-', '');
const P = shiftPeriod(THIS, -1);
/** P's deadline by the filing calendar (申报日历, issue 29 item 9): the 15th moved past weekends and holidays. */
const P_DEADLINE = filingDeadline(P).day;
const day = (period: string, d: number) => `${period.slice(0, 4)}-${period.slice(4, 6)}-${String(d).padStart(2, '0')}T02:00:00Z`;
/** The simulator's clock: a day of a month (Asia/Shanghai 10:00). */
const clock = (period: string, d: number) => {
  process.env.TAX_SIMULATOR_NOW = day(period, d);
};

beforeAll(async () => {
  clock(THIS, 5);
  s = await startTestServer();
  await s.app.incomeJob.stop();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
  tickPeriod = (await s.call(`${D}/period`, {}, t13)).r;
});
let tickPeriod: TickPeriodFacts;
const { fresh, facts, tick } = tickHelpers(() => ({ s, t13, period: tickPeriod }));
afterAll(async () => {
  delete process.env.TAX_SIMULATOR_NOW;
  await s?.close();
});

const statLogs = () => s.db.kysely.selectFrom('sync_logs').select(['type', 'memo']).where('type', 'in', [IncomeMethods.statApply, IncomeMethods.statConfirm]).execute();

describe('permissions: roles 1 and 13; 14 and 16 get 权限不足', () => {
  const CALLS = ['view', 'apply', 'confirm', 'revoke-apply', 'revoke-confirm', 'export'].flatMap((p) => [`deduction/${p}`, `rebate/${p}`]);
  it.each(CALLS)('%s', async (path) => {
    const body = path.endsWith('view') || path.endsWith('export') ? {} : { period: '209901' };
    for (const t of [t14, t16]) {
      const a = await s.call(`${S}/${path}`, body, t);
      expect(a.status).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    // Allowed: answered (a far period changes nothing: refused 尚未开始 by the service, or not among the periods shown).
    for (const t of [t1, t13]) expect((await s.call(`${S}/${path}`, path.endsWith('export') ? {} : { period: '209901' }, t)).status).not.toBe(403);
  });
});

describe('抵扣统计: the figures, the state machine and each refusal', () => {
  it('the view: last month (the 5th), figures by kind that add up and match the pool, the transport line, the deductible total', async () => {
    const a = await s.call(`${S}/deduction/view`, {}, t13);
    expect(a.code, a.message).toBe(20000);
    const v = a.r;
    expect(v).toMatchObject({ scope: 'deduction', period: P, tickPeriod: P, state: 0, actions: ['apply'], lastAction: null });
    expect(v.periods).toEqual([{ period: shiftPeriod(P, -1), state: 0 }, { period: P, state: 0 }]);
    expect(v.deadlineText).toBe(`${P_DEADLINE} 23:59:59`);
    expect(P_DEADLINE.slice(0, 7).replace('-', '')).toBe(THIS);
    const pool = await s.db.kysely.selectFrom('income_invoices').select(['kind', 'amount_excl', 'tax', 'effective_tax']).where('tick_period', '=', P).where('vat_usage', '=', 1).where('tick_state', '=', 1).execute();
    expect(pool.length).toBeGreaterThan(0);
    expect(v.totals).toEqual({
      count: pool.length,
      amountExcludingTax: pool.reduce((x, r) => x + Number(r.amount_excl), 0),
      tax: pool.reduce((x, r) => x + Number(r.tax), 0),
      effectiveTax: pool.reduce((x, r) => x + Number(r.effective_tax), 0),
    });
    for (const k of ['count', 'amountExcludingTax', 'tax', 'effectiveTax'] as const) expect(v.rows.reduce((x: number, r: Record<string, number>) => x + r[k]!, 0)).toBe(v.totals[k]);
    expect(v.rows.map((r: { kind: string }) => r.kind)).toEqual([...new Set(pool.map((r) => r.kind))].sort());
    expect(v.rows.find((r: { kind: string }) => r.kind === '81')?.kindLabel ?? '数电发票（增值税专用发票）').toBe('数电发票（增值税专用发票）');
    const transport = await transportDeductionTotal(s.db.kysely, P);
    expect(v.transport).toEqual({ count: transport.count, basis: transport.basis, tax: transport.tax });
    expect(v.deductibleTotal).toBe(v.totals.effectiveTax + transport.tax);
    // 退税统计: no transport line; its own state.
    const r = await s.call(`${S}/rebate/view`, {}, t13);
    expect(r.r).toMatchObject({ scope: 'rebate', period: P, state: 0, transport: null });
    expect(r.r.deductibleTotal).toBe(r.r.totals.tax);
    expect((await s.call(`${S}/deduction/view`, { period: '209901' }, t13)).message).toBe(`只能查看税款所属期${shiftPeriod(P, -1)}或${P}的统计`);
  });

  it('抵扣勾选 本期已勾选 and 抵扣统计 are one query: the same figures, 不抵扣 and 退税 apart (also 退税勾选 and 退税统计)', async () => {
    // Issue 27: the header said 234 张 / 1,726,305.72 while the statistics said 175 份 / 1,152,292.18 (the 不抵扣 counted).
    expect(tickPeriod.period).toBe(P);
    const [a, b, c, d] = [await fresh({ tax: 1300 }), await fresh(), await fresh(), await fresh()];
    expect((await tick({ items: [{ id: a.id, effectiveTax: 650 }] })).code).toBe(20000);
    expect((await tick({ items: [{ id: b.id }], vatUsage: 4, deductReason: 3 })).code).toBe(20000);
    expect((await tick({ items: [{ id: c.id }], vatUsage: 2 }, t13, 'rebate-')).code).toBe(20000);
    expect((await tick({ items: [{ id: d.id }], vatUsage: 3 }, t13, 'rebate-')).code).toBe(20000);
    const pool = async (usages: number[]) => {
      const rows = await s.db.kysely.selectFrom('income_invoices').select(['tax', 'effective_tax']).where('tick_period', '=', P).where('tick_state', '=', 1).where('vat_usage', 'in', usages).execute();
      return { count: rows.length, tax: rows.reduce((x, r) => x + Number(r.tax), 0), effectiveTax: rows.reduce((x, r) => x + Number(r.effective_tax), 0) };
    };
    const header = (await s.call(`${D}/period`, { scope: 'deduction' }, t13)).r;
    const view = (await s.call(`${S}/deduction/view`, { period: P }, t13)).r;
    expect(header.ticked).toEqual({ count: view.totals.count, tax: view.totals.tax, effectiveTax: view.totals.effectiveTax });
    expect(header.ticked).toEqual(await pool([1]));
    expect(view.notice).toBe('');
    const nonDeduct = await pool([4]);
    const rebate = await pool([2, 3]);
    expect(nonDeduct.count).toBeGreaterThan(0);
    expect(rebate.count).toBeGreaterThanOrEqual(2);
    const apart = [{ usages: [4], label: '不抵扣', count: nonDeduct.count, tax: nonDeduct.tax }, { usages: [2, 3], label: '退税', count: rebate.count, tax: rebate.tax }];
    expect(header.apart).toEqual(apart);
    expect(view.apart).toEqual(apart);
    const rHeader = (await s.call(`${D}/period`, { scope: 'rebate' }, t13)).r;
    const rView = (await s.call(`${S}/rebate/view`, { period: P }, t13)).r;
    expect(rHeader.ticked).toEqual({ count: rView.totals.count, tax: rView.totals.tax, effectiveTax: rView.totals.effectiveTax });
    expect(rHeader.ticked).toEqual(rebate);
    expect(rHeader.apart.map((x: { label: string }) => x.label)).toEqual(['抵扣', '不抵扣']);
  });

  it('refusals before applying; apply, revoke, apply again', async () => {
    const c = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
    expect([c.status, c.message]).toEqual([400, `税款所属期${P}尚未申请统计，请先申请统计`]);
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).message).toBe(`税款所属期${P}尚未申请统计，无需撤销`);
    expect((await s.call(`${S}/deduction/revoke-confirm`, { period: P }, t13)).message).toBe(`税款所属期${P}的统计未确认，无需撤销确认`);
    const a = await s.call(`${S}/deduction/apply`, { period: P }, t13);
    expect([a.code, a.message, a.r.state, a.r.actions]).toEqual([20000, '申请统计成功', 1, ['confirm', 'revokeApply']]);
    expect(a.r.lastAction).toMatchObject({ action: 'apply', result: 1, message: '申请统计成功' });
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).message).toBe(`税款所属期${P}已申请统计，请勿重复申请`);
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).r.state).toBe(0);
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t1)).r.state).toBe(1);
  });

  it('from 申请统计 until 撤销申请 the period\'s 抵扣 and 不抵扣 ticks are closed: refused here, by the simulated service, and the figures stay', async () => {
    // Issue 27: with the statistics applied an invoice could still be ticked (175 → 176 份).
    const applied = TickMessages.applied(P);
    expect(applied).toBe(`税款所属期${P}已申请统计，不能再勾选或撤销勾选；如需修改，请先撤销申请`);
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).r.state).toBe(0);
    const ticked = await fresh();
    const waiting = await fresh();
    expect((await tick({ items: [{ id: ticked.id }] })).code).toBe(20000);
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).r.state).toBe(1);
    const before = (await s.call(`${S}/deduction/view`, { period: P }, t13)).r.totals;
    const header = (await s.call(`${D}/period`, { scope: 'deduction' }, t13)).r;
    expect(header).toMatchObject({ period: P, statState: 1, open: false, closedReason: applied });
    for (const r of [
      await tick({ items: [{ id: waiting.id }] }),
      await tick({ items: [{ id: waiting.id }], vatUsage: 4, deductReason: 1 }),
      await tick({ filter: { number: waiting.no } }),
      await s.call(`${D}/untick`, { ids: [ticked.id] }, t13),
      await s.call(`${D}/import`, { file: 'eA==', vatUsage: 1 }, t13),
    ]) expect([r.status, r.code, r.message]).toEqual([400, 30000, applied]);
    expect(await facts(waiting.id)).toMatchObject({ tick_state: 0 });
    expect(await facts(ticked.id)).toMatchObject({ tick_state: 1 });
    expect((await s.call(`${S}/deduction/view`, { period: P }, t13)).r.totals).toEqual(before);
    // The service refuses too (so a Nuonuo-mode call meets the bureau's refusal), for 抵扣 and 不抵扣 alike.
    const sim = createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: { now: () => new Date(day(THIS, 5)) } }, { mode: 'simulator', simulator: { delayMs: 0 } });
    const issueDate = (await s.db.kysely.selectFrom('income_invoices').select('issue_date').where('id', '=', waiting.id).executeTakeFirstOrThrow()).issue_date;
    await expect(sim.tickInvoices({ period: P, usage: 1, items: [{ invoiceCode: '', invoiceNo: waiting.no, issueDate, effectiveTax: 900 }] })).rejects.toThrow(applied);
    await expect(sim.tickInvoices({ period: P, usage: 4, reason: 1, items: [{ invoiceCode: '', invoiceNo: waiting.no, issueDate, effectiveTax: 900 }] })).rejects.toThrow(applied);
    await expect(sim.untickInvoices({ period: P, usage: 1, items: [{ invoiceCode: '', invoiceNo: ticked.no, issueDate }] })).rejects.toThrow(applied);
    // 退税勾选 has its own statistics (退税统计, not applied): still open.
    expect((await s.call(`${D}/period`, { scope: 'rebate' }, t13)).r).toMatchObject({ open: true, statState: 0 });
    // 撤销申请 opens the period again.
    expect((await s.call(`${S}/deduction/revoke-apply`, { period: P }, t13)).r.state).toBe(0);
    expect((await s.call(`${D}/period`, { scope: 'deduction' }, t13)).r).toMatchObject({ open: true, closedReason: '' });
    expect((await s.call(`${D}/untick`, { ids: [ticked.id] }, t13)).code).toBe(20000);
    expect((await s.call(`${S}/deduction/apply`, { period: P }, t13)).r.state).toBe(1);
  });

  it('09: a confirmation in the period own month is refused (the message word for word)', async () => {
    // A day of P's own month after the period before it closed (its deadline may be late in the month: 2026-10-26 after the October holiday).
    clock(P, Number(filingDeadline(shiftPeriod(P, -1)).day.slice(8)) + 1);
    const a = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
    expect([a.status, a.message]).toEqual([400, '当前月与属期相等时不符合确认条件']);
    // Issue 31 #10: the view does not offer 确认统计 then, and says why in our words.
    const v = (await s.call(`${S}/deduction/view`, { period: P }, t13)).r;
    expect(v.state).toBe(1);
    expect(v.actions).toEqual(['revokeApply']);
    expect(v.unavailable).toEqual({ confirm: `所属期${P.slice(0, 4)}年${P.slice(4)}月当月不能确认统计，请于次月起、统计截止前确认` });
    clock(THIS, 5);
    const later = (await s.call(`${S}/deduction/view`, { period: P }, t13)).r;
    expect([later.actions, later.unavailable]).toEqual([['confirm', 'revokeApply'], undefined]);
  });

  it('confirm: 已确认, ticking of the period locked (the ticking screens move on), the logs; 08 on a second confirmation', async () => {
    const a = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
    expect([a.code, a.message, a.r.state, a.r.period, a.r.actions]).toEqual([20000, '确认统计成功', 2, P, ['revokeConfirm']]);
    expect(a.r.tickPeriod).toBe(THIS);
    const tick = await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13);
    expect(tick.r.period).toBe(THIS);
    const sim = createTaxGateway({ db: s.db, synclog: s.app.synclog, clock: { now: () => new Date(day(THIS, 5)) } }, { mode: 'simulator', simulator: { delayMs: 0 } });
    await expect(sim.tickInvoices({ period: P, usage: 1, items: [{ invoiceCode: '', invoiceNo: '26442000000000009999', issueDate: `${P.slice(0, 4)}-${P.slice(4, 6)}-02`, effectiveTax: 1 }] })).rejects.toThrow(`税款所属期${P}不是当前可勾选的所属期（当前为${THIS}）`);
    // The view keeps showing the confirmed period (it can still be revoked).
    expect((await s.call(`${S}/deduction/view`, {}, t13)).r).toMatchObject({ period: P, state: 2 });
    const again = await s.call(`${S}/deduction/confirm`, { period: P }, t13);
    expect([again.status, again.message]).toEqual([400, '不能重复确认']);
    const ops = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', '抵扣统计：%').execute();
    expect(ops.map((o) => o.description)).toContain(`抵扣统计：税款所属期${P}确认统计成功`);
    expect(ops.map((o) => o.description)).toContain(`抵扣统计：税款所属期${P}确认统计失败：不能重复确认`);
    const rows = await s.db.kysely.selectFrom('income_stat_actions').selectAll().where('scope', '=', 'deduction').where('period', '=', P).orderBy('created_at').execute();
    expect(rows.filter((r) => r.result === 1).map((r) => r.action)).toEqual(['apply', 'revokeApply', 'apply', 'revokeApply', 'apply', 'revokeApply', 'apply', 'confirm']);
    expect(rows.every((r) => r.active === 0)).toBe(true);
    expect((await statLogs()).filter((l) => l.type === IncomeMethods.statConfirm)).toHaveLength(2); // the 09 refusal and the confirmation
  });

  it('revoke the confirmation until the deadline (ticking opens again); after it 10 已确认统计不能撤销', async () => {
    const a = await s.call(`${S}/deduction/revoke-confirm`, { period: P }, t13);
    expect([a.code, a.r.state]).toEqual([20000, 1]);
    expect((await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13)).r.period).toBe(P);
    expect((await s.call(`${S}/deduction/confirm`, { period: P }, t13)).r.state).toBe(2);
    clock(THIS, Number(P_DEADLINE.slice(8)) + 1);
    const b = await s.call(`${S}/deduction/revoke-confirm`, { period: P }, t13);
    expect([b.status, b.message]).toEqual([400, '已确认统计不能撤销']);
    expect((await s.call(`${S}/deduction/view`, { period: P }, t13)).r.state).toBe(2);
    clock(THIS, 5);
  });
});

describe('退税统计', () => {
  it('two confirms at once (and from a second server on PostgreSQL): one call to the tax service, the other refused in Chinese', async () => {
    expect((await s.call(`${S}/rebate/apply`, { period: P }, t13)).r.state).toBe(1);
    const before = (await statLogs()).filter((l) => l.type === IncomeMethods.statConfirm).length;
    const other = s.dialect === 'postgres' ? await startTestServer({ sameDatabaseAs: s }) : s;
    try {
      const out = await Promise.all([s.call(`${S}/rebate/confirm`, { period: P }, t13), other.call(`${S}/rebate/confirm`, { period: P }, t13)]);
      expect(out.filter((o) => o.code === 20000)).toHaveLength(1);
      const refused = out.find((o) => o.code !== 20000)!;
      expect([400, 409]).toContain(refused.status);
      expect(['不能重复确认', '该所属期的统计正在处理中，请稍后再试']).toContain(refused.message);
    } finally {
      if (other !== s) await other.close();
    }
    expect((await statLogs()).filter((l) => l.type === IncomeMethods.statConfirm).length - before).toBe(1);
    // 退税统计 confirmed: ticking is not locked by it, and 抵扣统计 keeps its own state.
    expect((await s.call(`${S}/rebate/view`, { period: P }, t13)).r.state).toBe(2);
  });

  it('export: the figures by kind with 合计; 抵扣统计 adds the transport line and the total', async () => {
    const v = (await s.call(`${S}/deduction/view`, { period: P }, t13)).r;
    const { res, ws } = await s.download(`${S}/deduction/export`, { period: P }, t13);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).values).toEqual([undefined, '发票类型', '份数', '金额（元）', '税额（元）', '有效税额（元）']);
    const n = v.rows.length;
    expect(ws!.rowCount).toBe(1 + n + 3);
    expect(ws!.getRow(2 + n).getCell(1).value).toBe('合计');
    expect(ws!.getRow(2 + n).getCell(5).value).toBe(v.totals.effectiveTax / 100);
    expect(ws!.getRow(3 + n).getCell(1).value).toBe('旅客运输服务（计算抵扣）');
    expect(ws!.getRow(4 + n).getCell(5).value).toBe(v.deductibleTotal / 100);
    const { ws: rws } = await s.download(`${S}/rebate/export`, { period: P }, t13);
    expect(rws!.getRow(rws!.rowCount).getCell(1).value).toBe('合计');
  });
});
