/** SPEC sections 3 and 4: the user session. The token and the user name live in separate cookies for 7 days. */
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { TOKEN_COOKIE_DAYS, TOKEN_COOKIE_NAME, USER_NAME_COOKIE_NAME, type UserInfo } from '@zhyy/shared';

export interface SessionState {
  token: string;
  /** The display name, also kept in its own cookie. */
  name: string;
  loginName: string;
  roles: string[];
  info: UserInfo | null;
  /** The change-password flag: the initial-password dialog is open while it is raised. */
  needChangePassword: boolean;
  setToken(token: string): void;
  setUserInfo(info: UserInfo): void;
  raisePasswordFlag(): void;
  clearPasswordFlag(): void;
  /** Clears the token and everything derived from it (logout, 50008, a failed user-info load). */
  resetToken(): void;
}

const cookieOptions = { expires: TOKEN_COOKIE_DAYS, sameSite: 'lax' as const };

export const useSession = create<SessionState>()((set) => ({
  token: Cookies.get(TOKEN_COOKIE_NAME) ?? '',
  name: Cookies.get(USER_NAME_COOKIE_NAME) ?? '',
  loginName: '',
  roles: [],
  info: null,
  needChangePassword: false,
  setToken(token) {
    Cookies.set(TOKEN_COOKIE_NAME, token, cookieOptions);
    set({ token });
  },
  setUserInfo(info) {
    Cookies.set(USER_NAME_COOKIE_NAME, info.name, cookieOptions);
    set((s) => ({
      info,
      roles: [...info.roles],
      name: info.name,
      loginName: info.loginName,
      needChangePassword: s.needChangePassword || info.needChangePassword,
    }));
  },
  raisePasswordFlag: () => set({ needChangePassword: true }),
  clearPasswordFlag: () => set({ needChangePassword: false }),
  resetToken() {
    Cookies.remove(TOKEN_COOKIE_NAME);
    Cookies.remove(USER_NAME_COOKIE_NAME);
    set({ token: '', name: '', loginName: '', roles: [], info: null, needChangePassword: false });
  },
}));

export const getToken = () => useSession.getState().token || undefined;
