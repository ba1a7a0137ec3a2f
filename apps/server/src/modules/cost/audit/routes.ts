/**
 * 成本单台账 and 待审核成本单 (issue 16): /api/cost-order/list and export (the ledger, roles 1, 16–19),
 * cost-order-detail (the ledger's roles, and auditors for their departments), to-audit-list,
 * set-coststatus-audited, set-coststatus-invalid and cost-todo-data (the audit queue, roles 1, 17, 20–22;
 * an auditor works the departments assigned in 成本设置, role 1 / admin all of them).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CostIdBody, CostIdsBody, CostInvalidBody, CostOrderFilter, CostOrderQuery, CostOrderSource, CostOrderState, OperationLogType, seesAllCostDepts,
  type CostBatchResult, type CostOrderRow, type CostTodoData,
} from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { ok, refuse, refuseBatch } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { orderDetail } from './detail.js';
import { describeOrderFilters, type AuditScope } from './filters.js';
import { exportTotals, orderBatches } from './export-reads.js';
import { orderPage, toAuditCount } from './repo.js';
import { moveOrders } from './service.js';

/** The largest export (an Excel sheet holds 1,048,576 rows). */
export const COST_EXPORT_MAX_ROWS = 1_000_000;
const yuan = (fen: number) => Math.round(fen) / 100;

export const ORDER_COLUMNS: XlsxColumn<CostOrderRow>[] = [
  { header: '成本单号', width: 16, value: (r) => r.orderNo },
  { header: '月份', width: 9, value: (r) => r.month },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '项目编码', width: 14, value: (r) => r.projectCode },
  { header: '项目名称', width: 26, value: (r) => r.projectName },
  { header: '来源', width: 12, value: (r) => (r.id ? CostOrderSource.label(r.source) : '') },
  { header: '状态', width: 8, value: (r) => (r.id ? CostOrderState.label(r.state) : '') },
  { header: '明细行数', width: 8, value: (r) => (r.id ? r.lineCount : null) },
  { header: '不含税金额（元）', width: 15, value: (r) => yuan(r.amount) },
  { header: '税额（元）', width: 13, value: (r) => yuan(r.tax) },
  { header: '价税合计（元）', width: 15, value: (r) => yuan(r.total) },
  { header: '作废原因', width: 24, value: (r) => r.invalidReason },
  { header: '审核/作废人', width: 10, value: (r) => r.auditedBy },
  { header: '审核/作废时间', width: 20, value: (r) => shanghaiTime(r.auditedAt) },
  { header: '录入人', width: 10, value: (r) => r.createdBy },
  { header: '录入时间', width: 20, value: (r) => shanghaiTime(r.createdAt) },
  { header: '已结账', width: 8, value: (r) => (r.id ? (r.closed ? '是' : '否') : '') },
];

/** The 合计 row: the orders in force. */
const totalsRow = (t: { count: number; amount: number; tax: number; total: number }): CostOrderRow => ({
  id: '', orderNo: '合计', month: '', deptId: '', deptName: `有效成本单 ${t.count} 张`, projectId: '', projectCode: '', projectName: '', source: '', state: 0,
  amount: t.amount, tax: t.tax, total: t.total, lineCount: 0, invalidReason: '', auditedBy: '', auditedAt: null, createdBy: '', createdAt: '', closed: false,
});

async function* withLast<T>(rows: AsyncIterable<T[]>, last: T): AsyncIterable<T[]> {
  for await (const b of rows) yield b;
  yield [last];
}

/** The audit scope of the caller: every department for role 1 / admin, else the assigned ones. */
export const scopeOf = (req: FastifyRequest): AuditScope => {
  const u = currentUser(req);
  return seesAllCostDepts(u.roles) ? { all: true } : { all: false, userId: u.id };
};

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/cost-order';

  r.post(`${P}/list`, { schema: { body: CostOrderQuery, summary: '成本单台账：筛选（月份、部门、项目、状态、来源、成本项、单号、金额）、排序、分页，含筛选结果合计（不含已作废）', tags }, config: access.ledger }, async (req) =>
    ok(await orderPage(db(), req.body)),
  );

  r.post(`${P}/export`, { schema: { body: CostOrderFilter, summary: '导出成本单台账（筛选结果全部，每张成本单一行，流式Excel，末行合计）', tags }, config: access.ledger }, async (req, reply) => {
    const f = req.body;
    const t = await exportTotals(db(), f);
    if (t.all > COST_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${t.all} 条，超过导出上限 ${COST_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
    const [dept, project] = await Promise.all([
      f.deptId ? db().selectFrom('departments').select('name').where('id', '=', f.deptId).executeTakeFirst() : undefined,
      f.projectId ? db().selectFrom('projects').select(['code', 'name']).where('id', '=', f.projectId).executeTakeFirst() : undefined,
    ]);
    const what = describeOrderFilters(f, { dept: dept?.name, project: project ? `${project.code} ${project.name}` : undefined });
    return exportXlsx(app, req, reply, {
      fileName: '成本单台账', sheetName: '成本单台账', category: '成本单台账', rowCount: t.all,
      description: `导出成本单台账 ${t.all} 条（${what}）`, columns: ORDER_COLUMNS, rows: withLast(orderBatches(db(), f), totalsRow(t.totals)),
    });
  });

  r.post(`${P}/cost-order-detail`, { schema: { body: CostIdBody, summary: '成本单详情：明细（含价目表现价）、日志、同部门同项目上月成本单、当前用户可做的操作', tags }, config: access.detail }, async (req) =>
    ok(await orderDetail(db(), req.body.id, currentUser(req))),
  );

  r.post(`${P}/to-audit-list`, { schema: { body: CostOrderQuery, summary: '待审核成本单：分配给当前审核人的部门的待审核成本单（系统管理员：全部），筛选、排序、分页', tags }, config: access.audit }, async (req) =>
    ok(await orderPage(db(), req.body, scopeOf(req))),
  );

  r.post(`${P}/cost-todo-data`, { schema: { body: z.object({}).passthrough(), summary: '待审核成本单数（菜单角标），与待审核列表的总数一致', tags }, config: access.audit }, async (req) => {
    const a: CostTodoData = { toAudit: await toAuditCount(db(), scopeOf(req)) };
    return ok(a);
  });

  // A refusal is never 20000 (issue 27): nothing done → 30000 with the reason (one order) or every order's
  // reason (several), the per-order answer beside it; some done → 20000 saying how many, each refusal in r.
  const answer = (verb: string, res: CostBatchResult) => {
    if (res.done === 0 && res.refused.length > 0) {
      const message = res.refused.length === 1 ? res.refused[0]!.message : `${res.refused.length} 张成本单均未${verb}：${res.refused.map((x) => `${x.orderNo || '（不存在）'} ${x.message}`).join('；')}`;
      throw refuseBatch(message.length > 300 ? `${message.slice(0, 299)}…` : message, res);
    }
    return ok(res, res.refused.length === 0 ? `已${verb} ${res.done} 张成本单` : `已${verb} ${res.done} 张，${res.refused.length} 张未处理`);
  };
  const logLine = (verb: string, res: CostBatchResult, nos: Map<string, string>) =>
    `成本单${verb}：${res.done} 张${res.done ? `（${[...nos.values()].join('、')}）` : ''}${res.refused.length ? `；未处理 ${res.refused.map((x) => `${x.orderNo || x.id}（${x.message}）`).join('、')}` : ''}`.slice(0, 1000);
  const doneNos = async (ids: readonly string[], res: CostBatchResult) => {
    const refused = new Set(res.refused.map((x) => x.id));
    const done = [...new Set(ids)].filter((id) => !refused.has(id));
    const rows = done.length ? await db().selectFrom('cost_orders').select(['id', 'order_no']).where('id', 'in', done).execute() : [];
    return new Map(rows.map((x) => [x.id, x.order_no]));
  };

  r.post(`${P}/set-coststatus-audited`, { schema: { body: CostIdsBody, summary: '审核通过（可多张）：逐张检查分配部门、待审核状态、未结账，并记录日志', tags }, config: access.audit }, async (req) => {
    const u = currentUser(req);
    const res = await moveOrders(db(), req.body.ids, CostOrderState.audited, u);
    if (res.done) await app.oplog.record(req, OperationLogType.edit, logLine('审核通过', res, await doneNos(req.body.ids, res)));
    return answer('审核', res);
  });

  r.post(`${P}/set-coststatus-invalid`, { schema: { body: CostInvalidBody, summary: '作废成本单（可多张，须填写原因）：逐张检查分配部门、待审核状态、未结账，并记录日志', tags }, config: access.audit }, async (req) => {
    const u = currentUser(req);
    const res = await moveOrders(db(), req.body.ids, CostOrderState.invalid, u, req.body.reason);
    if (res.done) await app.oplog.record(req, OperationLogType.edit, logLine(`作废（原因：${req.body.reason}）`, res, await doneNos(req.body.ids, res)));
    return answer('作废', res);
  });
}
