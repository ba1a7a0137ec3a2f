/**
 * Issue 16, the demo cost data (seed/cost.ts): the price list (about 120 keys, windows that never
 * overlap), thirteen months of orders (here 40 a month instead of the full 180, the same generator),
 * 5–20 lines priced exactly as the service prices them, numbers and counters, the state mix, eleven
 * months closed with nothing waiting in them, one live order per month × department × project, and the
 * auditor assignments (demo20 has orders waiting).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COST_ORDER_NO, CostOrderSource, CostOrderState, costOrderNo, lineAmount, lineTax, priceForMonth, shanghaiMonthOf, shiftMonth, windowsOverlap,
} from '@zhyy/shared';
import '../src/modules/cost/tables.js';
import { COST_DEPTS, INVALID_REASONS, REOPEN_REASON } from '../src/seed/costData.js';
import { startTestServer, type TestServer } from './helpers.js';

const PER_MONTH = 40;
let s: TestServer;
const k = () => s.db.kysely;
const now = new Date();
const current = shanghaiMonthOf(now);
const lastMonth = shiftMonth(current, -1);
const closedMonths = Array.from({ length: 11 }, (_, i) => shiftMonth(current, i - 12));

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { incomePerDay: 3, reimbPerMonth: 10, costPerMonth: PER_MONTH } });
}, 300_000);
afterAll(() => s?.close());

const orders = async () => (await k().selectFrom('cost_orders').selectAll().execute()).map((o) => ({ ...o, state: Number(o.state), amount: Number(o.amount), tax: Number(o.tax), line_count: Number(o.line_count) }));
const lines = async () => (await k().selectFrom('cost_order_lines').selectAll().orderBy('order_id').orderBy('line_no').execute()).map((l) => ({ ...l, line_no: Number(l.line_no), amount: Number(l.amount), tax: Number(l.tax) }));
const prices = () => k().selectFrom('cost_prices').selectAll().execute();
const keyOf = (p: { item_code: string; spec: string; unit: string }) => `${p.item_code}|${p.spec}|${p.unit}`;
const groupBy = <X>(xs: X[], key: (x: X) => string) => {
  const m = new Map<string, X[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
};

describe('the demo price list', () => {
  it('holds about 120 keys, most revised twice within the year, windows that never overlap, the newest open-ended', async () => {
    const all = await prices();
    const byKey = groupBy(all, keyOf);
    expect(byKey.size).toBeGreaterThanOrEqual(110);
    expect(byKey.size).toBeLessThanOrEqual(140);
    const yearAgo = `${shiftMonth(current, -12)}-01`;
    let revisedTwice = 0;
    for (const [key, ws] of byKey) {
      for (const [i, a] of ws.entries()) {
        for (const b of ws.slice(i + 1)) expect(windowsOverlap({ validFrom: a.valid_from, validTo: a.valid_to }, { validFrom: b.valid_from, validTo: b.valid_to }), key).toBe(false);
        if (a.valid_to) expect(a.valid_to >= a.valid_from, key).toBe(true);
      }
      expect(ws.filter((w) => w.valid_to === null).length, key).toBeLessThanOrEqual(1);
      if (ws.filter((w) => w.valid_from > yearAgo).length >= 2) revisedTwice++;
    }
    expect(revisedTwice / byKey.size).toBeGreaterThan(0.9);
    expect([...byKey.values()].filter((ws) => ws.some((w) => w.valid_to === null)).length / byKey.size).toBeGreaterThan(0.95);
    // Each window opens on a day, a few mid-month; the oldest covers the first month of orders.
    expect(all.filter((w) => !w.valid_from.endsWith('-01')).length).toBeGreaterThan(0);
    // Realistic decimals (some with more than two places) and the tax rates of each category.
    expect(all.some((p) => /\.\d{3,}$/.test(p.unit_price))).toBe(true);
    const rates = (c: string) => new Set(all.filter((p) => p.category === c).map((p) => p.tax_rate));
    expect([...rates('labour')].sort()).toEqual(['0.03', '0.06']);
    expect([...rates('equipment')]).toEqual(['0.13']);
    expect([...rates('material')]).toEqual(['0.13']);
    expect([...rates('vehicle')]).toEqual(['0.09']);
    expect([...rates('service')]).toEqual(['0.06']);
    for (const name of ['普工', '木工', '钢筋工', '电工', '焊工', '架子工', '测量员', '挖掘机', '汽车吊', '塔吊']) expect(all.some((p) => p.item_name === name), name).toBe(true);
    expect(all.some((p) => p.category === 'vehicle' && p.unit === '公里')).toBe(true);
  });
});

describe('the demo cost orders', () => {
  it('hold thirteen months at the given volume (the current one partly), 5–20 lines each, numbered CB{yyyyMM}{seq} in creation order with the counters', async () => {
    const all = await orders();
    const byMonth = groupBy(all, (o) => o.month);
    expect([...byMonth.keys()].sort()).toEqual(Array.from({ length: 13 }, (_, i) => shiftMonth(current, i - 12)));
    for (const m of [...closedMonths, lastMonth]) {
      expect(byMonth.get(m)!.length, m).toBeGreaterThanOrEqual(PER_MONTH * 0.85);
      expect(byMonth.get(m)!.length, m).toBeLessThanOrEqual(PER_MONTH * 1.25);
    }
    expect(byMonth.get(current)!.length).toBeGreaterThanOrEqual(PER_MONTH * 0.2);
    expect(byMonth.get(current)!.length).toBeLessThanOrEqual(PER_MONTH * 0.6);
    const counters = new Map((await k().selectFrom('cost_counters').selectAll().execute()).map((c) => [c.month, Number(c.seq)]));
    for (const [m, os] of byMonth) {
      const inOrder = [...os].sort((a, b) => a.order_no.localeCompare(b.order_no));
      expect(inOrder.map((o) => o.order_no), m).toEqual(inOrder.map((_, i) => costOrderNo(m, i + 1)));
      for (const [i, o] of inOrder.entries()) if (i > 0) expect(o.created_at >= inOrder[i - 1]!.created_at, o.order_no).toBe(true);
      expect(counters.get(m), m).toBe(os.length);
    }
    for (const o of all) expect(o.order_no).toMatch(COST_ORDER_NO);
    for (const o of all) expect(o.created_at < now.toISOString(), o.order_no).toBe(true);
    const ls = groupBy(await lines(), (l) => l.order_id);
    for (const o of all) {
      const own = ls.get(o.id) ?? [];
      expect(own.length, o.order_no).toBe(o.line_count);
      expect(o.line_count, o.order_no).toBeGreaterThanOrEqual(5);
      expect(o.line_count, o.order_no).toBeLessThanOrEqual(20);
      expect(own.map((l) => l.line_no)).toEqual(own.map((_, i) => i + 1));
      expect(new Set(own.map(keyOf)).size, o.order_no).toBe(own.length);
    }
  });

  it('price every line with the window priceForMonth finds for the order month, copied; amounts half-up and the sums add up', async () => {
    const byKey = groupBy(await prices(), keyOf);
    const byId = new Map((await orders()).map((o) => [o.id, o]));
    const sums = new Map<string, { amount: number; tax: number }>();
    const all = await lines();
    expect(all.length).toBeGreaterThan(PER_MONTH * 12 * 5);
    for (const l of all) {
      const o = byId.get(l.order_id)!;
      const windows = (byKey.get(keyOf(l)) ?? []).map((w) => ({ ...w, validFrom: w.valid_from, validTo: w.valid_to }));
      const w = priceForMonth(windows, o.month);
      expect(w?.id, `${o.order_no} ${l.line_no}`).toBe(l.price_id);
      expect([l.unit_price, l.tax_rate, l.price_from, l.price_to, l.item_name, l.category]).toEqual([w!.unit_price, w!.tax_rate, w!.valid_from, w!.valid_to, w!.item_name, w!.category]);
      expect(l.amount, `${o.order_no} ${l.line_no}`).toBe(lineAmount(l.quantity, l.unit_price));
      expect(l.tax, `${o.order_no} ${l.line_no}`).toBe(lineTax(l.amount, l.tax_rate));
      expect(l.quantity).toMatch(/^\d{1,9}(\.\d{1,4})?$/);
      expect(Number(l.quantity)).toBeGreaterThan(0);
      const t = sums.get(o.id) ?? { amount: 0, tax: 0 };
      sums.set(o.id, { amount: t.amount + l.amount, tax: t.tax + l.tax });
    }
    for (const o of byId.values()) expect([o.amount, o.tax], o.order_no).toEqual([sums.get(o.id)!.amount, sums.get(o.id)!.tax]);
    // Some month used a window that started within it (an item introduced mid-month) or a mid-month revision.
    expect(all.some((l) => l.price_from > `${byId.get(l.order_id)!.month}-01`)).toBe(true);
  });

  it('mixes sources (mostly the project-management push, with its reference) and keeps one live order per month, department and project', async () => {
    const all = await orders();
    const by = (src: string) => all.filter((o) => o.source === src);
    expect(by(CostOrderSource.pms).length / all.length).toBeGreaterThan(0.45);
    expect(by(CostOrderSource.import).length).toBeGreaterThan(0);
    expect(by(CostOrderSource.entry).length).toBeGreaterThan(0);
    for (const o of by(CostOrderSource.pms)) expect(o.pms_ref).toMatch(new RegExp(`^PMS-${o.month.replace('-', '')}-\\d{5}$`));
    for (const o of all.filter((x) => x.source !== CostOrderSource.pms)) expect(o.pms_ref).toBe('');
    expect(by(CostOrderSource.pms).filter((o) => o.month === current)).toEqual([]);
    expect(new Set(by(CostOrderSource.pms).map((o) => o.pms_ref)).size).toBe(by(CostOrderSource.pms).length);
    const live = groupBy(all.filter((o) => o.state !== CostOrderState.invalid), (o) => `${o.month}|${o.dept_id}|${o.project_id}`);
    for (const [key, os] of live) expect(os.length, key).toBe(1);
    const projects = new Set(all.map((o) => o.project_id));
    const depts = new Set(all.map((o) => o.dept_name));
    expect(depts.size).toBe(COST_DEPTS.length);
    expect(projects.size).toBeGreaterThanOrEqual(6);
    const known = new Set((await k().selectFrom('projects').select('id').execute()).map((p) => p.id));
    for (const p of projects) expect(known.has(p)).toBe(true);
  });

  it('has the state mix: mostly audited, waiting only last month and this month, a few invalid with a reason (some replaced)', async () => {
    const all = await orders();
    const state = (st: number) => all.filter((o) => o.state === st);
    expect(state(CostOrderState.audited).length / all.length).toBeGreaterThan(0.8);
    const waiting = state(CostOrderState.toAudit);
    expect(waiting.length).toBeGreaterThanOrEqual(5);
    expect([...new Set(waiting.map((o) => o.month))].sort()).toEqual([lastMonth, current]);
    for (const o of waiting) expect([o.audited_by, o.audited_at, o.invalid_reason], o.order_no).toEqual(['', null, '']);
    for (const o of state(CostOrderState.audited)) {
      expect(o.audited_by, o.order_no).not.toBe('');
      expect(o.audited_at! > o.created_at, o.order_no).toBe(true);
      expect(o.audited_at! < now.toISOString(), o.order_no).toBe(true);
    }
    const invalid = state(CostOrderState.invalid);
    expect(invalid.length).toBeGreaterThanOrEqual(3);
    expect(invalid.length / all.length).toBeLessThan(0.06);
    for (const o of invalid) expect(INVALID_REASONS, o.order_no).toContain(o.invalid_reason);
    const replaced = invalid.filter((o) => all.some((x) => x.state !== CostOrderState.invalid && x.month === o.month && x.dept_id === o.dept_id && x.project_id === o.project_id && x.created_at > o.updated_at));
    expect(replaced.length).toBeGreaterThanOrEqual(1);
    // Each order's log: how it arrived, its edits, its audit or invalidation, by whom.
    const logs = groupBy(await k().selectFrom('cost_order_logs').selectAll().orderBy('created_at').execute(), (l) => l.order_id);
    const arrival: Record<string, string> = { pms: 'pms', import: 'import', entry: 'create' };
    for (const o of all) {
      const own = logs.get(o.id) ?? [];
      expect(own[0]?.action, o.order_no).toBe(arrival[o.source]);
      expect(own[0]?.created_at, o.order_no).toBe(o.created_at);
      const last = own.at(-1)!;
      if (o.state === CostOrderState.audited) expect([last.action, last.user_name, last.created_at], o.order_no).toEqual(['audit', o.audited_by, o.audited_at]);
      if (o.state === CostOrderState.invalid) expect([last.action, last.message], o.order_no).toEqual(['invalid', `作废：${o.invalid_reason}`]);
      if (o.state === CostOrderState.toAudit) expect(own.every((l) => l.action !== 'audit' && l.action !== 'invalid'), o.order_no).toBe(true);
    }
  });

  it('closes the eleven months before last month for every department with orders, nothing waiting in them, logged, one reopened and closed again', async () => {
    const all = await orders();
    const closings = await k().selectFrom('cost_closings').selectAll().execute();
    expect([...new Set(closings.map((c) => c.month))].sort()).toEqual(closedMonths);
    const closed = new Map(closings.map((c) => [`${c.dept_id}|${c.month}`, c]));
    for (const m of closedMonths) {
      const depts = new Set(all.filter((o) => o.month === m).map((o) => o.dept_id));
      expect(closings.filter((c) => c.month === m).map((c) => c.dept_id).sort(), m).toEqual([...depts].sort());
    }
    for (const o of all.filter((x) => closed.has(`${x.dept_id}|${x.month}`))) {
      expect(o.state, o.order_no).not.toBe(CostOrderState.toAudit);
      // Everything in a closed month happened before its (last) closing.
      expect(o.updated_at < closed.get(`${o.dept_id}|${o.month}`)!.closed_at, o.order_no).toBe(true);
    }
    for (const c of closings) expect(c.closed_at < now.toISOString()).toBe(true);
    const logs = await k().selectFrom('cost_closing_logs').selectAll().orderBy('created_at').execute();
    const byDm = groupBy(logs, (l) => `${l.dept_id}|${l.month}`);
    expect(byDm.size).toBe(closings.length);
    for (const c of closings) {
      const own = byDm.get(`${c.dept_id}|${c.month}`)!;
      expect([own.at(-1)!.action, own.at(-1)!.created_at, own.at(-1)!.user_name]).toEqual(['close', c.closed_at, c.closed_by]);
    }
    const reopened = logs.filter((l) => l.action === 'reopen');
    expect(reopened.map((l) => l.reason)).toEqual([REOPEN_REASON]);
    expect(byDm.get(`${reopened[0]!.dept_id}|${reopened[0]!.month}`)!.map((l) => l.action)).toEqual(['close', 'reopen', 'close']);
    // The order added while it was reopened.
    const added = all.filter((o) => o.dept_id === reopened[0]!.dept_id && o.month === reopened[0]!.month && o.created_at > reopened[0]!.created_at);
    expect(added).toHaveLength(1);
    expect(added[0]!.state).toBe(CostOrderState.audited);
    // Last month and this month stay open.
    expect(closings.filter((c) => c.month >= lastMonth)).toEqual([]);
  });

  it('keeps each close’s digest (issue 32 item 5): every closed month checks 已核验, the reclosed one lists the order added', async () => {
    const token = await s.login('demo18');
    for (const month of closedMonths) {
      const a = await s.call('/api/cost-order/close-check', { month }, token);
      expect(a.code, a.message).toBe(20000);
      const checks = a.r as Array<{ deptId: string; holds: boolean | null; digest: string | null; actual: string }>;
      expect(checks.length, month).toBeGreaterThan(0);
      for (const c of checks) expect([month, c.deptId, c.holds, c.digest], month).toEqual([month, c.deptId, true, c.actual]);
    }
    const reopen = (await k().selectFrom('cost_closing_logs').selectAll().where('action', '=', 'reopen').execute())[0]!;
    const snaps = await k().selectFrom('cost_closing_snapshots').selectAll().where('dept_id', '=', reopen.dept_id).where('month', '=', reopen.month).orderBy('closed_at').execute();
    expect(snaps).toHaveLength(2);
    expect(snaps[0]!.changes).toBe('');
    const changes = JSON.parse(snaps[1]!.changes);
    const added = (await orders()).filter((o) => o.dept_id === reopen.dept_id && o.month === reopen.month && o.created_at > reopen.created_at);
    expect(changes.added.map((o: { orderNo: string; amount: number }) => [o.orderNo, o.amount])).toEqual(added.map((o) => [o.order_no, o.amount]));
    expect([changes.removed, changes.changed]).toEqual([[], []]);
    expect(changes.after.amount - changes.before.amount).toBe(added[0]!.amount);
  });

  it('assigns auditors (demo20 工程一部, demo21 工程二部, demo22 技术质量部 and others, demo17 all) and every audit is an assigned auditor’s; demo20 has orders waiting', async () => {
    const rows = await k()
      .selectFrom('cost_auditors as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .innerJoin('departments as d', 'd.id', 'a.dept_id')
      .select(['u.login_name', 'u.name', 'a.dept_id', 'd.name as dept'])
      .execute();
    const of = (login: string) => rows.filter((r) => r.login_name === login).map((r) => r.dept).sort();
    expect(of('demo20')).toEqual(['工程一部']);
    expect(of('demo21')).toEqual(['工程二部']);
    expect(of('demo22')).toContain('技术质量部');
    expect(of('demo22').length).toBeGreaterThan(1);
    const all = await orders();
    const bearing = [...new Set(all.map((o) => o.dept_name))].sort();
    expect(of('demo17')).toEqual(bearing);
    // Every user assigned holds an auditing role.
    const roles = await k().selectFrom('user_roles').selectAll().execute();
    for (const r of rows) {
      const user = (await k().selectFrom('users').select('id').where('login_name', '=', r.login_name).executeTakeFirstOrThrow()).id;
      expect(roles.some((x) => x.user_id === user && ['17', '20', '21', '22'].includes(x.role)), r.login_name).toBe(true);
    }
    for (const o of all.filter((x) => x.state === CostOrderState.audited)) expect(rows.some((r) => r.name === o.audited_by && r.dept_id === o.dept_id), o.order_no).toBe(true);
    for (const login of ['demo20', 'demo21', 'demo22']) {
      const depts = new Set(rows.filter((r) => r.login_name === login).map((r) => r.dept_id));
      expect(all.filter((o) => o.state === CostOrderState.toAudit && depts.has(o.dept_id)).length, login).toBeGreaterThanOrEqual(3);
    }
  });
});
