/**
 * Handler resolution: who works at a node. Rules (HandlerRule): a role, the starter's department
 * manager, the manager one level up, named users, the starter, or the people the sender chose.
 * Only active users count. A department whose manager is the starter hands over to the next level.
 */
import type { HandlerRule } from '@zhyy/shared';
import { refuse } from '../../platform/envelope.js';
import type { WfDb } from './tables.js';

export interface Handler {
  id: string;
  name: string;
  deptName: string;
}

export interface ResolveContext {
  starterId: string;
  starterDeptId: string | null;
  /** The handlers the sender chose (rule `chosen`). */
  chosen?: readonly string[];
}

function userQuery(db: WfDb) {
  return db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id as id', 'u.name as name', 'd.name as deptName'])
    .where('u.status', '=', 1);
}

const clean = (rows: Array<{ id: string; name: string; deptName: string | null }>): Handler[] =>
  rows.map((r) => ({ id: r.id, name: r.name, deptName: r.deptName ?? '' }));

export async function usersByIds(db: WfDb, ids: readonly string[]): Promise<Handler[]> {
  if (ids.length === 0) return [];
  const rows = clean(await userQuery(db).where('u.id', 'in', [...new Set(ids)]).execute());
  // Keep the order the ids were given in.
  return ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is Handler => !!r);
}

/** The manager of a department, walking up while the manager is missing, inactive or the starter. */
async function managerFrom(db: WfDb, deptId: string | null, starterId: string): Promise<Handler[]> {
  for (let id = deptId, hops = 0; id && hops < 20; hops++) {
    const dept = await db.selectFrom('departments').select(['id', 'parent_id', 'manager_id']).where('id', '=', id).executeTakeFirst();
    if (!dept) return [];
    if (dept.manager_id && dept.manager_id !== starterId) {
      const found = await usersByIds(db, [dept.manager_id]);
      if (found.length) return found;
    }
    id = dept.parent_id;
  }
  return [];
}

async function parentDeptOf(db: WfDb, deptId: string | null): Promise<string | null> {
  if (!deptId) return null;
  const d = await db.selectFrom('departments').select('parent_id').where('id', '=', deptId).executeTakeFirst();
  return d?.parent_id ?? null;
}

/** The handlers of a rule; may be empty (the engine refuses to move to a node nobody can work at). */
export async function resolveHandlers(db: WfDb, rule: HandlerRule, ctx: ResolveContext): Promise<Handler[]> {
  switch (rule.kind) {
    case 'starter':
      return usersByIds(db, [ctx.starterId]);
    case 'users': {
      if (rule.loginNames.length === 0) return [];
      const rows = clean(await userQuery(db).where('u.login_name', 'in', rule.loginNames).orderBy('u.login_name').execute());
      return rows;
    }
    case 'role': {
      if (rule.roles.length === 0) return [];
      return clean(
        await userQuery(db)
          .where('u.id', 'in', (eb) => eb.selectFrom('user_roles').select('user_id').where('role', 'in', rule.roles))
          .orderBy('u.login_name')
          .execute(),
      );
    }
    case 'deptManager':
      return managerFrom(db, ctx.starterDeptId, ctx.starterId);
    case 'parentManager': {
      const own = await managerFrom(db, ctx.starterDeptId, ctx.starterId);
      let parent = await parentDeptOf(db, ctx.starterDeptId);
      // One level above the department manager's own department.
      for (let hops = 0; parent && hops < 20; hops++) {
        const found = await managerFrom(db, parent, ctx.starterId);
        if (found.length && found[0]!.id !== own[0]?.id) return found;
        parent = await parentDeptOf(db, parent);
      }
      return own;
    }
    case 'chosen': {
      const chosen = ctx.chosen ?? [];
      if (chosen.length === 0) throw refuse('请选择下一节点的处理人');
      const found = await usersByIds(db, chosen);
      if (found.length !== new Set(chosen).size) throw refuse('所选处理人不存在或已停用');
      return found;
    }
  }
}

/** The handlers of a node for a preview (a chosen rule answers with nobody: the sender picks). */
export async function previewHandlers(db: WfDb, rule: HandlerRule | undefined, ctx: ResolveContext): Promise<Handler[]> {
  if (!rule || rule.kind === 'chosen') return [];
  return resolveHandlers(db, rule, ctx);
}
