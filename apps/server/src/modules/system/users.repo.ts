/** SQL of the user screens: the filtered list, one user, roles, and what a user has left behind. */
import type { Kysely } from 'kysely';
import { USER_SORT_FIELDS, type UserListQuery, type UserRow } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains, offsetOf, sortOf } from '../../platform/listing.js';
import { describeCounts, type UserRecordCounter } from '../../platform/user-records.js';

type Db = Kysely<Database>;
export type UserFilter = Partial<Omit<UserListQuery, 'pageIndex' | 'pageSize' | 'sort'>> & { deptIds?: string[]; keyword?: string };

const SORT_COLUMNS: Record<(typeof USER_SORT_FIELDS)[number], string> = {
  loginName: 'u.login_name',
  name: 'u.name',
  deptName: 'd.name',
  createdAt: 'u.created_at',
  lastLoginAt: 'u.last_login_at',
  status: 'u.status',
};

function filtered(db: Db, f: UserFilter) {
  let q = db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.dept_id');
  if (f.name) q = q.where(({ ref }) => contains(ref('u.name'), f.name!));
  if (f.loginName) q = q.where(({ ref }) => contains(ref('u.login_name'), f.loginName!));
  if (f.keyword) {
    const k = f.keyword;
    q = q.where(({ or, ref }) => or([contains(ref('u.name'), k), contains(ref('u.login_name'), k)]));
  }
  if (f.deptIds) q = f.deptIds.length ? q.where('u.dept_id', 'in', f.deptIds) : q.where(({ lit }) => lit(false));
  if (f.status !== undefined) q = q.where('u.status', '=', f.status);
  if (f.role) {
    const role = f.role;
    q = q.where(({ exists, selectFrom }) =>
      exists(selectFrom('user_roles as r').select('r.user_id').whereRef('r.user_id', '=', 'u.id').where('r.role', '=', role)),
    );
  }
  return q;
}

const COLUMNS = [
  'u.id',
  'u.login_name',
  'u.name',
  'u.dept_id',
  'd.name as dept_name',
  'u.position',
  'u.phone',
  'u.email',
  'u.status',
  'u.password_is_initial',
  'u.last_login_at',
  'u.created_at',
  'u.updated_at',
] as const;

export async function rolesOf(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!userIds.length) return out;
  const rows = await db.selectFrom('user_roles').select(['user_id', 'role']).where('user_id', 'in', userIds).execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.role]);
  for (const list of out.values()) list.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return out;
}

type UserRecord = { id: string; login_name: string; name: string; dept_id: string | null; dept_name: string | null; position: string; phone: string; email: string; status: number; password_is_initial: number; last_login_at: string | null; created_at: string };

export function toUserRow(r: UserRecord, roles: string[]): UserRow {
  return {
    id: r.id,
    loginName: r.login_name,
    name: r.name,
    deptId: r.dept_id,
    deptName: r.dept_name ?? '',
    position: r.position,
    phone: r.phone,
    email: r.email,
    roles,
    status: r.status,
    passwordIsInitial: r.password_is_initial === 1,
    lastLoginAt: r.last_login_at,
    createdAt: r.created_at,
  };
}

export async function countUsers(db: Db, f: UserFilter): Promise<number> {
  const row = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listUsers(db: Db, f: UserFilter, page: { offset: number; limit: number; sort?: UserListQuery['sort'] }): Promise<UserRow[]> {
  const s = sortOf(page.sort, SORT_COLUMNS, { column: 'u.login_name', order: 'asc' });
  const rows = await filtered(db, f)
    .select(COLUMNS)
    .orderBy(s.column as 'u.login_name', s.order)
    .orderBy('u.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const roles = await rolesOf(db, rows.map((r) => r.id));
  return rows.map((r) => toUserRow(r, roles.get(r.id) ?? []));
}

export const pageArgs = (q: UserListQuery) => ({ offset: offsetOf(q), limit: q.pageSize, sort: q.sort });

export function findUser(db: Db, id: string) {
  return db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.dept_id').select(COLUMNS).where('u.id', '=', id).executeTakeFirst();
}

export function findByLoginName(db: Db, loginName: string) {
  return db.selectFrom('users').select(['id']).where('login_name', '=', loginName).executeTakeFirst();
}

export async function replaceRoles(db: Db, userId: string, roles: string[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roles.length) await db.insertInto('user_roles').values(roles.map((role) => ({ user_id: userId, role }))).execute();
}

/** What ties a user to the platform's own history: sign-ins, operations, managed departments. */
export const platformUserRecords: UserRecordCounter = async (db, userId) => {
  const [sessions, operations, managed] = await Promise.all([
    db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('operation_logs').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).where('manager_id', '=', userId).executeTakeFirst(),
  ]);
  return describeCounts([
    [sessions, (n) => `${n}次登录`],
    [operations, (n) => `${n}条操作记录`],
    [managed, (n) => `担任${n}个部门的负责人`],
  ]);
};

export function recentSessions(db: Db, userId: string, limit = 10) {
  return db
    .selectFrom('sessions')
    .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'revoked_at', 'revoked_reason', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function recentOperations(db: Db, userId: string, limit = 10) {
  return db
    .selectFrom('operation_logs')
    .select(['id', 'type', 'description', 'ip', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
