/**
 * 报销入账 (issue 15): /api/reimbursement/accounting/* — 一键报销 (list, push), 报销编辑 (detail, save),
 * 报销撤销 (list, export, pushed bills, revoke, the simulator's 会计删除凭证) and the accounting sync log.
 * Access from the route table: push and revoke for roles 1, 12, 16; the sync log for 1, 12. The settling
 * job of pushes cut short (settle.ts, app.reimbPushSettleJob) starts when the server is ready and stops
 * when it closes.
 */
import type { FastifyInstance } from 'fastify';
import {
  OperationLogType,
  ReimbApplyQuery,
  ReimbBillBody,
  ReimbEditBody,
  ReimbPushBody,
  ReimbPushedQuery,
  ReimbRevocationState,
  ReimbRevokeBody,
  ReimbRevokeExportQuery,
  ReimbRevokeMethod,
  ReimbRevokeQuery,
  ReimbSyncLogQuery,
  Uuid,
  type ReimbPushAnswer,
  type ReimbRevocationRow,
} from '@zhyy/shared';
import { z } from 'zod';
import { createAccountingGateway } from '../../../integrations/accounting/index.js';
import { currentUser } from '../../../platform/context.js';
import { notFound, ok, refuse, refuseWhenNoneDone } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { reimbAccountingConfig } from '../settings/read.js';
import { applyPage, pushedPage, reimbSyncLogDetail, reimbSyncLogs, revocationBatches, revocationCount, revocationPage } from './queries.js';
import { editBill, editDetail, pushBills, revokeBill, type AccountingDeps } from './service.js';
import { reverseBill } from './reverse.js';
import { PushSettleJob } from './settle.js';

const yuan = (fen: number) => fen / 100;
const REVOKE_COLUMNS = [
  { header: '报销单号', width: 18, value: (r: ReimbRevocationRow) => r.billNo },
  { header: '申请人', width: 10, value: (r: ReimbRevocationRow) => r.applicantName },
  { header: '核定金额（元）', width: 14, value: (r: ReimbRevocationRow) => yuan(r.approvedAmount) },
  { header: '凭证号', width: 12, value: (r: ReimbRevocationRow) => r.voucherNo },
  { header: '会计期间', width: 10, value: (r: ReimbRevocationRow) => r.voucherPeriod },
  { header: '撤销方式', width: 14, value: (r: ReimbRevocationRow) => ReimbRevokeMethod.label(r.method) },
  { header: '冲销凭证号', width: 16, value: (r: ReimbRevocationRow) => (r.reversalVoucherNo ? `${r.reversalPeriod} ${r.reversalVoucherNo}` : '') },
  { header: '撤销原因', width: 30, value: (r: ReimbRevocationRow) => r.reason },
  { header: '状态', width: 8, value: (r: ReimbRevocationRow) => ReimbRevocationState.label(r.state) },
  { header: '说明', width: 40, value: (r: ReimbRevocationRow) => r.message },
  { header: '撤销人', width: 10, value: (r: ReimbRevocationRow) => r.requestedByName },
  { header: '撤销时间', width: 20, value: (r: ReimbRevocationRow) => shanghaiTime(r.createdAt) },
];

export async function accountingRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/reimbursement/accounting';
  const deps = (): AccountingDeps => ({
    db: db(),
    accounting: async () => createAccountingGateway({ db: app.db, synclog: app.synclog }, await reimbAccountingConfig(db())),
    booking: app.hasDecorator('incomeBookingGateway') ? () => app.incomeBookingGateway() : null,
    log: app.log,
  });
  const job = new PushSettleJob({ db: app.db, log: app.log, oplog: app.oplog, accounting: deps });
  app.decorate('reimbPushSettleJob', job);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
  const actor = (req: Parameters<typeof currentUser>[0]) => {
    const u = currentUser(req);
    return { id: u.id, name: u.name };
  };

  // 一键报销
  r.post(`${P}/apply/list`, { schema: { body: ReimbApplyQuery, summary: '一键报销：已审批通过、未报销或报销失败的报销单（筛选、合计、分页）', tags }, config: access.push }, async (req) => ok(await applyPage(db(), req.body)));
  r.post(`${P}/push`, { schema: { body: ReimbPushBody, summary: '推送会计系统：所选报销单逐张生成凭证（报销单号为凭证标识，重复推送不会生成第二张凭证），成功后发票完成使用并入账', tags }, config: access.push }, async (req) => {
    const results = await pushBills(deps(), req.body.billIds, actor(req));
    const done = results.filter((x) => x.ok).length;
    const a: ReimbPushAnswer = { done, failed: results.length - done, results };
    await app.oplog.record(req, OperationLogType.edit, `报销入账：${results.map((x) => `${x.billNo || x.billId} ${x.ok ? `成功（${x.voucherNo}）` : `失败（${x.message}）`}`).join('；')}`.slice(0, 1000));
    // No bill pushed: a refusal, 30000 with the reason or each bill's (issue 27 item 8), the answer beside it.
    refuseWhenNoneDone(a, done, results.map((x) => ({ label: x.billNo, message: x.message })), '张报销单', '推送');
    return ok(a, results.length === 1 ? results[0]!.message : `推送成功${done}张${a.failed ? `，失败${a.failed}张` : ''}`);
  });

  // 报销编辑
  r.post(`${P}/edit/detail`, { schema: { body: ReimbBillBody, summary: '报销编辑：报销单的会计科目、成本中心、摘要、将生成的凭证和推送记录', tags }, config: access.push }, async (req) => ok(await editDetail(db(), req.body.billId)));
  r.post(`${P}/edit/save`, { schema: { body: ReimbEditBody, summary: '报销编辑：保存未报销或报销失败的报销单的明细会计科目、成本中心和摘要', tags }, config: access.push }, async (req) => {
    const no = await editBill(db(), req.body);
    await app.oplog.record(req, OperationLogType.edit, `报销编辑：报销单 ${no} 的会计科目、成本中心和摘要`);
    return ok(await editDetail(db(), req.body.billId), '已保存');
  });

  // 报销撤销
  r.post(`${P}/revoke/list`, { schema: { body: ReimbRevokeQuery, summary: '报销撤销记录（已撤销、被拒绝及原因），按报销单号、凭证号、状态、日期筛选', tags }, config: access.revoke }, async (req) => ok(await revocationPage(db(), req.body)));
  r.post(`${P}/revoke/export`, { schema: { body: ReimbRevokeExportQuery, summary: '导出报销撤销记录（筛选结果全部）', tags }, config: access.revoke }, async (req, reply) => {
    const rowCount = await revocationCount(db(), req.body);
    return exportXlsx(app, req, reply, { fileName: '报销撤销', sheetName: '报销撤销', category: '费用报销', description: `导出报销撤销记录 ${rowCount} 条`, rowCount, columns: REVOKE_COLUMNS, rows: revocationBatches(db(), req.body) });
  });
  r.post(`${P}/revoke/pushed`, { schema: { body: ReimbPushedQuery, summary: '新增撤销：已报销的报销单，按报销单号、申请人或凭证号查找', tags }, config: access.revoke }, async (req) => ok(await pushedPage(db(), req.body)));
  r.post(`${P}/revoke/add`, { schema: { body: ReimbRevokeBody, summary: '撤销报销：method=delete 会计系统已删除凭证且会计期间未结账时撤销；method=reverse 在当前会计期间生成红字冲销凭证（原凭证保留，原期间已结账也可）。报销单恢复为未报销、发票恢复占用并撤销入账（06）；拒绝时记录原因', tags }, config: access.revoke }, async (req) => {
    const reverse = req.body.method === 'reverse';
    const a = reverse ? await reverseBill(deps(), req.body.billId, req.body.reason, actor(req)) : await revokeBill(deps(), req.body.billId, req.body.reason, actor(req));
    await app.oplog.record(req, OperationLogType.edit, reverse ? `红字冲销报销：报销单 ${a.billNo}，原凭证 ${a.voucherNo}，冲销凭证 ${a.reversalPeriod} ${a.reversalVoucherNo}，原因：${req.body.reason}` : `撤销报销：报销单 ${a.billNo}，凭证 ${a.voucherNo}，原因：${req.body.reason}`);
    return ok(a, a.message);
  });
  r.post(`${P}/revoke/sim-delete-voucher`, { schema: { body: ReimbBillBody, summary: '模拟会计系统操作：会计在会计系统删除报销单的凭证（仅模拟模式，演示和测试用）', tags }, config: access.synclog }, async (req) => {
    const gateway = await deps().accounting();
    if (!gateway.simulator) throw refuse('当前连接的是真实会计系统，请在会计系统中删除凭证');
    const b = await db().selectFrom('reimb_bills').select(['bill_no', 'voucher_id']).where('id', '=', req.body.billId).executeTakeFirst();
    if (!b) throw notFound('报销单不存在');
    const a = await gateway.simulator.deleteVoucher(b.voucher_id || b.bill_no, { userId: currentUser(req).id });
    await app.oplog.record(req, OperationLogType.edit, `模拟会计系统操作：删除报销单 ${b.bill_no} 的凭证${a.deleted ? ` ${a.voucherNo}` : '（无此凭证）'}`);
    return ok(a, a.deleted ? `模拟会计系统：已删除凭证 ${a.voucherNo}` : '模拟会计系统中没有该报销单的凭证');
  });

  // 同步日志
  r.post(`${P}/synclog/list`, { schema: { body: ReimbSyncLogQuery, summary: '报销同步日志：与会计系统的每次交互，按报销单号、方法、状态、时间筛选', tags }, config: access.synclog }, async (req) => ok(await reimbSyncLogs(db(), req.body)));
  r.post(`${P}/synclog/detail`, { schema: { body: z.object({ id: Uuid }), summary: '一条报销同步日志，含请求与响应报文', tags }, config: access.synclog }, async (req) => ok(await reimbSyncLogDetail(db(), req.body.id)));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles 一键报销 pushes cut short (accounting/settle.ts). */
    reimbPushSettleJob: PushSettleJob;
  }
}
