/**
 * Department rules (issue 4): a tree with member counts; create, rename, move (never under itself
 * or one of its own descendants), set the manager, delete only an empty department.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EMPTY_ID, OperationLogType, type DeptDetail, type DeptNode, type DeptSaveBody, type OrgTreeNode } from '@zhyy/shared';
import { conflict, notFound, refuse } from '../../platform/envelope.js';
import { newId } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';
import { activeUsersIn, allDepts, memberCounts } from './depts.repo.js';
import { buildTree, pathOf, subtreeIds, wouldCycle } from './depts.tree.js';

export class DeptService {
  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.db.kysely;
  }

  async tree(): Promise<DeptNode[]> {
    return buildTree(await allDepts(this.db), await memberCounts(this.db));
  }

  async subtree(id: string): Promise<string[]> {
    return subtreeIds(await allDepts(this.db), id);
  }

  /** Departments with their active users as leaves. */
  async treeWithUsers(): Promise<OrgTreeNode[]> {
    const roots = await this.tree();
    const users = await activeUsersIn(this.db);
    const byDept = new Map<string, OrgTreeNode[]>();
    for (const u of users) {
      if (!u.dept_id) continue;
      const node: OrgTreeNode = { key: u.id, title: u.name, kind: 'user', loginName: u.login_name, position: u.position };
      byDept.set(u.dept_id, [...(byDept.get(u.dept_id) ?? []), node]);
    }
    const convert = (d: DeptNode): OrgTreeNode => ({
      key: d.id,
      title: d.name,
      kind: 'dept',
      children: [...(byDept.get(d.id) ?? []), ...d.children.map(convert)],
    });
    return roots.map(convert);
  }

  async detail(id: string): Promise<DeptDetail> {
    const rows = await allDepts(this.db);
    const d = rows.find((r) => r.id === id);
    if (!d) throw notFound('部门不存在或已被删除');
    const members = await memberCounts(this.db);
    return {
      id: d.id,
      parentId: d.parent_id,
      parentName: rows.find((r) => r.id === d.parent_id)?.name ?? '',
      name: d.name,
      sort: d.sort,
      managerId: d.manager_id,
      managerName: d.manager_name ?? '',
      memberCount: members.get(d.id) ?? 0,
      childCount: rows.filter((r) => r.parent_id === d.id).length,
      path: pathOf(rows, d.id),
    };
  }

  async save(req: FastifyRequest, body: DeptSaveBody): Promise<{ id: string }> {
    const rows = await allDepts(this.db);
    const isNew = body.id === EMPTY_ID;
    const current = isNew ? undefined : rows.find((r) => r.id === body.id);
    if (!isNew && !current) throw notFound('部门不存在或已被删除');
    if (body.parentId && !rows.some((r) => r.id === body.parentId)) throw refuse('上级部门不存在');
    if (!body.parentId && (isNew || current!.parent_id !== null)) throw refuse('请选择上级部门');
    if (!isNew && body.parentId === body.id) throw refuse('不能把部门移到它自己下面');
    if (!isNew && wouldCycle(rows, body.id, body.parentId)) throw refuse('不能把部门移到它自己的下级部门下面（会形成循环）');
    const sibling = rows.find((r) => r.parent_id === body.parentId && r.name === body.name && r.id !== body.id);
    if (sibling) throw conflict(`同一上级部门下已有名为“${body.name}”的部门`);
    if (body.managerId) {
      const m = await this.db.selectFrom('users').select(['id', 'status']).where('id', '=', body.managerId).executeTakeFirst();
      if (!m) throw refuse('所选负责人不存在');
      if (m.status !== 1 && body.managerId !== current?.manager_id) throw refuse('所选负责人已停用');
    }
    const now = nowIso();
    const parentName = rows.find((r) => r.id === body.parentId)?.name ?? '';
    if (isNew) {
      const id = newId();
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('departments')
          .values({ id, parent_id: body.parentId, name: body.name, sort: body.sort, manager_id: body.managerId, created_at: now, updated_at: now })
          .execute();
        await this.app.oplog.record(req, OperationLogType.add, `新增部门 ${body.name}（上级：${parentName}）`, trx);
      });
      return { id };
    }
    const changes = [
      current!.name !== body.name ? `名称 ${current!.name}→${body.name}` : '',
      current!.parent_id !== body.parentId ? `移至 ${parentName} 下` : '',
      current!.manager_id !== body.managerId ? '负责人' : '',
      current!.sort !== body.sort ? '排序' : '',
    ].filter(Boolean);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('departments')
        .set({ parent_id: body.parentId, name: body.name, sort: body.sort, manager_id: body.managerId, updated_at: now })
        .where('id', '=', body.id)
        .execute();
      await this.app.oplog.record(req, OperationLogType.edit, `修改部门 ${body.name}：${changes.join('，') || '无变化'}`, trx);
    });
    return { id: body.id };
  }

  async remove(req: FastifyRequest, id: string): Promise<void> {
    const rows = await allDepts(this.db);
    const d = rows.find((r) => r.id === id);
    if (!d) throw notFound('部门不存在或已被删除');
    if (!d.parent_id) throw refuse('不能删除最上级的公司部门');
    const children = rows.filter((r) => r.parent_id === id);
    const members = (await memberCounts(this.db)).get(id) ?? 0;
    const why = [children.length ? `${children.length}个下级部门（${children.map((c) => c.name).join('、')}）` : '', members ? `${members}名用户（含停用账号）` : ''].filter(Boolean);
    if (why.length) throw refuse(`部门“${d.name}”下还有${why.join('和')}，请先移走或删除后再删除该部门`);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('departments').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除部门 ${d.name}`, trx);
    });
  }
}
