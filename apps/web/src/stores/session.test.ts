import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_COOKIE_NAME, USER_NAME_COOKIE_NAME, type UserInfo } from '@zhyy/shared';
import { getToken, useSession } from './session';

const info: UserInfo = { roles: ['5'], name: '刘芳', loginName: 'demo5', deptName: '财务部', position: '销项会计', needChangePassword: false };

describe('session store (SPEC section 4)', () => {
  beforeEach(() => useSession.getState().resetToken());

  it('keeps the token in its own cookie', () => {
    useSession.getState().setToken('abc');
    expect(Cookies.get(TOKEN_COOKIE_NAME)).toBe('abc');
    expect(getToken()).toBe('abc');
  });

  it('user info fills roles, names and the user-name cookie', () => {
    useSession.getState().setUserInfo(info);
    expect(useSession.getState()).toMatchObject({ roles: ['5'], name: '刘芳', loginName: 'demo5' });
    expect(Cookies.get(USER_NAME_COOKIE_NAME)).toBe('刘芳');
    expect(TOKEN_COOKIE_NAME).not.toBe(USER_NAME_COOKIE_NAME);
  });

  it('user info with needChangePassword raises the flag, and it stays raised', () => {
    useSession.getState().setUserInfo({ ...info, needChangePassword: true });
    expect(useSession.getState().needChangePassword).toBe(true);
    useSession.getState().raisePasswordFlag();
    useSession.getState().clearPasswordFlag();
    expect(useSession.getState().needChangePassword).toBe(false);
  });

  it('resetToken clears token, roles, login name and both cookies', () => {
    const s = useSession.getState();
    s.setToken('abc');
    s.setUserInfo(info);
    s.resetToken();
    expect(useSession.getState()).toMatchObject({ token: '', roles: [], loginName: '', name: '', info: null });
    expect(Cookies.get(TOKEN_COOKIE_NAME)).toBeUndefined();
    expect(Cookies.get(USER_NAME_COOKIE_NAME)).toBeUndefined();
    expect(getToken()).toBeUndefined();
  });
});
