/**
 * Handler resolution: who works at a node. Rules (HandlerRule): a role, the starter's department
 * manager, the manager one level up, named users, the starter, or the people the sender chose.
 * Only active users count. A department whose manager is the starter hands over to the next level.
 */
import { WORKFLOW_ADMIN_ROLES, type HandlerRule } from '@zhyy/shared';
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

/** Why an approval step went to someone other than its rule's people (the applicant was among them). */
export interface PassOver {
  /** Chinese, for the track: 申请人本人为审批人，已自动转交… */
  note: string;
}

export interface Approvers {
  handlers: Handler[];
  passOver: PassOver | null;
}

/** The workflow administrators (roles admin, 1, 3), active, ordered by login name. */
async function workflowAdmins(db: WfDb): Promise<Handler[]> {
  return clean(
    await userQuery(db)
      .where('u.id', 'in', (eb) => eb.selectFrom('user_roles').select('user_id').where('role', 'in', [...WORKFLOW_ADMIN_ROLES]))
      .orderBy('u.login_name')
      .execute(),
  );
}

/**
 * The people who approve at a node, never the applicant (issue 27): an applicant does not approve
 * their own application at any step. In this order:
 * 1. the node's rule without the applicant (a role's other holders; the department-manager rules
 *    already walk up past the applicant);
 * 2. when that leaves nobody, the applicant's line manager: the manager of the applicant's department,
 *    walking up the department tree past missing, inactive managers and the applicant;
 * 3. when there is none, the workflow administrators (roles admin, 1, 3) other than the applicant;
 * 4. else nobody (the engine refuses: 找不到处理人).
 * A rule whose people the sender chose refuses the applicant outright (the sender can choose again).
 */
export async function resolveApprovers(db: WfDb, rule: HandlerRule, ctx: ResolveContext): Promise<Approvers> {
  if (rule.kind === 'chosen' && (ctx.chosen ?? []).includes(ctx.starterId)) throw refuse('申请人本人不能作为审批人，请选择其他处理人');
  const ruled = await resolveHandlers(db, rule, ctx);
  const others = ruled.filter((h) => h.id !== ctx.starterId);
  // The manager rules skip the applicant themselves; they found nobody because of the applicant when
  // the applicant manages their own department chain's first managed level.
  const managerRule = rule.kind === 'deptManager' || rule.kind === 'parentManager';
  const starterWasIt = managerRule && ruled.length === 0 && (await managerFrom(db, ctx.starterDeptId, ''))[0]?.id === ctx.starterId;
  if (others.length === ruled.length && !starterWasIt) return { handlers: ruled, passOver: null };
  const names = (hs: Handler[]) => hs.map((h) => h.name).join('、');
  if (others.length > 0) return { handlers: others, passOver: { note: `申请人本人为审批人，已自动转交该节点的其他处理人：${names(others)}` } };
  const up = await managerFrom(db, ctx.starterDeptId, ctx.starterId);
  if (up.length > 0) return { handlers: up, passOver: { note: `申请人本人为审批人，已自动转交申请人的上级：${names(up)}` } };
  const admins = (await workflowAdmins(db)).filter((h) => h.id !== ctx.starterId);
  if (admins.length > 0) return { handlers: admins, passOver: { note: `申请人本人为审批人且无上级可审批，已自动转交流程管理员：${names(admins)}` } };
  return { handlers: [], passOver: null };
}

/** The handlers of a node for a preview (a chosen rule answers with nobody: the sender picks). */
export async function previewHandlers(db: WfDb, rule: HandlerRule | undefined, ctx: ResolveContext): Promise<Handler[]> {
  if (!rule || rule.kind === 'chosen') return [];
  return (await resolveApprovers(db, rule, ctx)).handlers;
}
