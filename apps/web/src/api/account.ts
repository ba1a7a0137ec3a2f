/** /api/account/* and the password update. */
import type { LoginBody, LoginResult, UserInfo } from '@zhyy/shared';
import { api } from './clients';

export const login = (body: LoginBody) => api.post<LoginResult>('/account/login', body);
export const getUserInfo = (token: string) => api.post<UserInfo | null | undefined>('/account/userinfo', { token });
export const logout = (token: string, name: string) => api.post<unknown>('/account/logout', { token, name }, { silent: true });

export interface UpdatePasswordBody {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}
export const updatePassword = (body: UpdatePasswordBody) => api.request<unknown>('/user/updatepassword', body);
