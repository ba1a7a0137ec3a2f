import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ID, OperationLogType } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let demo3: string;
const company = demoId('dept:company');
const eng = demoId('dept:eng');
const eng1 = demoId('dept:eng1');

beforeAll(async () => {
  s = await startTestServer();
  demo3 = await s.login('demo3');
});
afterAll(() => s.close());

type Node = { id: string; name: string; memberCount: number; totalCount: number; managerName: string; children: Node[] };
const find = (nodes: Node[], id: string): Node | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = find(n.children, id);
    if (hit) return hit;
  }
  return undefined;
};

describe('department tree', () => {
  it('nests departments with direct and subtree member counts and managers', async () => {
    const a = await s.call('/api/dept/tree', {}, demo3);
    expect(a.code).toBe(20000);
    expect(a.r).toHaveLength(1);
    const e = find(a.r, eng)!;
    expect(e.children.map((c) => c.name).sort()).toEqual(['工程一部', '工程二部']);
    expect(e.totalCount).toBe(e.memberCount + e.children.reduce((n, c) => n + c.totalCount, 0));
    expect(e.managerName).not.toBe('');
    const users = await s.db.kysely.selectFrom('users').select('id').where('dept_id', '=', eng1).execute();
    expect(find(a.r, eng1)!.memberCount).toBe(users.length);
  });
});

describe('changes', () => {
  let qa = '';
  let sub = '';
  it('creates, renames and sets a manager, logging each', async () => {
    const a = await s.call('/api/dept/save', { id: EMPTY_ID, name: '质量安全部', parentId: company, sort: 20 }, demo3);
    expect(a.code).toBe(20000);
    qa = a.r.id;
    const b = await s.call('/api/dept/save', { id: EMPTY_ID, name: '安全科', parentId: qa }, demo3);
    sub = b.r.id;
    const manager = demoId('user:demo3');
    const c = await s.call('/api/dept/save', { id: qa, name: '安全质量部', parentId: company, managerId: manager, sort: 20 }, demo3);
    expect(c.code).toBe(20000);
    const d = await s.call('/api/dept/detail', { id: qa }, demo3);
    expect(d.r).toMatchObject({ name: '安全质量部', managerName: '李晓燕', childCount: 1, parentName: '华建工程技术服务有限公司' });
    const logs = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description']).where('login_name', '=', 'demo3').where('type', '!=', OperationLogType.login).orderBy('created_at').orderBy('id').execute();
    expect(logs.map((l) => l.type)).toEqual([OperationLogType.add, OperationLogType.add, OperationLogType.edit]);
    expect(logs[2]!.description).toBe('修改部门 安全质量部：名称 质量安全部→安全质量部，负责人');
  });

  it('moves a department under another parent', async () => {
    const a = await s.call('/api/dept/save', { id: sub, name: '安全科', parentId: eng }, demo3);
    expect(a.code).toBe(20000);
    expect((await s.call('/api/dept/detail', { id: sub }, demo3)).r.path).toBe('华建工程技术服务有限公司 / 工程管理部 / 安全科');
  });

  it('refuses cycles: under itself or under one of its own descendants', async () => {
    const self = await s.call('/api/dept/save', { id: eng, name: '工程管理部', parentId: eng }, demo3);
    expect(self.message).toBe('不能把部门移到它自己下面');
    const down = await s.call('/api/dept/save', { id: eng, name: '工程管理部', parentId: sub }, demo3);
    expect(down.message).toBe('不能把部门移到它自己的下级部门下面（会形成循环）');
    const deep = await s.call('/api/dept/save', { id: company, name: '华建工程技术服务有限公司', parentId: eng1 }, demo3);
    expect(deep.message).toBe('不能把部门移到它自己的下级部门下面（会形成循环）');
    expect((await s.call('/api/dept/detail', { id: eng }, demo3)).r.parentId).toBe(company);
  });

  it('refuses a duplicate name under the same parent, a missing parent and a bad name', async () => {
    expect((await s.call('/api/dept/save', { id: EMPTY_ID, name: '工程一部', parentId: eng }, demo3)).message).toBe('同一上级部门下已有名为“工程一部”的部门');
    expect((await s.call('/api/dept/save', { id: EMPTY_ID, name: '无上级' }, demo3)).message).toBe('请选择上级部门');
    expect((await s.call('/api/dept/save', { id: EMPTY_ID, name: ' ', parentId: eng }, demo3)).message).toBe('参数错误：请输入部门名称');
  });

  it('deletes only an empty department and says why otherwise', async () => {
    const withChildren = await s.call('/api/dept/delete', { id: eng }, demo3);
    expect(withChildren.message).toMatch(/^部门“工程管理部”下还有3个下级部门（.*）和\d+名用户（含停用账号），请先移走或删除后再删除该部门$/);
    const withUsers = await s.call('/api/dept/delete', { id: eng1 }, demo3);
    expect(withUsers.message).toMatch(/^部门“工程一部”下还有\d+名用户（含停用账号），请先移走或删除后再删除该部门$/);
    expect((await s.call('/api/dept/delete', { id: company }, demo3)).message).toBe('不能删除最上级的公司部门');
    const ok = await s.call('/api/dept/delete', { id: sub }, demo3);
    expect(ok.code).toBe(20000);
    expect((await s.call('/api/dept/detail', { id: sub }, demo3)).status).toBe(404);
    expect((await s.db.kysely.selectFrom('operation_logs').select('description').where('type', '=', OperationLogType.delete).executeTakeFirstOrThrow()).description).toBe('删除部门 安全科');
  });

  it('roles other than 1 and 3 may not touch departments', async () => {
    const t = await s.login('demo17');
    for (const url of ['/api/dept/tree', '/api/dept/detail', '/api/dept/save', '/api/dept/delete']) expect((await s.call(url, {}, t)).message).toBe('权限不足');
  });
});
