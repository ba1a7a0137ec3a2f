/**
 * 审核 and 作废 (batch): each order is checked on its own: it exists, its department is assigned to the
 * caller (role 1 / admin: every department), it awaits audit (orderMoveProblem), its department's month
 * is not closed. The move itself is a guarded UPDATE (state = 0 and no closing of the department-month),
 * so of two auditors moving one order at once exactly one succeeds and the other is told why it could
 * not; the log row (cost_order_logs, with the user's name) is written in the same transaction.
 */
import type { Kysely } from 'kysely';
import { CostOrderState, monthLabel, orderMoveProblem, seesAllCostDepts, type CostBatchResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { assignedDepts } from './repo.js';

export interface Mover {
  id: string;
  name: string;
  roles: readonly string[];
}

/** The refusal of a change to an order of a closed department-month. */
export const closedMessage = (deptName: string, month: string) => `${deptName}${monthLabel(month)}已结账，成本单不能修改`;
export const notAssignedMessage = (deptName: string) => `您未被分配审核${deptName}的成本单`;

type Target = typeof CostOrderState.audited | typeof CostOrderState.invalid;

async function current(db: Kysely<Database>, ids: string[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('cost_orders as o')
    .select(['o.id', 'o.order_no', 'o.state', 'o.dept_id', 'o.dept_name', 'o.month'])
    .select((eb) => eb.exists(eb.selectFrom('cost_closings as cc').select('cc.dept_id').whereRef('cc.dept_id', '=', 'o.dept_id').whereRef('cc.month', '=', 'o.month')).as('closed'))
    .where('o.id', 'in', ids)
    .execute();
}

const isTrue = (v: unknown) => v === true || Number(v) === 1;

/**
 * The move of one order that passed the checks: the UPDATE itself requires state 0 and no closing of
 * the department-month, so when another move (or a closing) came first it changes nothing and answers
 * false; else the log row is written in the same transaction and it answers true.
 */
export async function moveOne(db: Kysely<Database>, o: { id: string; dept_id: string; month: string }, to: Target, by: Mover, reason = ''): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const r = await trx
      .updateTable('cost_orders as o')
      .set({ state: to, audited_by: by.name, audited_at: now, updated_at: now, ...(to === CostOrderState.invalid ? { invalid_reason: reason } : {}) })
      .where('o.id', '=', o.id)
      .where('o.state', '=', CostOrderState.toAudit)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('cost_closings as cc').select('cc.dept_id').where('cc.dept_id', '=', o.dept_id).where('cc.month', '=', o.month))))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('cost_order_logs')
      .values({ id: newId(), order_id: o.id, action: to === CostOrderState.audited ? 'audit' : 'invalid', message: to === CostOrderState.audited ? '审核通过' : `作废，原因：${reason}`, user_name: by.name, created_at: now })
      .execute();
    return true;
  });
}

/** Moves the orders to 已审核 or 已作废 (with `reason`), one by one; answers what was done and what was refused, and why. */
export async function moveOrders(db: Kysely<Database>, ids: readonly string[], to: Target, by: Mover, reason = ''): Promise<CostBatchResult> {
  const unique = [...new Set(ids)];
  const all = seesAllCostDepts(by.roles);
  const [mine, orders] = await Promise.all([all ? Promise.resolve(new Set<string>()) : assignedDepts(db, by.id), current(db, unique)]);
  const byId = new Map(orders.map((o) => [o.id, o]));
  const out: CostBatchResult = { done: 0, refused: [] };
  for (const id of unique) {
    const o = byId.get(id);
    if (!o) {
      out.refused.push({ id, orderNo: '', message: '成本单不存在' });
      continue;
    }
    const refuse = (message: string) => out.refused.push({ id, orderNo: o.order_no, message });
    if (!all && !mine.has(o.dept_id)) {
      refuse(notAssignedMessage(o.dept_name));
      continue;
    }
    const problem = orderMoveProblem(Number(o.state), to);
    if (problem) {
      refuse(problem);
      continue;
    }
    if (isTrue(o.closed)) {
      refuse(closedMessage(o.dept_name, o.month));
      continue;
    }
    const moved = await moveOne(db, o, to, by, reason);
    if (moved) {
      out.done++;
      continue;
    }
    // Someone else moved it (or closed the month) between the reading and the update: say what happened.
    const [now] = await current(db, [id]);
    const why = !now ? '成本单不存在' : orderMoveProblem(Number(now.state), to) ?? (isTrue(now.closed) ? closedMessage(now.dept_name, now.month) : '成本单状态已变化，请刷新后重试');
    refuse(why);
  }
  return out;
}
