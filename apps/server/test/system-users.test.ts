import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ID, OperationLogType } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let admin: string;
let demo1: string;
let demo3: string;
const itDept = demoId('dept:it');
const engDept = demoId('dept:eng');
const eng1Dept = demoId('dept:eng1');
const GRANTS_ONLY = '只有系统管理员可以授予或撤销系统管理员和用户管理员角色';
const MANAGERS_ONLY = '只有系统管理员可以修改系统管理员或用户管理员的账号';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  demo1 = await s.login('demo1');
  demo3 = await s.login('demo3');
});
afterAll(() => s.close());

const newUser = (over: Record<string, unknown> = {}) => ({
  id: EMPTY_ID,
  loginName: 'Zhang.San_01',
  name: '张三',
  deptId: eng1Dept,
  position: '施工员',
  phone: '13912345678',
  email: 'zhangsan@huajian.example.cn',
  roles: ['4', '7'],
  status: 1,
  ...over,
});

describe('user list', () => {
  it('pages, sorts and filters by name, login name, role and status', async () => {
    const all = await s.call('/api/user/list', { pageIndex: 1, pageSize: 10 }, demo3);
    expect(all.code).toBe(20000);
    expect(all.r.items).toHaveLength(10);
    expect(all.r.total).toBeGreaterThan(60);
    const logins = all.r.items.map((u: { loginName: string }) => u.loginName);
    expect(logins).toEqual([...logins].sort());
    const byName = await s.call('/api/user/list', { name: '李晓燕' }, demo3);
    expect(byName.r.items.map((u: { loginName: string }) => u.loginName)).toEqual(['demo3']);
    const byLogin = await s.call('/api/user/list', { loginName: 'DEMO2', pageSize: 50 }, demo3);
    expect(byLogin.r.items.every((u: { loginName: string }) => u.loginName.startsWith('demo2'))).toBe(true);
    const role13 = await s.call('/api/user/list', { role: '13', pageSize: 100 }, demo3);
    expect(role13.r.total).toBeGreaterThan(0);
    expect(role13.r.items.every((u: { roles: string[] }) => u.roles.includes('13'))).toBe(true);
    const desc = await s.call('/api/user/list', { sort: { field: 'loginName', order: 'descend' }, pageSize: 5 }, demo3);
    expect(desc.r.items[0].loginName > desc.r.items[4].loginName).toBe(true);
    const none = await s.call('/api/user/list', { status: 0 }, demo3);
    expect(none.r.total).toBe(0);
  });

  it('a department filter includes every department below it', async () => {
    const eng = await s.call('/api/user/list', { deptId: engDept, pageSize: 200 }, demo3);
    const eng1 = await s.call('/api/user/list', { deptId: eng1Dept, pageSize: 200 }, demo3);
    expect(eng1.r.total).toBeGreaterThan(0);
    expect(eng.r.total).toBeGreaterThan(eng1.r.total);
    const depts = new Set(eng.r.items.map((u: { deptName: string }) => u.deptName));
    expect([...depts].sort()).toEqual(expect.arrayContaining(['工程一部', '工程二部', '工程管理部']));
  });

  it('refuses an unknown role or a bad page size with a Chinese message', async () => {
    expect((await s.call('/api/user/list', { role: '99' }, demo3)).message).toBe('参数错误：角色不在角色目录中');
    expect((await s.call('/api/user/list', { pageSize: 1000 }, demo3)).message).toBe('参数错误：每页最多500条');
  });
});

describe('creating and editing users', () => {
  let id = '';
  let initial = '';
  it('creates a user with an initial password shown once; the user must change it (50010)', async () => {
    const a = await s.call('/api/user/save', newUser(), demo3);
    expect(a.code).toBe(20000);
    id = a.r.id;
    initial = a.r.initialPassword;
    expect(initial).toMatch(/^(?=.*[a-zA-Z])(?=.*\d)[a-zA-Z\d]{10}$/);
    const row = await s.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.login_name).toBe('zhang.san_01');
    expect(row.password_is_initial).toBe(1);
    expect(row.password_hash).not.toContain(initial);
    const token = await s.login('zhang.san_01', initial);
    expect((await s.call('/api/account/userinfo', {}, token)).r.needChangePassword).toBe(true);
    expect((await s.call('/api/user/choose-list', {}, token)).code).toBe(50010);
    const log = await s.db.kysely.selectFrom('operation_logs').selectAll().where('type', '=', OperationLogType.add).where('login_name', '=', 'demo3').executeTakeFirstOrThrow();
    expect(log.description).toContain('新增用户 张三（zhang.san_01）');
    const again = await s.call('/api/user/detail', { id }, demo3);
    expect(again.r).not.toHaveProperty('initialPassword');
    expect(again.r).toMatchObject({ loginName: 'zhang.san_01', roles: ['4', '7'], deptPath: '华建工程技术服务有限公司 / 工程管理部 / 工程一部', passwordIsInitial: true });
    expect(again.r.recentSignIns).toHaveLength(1);
    expect(again.r.recentSignIns[0]).toMatchObject({ location: '内网' });
  });

  it('login names are unique (case-insensitive) and limited to letters, digits, . and _', async () => {
    const dup = await s.call('/api/user/save', newUser({ loginName: 'ZHANG.SAN_01' }), demo3);
    expect([dup.status, dup.message]).toEqual([409, '登录名“zhang.san_01”已被使用']);
    const bad = await s.call('/api/user/save', newUser({ loginName: '张三' }), demo3);
    expect(bad.message).toBe('参数错误：登录名只能包含字母、数字、点（.）和下划线（_）');
    expect((await s.call('/api/user/save', newUser({ loginName: 'ok_name', roles: ['10'] }), demo3)).message).toBe('参数错误：角色不在角色目录中');
    expect((await s.call('/api/user/save', newUser({ loginName: 'ok_name', email: 'x@' }), demo3)).message).toBe('参数错误：邮箱格式不正确');
  });

  it('edits profile and roles and logs what changed', async () => {
    const a = await s.call('/api/user/save', newUser({ id, loginName: 'zhang.san_01', position: '项目经理', roles: ['4'] }), demo3);
    expect(a.code).toBe(20000);
    expect(a.r.initialPassword).toBeUndefined();
    const d = await s.call('/api/user/detail', { id }, demo3);
    expect(d.r).toMatchObject({ position: '项目经理', roles: ['4'] });
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('type', '=', OperationLogType.edit).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.description).toMatch(/职务.*角色/);
  });

  it('only administrators grant role 1 or touch an administrator account', async () => {
    expect((await s.call('/api/user/save', newUser({ loginName: 'boss', roles: ['1'] }), demo3)).status).toBe(403);
    expect((await s.call('/api/user/save', newUser({ id, loginName: 'zhang.san_01', roles: ['1'] }), demo3)).message).toBe(GRANTS_ONLY);
    expect((await s.call('/api/user/reset-password', { id: demoId('user:demo1') }, demo3)).message).toBe(MANAGERS_ONLY);
    expect((await s.call('/api/user/save', newUser({ id, loginName: 'zhang.san_01', roles: ['1', '4'] }), demo1)).code).toBe(20000);
    expect((await s.call('/api/user/detail', { id }, demo1)).r.roles).toEqual(['1', '4']);
  });

  it('a user administrator (role 3) neither grants roles 1 and 3 nor manages accounts holding them', async () => {
    const refused = (a: { status: number; code: number; message?: string }, message: string) => expect([a.status, a.code, a.message]).toEqual([403, 30000, message]);
    // No new account with role 3 (or 1) to sign in as and add roles from.
    refused(await s.call('/api/user/save', newUser({ loginName: 'deputy', roles: ['3', '5', '23'] }), demo3), GRANTS_ONLY);
    refused(await s.call('/api/user/save', newUser({ loginName: 'deputy', roles: ['1'] }), demo3), GRANTS_ONLY);
    // An ordinary account it made does not get role 3 later.
    const made = await s.call('/api/user/save', newUser({ loginName: 'deputy', roles: ['5', '23'] }), demo3);
    expect(made.code).toBe(20000);
    const deputy = newUser({ id: made.r.id, loginName: 'deputy', roles: ['5', '23'] });
    refused(await s.call('/api/user/save', { ...deputy, roles: ['3', '5', '23'] }, demo3), GRANTS_ONLY);
    // Another user administrator's account belongs to administrators: no edit, reset, disable or delete.
    const other = await s.call('/api/user/save', newUser({ loginName: 'hr.second', roles: ['3'] }), demo1);
    expect(other.code).toBe(20000);
    const hr = newUser({ id: other.r.id, loginName: 'hr.second', roles: ['3'] });
    refused(await s.call('/api/user/save', { ...hr, position: '文员' }, demo3), MANAGERS_ONLY);
    refused(await s.call('/api/user/save', { ...hr, roles: ['4'] }, demo3), MANAGERS_ONLY);
    refused(await s.call('/api/user/reset-password', { id: hr.id }, demo3), MANAGERS_ONLY);
    refused(await s.call('/api/user/set-status', { id: hr.id, status: 0 }, demo3), MANAGERS_ONLY);
    refused(await s.call('/api/user/delete', { id: hr.id }, demo3), MANAGERS_ONLY);
    refused(await s.call('/api/user/set-status', { id: demoId('user:admin'), status: 0 }, demo3), MANAGERS_ONLY);
    expect((await s.call('/api/user/detail', { id: hr.id }, demo1)).r).toMatchObject({ roles: ['3'], position: '施工员', status: 1 });
    // An administrator (role 1) does all of it.
    expect((await s.call('/api/user/save', { ...deputy, roles: ['3', '5'] }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/save', { ...hr, roles: ['4'], position: '文员' }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/save', { ...hr, roles: ['3'] }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/reset-password', { id: hr.id }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/set-status', { id: hr.id, status: 0 }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/set-status', { id: hr.id, status: 1 }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/delete', { id: hr.id }, demo1)).code).toBe(20000);
    expect((await s.call('/api/user/detail', { id: deputy.id }, demo1)).r.roles).toEqual(['3', '5']);
  });

  it('keeps the super role admin when an administrator account is edited', async () => {
    const adminId = demoId('user:admin');
    const d = await s.call('/api/user/detail', { id: adminId }, demo1);
    const a = await s.call('/api/user/save', { id: adminId, loginName: 'admin', name: d.r.name, deptId: itDept, position: d.r.position, phone: d.r.phone, email: d.r.email, roles: [], status: 1 }, demo1);
    expect(a.code).toBe(20000);
    expect((await s.call('/api/user/detail', { id: adminId }, demo1)).r.roles).toEqual(['admin']);
  });

  it('nobody disables, resets or deletes themselves here', async () => {
    const me = demoId('user:demo3');
    expect((await s.call('/api/user/set-status', { id: me, status: 0 }, demo3)).message).toBe('不能停用或启用自己的账号');
    expect((await s.call('/api/user/reset-password', { id: me }, demo3)).message).toBe('不能在这里重置自己的密码，请使用“修改密码”');
    expect((await s.call('/api/user/delete', { id: me }, demo3)).message).toBe('不能删除自己的账号');
  });

  it('a user administrator (role 3) edits their own profile but not their own roles', async () => {
    const me = await s.call('/api/user/detail', { id: demoId('user:demo3') }, demo3);
    const mine = { id: me.r.id, loginName: me.r.loginName, name: me.r.name, deptId: me.r.deptId, position: me.r.position, phone: me.r.phone, email: me.r.email, status: 1 };
    const grab = await s.call('/api/user/save', { ...mine, roles: ['3', '5'] }, demo3);
    expect([grab.code, grab.message]).toEqual([30000, '不能修改自己的角色，请由系统管理员调整']);
    expect((await s.call('/api/user/save', { ...mine, roles: [] }, demo3)).message).toBe('不能修改自己的角色，请由系统管理员调整');
    expect((await s.call('/api/user/save', { ...mine, roles: ['3'], position: '人事主管' }, demo3)).code).toBe(20000);
    expect((await s.call('/api/user/detail', { id: me.r.id }, demo3)).r).toMatchObject({ roles: ['3'], position: '人事主管' });
  });
});

describe('reset, disable and delete', () => {
  const target = demoId('user:demo5');
  it('reset sets a new initial password shown once and revokes every session', async () => {
    const old = await s.login('demo5');
    const a = await s.call('/api/user/reset-password', { id: target }, demo3);
    expect(a.code).toBe(20000);
    expect(a.r.revokedSessions).toBeGreaterThanOrEqual(1);
    expect((await s.call('/api/useronline/heartBeat', {}, old)).code).toBe(50008);
    const fresh = await s.login('demo5', a.r.initialPassword);
    expect((await s.call('/api/account/userinfo', {}, fresh)).r.needChangePassword).toBe(true);
    await expect(s.login('demo5')).rejects.toThrow(/用户名或密码错误/);
  });

  it('disabling revokes the sessions at once; enabling lets the user back in', async () => {
    const t = await s.login('demo4');
    const off = await s.call('/api/user/set-status', { id: demoId('user:demo4'), status: 0 }, demo3);
    expect([off.code, off.message]).toEqual([20000, '已停用']);
    expect((await s.call('/api/useronline/heartBeat', {}, t)).code).toBe(50008);
    await expect(s.login('demo4')).rejects.toThrow(/已停用/);
    const disabled = await s.call('/api/user/list', { status: 0 }, demo3);
    expect(disabled.r.items.map((u: { loginName: string }) => u.loginName)).toEqual(['demo4']);
    expect((await s.call('/api/user/set-status', { id: demoId('user:demo4'), status: 1 }, demo3)).code).toBe(20000);
    expect(await s.login('demo4')).toBeTruthy();
  });

  it('a user with records is never deleted, only disabled; an unused one can be', async () => {
    const used = await s.call('/api/user/delete', { id: demoId('user:demo4') }, demo3);
    expect(used.message).toMatch(/^用户 张伟 已有\d+次登录.*不能删除，只能停用$/);
    const fresh = await s.call('/api/user/save', newUser({ loginName: 'temp.user' }), demo3);
    const del = await s.call('/api/user/delete', { id: fresh.r.id }, demo3);
    expect(del.code).toBe(20000);
    expect((await s.call('/api/user/detail', { id: fresh.r.id }, demo3)).status).toBe(404);
  });

  it('records in other areas count too: a user who never signed in but handled a flow or entered an invoice stays', async () => {
    const u = await s.call('/api/user/save', newUser({ loginName: 'temp.handler' }), demo3);
    const k = s.db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const item = await k.selectFrom('wf_work_items').select('id').orderBy('id').executeTakeFirstOrThrow();
    await k.updateTable('wf_work_items').set({ handler_id: u.r.id }).where('id', '=', item.id).execute();
    const inv = await k.selectFrom('invoices').select('id').orderBy('id').executeTakeFirstOrThrow();
    await k.updateTable('invoices').set({ created_by: u.r.id }).where('id', '=', inv.id).execute();
    const refused = await s.call('/api/user/delete', { id: u.r.id }, demo3);
    expect(refused.message).toMatch(/^用户 .+ 已有1项流程待办或已办、录入1张发票，不能删除，只能停用$/);
    expect((await s.call('/api/user/detail', { id: u.r.id }, demo3)).code).toBe(20000);
  });
});

describe('pickers for other areas', () => {
  it('choose-list searches active users by name or login name', async () => {
    const t = await s.login('demo13');
    const a = await s.call('/api/user/choose-list', { keyword: '李晓' }, t);
    expect(a.r.map((u: { loginName: string }) => u.loginName)).toContain('demo3');
    expect(Object.keys(a.r[0]).sort()).toEqual(['deptName', 'id', 'loginName', 'name', 'position']);
  });

  it('the org tree has member counts and the user tree has users under their departments', async () => {
    const t = await s.login('demo13');
    const org = await s.call('/api/user/user-org-tree-list', {}, t);
    expect(org.r).toHaveLength(1);
    const root = org.r[0];
    const total = (await s.call('/api/user/list', { pageSize: 1 }, demo3)).r.total;
    expect(root.totalCount).toBe(total);
    const tree = await s.call('/api/user/list-for-user-tree', {}, t);
    const it = tree.r[0].children.find((n: { title: string }) => n.title === '信息中心');
    expect(it.children.map((n: { title: string; kind: string }) => n.kind)).toContain('user');
    expect(it.children.some((n: { loginName?: string }) => n.loginName === 'demo1')).toBe(true);
  });
});

describe('export', () => {
  it('streams an xlsx of the filtered users, neutralises formulas and writes an export log (80)', async () => {
    await s.call('/api/user/save', newUser({ loginName: 'formula', name: '=HYPERLINK("x")', position: '+1', phone: '+86 13912345678', roles: [] }), demo3);
    const res = await s.app.inject({ method: 'POST', url: '/api/user/export', headers: { 'content-type': 'application/json', 'x-token': demo3 }, payload: JSON.stringify({ loginName: 'formula' }) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''%E7%94%A8%E6%88%B7%E5%88%97%E8%A1%A8");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('登录名');
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(2).value).toBe('\'=HYPERLINK("x")');
    expect(ws.getRow(2).getCell(4).value).toBe("'+1");
    expect(ws.getRow(2).getCell(5).value).toBe("'+86 13912345678");
    const log = await s.db.kysely.selectFrom('operation_logs').selectAll().where('type', '=', OperationLogType.export).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ login_name: 'demo3', description: '导出用户列表（登录名含“formula”）' });
    const file = await s.db.kysely.selectFrom('file_export_logs').selectAll().executeTakeFirstOrThrow();
    expect(file).toMatchObject({ kind: 'export', category: '用户列表', row_count: 1, login_name: 'demo3' });
  });
});

describe('permissions', () => {
  it('the user screens belong to roles 1 and 3; pickers to everyone signed in', async () => {
    const t5 = await s.login('demo6');
    for (const url of ['/api/user/list', '/api/user/detail', '/api/user/save', '/api/user/reset-password', '/api/user/set-status', '/api/user/delete', '/api/user/export']) {
      expect([url, (await s.call(url, {}, t5)).message]).toEqual([url, '权限不足']);
    }
    expect((await s.call('/api/user/choose-list', {}, t5)).code).toBe(20000);
    expect((await s.call('/api/user/list', {}, admin)).code).toBe(20000);
  });
});
