/**
 * 税控作废: /api/invoice/list-for-cancellation and invoice-cancellation (+ refresh, is-invalid). HTTP only;
 * the rules are in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { CancelBody, InvalidBody, InvoiceListQuery, RefreshBody } from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { ok, refuseWhenNoneDone } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { Tab, cancelScope, page, pendingOf } from '../lists.js';
import { access, tags } from '../paths.js';
import type { CancellationService } from './service.js';

export async function cancellationRoutes(app: FastifyInstance, cancellation: CancellationService): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;

  r.post('/api/invoice/list-for-cancellation', { schema: { body: InvoiceListQuery.extend(Tab(['candidates', 'canceling', 'cancelled']).shape), summary: '税控作废列表（当月已开具未红冲的纸质发票、作废中、已作废）', tags }, config: access.cancellation }, async (req) =>
    ok(await page(db(), req.body, (q) => cancelScope(q, req.body.tab), req.body.tab === 'candidates' ? 'issuedAt' : 'updatedAt')),
  );
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
}
