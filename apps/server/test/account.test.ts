import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LOCK_MS, Messages, OperationLogType, ResponseCode } from '@zhyy/shared';
import { hashToken } from '../src/platform/tokens.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const lastLog = async (type: number) =>
  s.db.kysely.selectFrom('operation_logs').selectAll().where('type', '=', type).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();

describe('sign-in', () => {
  it('returns r.token for the right password and logs type 1', async () => {
    const a = await s.call('/api/account/login', { name: 'demo5', password: 'demo123' });
    expect(a.status).toBe(200);
    expect(a.code).toBe(20000);
    expect(a.r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.r.needChangePassword).toBe(false);
    const log = await lastLog(OperationLogType.login);
    expect(log?.login_name).toBe('demo5');
  });

  it('stores only the hash of the token', async () => {
    const token = await s.login('demo6');
    const rows = await s.db.kysely.selectFrom('sessions').select(['token_hash']).execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.some((r) => r.token_hash === hashToken(token))).toBe(true);
  });

  it('refuses a wrong password or an unknown name with 30000 用户名或密码错误', async () => {
    const wrong = await s.call('/api/account/login', { name: 'demo7', password: 'nope' });
    expect([wrong.status, wrong.code, wrong.message]).toEqual([400, 30000, '用户名或密码错误']);
    const unknown = await s.call('/api/account/login', { name: 'nobody', password: 'demo123' });
    expect([unknown.code, unknown.message]).toEqual([30000, '用户名或密码错误']);
    expect((await lastLog(OperationLogType.fail))?.description).toContain('nobody');
  });

  it('names the field when the body fails its schema', async () => {
    const a = await s.call('/api/account/login', { name: '', password: 'x' });
    expect([a.status, a.code, a.message]).toEqual([400, 30000, '参数错误：请输入用户名']);
    const b = await s.call('/api/account/login', { name: 'demo5' });
    expect([b.code, b.message]).toEqual([30000, '参数错误：请输入密码']);
    const c = await s.call('/api/account/login', { password: 'x' });
    expect([c.code, c.message]).toEqual([30000, '参数错误：请输入用户名']);
    const d = await s.call('/api/account/login', undefined, undefined, {});
    expect(d.code).toBe(30000);
    // One plain Chinese sentence: no schema words, no type names, no English key.
    for (const m of [a.message, b.message, c.message, d.message]) expect(m).not.toMatch(/期望|string|undefined|[A-Za-z]/);
  });

  it('refuses malformed JSON with a Chinese message', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/account/login', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 30000, message: '参数错误：请求体不是有效的JSON' });
  });

  it('locks an account for 15 minutes after five wrong passwords within 15 minutes (50011, says until when)', async () => {
    for (let i = 1; i <= 4; i++) {
      const a = await s.call('/api/account/login', { name: 'demo8', password: `wrong${i}` });
      expect(a.code).toBe(30000);
    }
    const fifth = await s.call('/api/account/login', { name: 'demo8', password: 'wrong5' });
    expect(fifth.code).toBe(ResponseCode.passwordErrorsExceeded);
    expect(fifth.message).toMatch(/^密码错误次数过多，账号已锁定至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}，请稍后再试$/);
    // Even the right password is refused while locked.
    const right = await s.call('/api/account/login', { name: 'demo8', password: 'demo123' });
    expect(right.code).toBe(50011);
    const row = await s.db.kysely.selectFrom('users').select('locked_until').where('login_name', '=', 'demo8').executeTakeFirstOrThrow();
    const lockedFor = Date.parse(row.locked_until!) - Date.now();
    expect(lockedFor).toBeGreaterThan(LOGIN_LOCK_MS - 60_000);
    expect(lockedFor).toBeLessThanOrEqual(LOGIN_LOCK_MS);
    // Once the lock has passed, the right password works again.
    await s.db.kysely.updateTable('users').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('login_name', '=', 'demo8').execute();
    expect((await s.call('/api/account/login', { name: 'demo8', password: 'demo123' })).code).toBe(20000);
  });

  it('wrong passwords sent all at once lock the account after the fifth, like ones sent one by one', async () => {
    const guesses = await Promise.all(Array.from({ length: 50 }, (_, i) => s.call('/api/account/login', { name: 'demo20', password: `guess${i}` })));
    // Four are told the password is wrong; from the fifth on, the account is locked and nothing more is checked.
    expect(guesses.filter((a) => a.code === 30000).length).toBe(4);
    expect(guesses.filter((a) => a.code === ResponseCode.passwordErrorsExceeded).length).toBe(46);
    const right = await s.call('/api/account/login', { name: 'demo20', password: 'demo123' });
    expect(right.code).toBe(ResponseCode.passwordErrorsExceeded);
    expect(right.message).toMatch(/^密码错误次数过多，账号已锁定至 /);
  });

  it('twenty sign-ins at once with the right password all succeed and leave the account unlocked (only wrong passwords count)', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => s.call('/api/account/login', { name: 'demo22', password: 'demo123' })));
    expect(all.map((a) => a.code)).toEqual(Array.from({ length: 20 }, () => 20000));
    const row = await s.db.kysely.selectFrom('users').select(['failed_count', 'locked_until']).where('login_name', '=', 'demo22').executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_count: 0, locked_until: null });
    // Wrong passwords still lock the same account as the spec says.
    for (let i = 1; i <= 4; i++) expect((await s.call('/api/account/login', { name: 'demo22', password: `wrong${i}` })).code).toBe(30000);
    expect((await s.call('/api/account/login', { name: 'demo22', password: 'wrong5' })).code).toBe(ResponseCode.passwordErrorsExceeded);
  });

  it('the fifth attempt with the right password still signs in', async () => {
    for (let i = 0; i < 4; i++) expect((await s.call('/api/account/login', { name: 'demo21', password: 'bad' })).code).toBe(30000);
    expect((await s.call('/api/account/login', { name: 'demo21', password: 'demo123' })).code).toBe(20000);
    const row = await s.db.kysely.selectFrom('users').select(['failed_count', 'locked_until']).where('login_name', '=', 'demo21').executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_count: 0, locked_until: null });
  });

  it('counts only failures within the 15-minute window', async () => {
    for (let i = 0; i < 4; i++) await s.call('/api/account/login', { name: 'demo9', password: 'bad' });
    await s.db.kysely
      .updateTable('users')
      .set({ failed_since: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where('login_name', '=', 'demo9')
      .execute();
    const a = await s.call('/api/account/login', { name: 'demo9', password: 'bad' });
    expect(a.code).toBe(30000);
    const row = await s.db.kysely.selectFrom('users').select(['failed_count']).where('login_name', '=', 'demo9').executeTakeFirstOrThrow();
    expect(row.failed_count).toBe(1);
  });

  it('a successful sign-in clears the failure count', async () => {
    await s.call('/api/account/login', { name: 'demo11', password: 'bad' });
    await s.login('demo11');
    const row = await s.db.kysely.selectFrom('users').select(['failed_count']).where('login_name', '=', 'demo11').executeTakeFirstOrThrow();
    expect(row.failed_count).toBe(0);
  });

  it('a disabled account cannot sign in, and disabling revokes its tokens', async () => {
    const token = await s.login('demo12');
    await s.db.kysely.updateTable('users').set({ status: 0 }).where('login_name', '=', 'demo12').execute();
    const a = await s.call('/api/account/login', { name: 'demo12', password: 'demo123' });
    expect([a.code, a.message]).toEqual([30000, Messages.accountDisabled]);
    expect((await s.call('/api/account/userinfo', {}, token)).code).toBe(ResponseCode.tokenInvalid);
    await s.db.kysely.updateTable('users').set({ status: 1 }).where('login_name', '=', 'demo12').execute();
  });

  it('login names are case-insensitive', async () => {
    expect((await s.call('/api/account/login', { name: 'DEMO5', password: 'demo123' })).code).toBe(20000);
  });
});

describe('userinfo and logout', () => {
  it('returns roles, name, loginName, deptName, position and the change-password flag', async () => {
    const token = await s.login('demo13');
    const a = await s.call('/api/account/userinfo', { token }, token);
    expect(a.code).toBe(20000);
    expect(a.r).toEqual({ roles: ['13'], name: '徐婷', loginName: 'demo13', deptName: '财务部', position: '税务会计', needChangePassword: false });
  });

  it('admin carries role admin', async () => {
    const token = await s.login('admin');
    expect((await s.call('/api/account/userinfo', {}, token)).r.roles).toEqual(['admin']);
  });

  it('missing, unknown, expired and revoked tokens get 50008', async () => {
    expect((await s.call('/api/account/userinfo', {})).code).toBe(50008);
    const unknown = await s.call('/api/account/userinfo', {}, 'x'.repeat(43));
    expect([unknown.status, unknown.code]).toEqual([401, 50008]);
    const token = await s.login('demo14');
    await s.db.kysely.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', hashToken(token)).execute();
    expect((await s.call('/api/account/userinfo', {}, token)).code).toBe(50008);
  });

  it('logout revokes the session and logs type 2', async () => {
    const token = await s.login('demo15');
    const a = await s.call('/api/account/logout', { token, name: 'demo15' }, token);
    expect(a.code).toBe(20000);
    expect((await s.call('/api/account/userinfo', {}, token)).code).toBe(50008);
    expect((await lastLog(OperationLogType.logout))?.login_name).toBe('demo15');
  });

  it('a token is read only from X-Token, never from a cookie', async () => {
    const token = await s.login('demo16');
    const res = await s.app.inject({ method: 'POST', url: '/api/account/userinfo', headers: { cookie: `ZHYY-Token=${token}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(res.json().code).toBe(50008);
  });
});
