import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType } from '@zhyy/shared';
import { hashPassword } from '../src/platform/passwords.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function setInitialPassword(login: string, password: string) {
  await s.db.kysely
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), password_is_initial: 1 })
    .where('login_name', '=', login)
    .execute();
}

describe('the initial password', () => {
  it('flags the sign-in, then answers 50010 to every call but userinfo, logout and the password update', async () => {
    await setInitialPassword('demo17', 'Init2026a');
    const login = await s.call('/api/account/login', { name: 'demo17', password: 'Init2026a' });
    expect(login.r.needChangePassword).toBe(true);
    const token = login.r.token as string;
    const info = await s.call('/api/account/userinfo', {}, token);
    expect([info.code, info.r.needChangePassword]).toEqual([20000, true]);
    const hb = await s.call('/api/useronline/heartBeat', {}, token);
    expect([hb.status, hb.code]).toEqual([403, 50010]);
    const log = await s.call('/api/syslog/add-operation-log', { description: 'x', type: 30 }, token);
    expect(log.code).toBe(50010);

    const other = (await s.call('/api/account/login', { name: 'demo17', password: 'Init2026a' })).r.token as string;
    const upd = await s.call('/api/user/updatepassword', { oldPassword: 'Init2026a', password: 'Better2026', confirmPassword: 'Better2026' }, token);
    expect([upd.code, upd.message]).toEqual([20000, '修改成功']);

    expect((await s.call('/api/useronline/heartBeat', {}, token)).code).toBe(20000);
    expect((await s.call('/api/account/userinfo', {}, token)).r.needChangePassword).toBe(false);
    // The password change revoked the user's other sessions.
    expect((await s.call('/api/account/userinfo', {}, other)).code).toBe(50008);
    expect(await s.login('demo17', 'Better2026')).toBeTruthy();
    const row = await s.db.kysely.selectFrom('operation_logs').select('description').where('type', '=', OperationLogType.edit).where('login_name', '=', 'demo17').executeTakeFirst();
    expect(row?.description).toBe('修改登录密码');
  });
});

describe('the password update enforces SPEC section 5 on the server', () => {
  let token: string;
  beforeAll(async () => {
    token = await s.login('demo18');
  });
  const update = (b: object) => s.call('/api/user/updatepassword', b, token);

  it.each([
    [{ oldPassword: 'demo123', password: '', confirmPassword: '' }, '参数错误：输入新密码'],
    [{ oldPassword: 'demo123', password: 'ab1', confirmPassword: 'ab1' }, '参数错误：6-20位密码'],
    [{ oldPassword: 'demo123', password: 'abcdefgh', confirmPassword: 'abcdefgh' }, '参数错误：密码：6-20位，由字母和数字组合'],
    [{ oldPassword: 'demo123', password: 'abc123', confirmPassword: '' }, '参数错误：输入确认密码'],
    [{ oldPassword: 'demo123', password: 'abc123', confirmPassword: 'abc124' }, '参数错误：两次密码不一致'],
  ])('%j -> %s', async (body, message) => {
    const a = await update(body);
    expect([a.code, a.message]).toEqual([30000, message]);
  });

  it('checks the old password', async () => {
    expect((await update({ password: 'abc123', confirmPassword: 'abc123' })).message).toBe('请输入原密码');
    expect((await update({ oldPassword: 'wrong', password: 'abc123', confirmPassword: 'abc123' })).message).toBe('原密码错误');
  });

  it('refuses the same password again', async () => {
    await s.db.kysely.updateTable('users').set({ password_hash: await hashPassword('same123') }).where('login_name', '=', 'demo18').execute();
    expect((await update({ oldPassword: 'same123', password: 'same123', confirmPassword: 'same123' })).message).toBe('新密码不能与原密码相同');
  });

  it('stores argon2id', async () => {
    const row = await s.db.kysely.selectFrom('users').select('password_hash').where('login_name', '=', 'demo18').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
