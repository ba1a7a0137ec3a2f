/**
 * Outgoing invoices, part 1 (issue 6): /api/invoice/* (issuing, retry, cancellation, sync log,
 * counts, detail, files) — HTTP only, the rules are in the services. Buyers, settings and lookups are
 * in routes-setting.ts, red-letter confirmations in routes-red.ts. The background job starts when the
 * server is ready and stops when it closes (app.invoiceJob).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { CancelBody, InvoiceIdBody, InvoiceListQuery, InvoiceSaveBody, InvoiceSyncLogQuery, InvalidBody, IssueBody, RefreshBody, RetryBody, Uuid } from '@zhyy/shared';
import { SIGNED_IN } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { ok, refuseWhenNoneDone } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { CancellationService } from './cancellation.js';
import { INVOICE_REQUEST_FLOW, importRequest, saveEntry } from './entry.js';
import { fileRoutes } from './routes-files.js';
import { IssuingService } from './issuing.js';
import { InvoiceJob } from './job.js';
import { billingScope, cancelScope, page, retryScope } from './lists.js';
import { access, tags } from './paths.js';
import { badgeCounts, invoiceDetail, invoiceSyncLogDetail, invoiceSyncLogs } from './queries.js';
import { RedConfirmService } from './redconfirm.js';
import { redRoutes } from './routes-red.js';
import { settingRoutes } from './routes-setting.js';
import { RetryService } from './retry.js';
import { InvoiceSettings } from './settings.js';
import { invoiceUserRecords } from './user-records.js';

const Tab = <const T extends readonly [string, ...string[]]>(values: T) => z.object({ tab: z.enum(values, { message: '列表页签不正确' }).default(values[0] as T[0] as never) as z.ZodDefault<z.ZodEnum<{ [K in T[number]]: K }>> });

/** Requests the tax service could not be reached for: not refused, they stay and are retried or refreshed. */
const pendingOf = (results: ReadonlyArray<{ pending?: boolean }>) => results.filter((x) => x.pending).length;

async function invoiceModule(app: FastifyInstance): Promise<void> {
  const settings = new InvoiceSettings(app);
  const issuing = new IssuingService(app, settings);
  const retry = new RetryService(app, settings, issuing);
  const cancellation = new CancellationService(app, settings);
  const red = new RedConfirmService(app, settings);
  const job = new InvoiceJob({ db: app.db, log: app.log, settings, issuing, cancellation, red });
  app.decorate('invoiceJob', job);
  app.userRecords.register(invoiceUserRecords);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());

  // An approved 开票申请 (from 发起申请 or started for a record) becomes a request inside the approval's own transaction.
  app.workflow.onFlowOutcome(INVOICE_REQUEST_FLOW, async (e) => {
    if (e.kind === 'complete') await importRequest(e.trx, e, await settings.row(e.trx));
  });

  const r = typed(app);
  const db = () => app.db.kysely;

  r.post('/api/invoice/list-for-creation', { schema: { body: InvoiceListQuery.extend(Tab(['pending', 'issuing', 'created', 'invalid']).shape), summary: '一键开票列表（待开票、开票中、已开票、已置无效）', tags }, config: access.billing }, async (req) => {
    return ok(await page(db(), req.body, (q) => billingScope(q, req.body.tab), req.body.tab === 'pending' ? 'createdAt' : 'updatedAt'));
  });
  r.post('/api/invoice/list-for-retry-creation', { schema: { body: InvoiceListQuery.extend(Tab(['all', 'creationFailed', 'signFailed']).shape), summary: '开票重试列表（开票失败22、签章失败24，含失败原因）', tags }, config: access.retry }, async (req) =>
    ok(await page(db(), req.body, (q) => retryScope(q, req.body.tab))),
  );
  r.post('/api/invoice/list-for-cancellation', { schema: { body: InvoiceListQuery.extend(Tab(['candidates', 'canceling', 'cancelled']).shape), summary: '税控作废列表（当月已开具未红冲的纸质发票、作废中、已作废）', tags }, config: access.cancellation }, async (req) =>
    ok(await page(db(), req.body, (q) => cancelScope(q, req.body.tab), req.body.tab === 'candidates' ? 'issuedAt' : 'updatedAt')),
  );
  r.post('/api/invoice/creation-setting', { schema: { body: z.object({}), summary: '开票录入所需设置：销方、默认开票人、默认发票种类、税收分类编码', tags }, config: access.entry }, async () => {
    const v = await settings.view();
    return ok({ sellerName: v.sellerName, sellerTaxNo: v.sellerTaxNo, clerk: v.clerk, payee: v.payee, checker: v.checker, defaultKind: v.defaultKind, gatewayMode: v.gatewayMode, taxCodes: v.taxCodes });
  });
  r.post('/api/invoice/save', { schema: { body: InvoiceSaveBody, summary: '保存开票申请（新增用空ID；未开票的可修改）', tags }, config: access.billing }, async (req) => {
    const s = await settings.row();
    return ok(await db().transaction().execute((trx) => saveEntry(trx, req, app.oplog, s, req.body)), '保存成功');
  });
  r.post('/api/invoice/request-billing', { schema: { body: IssueBody, summary: '一键开票：提交所选申请（每张保留订单号，重复提交不会重复开具）', tags }, config: access.billing }, async (req) => {
    const res = await issuing.issue(req, req.body.ids);
    refuseWhenNoneDone(res, res.succeeded + pendingOf(res.results), res.results.filter((x) => !x.ok && !x.pending).map((x) => ({ label: x.orderNo, message: x.message })), '张开票申请', '提交成功');
    return ok(res, `提交 ${res.results.length} 张：成功 ${res.succeeded} 张${res.failed ? `，失败 ${res.failed} 张` : ''}`);
  });
  r.post('/api/invoice/request-billing/refresh', { schema: { body: RefreshBody, summary: '刷新开票结果（所选或全部开票中的发票）', tags }, config: access.billing }, async (req) => {
    const n = await issuing.poll({ ids: req.body.ids.length ? req.body.ids : undefined, userId: currentUser(req).id, limit: 200 });
    return ok({ refreshed: n }, n ? `已向税务端查询 ${n} 张发票` : '没有开票中的发票');
  });
  r.post('/api/invoice/request-billing/is-invalid', { schema: { body: InvalidBody, summary: '开票申请置为无效（待开票或开票失败，须填写原因）', tags }, config: access.entry }, async (req) => {
    await retry.invalidate(req, req.body.id, req.body.reason);
    return ok(undefined, '已置为无效');
  });
  r.post('/api/invoice/retry-creation', { schema: { body: RetryBody, summary: '开票重试：22 修改后以新订单号提交；24 按原流水号重新开具', tags }, config: access.retry }, async (req) => {
    const res = await retry.retry(req, req.body.id, req.body.correction);
    return ok(res, res.message);
  });
  r.post('/api/invoice/invoice-cancellation', { schema: { body: CancelBody, summary: '税控作废（当月纸质发票；数电发票请开具红字发票）', tags }, config: access.cancellation }, async (req) => {
    const res = await cancellation.cancel(req, req.body.ids, req.body.reason);
    refuseWhenNoneDone(res, res.succeeded + pendingOf(res.results), res.results.filter((x) => !x.ok && !x.pending).map((x) => ({ label: x.orderNo, message: x.message })), '张发票', '作废');
    return ok(res, `作废 ${res.results.length} 张：成功 ${res.succeeded} 张${res.failed ? `，失败 ${res.failed} 张` : ''}`);
  });
  r.post('/api/invoice/invoice-cancellation/refresh', { schema: { body: RefreshBody, summary: '刷新作废结果', tags }, config: access.cancellation }, async (req) => {
    const n = await cancellation.refresh(req.body.ids.length ? req.body.ids : undefined, currentUser(req).id);
    return ok({ refreshed: n }, n ? `已向税务端查询 ${n} 张发票` : '没有作废中的发票');
  });
  r.post('/api/invoice/invoice-cancellation/is-invalid', { schema: { body: InvalidBody, summary: '作废申请置为无效（作废中 → 已开具，须填写原因）', tags }, config: access.cancellation }, async (req) => {
    await cancellation.invalidate(req, req.body.id, req.body.reason);
    return ok(undefined, '已置为无效');
  });
  r.post('/api/invoice/detail', { schema: { body: InvoiceIdBody, summary: '发票详情：表头、明细、文件、红字发票、作废记录', tags }, config: access.read }, async (req) => ok(await invoiceDetail(db(), req.body.id)));
  r.post('/api/invoice/invoice-synclog-details', { schema: { body: InvoiceSyncLogQuery, summary: '开票同步日志（税务端），可按发票、方法、状态、时间筛选', tags }, config: access.synclog }, async (req) => ok(await invoiceSyncLogs(db(), req.body)));
  r.post('/api/invoice/invoice-synclog-detail', { schema: { body: z.object({ id: Uuid }), summary: '一条同步日志，含请求与响应报文', tags }, config: access.synclog }, async (req) => ok(await invoiceSyncLogDetail(db(), req.body.id)));
  r.post('/api/invoice/billing-cancellation-count', { schema: { body: z.object({}).passthrough(), summary: '销项侧边栏角标的九个数量（按调用者可见的页面）', tags }, config: { access: SIGNED_IN } }, async (req) =>
    ok(await badgeCounts(db(), currentUser(req).roles)),
  );

  await fileRoutes(app, settings);
  await settingRoutes(app, settings);
  await redRoutes(app, red);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The invoicing background job (modules/invoice/job.ts). */
    invoiceJob: InvoiceJob;
  }
}

export const invoiceRoutes = fp(invoiceModule, { name: 'invoice', dependencies: ['workflow'] });
