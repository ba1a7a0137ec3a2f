import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType, ROLES } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { locateIp } from '../src/modules/system/geoip.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let demo1: string;
let demo3: string;

/** Signs in from a given address (the offline IP database resolves it). */
async function loginFrom(name: string, ip: string): Promise<string> {
  const res = await s.app.inject({ method: 'POST', url: '/api/account/login', remoteAddress: ip, headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36' }, payload: JSON.stringify({ name, password: 'demo123' }) });
  return res.json().r.token;
}

beforeAll(async () => {
  s = await startTestServer();
  demo1 = await s.login('demo1');
  demo3 = await s.login('demo3');
});
afterAll(() => s.close());

describe('roles (role 1)', () => {
  it('lists the catalogue of SPEC section 6 with meaning, screens and member counts', async () => {
    const a = await s.call('/api/role/list', {}, demo1);
    expect(a.r.map((r: { code: string }) => r.code)).toEqual(ROLES.map((r) => r.code));
    const r13 = a.r.find((r: { code: string }) => r.code === '13');
    expect(r13.meaning).toBe('进项票池与抵扣勾选；接收异常发票提醒');
    const paths = r13.pages.map((p: { path: string }) => p.path);
    expect(paths).toContain('/income/invoicePool/abnormal');
    expect(paths).not.toContain('/system/userlist');
    expect(paths.some((p: string) => p.includes(':'))).toBe(false);
    const r3 = a.r.find((r: { code: string }) => r.code === '3');
    expect(r3.pages.map((p: { path: string }) => p.path)).toEqual(expect.arrayContaining(['/system/userlist', '/system/dept-list', '/system/report/todo-time-consuming']));
    expect(r3.pages.map((p: { path: string }) => p.path)).not.toContain('/system/log/list');
    const holders = await s.db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', '13').execute();
    expect(r13.memberCount).toBe(holders.length);
  });

  it('adds and removes members, logging both', async () => {
    const u = demoId('user:demo9');
    const add = await s.call('/api/role/add-members', { role: '23', userIds: [u] }, demo1);
    expect([add.code, add.r.added]).toEqual([20000, 1]);
    expect((await s.call('/api/role/add-members', { role: '23', userIds: [u] }, demo1)).r.added).toBe(0);
    const members = await s.call('/api/role/members', { role: '23' }, demo1);
    expect(members.r.map((m: { loginName: string }) => m.loginName)).toContain('demo9');
    const rm = await s.call('/api/role/remove-member', { role: '23', userId: u }, demo1);
    expect(rm.code).toBe(20000);
    expect((await s.call('/api/role/remove-member', { role: '23', userId: u }, demo1)).message).toBe('黄丽 不是该角色的成员');
    const logs = await s.db.kysely.selectFrom('operation_logs').select('description').where('login_name', '=', 'demo1').where('type', '=', OperationLogType.edit).execute();
    expect(logs.map((l) => l.description)).toEqual(['角色 23 证书导出 添加成员：黄丽', '角色 23 证书导出 移除成员：黄丽']);
  });

  it('role codes are fixed: unknown codes refused, no way to delete one, no self lock-out', async () => {
    expect((await s.call('/api/role/members', { role: '10' }, demo1)).message).toBe('参数错误：角色不在角色目录中');
    expect((await s.call('/api/role/delete', { role: '4' }, demo1)).status).toBe(404);
    expect((await s.call('/api/role/remove-member', { role: '1', userId: demoId('user:demo1') }, demo1)).message).toBe('不能移除自己的系统管理员角色');
  });
});

describe('online users (role 1)', () => {
  it('lists who is online with department, IP, location and browser', async () => {
    const t = await loginFrom('demo12', '58.60.1.1');
    await s.call('/api/useronline/heartBeat', {}, t);
    const a = await s.call('/api/useronline/list', { keyword: 'demo12' }, demo1);
    expect(a.r.total).toBe(1);
    expect(a.r.items[0]).toMatchObject({ loginName: 'demo12', name: '吴强', deptName: '财务部', ip: '58.60.1.1', location: '广东省 深圳市', browser: 'Chrome 130', os: 'Windows 10', isSelf: false });
    const all = await s.call('/api/useronline/list', {}, demo1);
    expect(all.r.items.find((x: { loginName: string }) => x.loginName === 'demo1').isSelf).toBe(true);
  });

  it('forcing a session out revokes its token at once', async () => {
    const t = await s.login('demo14');
    expect((await s.call('/api/useronline/heartBeat', {}, t)).code).toBe(20000);
    const row = (await s.call('/api/useronline/list', { keyword: 'demo14' }, demo1)).r.items[0];
    const a = await s.call('/api/useronline/force-logout', { sessionId: row.sessionId }, demo1);
    expect([a.code, a.message]).toEqual([20000, '已强制 孙浩 下线']);
    const after = await s.call('/api/useronline/heartBeat', {}, t);
    // Issue 12 #20: the 50008 says why, for the sign-in page.
    expect([after.code, after.message]).toEqual([50008, '您已被管理员强制下线']);
    expect((await s.call('/api/useronline/force-logout', { sessionId: row.sessionId }, demo1)).message).toBe('该会话已经结束');
    const log = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description']).where('description', 'like', '强制用户%').executeTakeFirstOrThrow();
    expect(log).toEqual({ type: OperationLogType.logout, description: '强制用户 孙浩（demo14）下线，IP 127.0.0.1' });
  });

  it('a 50008 says why the session ended: expired, or simply not known (issue 12 #20)', async () => {
    const t = await s.login('demo15');
    const user = await s.db.kysely.selectFrom('users').select('id').where('login_name', '=', 'demo15').executeTakeFirstOrThrow();
    await s.db.kysely.updateTable('sessions').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('user_id', '=', user.id).execute();
    const expired = await s.call('/api/useronline/heartBeat', {}, t);
    expect([expired.code, expired.message]).toEqual([50008, '登录已过期，请重新登录']);
    const unknown = await s.call('/api/useronline/heartBeat', {}, 'not-a-token');
    expect([unknown.code, unknown.message]).toEqual([50008, '登录已失效，请重新登录']);
  });

  it('refuses to force out the caller’s own session', async () => {
    const mine = (await s.call('/api/useronline/list', { keyword: 'demo1' }, demo1)).r.items.find((x: { isSelf: boolean }) => x.isSelf);
    expect((await s.call('/api/useronline/force-logout', { sessionId: mine.sessionId }, demo1)).message).toBe('不能强制下线当前会话，请使用“退出登录”');
  });
});

describe('sign-in locations (role 1)', () => {
  it('resolves addresses offline: cities in Chinese, private and loopback as 内网', () => {
    expect(locateIp('202.96.128.86').location).toBe('广东省 广州市');
    expect(locateIp('::ffff:61.135.169.121')).toMatchObject({ province: '北京市', location: '北京市' });
    expect(locateIp('127.0.0.1').location).toBe('内网');
    expect(locateIp('10.3.4.5').location).toBe('内网');
    expect(locateIp('::1').location).toBe('内网');
    expect(locateIp('not-an-ip').location).toBe('未知');
  });

  it('records each sign-in with its place and highlights a city the user never used before', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    await loginFrom('demo16', '202.96.128.86');
    await loginFrom('demo16', '202.96.128.86');
    await loginFrom('demo16', '61.135.169.121');
    await loginFrom('demo16', '192.168.1.20');
    const a = await s.call('/api/geolocation/list', { user: 'demo16', from, sort: { field: 'signedInAt', order: 'ascend' } }, demo1);
    expect(a.r.items.map((x: { location: string; newCity: boolean }) => [x.location, x.newCity])).toEqual([
      ['广东省 广州市', false],
      ['广东省 广州市', false],
      ['北京市', true],
      ['内网', false],
    ]);
    const fresh = await s.call('/api/geolocation/list', { user: 'demo16', newCityOnly: true }, demo1);
    expect(fresh.r.total).toBe(1);
    const again = await s.call('/api/geolocation/list', { user: 'demo16', from }, demo1);
    expect(again.r.total).toBe(4);
  });

  it('counts sign-ins by province or city over a period', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const a = await s.call('/api/geolocation/statistic', { from, level: 'province' }, demo1);
    const gd = a.r.find((x: { region: string }) => x.region === '广东省');
    expect(gd).toMatchObject({ signIns: 3, users: 2 });
    expect(a.r.find((x: { region: string }) => x.region === '北京市')).toMatchObject({ signIns: 1, users: 1, newCity: 1 });
    const c = await s.call('/api/geolocation/statistic', { from, level: 'city' }, demo1);
    expect(c.r.map((x: { region: string }) => x.region)).toEqual(expect.arrayContaining(['广东省 广州市', '广东省 深圳市', '北京市', '内网']));
  });

  it('the demo company has a month of sign-in history', async () => {
    const a = await s.call('/api/geolocation/statistic', { level: 'city' }, demo1);
    expect(a.r.reduce((n: number, x: { signIns: number }) => n + x.signIns, 0)).toBeGreaterThan(50);
  });
});

describe('permissions', () => {
  it('demo3 manages users and departments but not roles, online users or locations', async () => {
    for (const url of ['/api/role/list', '/api/role/members', '/api/role/add-members', '/api/role/remove-member', '/api/useronline/list', '/api/useronline/force-logout', '/api/geolocation/list', '/api/geolocation/statistic']) {
      const a = await s.call(url, {}, demo3);
      expect([url, a.status, a.message]).toEqual([url, 403, '权限不足']);
    }
    expect((await s.call('/api/user/list', {}, demo3)).code).toBe(20000);
    expect((await s.call('/api/dept/tree', {}, demo3)).code).toBe(20000);
  });
});
