/**
 * 同步项目管理系统 (issue 16): the month's cost orders the project-management system has, taken in as
 * orders of source pms (state 0, to audit). Each PMS order is taken at most once, by its ref
 * (cost_orders.pms_ref, unique): a second sync, or two syncs at once on any number of app servers,
 * skips what is already there (the unique index decides a race). Each order goes in on its own
 * transaction, so one bad order does not hold the others back; the answer reports every PMS order as
 * created, skipped or failed with the reason.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { CostOrderLineBody, CostOrderSource, monthLabel, OperationLogType, type CostPmsSyncResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { createPmsGateway, PmsError, type PmsOrder } from '../../../integrations/pms/index.js';
import type { AuthUser } from '../../../platform/context.js';
import { AppError, refuse } from '../../../platform/envelope.js';
import { pmsConfig } from './pms-settings.js';
import { closedForNew, insertOrder, isClosed, lockDeptMonths, liveMessage, liveOrder, priceLines, sumsText, uniqueBroken, type DeptRef, type LineInput, type ProjectRef } from './store.js';
import '../tables.js';

type Db = Kysely<Database>;
type Outcome = CostPmsSyncResult['orders'][number];
const MAX_LINES = 200;

const byRef = (db: Db, ref: string) => db.selectFrom('cost_orders').select(['id', 'order_no']).where('pms_ref', '=', ref).executeTakeFirst();

export async function syncPmsMonth(app: FastifyInstance, req: FastifyRequest, user: AuthUser, month: string): Promise<CostPmsSyncResult> {
  const db: Db = app.db.kysely;
  const gateway = createPmsGateway({ db: app.db, synclog: app.synclog }, await pmsConfig(db));
  let orders: PmsOrder[];
  try {
    orders = await gateway.monthlyOrders(month, { userId: user.id });
  } catch (err) {
    if (err instanceof PmsError) throw new AppError(err.code, `从项目管理系统获取${monthLabel(month)}成本单失败：${err.message}`, err.status);
    throw err;
  }

  // What is already known: the refs taken, the departments by name, the projects by code.
  const refs = [...new Set(orders.map((o) => o.ref).filter(Boolean))];
  const taken = new Map<string, { id: string; order_no: string }>();
  for (let i = 0; i < refs.length; i += 500) {
    for (const r of await db.selectFrom('cost_orders').select(['id', 'order_no', 'pms_ref']).where('pms_ref', 'in', refs.slice(i, i + 500)).execute()) taken.set(r.pms_ref, r);
  }
  const names = [...new Set(orders.map((o) => o.deptName).filter(Boolean))];
  const depts = new Map<string, DeptRef[]>();
  for (let i = 0; i < names.length; i += 500) {
    for (const d of await db.selectFrom('departments').select(['id', 'name']).where('name', 'in', names.slice(i, i + 500)).execute()) depts.set(d.name, [...(depts.get(d.name) ?? []), d]);
  }
  const codes = [...new Set(orders.map((o) => o.projectCode).filter(Boolean))];
  const projects = new Map<string, ProjectRef>();
  for (let i = 0; i < codes.length; i += 500) {
    for (const p of await db.selectFrom('projects').select(['id', 'code', 'name']).where('code', 'in', codes.slice(i, i + 500)).execute()) projects.set(p.code, p);
  }

  const outcomes: Outcome[] = [];
  const seen = new Set<string>();
  for (const o of orders) {
    const failed = (message: string) => outcomes.push({ ref: o.ref, outcome: 'failed', orderId: null, orderNo: '', message });
    const skipped = (had: { id: string; order_no: string }) => outcomes.push({ ref: o.ref, outcome: 'skipped', orderId: had.id, orderNo: had.order_no, message: `已同步为成本单 ${had.order_no}` });
    if (!o.ref) {
      failed('项目管理系统成本单缺少编号');
      continue;
    }
    if (o.ref.length > 100) {
      failed('项目管理系统成本单编号超过100个字符');
      continue;
    }
    if (seen.has(o.ref)) {
      failed('项目管理系统返回了重复的成本单编号');
      continue;
    }
    seen.add(o.ref);
    const had = taken.get(o.ref);
    if (had) {
      skipped(had);
      continue;
    }
    const found = depts.get(o.deptName) ?? [];
    const project = projects.get(o.projectCode);
    let problem = '';
    if (!o.deptName) problem = '项目管理系统成本单缺少部门';
    else if (!found.length) problem = `部门"${o.deptName}"不存在`;
    else if (found.length > 1) problem = `部门名称"${o.deptName}"不唯一，无法确定部门`;
    else if (!o.projectCode) problem = '项目管理系统成本单缺少项目编码';
    else if (!project) problem = `项目编码"${o.projectCode}"不存在`;
    else if (!o.lines.length) problem = '项目管理系统成本单没有明细';
    else if (o.lines.length > MAX_LINES) problem = `成本明细最多${MAX_LINES}行（该单${o.lines.length}行）`;
    if (problem) {
      failed(problem);
      continue;
    }
    const dept = found[0]!;

    const lines: LineInput[] = [];
    const bad: string[] = [];
    o.lines.forEach((l, i) => {
      const p = CostOrderLineBody.safeParse(l);
      if (p.success) lines.push({ itemCode: p.data.itemCode, spec: p.data.spec, unit: p.data.unit, quantity: p.data.quantity, remark: p.data.remark ?? '' });
      else bad.push(`第${i + 1}行 ${p.error.issues[0]?.message ?? '明细不正确'}`);
    });
    if (bad.length) {
      failed(bad.slice(0, 5).join('；'));
      continue;
    }
    try {
      const made = await db.transaction().execute(async (trx) => {
        await lockDeptMonths(trx, app.db, [{ deptId: dept.id, month }]);
        // A sync running at the same time may have taken it since the look-up above.
        const had = await byRef(trx, o.ref);
        if (had) return { had };
        if (await isClosed(trx, dept.id, month)) throw refuse(closedForNew(dept, month));
        const live = await liveOrder(trx, month, dept.id, project!.id);
        if (live?.pms_ref === o.ref) return { had: live };
        if (live) throw refuse(liveMessage(month, live.order_no));
        const r = await priceLines(trx, month, lines);
        if (r.problems.length) throw refuse(r.problems.slice(0, 5).map((p) => `第${p.index + 1}行 ${p.message}`).join('；'));
        return insertOrder(trx, {
          month, dept, project: project!, source: CostOrderSource.pms, remark: '', pmsRef: o.ref, lines: r.lines, user: { id: user.id, name: user.name },
          log: { action: 'pms', message: () => `项目管理系统推送（编号 ${o.ref}）同步新建，${sumsText(r.lines)}` },
        });
      });
      if ('had' in made) skipped(made.had);
      else outcomes.push({ ref: o.ref, outcome: 'created', orderId: made.id, orderNo: made.orderNo, message: `已新建成本单 ${made.orderNo}` });
    } catch (err) {
      if (err instanceof AppError) {
        failed(err.message);
        continue;
      }
      const which = uniqueBroken(err);
      if (!which || which === 'no') throw err;
      // A sync running at the same time took it first (same ref), or an order of the same month,
      // department and project came in meanwhile.
      const mine = await byRef(db, o.ref);
      if (mine) skipped(mine);
      else {
        const live = await liveOrder(db, month, dept.id, project!.id);
        failed(live ? liveMessage(month, live.order_no) : '该部门该项目该月已有成本单');
      }
    }
  }

  const result: CostPmsSyncResult = {
    created: outcomes.filter((x) => x.outcome === 'created').length,
    skipped: outcomes.filter((x) => x.outcome === 'skipped').length,
    failed: outcomes.filter((x) => x.outcome === 'failed').map((x) => ({ ref: x.ref, message: x.message })),
    orders: outcomes,
  };
  await app.oplog.record(req, OperationLogType.import, `同步项目管理系统${monthLabel(month)}成本单：共 ${orders.length} 张，新建 ${result.created} 张，跳过 ${result.skipped} 张，失败 ${result.failed.length} 张`);
  return result;
}
