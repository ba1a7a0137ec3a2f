/**
 * 一键开票 and 开票重试: /api/invoice/list-for-creation, list-for-retry-creation, creation-setting, save,
 * request-billing (+ refresh, is-invalid) and retry-creation. HTTP only; the rules are in service.ts
 * (issuing), entry.ts (the entry form and approved 开票申请) and retry.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InvalidBody, InvoiceListQuery, InvoiceSaveBody, IssueBody, RefreshBody, RetryBody } from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { ok, refuseWhenNoneDone } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { Tab, billingScope, page, pendingOf, retryScope } from '../lists.js';
import { access, tags } from '../paths.js';
import type { InvoiceSettings } from '../settings/service.js';
import { saveEntry } from './entry.js';
import type { RetryService } from './retry.js';
import type { IssuingService } from './service.js';

export async function issuingRoutes(app: FastifyInstance, settings: InvoiceSettings, issuing: IssuingService, retry: RetryService): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;

  r.post('/api/invoice/list-for-creation', { schema: { body: InvoiceListQuery.extend(Tab(['pending', 'issuing', 'created', 'invalid']).shape), summary: '一键开票列表（待开票、开票中、已开票、已置无效）', tags }, config: access.billing }, async (req) => {
    return ok(await page(db(), req.body, (q) => billingScope(q, req.body.tab), req.body.tab === 'pending' ? 'createdAt' : 'updatedAt'));
  });
  r.post('/api/invoice/list-for-retry-creation', { schema: { body: InvoiceListQuery.extend(Tab(['all', 'creationFailed', 'signFailed']).shape), summary: '开票重试列表（开票失败22、签章失败24，含失败原因）', tags }, config: access.retry }, async (req) =>
    ok(await page(db(), req.body, (q) => retryScope(q, req.body.tab))),
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
}
