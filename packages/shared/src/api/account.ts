/** /api/account/*: sign-in, user info, sign-out (SPEC section 7). */
import { z } from '../zod-locale.js';
import { text } from './common.js';

export const LoginBody = z.object({
  name: text({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: text({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export interface LoginResult {
  token: string;
  /** True when the password is an initial one that must be changed before anything else. */
  needChangePassword: boolean;
}

export const UserInfoBody = z.object({ token: text().max(256).optional() });

export interface UserInfo {
  roles: string[];
  name: string;
  loginName: string;
  deptName: string;
  position: string;
  /** The change-password flag: the initial-password dialog opens when it is raised. */
  needChangePassword: boolean;
}

export const LogoutBody = z.object({ token: text().max(256).optional(), name: text().max(64).optional() });
