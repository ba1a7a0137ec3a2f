/**
 * 成本设置 (roles 1 and 17): the auditors' departments and month closing.
 *
 * - Auditors: users holding role 17, 20, 21 or 22 are assigned departments (cost_auditors); they see
 *   and audit only those departments' orders. Anyone else is refused.
 * - Closing: a department's month closes once it has ended (Asia/Shanghai) and none of its orders
 *   awaits audit (closeProblem, the to-audit count read in the same transaction); it reopens with a
 *   reason. Each runs under exclusive(closingKey(dept, month)), so two servers closing (or reopening)
 *   the same month at once run one after the other and the second is refused; the insert is guarded
 *   too (on conflict do nothing). Each close and reopen writes cost_closing_logs and the operation log.
 * - Digests (issue 32 item 5, digest.ts): a close stores the month's digest and every order's figures
 *   (cost_closing_snapshots) and the difference from the close before; closeChecks recomputes the digest
 *   of a closed month and compares.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  closeProblem, CostOrderState, monthLabel, OperationLogType,
  type CostAuditorView, type CostCloseCheck, type CostCloseDiff, type CostClosingLog, type CostClosingView, type PageQuery, type PageResult,
} from '@zhyy/shared';
import { exclusive } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { offsetOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { deptMonthKey } from '../order/store.js';
import { changesOf, diffFigures, figuresOf, inForce, latestSnapshot, monthDigest, noDifference } from './digest.js';
import '../tables.js';

type Db = Kysely<Database>;

/** The roles that audit cost orders (and may be assigned departments). */
export const COST_AUDITOR_ROLES: readonly string[] = ['17', '20', '21', '22'];

/**
 * The exclusive() key of one department's month: closing and reopening take it; whatever must not
 * interleave with a close (an order saved into that month) may take it too.
 */
/** The department-month's lock, shared with order entry (order/store.ts): a closing and an order written into that month wait for each other. */
export const closingKey = deptMonthKey;

/** Departments in tree order (parents before children, siblings by sort and name). */
async function departmentsInOrder(db: Db): Promise<Array<{ id: string; name: string }>> {
  const depts = await db.selectFrom('departments').select(['id', 'parent_id', 'name', 'sort']).orderBy('sort').orderBy('name').orderBy('id').execute();
  const ids = new Set(depts.map((d) => d.id));
  const children = new Map<string | null, typeof depts>();
  for (const d of depts) {
    const p = d.parent_id && ids.has(d.parent_id) ? d.parent_id : null;
    children.set(p, [...(children.get(p) ?? []), d]);
  }
  const out: Array<{ id: string; name: string }> = [];
  const seen = new Set<string>();
  const walk = (parent: string | null) => {
    for (const d of children.get(parent) ?? []) {
      if (seen.has(d.id)) continue;
      seen.add(d.id);
      out.push({ id: d.id, name: d.name });
      walk(d.id);
    }
  };
  walk(null);
  // A cycle in the parents would hide its departments from the walk: list them last.
  for (const d of depts) if (!seen.has(d.id)) out.push({ id: d.id, name: d.name });
  return out;
}

export class CostSettingService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  // ---- 审核人员 ----

  /** Active users holding an auditing role, with the departments assigned to them. */
  async auditors(): Promise<CostAuditorView[]> {
    const rows = await this.db
      .selectFrom('users as u')
      .innerJoin('user_roles as r', 'r.user_id', 'u.id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.login_name', 'd.name as dept_name', 'd.sort as dept_sort', 'r.role'])
      .where('u.status', '=', 1)
      .where('r.role', 'in', [...COST_AUDITOR_ROLES])
      .execute();
    const users = new Map<string, CostAuditorView & { sort: number }>();
    for (const r of rows) {
      const u = users.get(r.id) ?? { userId: r.id, name: r.name, loginName: r.login_name, deptName: r.dept_name ?? '', roles: [], deptIds: [], sort: r.dept_sort ?? Number.MAX_SAFE_INTEGER };
      u.roles.push(r.role);
      users.set(r.id, u);
    }
    const ids = [...users.keys()];
    for (let i = 0; i < ids.length; i += 500) {
      const assigned = await this.db.selectFrom('cost_auditors').select(['user_id', 'dept_id']).where('user_id', 'in', ids.slice(i, i + 500)).execute();
      for (const a of assigned) users.get(a.user_id)!.deptIds.push(a.dept_id);
    }
    const order = new Map((await departmentsInOrder(this.db)).map((d, i) => [d.id, i]));
    return [...users.values()]
      .sort((a, b) => a.sort - b.sort || a.deptName.localeCompare(b.deptName) || a.loginName.localeCompare(b.loginName))
      .map(({ sort: _sort, ...u }) => ({
        ...u,
        roles: u.roles.sort((a, b) => Number(a) - Number(b)),
        deptIds: u.deptIds.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)),
      }));
  }

  /** Assigns `deptIds` (replacing the former ones) to a user holding an auditing role. */
  async saveAuditor(req: FastifyRequest, userId: string, deptIds: readonly string[]): Promise<void> {
    const wanted = [...new Set(deptIds)];
    await exclusive(this.app.db, `cost-auditor:${userId}`, async (k) => {
      const user = await k.selectFrom('users').select(['name', 'login_name', 'status']).where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('人员不存在');
      const roles = (await k.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute()).map((r) => r.role);
      if (!roles.some((r) => COST_AUDITOR_ROLES.includes(r))) throw refuse(`「${user.name}」没有成本审核角色（17、20、21、22），不能分配审核部门`);
      if (user.status !== 1) throw refuse(`「${user.name}」已停用，不能分配审核部门`);
      const depts = wanted.length ? await k.selectFrom('departments').select(['id', 'name']).where('id', 'in', wanted).execute() : [];
      if (depts.length !== wanted.length) throw refuse('所选部门不存在或已删除');
      const before = await k
        .selectFrom('cost_auditors as a')
        .innerJoin('departments as d', 'd.id', 'a.dept_id')
        .select('d.name')
        .where('a.user_id', '=', userId)
        .orderBy('d.sort')
        .orderBy('d.name')
        .execute();
      await k.deleteFrom('cost_auditors').where('user_id', '=', userId).execute();
      if (wanted.length) await k.insertInto('cost_auditors').values(wanted.map((dept_id) => ({ user_id: userId, dept_id }))).execute();
      const names = (list: Array<{ name: string }>) => (list.length ? list.map((d) => d.name).join('、') : '无');
      const order = new Map((await departmentsInOrder(k)).map((d, i) => [d.id, i]));
      depts.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      await this.app.oplog.record(req, OperationLogType.edit, `设置成本审核部门：${user.name}（${user.login_name}）${names(before)} → ${names(depts)}`, k);
    });
  }

  // ---- 月结 ----

  /** Every department's closing state for `month`, with its orders awaiting audit and live. */
  async closings(month: string, db: Db = this.db): Promise<CostClosingView[]> {
    const [depts, closed, snapshots, counts] = await Promise.all([
      departmentsInOrder(db),
      db.selectFrom('cost_closings').selectAll().where('month', '=', month).execute(),
      db.selectFrom('cost_closing_snapshots').select(['dept_id', 'closed_at', 'digest', 'changes']).where('month', '=', month).execute(),
      db
        .selectFrom('cost_orders')
        .select((eb) => [
          'dept_id',
          eb.fn.sum<number>(eb.case().when('state', '=', CostOrderState.toAudit).then(1).else(0).end()).as('to_audit'),
          eb.fn.sum<number>(eb.case().when('state', '<>', CostOrderState.invalid).then(1).else(0).end()).as('live'),
        ])
        .where('month', '=', month)
        .groupBy('dept_id')
        .execute(),
    ]);
    const closedBy = new Map(closed.map((c) => [c.dept_id, c]));
    const countOf = new Map(counts.map((c) => [c.dept_id, c]));
    // The snapshot of the close in force is the one written with it (same closed_at).
    const snapOf = new Map(snapshots.filter((x) => closedBy.get(x.dept_id)?.closed_at === x.closed_at).map((x) => [x.dept_id, x]));
    return depts.map((d) => {
      const c = closedBy.get(d.id);
      const n = countOf.get(d.id);
      const snap = snapOf.get(d.id);
      return {
        deptId: d.id, deptName: d.name, month, closed: Boolean(c), closedBy: c?.closed_by ?? '', closedAt: c?.closed_at ?? null,
        toAudit: Number(n?.to_audit ?? 0), orders: Number(n?.live ?? 0),
        digest: snap?.digest ?? null, changes: snap ? changesOf(snap.changes) : null,
      };
    });
  }

  async close(req: FastifyRequest, deptId: string, month: string): Promise<void> {
    await exclusive(this.app.db, closingKey(deptId, month), async (k) => {
      const dept = await k.selectFrom('departments').select('name').where('id', '=', deptId).executeTakeFirst();
      if (!dept) throw notFound('部门不存在');
      const closed = await k.selectFrom('cost_closings').select('month').where('dept_id', '=', deptId).where('month', '=', month).executeTakeFirst();
      const counts = await k
        .selectFrom('cost_orders')
        .select((eb) => [
          eb.fn.sum<number>(eb.case().when('state', '=', CostOrderState.toAudit).then(1).else(0).end()).as('to_audit'),
          eb.fn.sum<number>(eb.case().when('state', '<>', CostOrderState.invalid).then(1).else(0).end()).as('live'),
        ])
        .where('dept_id', '=', deptId)
        .where('month', '=', month)
        .executeTakeFirst();
      const toAudit = Number(counts?.to_audit ?? 0);
      const problem = closeProblem(month, new Date(), toAudit, Boolean(closed));
      if (problem) throw refuse(problem);
      const by = req.user?.name ?? '';
      const now = nowIso();
      const r = await k.insertInto('cost_closings').values({ dept_id: deptId, month, closed_by: by, closed_at: now }).onConflict((oc) => oc.columns(['dept_id', 'month']).doNothing()).executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw refuse('该部门该月已结账');
      // The digest and the per-order figures, read under the department-month lock (no order can be written meanwhile).
      const snap = await monthDigest(k, deptId, month);
      const previous = await latestSnapshot(k, deptId, month);
      const changes: CostCloseDiff | null = previous ? diffFigures(figuresOf(previous.orders), snap.orders) : null;
      const totals = inForce(snap.orders);
      await k.insertInto('cost_closing_snapshots').values({
        id: newId(), dept_id: deptId, month, digest: snap.digest, orders: JSON.stringify(snap.orders), order_count: totals.orders, amount: totals.amount, tax: totals.tax,
        changes: changes ? JSON.stringify(changes) : '', closed_by: by, closed_at: now,
      }).execute();
      await k.insertInto('cost_closing_logs').values({ id: newId(), dept_id: deptId, dept_name: dept.name, month, action: 'close', reason: '', user_name: by, created_at: now }).execute();
      const since = !changes ? '' : noDifference(changes) ? '，与上次结账相比无变化'
        : `，与上次结账相比：新增 ${changes.added.length} 张、移除 ${changes.removed.length} 张、变化 ${changes.changed.length} 张`;
      await this.app.oplog.record(req, OperationLogType.edit, `成本月结：${dept.name} ${monthLabel(month)} 结账（成本单 ${Number(counts?.live ?? 0)} 张${since}）`, k);
    });
  }

  async reopen(req: FastifyRequest, deptId: string, month: string, reason: string): Promise<void> {
    await exclusive(this.app.db, closingKey(deptId, month), async (k) => {
      const dept = await k.selectFrom('departments').select('name').where('id', '=', deptId).executeTakeFirst();
      if (!dept) throw notFound('部门不存在');
      const gone = await k.deleteFrom('cost_closings').where('dept_id', '=', deptId).where('month', '=', month).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw refuse('该部门该月未结账，无需反结账');
      const by = req.user?.name ?? '';
      await k.insertInto('cost_closing_logs').values({ id: newId(), dept_id: deptId, dept_name: dept.name, month, action: 'reopen', reason, user_name: by, created_at: nowIso() }).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `成本月结：${dept.name} ${monthLabel(month)} 反结账，原因：${reason}`, k);
    });
  }

  /**
   * The closed departments of `month` (or only `deptId`), each one's digest recomputed now and compared with
   * the one its close stored; what differs from the close's snapshot when it does not hold.
   */
  async closeChecks(month: string, deptId?: string): Promise<CostCloseCheck[]> {
    let q = this.db
      .selectFrom('cost_closings as c')
      .innerJoin('departments as d', 'd.id', 'c.dept_id')
      .select(['c.dept_id', 'd.name', 'c.closed_by', 'c.closed_at'])
      .where('c.month', '=', month);
    if (deptId) q = q.where('c.dept_id', '=', deptId);
    const closed = await q.execute();
    const order = new Map((await departmentsInOrder(this.db)).map((d, i) => [d.id, i]));
    closed.sort((a, b) => (order.get(a.dept_id) ?? 0) - (order.get(b.dept_id) ?? 0));
    const out: CostCloseCheck[] = [];
    for (const c of closed) {
      const [snap, now] = await Promise.all([latestSnapshot(this.db, c.dept_id, month), monthDigest(this.db, c.dept_id, month)]);
      const stored = snap && snap.closed_at === c.closed_at ? snap : undefined;
      const holds = stored ? stored.digest === now.digest : null;
      out.push({
        deptId: c.dept_id, deptName: c.name, month, closedBy: c.closed_by, closedAt: c.closed_at,
        digest: stored?.digest ?? null, actual: now.digest, holds,
        differences: stored && !holds ? diffFigures(figuresOf(stored.orders), now.orders) : null,
      });
    }
    return out;
  }

  /** The closing log, newest first. */
  async closingLogs(q: PageQuery): Promise<PageResult<CostClosingLog>> {
    const total = Number((await this.db.selectFrom('cost_closing_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await this.db.selectFrom('cost_closing_logs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute();
    return {
      total,
      items: rows.map((r) => ({ deptName: r.dept_name, month: r.month, action: r.action, reason: r.reason, userName: r.user_name, createdAt: r.created_at })),
    };
  }
}
