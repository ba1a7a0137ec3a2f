/** A new row of the users table: the one place that knows every column's starting value. */
import type { UserTable } from '../../db/schema.js';
import { normaliseLoginName } from './repo.js';

export interface NewUser {
  id: string;
  loginName: string;
  name: string;
  deptId: string | null;
  position?: string;
  phone?: string;
  email?: string;
  passwordHash: string;
  /** An initial password set by an administrator must be changed at first sign-in (50010). */
  initialPassword: boolean;
  /** 1 active, 0 disabled. */
  status?: number;
}

export function newUserRow(u: NewUser, now: string): UserTable {
  return {
    id: u.id,
    login_name: normaliseLoginName(u.loginName),
    name: u.name,
    dept_id: u.deptId,
    position: u.position ?? '',
    phone: u.phone ?? '',
    email: u.email ?? '',
    password_hash: u.passwordHash,
    password_is_initial: u.initialPassword ? 1 : 0,
    status: u.status ?? 1,
    failed_count: 0,
    failed_since: null,
    locked_until: null,
    last_login_at: null,
    created_at: now,
    updated_at: now,
  };
}
