/** /api/invoiceredconfirm/*: 数电红字确认单 (ids are integers). HTTP only; rules in service.ts (actions) and read.ts (reads). */
import type { FastifyInstance } from 'fastify';
import { BlueCandidateQuery, RedConfirmCreateBody, RedConfirmIdBody, RedConfirmListQuery, RedConfirmRefuseBody, RedConfirmSaveBody } from '@zhyy/shared';
import { z } from 'zod';
import { currentUser } from '../../../platform/context.js';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { blueCandidates, listRed, redDetail } from './read.js';
import type { RedConfirmService } from './service.js';

const P = '/api/invoiceredconfirm';

export async function redRoutes(app: FastifyInstance, red: RedConfirmService): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;

  r.post(`${P}/list`, { schema: { body: RedConfirmListQuery, summary: '红字确认单列表（我方申请、购方申请，按状态）', tags }, config: access.red }, async (req) => ok(await listRed(db(), req.body)));
  r.post(`${P}/detail`, { schema: { body: RedConfirmIdBody, summary: '红字确认单详情：明细、蓝字发票明细、可执行的操作', tags }, config: access.red }, async (req) => ok(await redDetail(db(), req.body.id)));
  r.post(`${P}/blue-candidates`, { schema: { body: BlueCandidateQuery, summary: '可申请红字确认单的蓝字数电发票', tags }, config: access.red }, async (req) => ok(await blueCandidates(db(), req.body)));
  r.post(`${P}/create`, { schema: { body: RedConfirmCreateBody, summary: '对蓝字数电发票新建红字确认单（待提交，默认全额）', tags }, config: access.red }, async (req) =>
    ok(await red.create(req, req.body.blueInvoiceId), '已新建红字确认单'),
  );
  r.post(`${P}/save`, { schema: { body: RedConfirmSaveBody, summary: '保存红冲原因、增值税用途和红冲明细（空明细为全额）', tags }, config: access.red }, async (req) => {
    await red.save(req, req.body);
    return ok(undefined, '保存成功');
  });
  r.post(`${P}/apply`, { schema: { body: RedConfirmIdBody, summary: '提交红字确认单申请', tags }, config: access.red }, async (req) => {
    const state = await red.apply(req, req.body.id);
    return ok({ state }, `已提交：${state}`);
  });
  r.post(`${P}/confirm`, { schema: { body: RedConfirmIdBody, summary: '确认购方提交的红字确认单', tags }, config: access.red }, async (req) => {
    const state = await red.answer(req, req.body.id, true);
    return ok({ state }, `已确认：${state}`);
  });
  r.post(`${P}/refuse`, { schema: { body: RedConfirmRefuseBody, summary: '拒绝购方提交的红字确认单', tags }, config: access.red }, async (req) => {
    const state = await red.answer(req, req.body.id, false, req.body.reason);
    return ok({ state }, `已拒绝：${state}`);
  });
  r.post(`${P}/cancel`, { schema: { body: RedConfirmIdBody, summary: '撤销我方的红字确认单', tags }, config: access.red }, async (req) => {
    await red.cancel(req, req.body.id);
    return ok(undefined, '已撤销');
  });
  r.post(`${P}/refresh`, { schema: { body: z.object({}), summary: '从税务端刷新红字确认单（含购方提交的）', tags }, config: access.red }, async (req) => {
    const n = await red.refresh(currentUser(req).id);
    return ok({ refreshed: n }, `已刷新 ${n} 张红字确认单`);
  });
}
