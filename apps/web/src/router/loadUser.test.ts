import { describe, expect, it } from 'vitest';
import type { UserInfo } from '@zhyy/shared';
import { fetchCheckedUserInfo, guardErrorMessage } from './loadUser';

const info: UserInfo = { roles: ['1'], name: 'A', loginName: 'a', deptName: 'D', position: 'P', needChangePassword: false };

describe('user info load (SPEC sections 5 and 8)', () => {
  it('returns the info', async () => {
    await expect(fetchCheckedUserInfo('t', () => Promise.resolve(info))).resolves.toEqual(info);
  });

  it('missing user info: 验证失败, 请重新登录', async () => {
    await expect(fetchCheckedUserInfo('t', () => Promise.resolve(null))).rejects.toThrow('验证失败, 请重新登录');
  });

  it('empty roles: 权限不足', async () => {
    await expect(fetchCheckedUserInfo('t', () => Promise.resolve({ ...info, roles: [] }))).rejects.toThrow('权限不足');
  });

  it('the guard shows the error, else Has Error', () => {
    expect(guardErrorMessage(new Error('登录已失效'))).toBe('登录已失效');
    expect(guardErrorMessage(undefined)).toBe('Has Error');
    expect(guardErrorMessage(new Error(''))).toBe('Has Error');
  });
});
