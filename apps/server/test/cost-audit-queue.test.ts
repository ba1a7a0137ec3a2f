/**
 * Issue 16, 待审核成本单 (the calls of cost/audit; split from cost-audit.test.ts, same fixture:
 * ./cost-audit-fixture.ts): the queue and its badge count for auditors with different assignments, batch
 * audit and invalidate (assigned departments only, audited and invalid orders immutable, closed months
 * refused, a reason required, each change logged, one winner of two auditors at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostOrderState } from '@zhyy/shared';
import { moveOne } from '../src/modules/cost/audit/service.js';
import { ASSIGNED, auditHelpers, ORDERS, orderFigures, sorted, startAuditServer, type Fixture } from './cost-audit-fixture.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
let fx: Fixture;
const tokens: Record<string, string> = {};
/** The states as the tests moved them (starting from the fixture's). */
const state: Record<string, number> = {};

beforeAll(async () => {
  ({ s, fx } = await startAuditServer(tokens, state));
});
afterAll(() => s?.close());

const { call, keys } = auditHelpers(() => s, () => fx, tokens);

/** The queue of a user, read from the fixture and the moves so far. */
function expectedQueue(user: string): string[] {
  const depts = user === 'admin' ? null : (ASSIGNED[user] ?? []);
  return ORDERS.filter((o) => state[o.key] === 0 && (!depts || depts.includes(o.dept))).map((o) => o.key).sort();
}

describe('待审核成本单 (queue, badge, audit, invalidate)', () => {
  const queue = async (user: string, body: Record<string, unknown> = {}) => (await call('to-audit-list', { pageSize: 100, ...body }, user)).r;
  const todo = async (user: string) => (await call('cost-todo-data', {}, user)).r.toAudit as number;
  const auditors = ['admin', 'demo17', 'demo20', 'demo21', 'demo22'];

  const checkQueues = async () => {
    for (const u of auditors) {
      const q = await queue(u);
      expect(sorted(keys(q.items)), u).toEqual(expectedQueue(u));
      expect(q.total, u).toBe(expectedQueue(u).length);
      expect(await todo(u), u).toBe(q.total);
    }
  };

  it('each auditor sees the orders awaiting audit of the assigned departments (admin: all), and the badge counts exactly those', async () => {
    expect(expectedQueue('demo20')).toHaveLength(7);
    expect(expectedQueue('demo21')).toHaveLength(4);
    expect(expectedQueue('demo22')).toHaveLength(1);
    await checkQueues();
    // An auditor with no assignment: an empty queue and 0.
    await s.db.kysely.deleteFrom('cost_auditors').where('user_id', '=', fx.users.demo22!.id).execute();
    expect((await queue('demo22')).total).toBe(0);
    expect(await todo('demo22')).toBe(0);
    await s.db.kysely.insertInto('cost_auditors').values({ user_id: fx.users.demo22!.id, dept_id: fx.dept.C.id }).execute();
  });

  it('filters the queue like the ledger, within the scope', async () => {
    const q = await queue('demo20', { monthFrom: '2040-03', monthTo: '2040-03' });
    expect(sorted(keys(q.items))).toEqual(['O1', 'O2', 'O8']);
    expect((await queue('demo20', { deptId: fx.dept.C.id })).total).toBe(0);
    expect(sorted(keys((await queue('demo20', { itemCode: 'L01' })).items))).toEqual(['O1', 'O2', 'O7', 'O9']);
    // A state other than 待审核 finds nothing there.
    expect((await queue('admin', { state: 1 })).total).toBe(0);
    const o2 = orderFigures(ORDERS[1]!);
    expect((await queue('demo21', { orderNo: 'CB2040030002' })).totals).toEqual({ count: 1, amount: o2.amount, tax: o2.tax, total: o2.total });
  });

  it('an auditor cannot audit or invalidate another department’s order', async () => {
    // A refusal is 30000 with its message, never 20000 (issue 27); the per-order answer stays beside it.
    const a = await call('set-coststatus-audited', { ids: [fx.id.O1] }, 'demo21');
    expect(a.code).toBe(30000);
    expect(a.r).toEqual({ done: 0, refused: [{ id: fx.id.O1, orderNo: 'CB2040030001', message: `您未被分配审核${fx.dept.A.name}的成本单` }] });
    expect(a.message).toBe(`您未被分配审核${fx.dept.A.name}的成本单`);
    const b = await call('set-coststatus-invalid', { ids: [fx.id.O3], reason: '越权' }, 'demo20');
    expect(b.code).toBe(30000);
    expect(b.r.done).toBe(0);
    // Several orders, none done: 30000 naming each order and its reason.
    const c = await call('set-coststatus-audited', { ids: [fx.id.O1, fx.id.O3] }, 'demo21');
    expect(c.code).toBe(30000);
    expect(c.r.done).toBe(0);
    expect(c.message).toBe(`2 张成本单均未审核：${c.r.refused.map((x: { orderNo: string; message: string }) => `${x.orderNo} ${x.message}`).join('；')}`);
    expect(c.r.refused.map((x: { message: string }) => x.message)).toEqual([`您未被分配审核${fx.dept.A.name}的成本单`, expect.stringMatching(/^您未被分配审核/)]);
    const rows = await s.db.kysely.selectFrom('cost_orders').select(['id', 'state']).where('id', 'in', [fx.id.O1!, fx.id.O3!]).execute();
    expect(rows.map((r) => Number(r.state))).toEqual([0, 0]);
  });

  it('audits a batch: each order checked on its own, each change logged with the auditor’s name', async () => {
    const a = await call('set-coststatus-audited', { ids: [fx.id.O1, fx.id.O2, fx.id.O6, fx.id.O5, fx.id.O4, '00000000-0000-4000-8000-0000000fffff'] }, 'demo20');
    expect(a.code).toBe(20000);
    expect(a.r.done).toBe(2);
    expect(a.r.refused).toEqual([
      { id: fx.id.O6, orderNo: 'CB2040040001', message: `${fx.dept.A.name}2040年4月已结账，成本单不能修改` },
      { id: fx.id.O5, orderNo: 'CB2040020002', message: '成本单已作废，不能修改' },
      { id: fx.id.O4, orderNo: 'CB2040020001', message: '成本单已审核，不能修改' },
      { id: '00000000-0000-4000-8000-0000000fffff', orderNo: '', message: '成本单不存在' },
    ]);
    expect(a.message).toBe('已审核 2 张，4 张未处理');
    state.O1 = 1;
    state.O2 = 1;
    const k = s.db.kysely;
    const o1 = await k.selectFrom('cost_orders').selectAll().where('id', '=', fx.id.O1!).executeTakeFirstOrThrow();
    expect(Number(o1.state)).toBe(CostOrderState.audited);
    expect(o1.audited_by).toBe(fx.users.demo20!.name);
    expect(o1.audited_at).toBeTruthy();
    const logs = (await call('cost-order-detail', { id: fx.id.O1 }, 'demo18')).r.logs;
    expect(logs.at(-1)).toMatchObject({ action: 'audit', message: '审核通过', userName: fx.users.demo20!.name });
    // The closed month's order did not move.
    expect(Number((await k.selectFrom('cost_orders').select('state').where('id', '=', fx.id.O6!).executeTakeFirstOrThrow()).state)).toBe(0);
    const op = await k.selectFrom('operation_logs').selectAll().where('description', 'like', '成本单审核通过%').executeTakeFirstOrThrow();
    expect(op.description).toContain('CB2040030001');
    await checkQueues();
  });

  it('an audited order is immutable: a second audit or an invalidate is refused', async () => {
    const again = await call('set-coststatus-audited', { ids: [fx.id.O1] }, 'admin');
    expect(again.r).toEqual({ done: 0, refused: [{ id: fx.id.O1, orderNo: 'CB2040030001', message: '成本单已审核，不能修改' }] });
    const inv = await call('set-coststatus-invalid', { ids: [fx.id.O1], reason: '改主意' }, 'demo17');
    expect(inv.r.refused[0].message).toBe('成本单已审核，不能修改');
    expect((await call('cost-order-detail', { id: fx.id.O1 }, 'admin')).r.can).toEqual({ edit: false, reprice: false, audit: false, invalidate: false });
    const logs = await s.db.kysely.selectFrom('cost_order_logs').select('action').where('order_id', '=', fx.id.O1!).execute();
    expect(logs.map((l) => l.action).sort()).toEqual(['audit', 'create']);
  });

  it('a closed month refuses invalidating too', async () => {
    const a = await call('set-coststatus-invalid', { ids: [fx.id.O6], reason: '测试' }, 'admin');
    expect(a.r.refused[0].message).toBe(`${fx.dept.A.name}2040年4月已结账，成本单不能修改`);
  });

  it('invalidates with a required reason, logged', async () => {
    for (const body of [{ ids: [fx.id.O9] }, { ids: [fx.id.O9], reason: '   ' }]) {
      const a = await call('set-coststatus-invalid', body, 'demo21');
      expect(a.status).toBe(400);
      expect(a.message).toContain('请填写作废原因');
    }
    expect((await call('set-coststatus-audited', { ids: [] }, 'demo21')).message).toContain('请选择成本单');
    const a = await call('set-coststatus-invalid', { ids: [fx.id.O9], reason: '项目暂停，本月无成本' }, 'demo21');
    expect(a.r).toEqual({ done: 1, refused: [] });
    expect(a.message).toBe('已作废 1 张成本单');
    state.O9 = 2;
    const d = (await call('cost-order-detail', { id: fx.id.O9 }, 'demo21')).r;
    expect(d).toMatchObject({ state: 2, invalidReason: '项目暂停，本月无成本', auditedBy: fx.users.demo21!.name });
    expect(d.logs.at(-1)).toMatchObject({ action: 'invalid', message: '作废，原因：项目暂停，本月无成本', userName: fx.users.demo21!.name });
    // An invalid order is final.
    expect((await call('set-coststatus-audited', { ids: [fx.id.O9] }, 'admin')).r.refused[0].message).toBe('成本单已作废，不能修改');
    // The ledger's totals leave it out now.
    const t = (await call('list', { monthFrom: '2040-05', monthTo: '2040-05' }, 'demo18')).r;
    expect(t.total).toBe(1);
    expect(t.totals).toEqual({ count: 0, amount: 0, tax: 0, total: 0 });
    await checkQueues();
  });

  it('two auditors auditing one order at once: it moves once, one is told it is already audited', async () => {
    const [x, y] = await Promise.all([call('set-coststatus-audited', { ids: [fx.id.O8] }, 'demo20'), call('set-coststatus-audited', { ids: [fx.id.O8] }, 'demo17')]);
    expect(x.r.done + y.r.done).toBe(1);
    const loser = x.r.done ? y : x;
    expect(loser.r.refused).toEqual([{ id: fx.id.O8, orderNo: 'CB2040030004', message: '成本单已审核，不能修改' }]);
    state.O8 = 1;
    const logs = await s.db.kysely.selectFrom('cost_order_logs').select(['action', 'user_name']).where('order_id', '=', fx.id.O8!).where('action', '=', 'audit').execute();
    expect(logs).toHaveLength(1);
    const winner = x.r.done ? 'demo20' : 'demo17';
    expect(logs[0]!.user_name).toBe(fx.users[winner]!.name);
    // An audit and an invalidate at once: one of them.
    const [au, inv] = await Promise.all([call('set-coststatus-audited', { ids: [fx.id.O7] }, 'demo21'), call('set-coststatus-invalid', { ids: [fx.id.O7], reason: '并发' }, 'demo20')]);
    expect(au.r.done + inv.r.done).toBe(1);
    state.O7 = au.r.done ? 1 : 2;
    expect((inv.r.done ? au : inv).r.refused[0].message).toBe(au.r.done ? '成本单已审核，不能修改' : '成本单已作废，不能修改');
    await checkQueues();
  });

  it('two moves of one order that both passed the checks: the guarded update lets one through', async () => {
    // What two auditors at once come to when both read the order awaiting audit before either wrote:
    // both go on to the update, and only its own guard (state = 0) can stop the second.
    const k = s.db.kysely;
    const o = { id: fx.id.O11!, dept_id: fx.dept.B.id, month: '2040-06' };
    const by = (u: string, roles: string[]) => ({ id: fx.users[u]!.id, name: fx.users[u]!.name, roles });
    const moved = await Promise.all([
      moveOne(k, o, CostOrderState.audited, by('demo21', ['21'])),
      moveOne(k, o, CostOrderState.invalid, by('demo20', ['20']), '并发作废'),
      moveOne(k, o, CostOrderState.audited, by('demo20', ['20'])),
    ]);
    expect(moved.filter(Boolean)).toHaveLength(1);
    const row = await k.selectFrom('cost_orders').select(['state', 'invalid_reason']).where('id', '=', o.id).executeTakeFirstOrThrow();
    state.O11 = Number(row.state);
    expect(state.O11).toBe(moved[1] ? 2 : 1);
    expect(row.invalid_reason).toBe(moved[1] ? '并发作废' : '');
    const logs = await k.selectFrom('cost_order_logs').select('action').where('order_id', '=', o.id).where('action', 'in', ['audit', 'invalid']).execute();
    expect(logs).toHaveLength(1);
    // And the call says why afterwards.
    const again = await call('set-coststatus-audited', { ids: [o.id] }, 'demo21');
    expect(again.r.refused[0].message).toBe(state.O11 === 1 ? '成本单已审核，不能修改' : '成本单已作废，不能修改');
    await checkQueues();
  });

  // A closing between the checks and the update: the same guard.
  it('a month closed between the checks and the update refuses the move', async () => {
    const k = s.db.kysely;
    await k.insertInto('cost_closings').values({ dept_id: fx.dept.C.id, month: '2040-03', closed_by: '测试', closed_at: new Date().toISOString() }).execute();
    try {
      expect(await moveOne(k, { id: fx.id.O3!, dept_id: fx.dept.C.id, month: '2040-03' }, CostOrderState.audited, { id: fx.users.admin!.id, name: 'admin', roles: ['admin'] })).toBe(false);
      expect(Number((await k.selectFrom('cost_orders').select('state').where('id', '=', fx.id.O3!).executeTakeFirstOrThrow()).state)).toBe(0);
    } finally {
      await k.deleteFrom('cost_closings').where('dept_id', '=', fx.dept.C.id).where('month', '=', '2040-03').execute();
    }
  });

  it('role 1 / admin audits any department; the queue and the badge follow', async () => {
    const before = await todo('admin');
    const a = await call('set-coststatus-audited', { ids: [fx.id.O3] }, 'admin');
    expect(a.r.done).toBe(1);
    state.O3 = 1;
    expect(await todo('admin')).toBe(before - 1);
    expect(await todo('demo22')).toBe(0);
    await checkQueues();
  });

  it('once the month is reopened its order may be audited', async () => {
    // O6 stayed in the queue of demo17, demo20 and admin while its month was closed (it still awaits audit).
    expect(expectedQueue('demo17')).toContain('O6');
    await s.db.kysely.deleteFrom('cost_closings').where('dept_id', '=', fx.dept.A.id).where('month', '=', '2040-04').execute();
    expect((await call('cost-order-detail', { id: fx.id.O6 }, 'demo17')).r).toMatchObject({ closed: false, can: { audit: true, invalidate: true, edit: true } });
    const a = await call('set-coststatus-audited', { ids: [fx.id.O6] }, 'demo17');
    expect(a.r).toEqual({ done: 1, refused: [] });
    state.O6 = 1;
    await checkQueues();
  });
});
