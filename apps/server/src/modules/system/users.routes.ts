/** /api/user/*: user administration and the pickers other areas use. HTTP only; rules in users.service.ts. */
import type { FastifyInstance } from 'fastify';
import {
  ChooseListQuery,
  USER_STATUS_LABELS,
  UserIdBody,
  UserListQuery,
  UserSaveBody,
  UserStatusBody,
  roleName,
  type PageResult,
  type UserChoice,
  type UserRow,
} from '@zhyy/shared';
import { SIGNED_IN, pages } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { shanghaiDay, shanghaiTime } from '../../platform/listing.js';
import { typed } from '../../platform/route.js';
import { batches } from '../../platform/xlsx.js';
import { exportXlsx } from '../syslog/fileExports.js';
import { DeptService } from './depts.service.js';
import * as repo from './users.repo.js';
import { UserService } from './users.service.js';

const USERS = pages('/system/userlist', '/system/edituser/:id', '/system/userdetail/:id');

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const svc = new UserService(app);
  const depts = new DeptService(app);
  const r = typed(app);
  const tags = ['用户管理'];
  const db = () => app.db.kysely;

  /** The list filter with the department widened to its subtree. */
  const filterOf = async (q: Omit<UserListQuery, 'pageIndex' | 'pageSize' | 'sort'>): Promise<repo.UserFilter> =>
    q.deptId ? { ...q, deptIds: await depts.subtree(q.deptId) } : q;

  r.post('/api/user/list', { schema: { body: UserListQuery, summary: '用户列表（姓名、登录名、部门含下级、角色、状态；分页、排序）', tags }, config: { access: USERS } }, async (req) => {
    const f = await filterOf(req.body);
    const result: PageResult<UserRow> = { items: await repo.listUsers(db(), f, repo.pageArgs(req.body)), total: await repo.countUsers(db(), f) };
    return ok(result);
  });

  r.post('/api/user/export', { schema: { body: UserListQuery, summary: '导出用户列表（Excel，流式）', tags }, config: { access: pages('/system/userlist') } }, async (req, reply) => {
    const f = await filterOf(req.body);
    const sort = req.body.sort;
    return exportXlsx(app, req, reply, {
      category: '用户列表',
      description: `导出用户列表${describeFilter(req.body)}`,
      fileName: `用户列表-${shanghaiDay().replaceAll('-', '')}`,
      sheetName: '用户',
      rowCount: await repo.countUsers(db(), f),
      rows: batches((offset, limit) => repo.listUsers(db(), f, { offset, limit, sort })),
      columns: [
        { header: '登录名', value: (u: UserRow) => u.loginName },
        { header: '姓名', value: (u) => u.name, width: 12 },
        { header: '部门', value: (u) => u.deptName, width: 20 },
        { header: '职务', value: (u) => u.position },
        { header: '电话', value: (u) => u.phone },
        { header: '邮箱', value: (u) => u.email, width: 26 },
        { header: '角色', value: (u) => u.roles.map(roleName).join('、'), width: 30 },
        { header: '状态', value: (u) => USER_STATUS_LABELS[u.status] ?? String(u.status), width: 8 },
        { header: '最近登录', value: (u) => shanghaiTime(u.lastLoginAt), width: 20 },
        { header: '创建时间', value: (u) => shanghaiTime(u.createdAt), width: 20 },
      ],
    });
  });

  r.post('/api/user/detail', { schema: { body: UserIdBody, summary: '用户详情：资料、角色、最近登录、最近操作', tags }, config: { access: USERS } }, async (req) =>
    ok(await svc.detail(req.body.id)),
  );

  r.post('/api/user/save', { schema: { body: UserSaveBody, summary: '新增（id 为空ID）或修改用户；新增时返回仅显示一次的初始密码', tags }, config: { access: USERS } }, async (req) =>
    ok(await svc.save(req, req.body), '保存成功'),
  );

  r.post('/api/user/reset-password', { schema: { body: UserIdBody, summary: '重置为新的初始密码（仅显示一次），并使该用户的所有会话失效', tags }, config: { access: USERS } }, async (req) =>
    ok(await svc.resetPassword(req, req.body.id), '密码已重置'),
  );

  r.post('/api/user/set-status', { schema: { body: UserStatusBody, summary: '启用或停用用户（停用立即使其所有会话失效）', tags }, config: { access: USERS } }, async (req) =>
    ok(await svc.setStatus(req, req.body.id, req.body.status), req.body.status === 1 ? '已启用' : '已停用'),
  );

  r.post('/api/user/delete', { schema: { body: UserIdBody, summary: '删除从未使用过的用户（有登录或操作记录的只能停用）', tags }, config: { access: USERS } }, async (req) => {
    await svc.remove(req, req.body.id);
    return ok(undefined, '已删除');
  });

  r.post('/api/user/choose-list', { schema: { body: ChooseListQuery, summary: '选人：按姓名或登录名搜索在用用户', tags }, config: { access: SIGNED_IN } }, async (req) => {
    const q = req.body;
    const deptIds = q.deptId ? await depts.subtree(q.deptId) : undefined;
    const rows = await repo.listUsers(db(), { status: 1, deptIds, keyword: q.keyword }, { offset: 0, limit: q.limit, sort: undefined });
    const items: UserChoice[] = rows.map((u) => ({ id: u.id, loginName: u.loginName, name: u.name, deptName: u.deptName, position: u.position }));
    return ok(items);
  });

  r.post('/api/user/user-org-tree-list', { schema: { summary: '组织树：部门层级及人数', tags }, config: { access: SIGNED_IN } }, async () => ok(await depts.tree()));

  r.post('/api/user/list-for-user-tree', { schema: { summary: '部门树及其在用用户（选人控件）', tags }, config: { access: SIGNED_IN } }, async () =>
    ok(await depts.treeWithUsers()),
  );
}

function describeFilter(q: UserListQuery): string {
  const parts = [
    q.name ? `姓名含“${q.name}”` : '',
    q.loginName ? `登录名含“${q.loginName}”` : '',
    q.deptId ? '指定部门' : '',
    q.role ? `角色 ${roleName(q.role)}` : '',
    q.status !== undefined ? (USER_STATUS_LABELS[q.status] ?? '') : '',
  ].filter(Boolean);
  return parts.length ? `（${parts.join('，')}）` : '（全部）';
}
