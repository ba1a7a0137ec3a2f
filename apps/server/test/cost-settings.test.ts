/**
 * Issue 16, 成本设置 (/api/cost-setting/*): the auditors' departments (only users holding role 17, 20,
 * 21 or 22), month closing per department (refused while an order awaits audit, for a month not yet
 * ended in Asia/Shanghai, twice; two servers closing at once close once), reopening with a required
 * reason, the closing log; every change in cost_closing_logs and the operation log. Roles 1, 17 and
 * admin; 16, 18–22 get 权限不足. The fixtures (departments, projects, orders) are this file's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, OperationLogType, shanghaiMonthOf, shiftMonth } from '@zhyy/shared';
import { demoId, newId } from '../src/platform/ids.js';
import '../src/modules/cost/tables.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { clearCostTables } from './cost-audit-fixture.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const P = '/api/cost-setting';
const db = () => s.db.kysely;
const now = new Date().toISOString();
const DEPT_A = newId();
const DEPT_B = newId();
const MONTH = '2025-03';

beforeAll(async () => {
  s = await startTestServer();
  await clearCostTables(s);
  for (const n of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[n] = await s.login(n);
  await db().insertInto('departments').values([
    { id: DEPT_A, parent_id: null, name: '结账测试一部', sort: 990, manager_id: null, created_at: now, updated_at: now },
    { id: DEPT_B, parent_id: DEPT_A, name: '结账测试二部', sort: 991, manager_id: null, created_at: now, updated_at: now },
  ]).execute();
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who = 'demo17') => s.call(`${P}/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who = 'demo17') => {
  const a = await call(path, body, who);
  expect(a.code, a.message).toBe(20000);
  return a;
};
const refused = async (path: string, body: unknown, message: string | RegExp, status = 400, who = 'demo17') => {
  const a = await call(path, body, who);
  expect(a.code).toBe(30000);
  expect(a.status).toBe(status);
  if (typeof message === 'string') expect(a.message).toBe(message);
  else expect(a.message).toMatch(message);
  return a;
};
const logs = (text: string) => db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', `%${text}%`).orderBy('created_at').execute();

let seq = 0;
/** An order of `dept` and `month` in `state`, inserted directly (the order module is not under test here). */
async function order(dept: string, month: string, state: number) {
  const project = newId();
  const n = ++seq;
  await db().insertInto('projects').values({ id: project, code: `XM-CS${n}`, name: `结账项目${n}`, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }).execute();
  const id = newId();
  await db().insertInto('cost_orders').values({
    id, order_no: `CB${month.replace('-', '')}8${String(n).padStart(3, '0')}`, month, dept_id: dept, dept_name: '结账测试', project_id: project, project_code: `XM-CS${n}`, project_name: `结账项目${n}`,
    source: 'entry', state, invalid_reason: state === 2 ? '测试作废' : '', amount: 1000, tax: 30, line_count: 0, remark: '', pms_ref: '', audited_by: '', audited_at: null, created_by_id: null, created_by: '测试', created_at: now, updated_at: now,
  }).execute();
  return id;
}
const closing = async (month: string, dept: string) => ((await ok('closings', { month })).r as any[]).find((c) => c.deptId === dept);

describe('permissions', () => {
  it('roles 1, 17 and admin; 16, 18, 19, 20, 21 and 22 get 权限不足 on every call', async () => {
    for (const who of ['admin', 'demo1', 'demo17']) {
      await ok('auditors', {}, who);
      await ok('closings', { month: MONTH }, who);
      await ok('closing-logs', {}, who);
    }
    const calls: Array<[string, unknown]> = [
      ['auditors', {}], ['auditors-save', { userId: demoId('user:demo20'), deptIds: [DEPT_A] }], ['closings', { month: MONTH }], ['close', { deptId: DEPT_A, month: MONTH }],
      ['reopen', { deptId: DEPT_A, month: MONTH, reason: '测试' }], ['closing-logs', {}],
    ];
    for (const who of ['demo16', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) {
      for (const [path, body] of calls) {
        const a = await call(path, body, who);
        expect(a.status, `${who} ${path}`).toBe(403);
        expect(a.message).toBe(Messages.forbidden);
      }
    }
    expect((await s.call(`${P}/auditors`, {})).status).toBe(401);
    expect(await db().selectFrom('cost_auditors').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('cost_closings').selectAll().execute()).toEqual([]);
  });
});

describe('auditors', () => {
  it('lists the active users holding role 17, 20, 21 or 22 with their cost roles', async () => {
    const list = (await ok('auditors', {})).r as any[];
    const by = new Map(list.map((u) => [u.loginName, u]));
    for (const [login, role] of [['demo17', '17'], ['demo20', '20'], ['demo21', '21'], ['demo22', '22']] as const) {
      expect(by.get(login)).toMatchObject({ userId: demoId(`user:${login}`), roles: [role], deptIds: [] });
    }
    expect(by.get('demo20').name).toBe('高峰');
    expect(by.get('demo20').deptName).not.toBe('');
    for (const login of ['admin', 'demo1', 'demo16', 'demo18', 'demo19']) expect(by.has(login), login).toBe(false);
    // Staff holding 17 with 18 list the auditing role only.
    expect(list.every((u) => u.roles.length > 0 && u.roles.every((r: string) => ['17', '20', '21', '22'].includes(r)))).toBe(true);
    // A disabled auditor is not listed.
    await db().updateTable('users').set({ status: 0 }).where('login_name', '=', 'demo22').execute();
    expect(((await ok('auditors', {})).r as any[]).some((u) => u.loginName === 'demo22')).toBe(false);
    await refused('auditors-save', { userId: demoId('user:demo22'), deptIds: [DEPT_A] }, '「罗娟」已停用，不能分配审核部门');
    await db().updateTable('users').set({ status: 1 }).where('login_name', '=', 'demo22').execute();
  });

  it('assigns departments (replacing the former ones, duplicates once), logs each change', async () => {
    const demo20 = demoId('user:demo20');
    let list = (await ok('auditors-save', { userId: demo20, deptIds: [DEPT_B, DEPT_A, DEPT_B] })).r as any[];
    // Tree order: the parent first.
    expect(list.find((u) => u.userId === demo20).deptIds).toEqual([DEPT_A, DEPT_B]);
    expect((await db().selectFrom('cost_auditors').select('dept_id').where('user_id', '=', demo20).execute()).map((r) => r.dept_id).sort()).toEqual([DEPT_A, DEPT_B].sort());
    list = (await ok('auditors-save', { userId: demo20, deptIds: [DEPT_B] }, 'demo1')).r as any[];
    expect(list.find((u) => u.userId === demo20).deptIds).toEqual([DEPT_B]);
    list = (await ok('auditors-save', { userId: demo20, deptIds: [] }, 'admin')).r as any[];
    expect(list.find((u) => u.userId === demo20).deptIds).toEqual([]);
    await ok('auditors-save', { userId: demoId('user:demo17'), deptIds: [DEPT_A] });
    const entries = await logs('设置成本审核部门：高峰（demo20）');
    expect(entries.map((e) => e.description)).toEqual([
      '设置成本审核部门：高峰（demo20）无 → 结账测试一部、结账测试二部',
      '设置成本审核部门：高峰（demo20）结账测试一部、结账测试二部 → 结账测试二部',
      '设置成本审核部门：高峰（demo20）结账测试二部 → 无',
    ]);
    expect(entries.map((e) => [e.type, e.login_name])).toEqual([[OperationLogType.edit, 'demo17'], [OperationLogType.edit, 'demo1'], [OperationLogType.edit, 'admin']]);
  });

  it('refuses users without an auditing role, unknown users and departments', async () => {
    await refused('auditors-save', { userId: demoId('user:demo16'), deptIds: [DEPT_A] }, '「朱琳」没有成本审核角色（17、20、21、22），不能分配审核部门');
    await refused('auditors-save', { userId: demoId('user:demo1'), deptIds: [DEPT_A] }, /没有成本审核角色/);
    await refused('auditors-save', { userId: demoId('user:admin'), deptIds: [] }, /没有成本审核角色/);
    await refused('auditors-save', { userId: newId(), deptIds: [DEPT_A] }, '人员不存在', 404);
    await refused('auditors-save', { userId: demoId('user:demo21'), deptIds: [DEPT_A, newId()] }, '所选部门不存在或已删除');
    await refused('auditors-save', { userId: 'x', deptIds: [] }, /ID格式不正确/);
    expect(await db().selectFrom('cost_auditors').select('dept_id').where('user_id', 'in', [demoId('user:demo16'), demoId('user:demo1'), demoId('user:demo21')]).execute()).toEqual([]);
  });
});

describe('month closing', () => {
  let waiting: string;
  beforeAll(async () => {
    waiting = await order(DEPT_A, MONTH, 0);
    await order(DEPT_A, MONTH, 1);
    await order(DEPT_A, MONTH, 2);
    await order(DEPT_A, '2025-04', 0);
    await order(DEPT_B, MONTH, 1);
  });

  it('closings: every department with its closed state and its orders awaiting audit and live', async () => {
    const list = (await ok('closings', { month: MONTH })).r as any[];
    const depts = await db().selectFrom('departments').select('id').execute();
    expect(list).toHaveLength(depts.length);
    expect(list.findIndex((c) => c.deptId === DEPT_A)).toBeLessThan(list.findIndex((c) => c.deptId === DEPT_B));
    expect(list.find((c) => c.deptId === DEPT_A)).toEqual({ deptId: DEPT_A, deptName: '结账测试一部', month: MONTH, closed: false, closedBy: '', closedAt: null, toAudit: 1, orders: 2, digest: null, changes: null });
    expect(list.find((c) => c.deptId === DEPT_B)).toMatchObject({ toAudit: 0, orders: 1, closed: false });
    expect(list.filter((c) => c.deptId !== DEPT_A && c.deptId !== DEPT_B).every((c) => c.orders === 0 && !c.closed)).toBe(true);
    await refused('closings', { month: '2025-13' }, /月份格式须为YYYY-MM/);
    await refused('closings', {}, /请选择月份/);
  });

  it('refuses a department whose month has an order awaiting audit, then closes once it is audited', async () => {
    await refused('close', { deptId: DEPT_A, month: MONTH }, '该部门该月还有 1 张成本单待审核，不能结账');
    await db().updateTable('cost_orders').set({ state: 1 }).where('id', '=', waiting).execute();
    const a = await ok('close', { deptId: DEPT_A, month: MONTH });
    expect(a.message).toBe('2025年3月已结账');
    const row = (a.r as any[]).find((c) => c.deptId === DEPT_A);
    expect(row).toMatchObject({ closed: true, closedBy: '胡军', toAudit: 0, orders: 2 });
    expect(Date.parse(row.closedAt)).not.toBeNaN();
    // Another department of the same month is not affected.
    expect((await closing(MONTH, DEPT_B)).closed).toBe(false);
    await refused('close', { deptId: DEPT_A, month: MONTH }, '该部门该月已结账');
    const log = await db().selectFrom('cost_closing_logs').selectAll().where('dept_id', '=', DEPT_A).execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ dept_name: '结账测试一部', month: MONTH, action: 'close', reason: '', user_name: '胡军' });
    expect((await logs('成本月结：结账测试一部 2025年3月 结账'))[0]).toMatchObject({ type: OperationLogType.edit, login_name: 'demo17' });
  });

  it('refuses the current month and later ones (Asia/Shanghai), and unknown departments', async () => {
    const current = shanghaiMonthOf(new Date());
    await refused('close', { deptId: DEPT_B, month: current }, '该月尚未结束，不能结账');
    await refused('close', { deptId: DEPT_B, month: shiftMonth(current, 1) }, '该月尚未结束，不能结账');
    await refused('close', { deptId: newId(), month: MONTH }, '部门不存在', 404);
    await refused('close', { deptId: DEPT_B, month: '2025-3' }, /月份格式须为YYYY-MM/);
    expect(await db().selectFrom('cost_closings').select('month').where('dept_id', '=', DEPT_B).execute()).toEqual([]);
    // The month before the current one has ended.
    await ok('close', { deptId: DEPT_B, month: shiftMonth(current, -1) }, 'demo1');
    expect((await closing(shiftMonth(current, -1), DEPT_B)).closedBy).toBe('王建国');
  });

  it('reopens only with a reason, only what is closed; both logged', async () => {
    await refused('reopen', { deptId: DEPT_A, month: MONTH }, /请填写反结账原因/);
    await refused('reopen', { deptId: DEPT_A, month: MONTH, reason: '   ' }, /请填写反结账原因/);
    await refused('reopen', { deptId: DEPT_A, month: MONTH, reason: 'x'.repeat(201) }, /反结账原因不能超过200个字符/);
    await refused('reopen', { deptId: DEPT_B, month: MONTH, reason: '补录' }, '该部门该月未结账，无需反结账');
    expect((await closing(MONTH, DEPT_A)).closed).toBe(true);
    const a = await ok('reopen', { deptId: DEPT_A, month: MONTH, reason: ' 漏录两张成本单 ' }, 'admin');
    expect(a.message).toBe('2025年3月已反结账');
    expect((a.r as any[]).find((c) => c.deptId === DEPT_A)).toMatchObject({ closed: false, closedBy: '', closedAt: null });
    const log = await db().selectFrom('cost_closing_logs').selectAll().where('dept_id', '=', DEPT_A).where('action', '=', 'reopen').execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ month: MONTH, reason: '漏录两张成本单', user_name: '系统管理员' });
    expect((await logs('成本月结：结账测试一部 2025年3月 反结账，原因：漏录两张成本单'))[0]).toMatchObject({ type: OperationLogType.edit, login_name: 'admin' });
    // Closed again once more.
    await ok('close', { deptId: DEPT_A, month: MONTH });
  });

  it('the closing log, newest first and paged', async () => {
    const all = (await ok('closing-logs', { pageSize: 100 })).r;
    expect(all.total).toBe(4);
    expect(all.items.map((l: any) => [l.deptName, l.month, l.action, l.reason])).toEqual([
      ['结账测试一部', MONTH, 'close', ''],
      ['结账测试一部', MONTH, 'reopen', '漏录两张成本单'],
      ['结账测试二部', shiftMonth(shanghaiMonthOf(new Date()), -1), 'close', ''],
      ['结账测试一部', MONTH, 'close', ''],
    ]);
    expect(all.items[1]).toMatchObject({ userName: '系统管理员' });
    const page = (await ok('closing-logs', { pageIndex: 2, pageSize: 3 }, 'demo1')).r;
    expect(page).toMatchObject({ total: 4 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0].action).toBe('close');
  });

  it('two servers closing the same month at once close it once', async () => {
    const other = await attachServer(s);
    try {
      const t = await other.login('demo17');
      const body = { deptId: DEPT_B, month: '2025-04' };
      const answers = await Promise.all([s.call(`${P}/close`, body, tokens.demo17), other.call(`${P}/close`, body, t), s.call(`${P}/close`, body, tokens.demo1)]);
      expect(answers.filter((a) => a.code === 20000)).toHaveLength(1);
      expect(answers.filter((a) => a.code === 30000).map((a) => a.message)).toEqual(['该部门该月已结账', '该部门该月已结账']);
      expect(await db().selectFrom('cost_closing_logs').select('id').where('dept_id', '=', DEPT_B).where('month', '=', '2025-04').execute()).toHaveLength(1);
      expect(await logs('成本月结：结账测试二部 2025年4月 结账')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
