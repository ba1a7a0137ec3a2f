/**
 * The rules of user administration (issue 4):
 * - login names are unique (stored lower case), letters, digits, '.' and '_';
 * - creating a user or resetting a password sets an initial password that is shown once and must be
 *   changed at first sign-in (50010);
 * - disabling revokes every session at once; a user with sign-ins or operations is never deleted;
 * - only administrators (role admin or 1) grant or take away roles 1 and 3, and only they create, edit,
 *   reset, disable or delete an account holding admin, 1 or 3 (a user administrator edits their own
 *   profile, never their own roles), so role 3 cannot raise itself through an account it made;
 * - nobody disables, deletes or resets themselves here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_ROLE,
  ADMINISTRATOR,
  EMPTY_ID,
  OperationLogType,
  PRIVILEGED_ROLES,
  holdsPrivilegedRole,
  isSuperUser,
  roleName,
  type ResetPasswordResult,
  type UserDetail,
  type UserSaveBody,
  type UserSaveResult,
} from '@zhyy/shared';
import { currentUser } from '../../platform/context.js';
import { conflict, notFound, refuse } from '../../platform/envelope.js';
import { newId } from '../../platform/ids.js';
import { generateInitialPassword, hashPassword } from '../../platform/passwords.js';
import { nowIso } from '../../platform/time.js';
import { describeAgent } from './agent.js';
import { allDepts } from './depts.repo.js';
import { pathOf } from './depts.tree.js';
import { locateIp } from './geoip.js';
import * as repo from './users.repo.js';
import { newUserRow } from '../account/user-row.js';

const MANAGERS_ONLY = '只有系统管理员可以修改系统管理员或用户管理员的账号';
const GRANTS_ONLY = '只有系统管理员可以授予或撤销系统管理员和用户管理员角色';

const REVOKE_REASON: Record<string, string> = {
  logout: '主动退出',
  'password-changed': '修改密码',
  'password-reset': '管理员重置密码',
  disabled: '账号停用',
  forced: '管理员强制下线',
};

export class UserService {
  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.db.kysely;
  }

  private async load(id: string) {
    const row = await repo.findUser(this.db, id);
    if (!row) throw notFound('用户不存在或已被删除');
    const roles = (await repo.rolesOf(this.db, [id])).get(id) ?? [];
    return { row, roles };
  }

  /** Role 3 manages ordinary accounts; accounts that manage users belong to administrators. */
  private assertMayManage(req: FastifyRequest, targetId: string, targetRoles: string[]): void {
    const me = currentUser(req);
    if (targetId !== me.id && holdsPrivilegedRole(targetRoles) && !isSuperUser(me.roles)) throw refuse(MANAGERS_ONLY, 403);
  }

  /** Roles 1 and 3 are granted and taken away by administrators only. */
  private assertMayGrant(req: FastifyRequest, before: readonly string[], after: readonly string[]): void {
    const changed = PRIVILEGED_ROLES.some((r) => before.includes(r) !== after.includes(r));
    if (changed && !isSuperUser(currentUser(req).roles)) throw refuse(GRANTS_ONLY, 403);
  }

  async detail(id: string): Promise<UserDetail> {
    const { row, roles } = await this.load(id);
    const depts = await allDepts(this.db);
    const sessions = await repo.recentSessions(this.db, id);
    const ops = await repo.recentOperations(this.db, id);
    const now = nowIso();
    return {
      ...repo.toUserRow(row, roles),
      isAdmin: isSuperUser(roles),
      deptPath: pathOf(depts, row.dept_id),
      updatedAt: row.updated_at,
      recentSignIns: sessions.map((s) => ({
        id: s.id,
        ip: s.ip,
        location: locateIp(s.ip).location,
        browser: describeAgent(s.user_agent).browser,
        signedInAt: s.created_at,
        lastSeenAt: s.last_seen_at,
        endedAt: s.revoked_at ?? (s.expires_at <= now ? s.expires_at : null),
        endReason: s.revoked_at ? (REVOKE_REASON[s.revoked_reason ?? ''] ?? s.revoked_reason) : s.expires_at <= now ? '已过期' : null,
      })),
      recentOperations: ops.map((o) => ({ id: o.id, type: o.type, description: o.description, ip: o.ip, createdAt: o.created_at })),
    };
  }

  async save(req: FastifyRequest, body: UserSaveBody): Promise<UserSaveResult> {
    const me = currentUser(req);
    const loginName = body.loginName.toLowerCase();
    const roles = [...new Set(body.roles)];
    const depts = await allDepts(this.db);
    if (!depts.some((d) => d.id === body.deptId)) throw refuse('所选部门不存在');
    const clash = await repo.findByLoginName(this.db, loginName);
    if (clash && clash.id !== body.id) throw conflict(`登录名“${loginName}”已被使用`);

    if (body.id === EMPTY_ID) {
      this.assertMayGrant(req, [], roles);
      const id = newId();
      const initialPassword = generateInitialPassword();
      const hash = await hashPassword(initialPassword);
      const now = nowIso();
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values(
            newUserRow(
              { id, loginName, name: body.name, deptId: body.deptId, position: body.position, phone: body.phone, email: body.email, passwordHash: hash, initialPassword: true, status: body.status },
              now,
            ),
          )
          .execute();
        await repo.replaceRoles(trx, id, roles);
        await this.app.oplog.record(req, OperationLogType.add, `新增用户 ${body.name}（${loginName}），角色：${roles.map(roleName).join('、') || '无'}`, trx);
      });
      return { id, initialPassword };
    }

    const { row, roles: before } = await this.load(body.id);
    this.assertMayManage(req, body.id, before);
    if (body.id === me.id && body.status !== 1) throw refuse('不能停用自己的账号');
    if (body.id === me.id && before.includes(ADMINISTRATOR) && !roles.includes(ADMINISTRATOR)) throw refuse('不能移除自己的系统管理员角色');
    // A user administrator (role 3) does not grant themselves what to see: roles change by someone else.
    const sameRoles = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((r) => b.includes(r));
    if (body.id === me.id && !isSuperUser(me.roles) && !sameRoles(before.filter((r) => r !== ADMIN_ROLE), roles)) throw refuse('不能修改自己的角色，请由系统管理员调整');
    this.assertMayGrant(req, before, roles);
    // The super role `admin` is not in the catalogue: it stays as it is.
    const kept = before.includes(ADMIN_ROLE) ? [ADMIN_ROLE, ...roles] : roles;
    const changes = describeChanges(row, body, loginName, before, kept);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ login_name: loginName, name: body.name, dept_id: body.deptId, position: body.position, phone: body.phone, email: body.email, status: body.status, updated_at: nowIso() })
        .where('id', '=', body.id)
        .execute();
      await repo.replaceRoles(trx, body.id, kept);
      await this.app.oplog.record(req, OperationLogType.edit, `修改用户 ${body.name}（${loginName}）：${changes || '无变化'}`, trx);
    });
    if (row.status === 1 && body.status !== 1) await this.app.sessions.revokeAllForUser(body.id, 'disabled');
    return { id: body.id };
  }

  async resetPassword(req: FastifyRequest, id: string): Promise<ResetPasswordResult> {
    if (id === currentUser(req).id) throw refuse('不能在这里重置自己的密码，请使用“修改密码”');
    const { row, roles } = await this.load(id);
    this.assertMayManage(req, id, roles);
    const initialPassword = generateInitialPassword();
    const hash = await hashPassword(initialPassword);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: hash, password_is_initial: 1, failed_count: 0, failed_since: null, locked_until: null, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      await this.app.oplog.record(req, OperationLogType.edit, `重置用户 ${row.name}（${row.login_name}）的密码`, trx);
    });
    const revokedSessions = await this.app.sessions.revokeAllForUser(id, 'password-reset');
    return { initialPassword, revokedSessions };
  }

  async setStatus(req: FastifyRequest, id: string, status: 0 | 1): Promise<{ revokedSessions: number }> {
    if (id === currentUser(req).id) throw refuse('不能停用或启用自己的账号');
    const { row, roles } = await this.load(id);
    this.assertMayManage(req, id, roles);
    if (row.status === status) return { revokedSessions: 0 };
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `${status === 1 ? '启用' : '停用'}用户 ${row.name}（${row.login_name}）`, trx);
    });
    const revokedSessions = status === 0 ? await this.app.sessions.revokeAllForUser(id, 'disabled') : 0;
    return { revokedSessions };
  }

  /** Only an account that was never used (no sign-in, no operation, manages no department). */
  async remove(req: FastifyRequest, id: string): Promise<void> {
    if (id === currentUser(req).id) throw refuse('不能删除自己的账号');
    const { row, roles } = await this.load(id);
    this.assertMayManage(req, id, roles);
    const why = await this.app.userRecords.describe(this.db, id);
    if (why.length) throw refuse(`用户 ${row.name} 已有${why.join('、')}，不能删除，只能停用`);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
      await trx.deleteFrom('users').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除用户 ${row.name}（${row.login_name}）`, trx);
    });
  }
}

function describeChanges(
  row: { login_name: string; name: string; dept_id: string | null; position: string; phone: string; email: string; status: number },
  body: UserSaveBody,
  loginName: string,
  before: string[],
  after: string[],
): string {
  const out: string[] = [];
  if (row.login_name !== loginName) out.push(`登录名 ${row.login_name}→${loginName}`);
  if (row.name !== body.name) out.push(`姓名 ${row.name}→${body.name}`);
  if (row.dept_id !== body.deptId) out.push('部门');
  if (row.position !== body.position) out.push('职务');
  if (row.phone !== body.phone) out.push('电话');
  if (row.email !== body.email) out.push('邮箱');
  if (row.status !== body.status) out.push(body.status === 1 ? '启用' : '停用');
  const fmt = (r: string[]) => r.map(roleName).join('、') || '无';
  if ([...before].sort().join() !== [...after].sort().join()) out.push(`角色 ${fmt(before)}→${fmt(after)}`);
  return out.join('，');
}
