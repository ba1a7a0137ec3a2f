/** Pure functions over the department tree: nesting, subtrees, paths and cycle checks. */
import type { DeptNode } from '@zhyy/shared';
import type { DeptRecord } from './depts.repo.js';

export function buildTree(rows: DeptRecord[], members: Map<string, number>): DeptNode[] {
  const nodes = new Map<string, DeptNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      parentId: r.parent_id,
      name: r.name,
      sort: r.sort,
      managerId: r.manager_id,
      managerName: r.manager_name ?? '',
      memberCount: members.get(r.id) ?? 0,
      totalCount: 0,
      children: [],
    });
  }
  const roots: DeptNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId ? nodes.get(n.parentId) : undefined;
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  const total = (n: DeptNode): number => (n.totalCount = n.memberCount + n.children.reduce((s, c) => s + total(c), 0));
  roots.forEach(total);
  return roots;
}

/** The department and every department below it. */
export function subtreeIds(rows: Pick<DeptRecord, 'id' | 'parent_id'>[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) if (r.parent_id) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  if (!rows.some((r) => r.id === rootId)) return [];
  const out: string[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** 华建工程技术服务有限公司 / 工程管理部 / 工程一部 */
export function pathOf(rows: Pick<DeptRecord, 'id' | 'parent_id' | 'name'>[], id: string | null): string {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const names: string[] = [];
  const seen = new Set<string>();
  for (let cur = id ? byId.get(id) : undefined; cur && !seen.has(cur.id); cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) {
    seen.add(cur.id);
    names.unshift(cur.name);
  }
  return names.join(' / ');
}

/** True when moving `id` under `newParentId` would make it its own ancestor. */
export function wouldCycle(rows: Pick<DeptRecord, 'id' | 'parent_id'>[], id: string, newParentId: string | null): boolean {
  if (!newParentId) return false;
  return subtreeIds(rows, id).includes(newParentId);
}
