/** /api/dept/*: the department tree and its changes. HTTP only; rules in depts.service.ts. */
import type { FastifyInstance } from 'fastify';
import { DeptIdBody, DeptSaveBody } from '@zhyy/shared';
import { pages } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { DeptService } from './depts.service.js';

const DEPTS = pages('/system/dept-list', '/system/dept-edit/:id');

export async function deptRoutes(app: FastifyInstance): Promise<void> {
  const svc = new DeptService(app);
  const r = typed(app);
  const tags = ['部门管理'];

  r.post('/api/dept/tree', { schema: { summary: '部门树（直属人数、含下级人数、负责人）', tags }, config: { access: pages('/system/dept-list', '/system/dept-edit/:id', '/system/userlist', '/system/edituser/:id') } }, async () =>
    ok(await svc.tree()),
  );

  r.post('/api/dept/detail', { schema: { body: DeptIdBody, summary: '部门详情', tags }, config: { access: DEPTS } }, async (req) => ok(await svc.detail(req.body.id)));

  r.post('/api/dept/save', { schema: { body: DeptSaveBody, summary: '新增（id 为空ID）、改名、移动、设置负责人；拒绝循环', tags }, config: { access: DEPTS } }, async (req) =>
    ok(await svc.save(req, req.body), '保存成功'),
  );

  r.post('/api/dept/delete', { schema: { body: DeptIdBody, summary: '删除空部门（有下级部门或用户时拒绝并说明原因）', tags }, config: { access: DEPTS } }, async (req) => {
    await svc.remove(req, req.body.id);
    return ok(undefined, '已删除');
  });
}
