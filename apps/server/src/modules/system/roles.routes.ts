/**
 * /api/role/*: the role catalogue of SPEC section 6 (role 1 only). Codes are fixed by the spec and
 * cannot be created or deleted; their members can be added and removed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMINISTRATOR,
  AREA_TITLES,
  OperationLogType,
  ROLES,
  RoleBody,
  RoleMemberBody,
  RoleMembersBody,
  accessibleRoutes,
  roleName,
  type RoleMember,
  type RolePage,
  type RoleSummary,
} from '@zhyy/shared';
import { currentUser } from '../../platform/context.js';
import { pages } from '../../platform/access.js';
import { ok, refuse } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';

const ROLES_PAGE = pages('/system/userrolelist');

/** The screens a role opens, derived from the shared route table (menu pages only). */
export function pagesOfRole(code: string): RolePage[] {
  return accessibleRoutes([code])
    .filter((r) => !r.hidden)
    .map((r) => ({ path: r.path, title: r.crumbs.map((c) => c.title).slice(1).join(' / ') || r.title, group: AREA_TITLES[r.area] }));
}

export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['角色管理'];
  const db = () => app.db.kysely;

  r.post('/api/role/list', { schema: { summary: '角色目录：含义、可打开的页面、成员数', tags }, config: { access: ROLES_PAGE } }, async () => {
    const counts = await db()
      .selectFrom('user_roles as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.role', (eb) => eb.fn.countAll<number>().as('n')])
      .where('u.status', '=', 1)
      .groupBy('r.role')
      .execute();
    const byRole = new Map(counts.map((c) => [c.role, Number(c.n)]));
    const list: RoleSummary[] = ROLES.map((role) => ({ ...role, memberCount: byRole.get(role.code) ?? 0, pages: pagesOfRole(role.code) }));
    return ok(list);
  });

  r.post('/api/role/members', { schema: { body: RoleBody, summary: '角色成员（含停用账号）', tags }, config: { access: ROLES_PAGE } }, async (req) => {
    const rows = await db()
      .selectFrom('user_roles as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.login_name', 'u.name', 'd.name as dept_name', 'u.position', 'u.status'])
      .where('r.role', '=', req.body.role)
      .orderBy('u.status', 'desc')
      .orderBy('u.login_name')
      .execute();
    const members: RoleMember[] = rows.map((u) => ({ id: u.id, loginName: u.login_name, name: u.name, deptName: u.dept_name ?? '', position: u.position, status: u.status }));
    return ok(members);
  });

  r.post('/api/role/add-members', { schema: { body: RoleMembersBody, summary: '为角色添加成员', tags }, config: { access: ROLES_PAGE } }, async (req) => {
    const { role } = req.body;
    const ids = [...new Set(req.body.userIds)];
    const users = await db().selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
    if (users.length !== ids.length) throw refuse('部分用户不存在，请刷新后重试');
    const existing = new Set((await db().selectFrom('user_roles').select('user_id').where('role', '=', role).where('user_id', 'in', ids).execute()).map((x) => x.user_id));
    const added = users.filter((u) => !existing.has(u.id));
    if (added.length) {
      await db().transaction().execute(async (trx) => {
        await trx.insertInto('user_roles').values(added.map((u) => ({ user_id: u.id, role }))).execute();
        await app.oplog.record(req, OperationLogType.edit, `角色 ${role} ${roleName(role)} 添加成员：${added.map((u) => u.name).join('、')}`, trx);
      });
    }
    return ok({ added: added.length }, added.length ? `已添加${added.length}人` : '所选用户已是该角色成员');
  });

  r.post('/api/role/remove-member', { schema: { body: RoleMemberBody, summary: '从角色移除成员', tags }, config: { access: ROLES_PAGE } }, async (req) => {
    const { role, userId } = req.body;
    assertNotSelfLockout(req, role, userId);
    const u = await db().selectFrom('users').select(['name']).where('id', '=', userId).executeTakeFirst();
    if (!u) throw refuse('用户不存在');
    await db().transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('user_roles').where('role', '=', role).where('user_id', '=', userId).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw refuse(`${u.name} 不是该角色的成员`);
      await app.oplog.record(req, OperationLogType.edit, `角色 ${role} ${roleName(role)} 移除成员：${u.name}`, trx);
    });
    return ok(undefined, '已移除');
  });
}

function assertNotSelfLockout(req: FastifyRequest, role: string, userId: string): void {
  if (role === ADMINISTRATOR && userId === currentUser(req).id) throw refuse('不能移除自己的系统管理员角色');
}
