/** 购方管理: /api/invoice/buyer/* (list, detail, save, delete). HTTP only; the rules are in service.ts. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BuyerListQuery, BuyerSaveBody, Uuid } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { BuyerService } from './service.js';

export async function buyerRoutes(app: FastifyInstance): Promise<void> {
  const buyers = new BuyerService(app);
  const r = typed(app);
  const Id = z.object({ id: Uuid });

  r.post('/api/invoice/buyer/list', { schema: { body: BuyerListQuery, summary: '购方列表（名称或税号、默认发票种类）', tags }, config: access.buyers }, async (req) => ok(await buyers.list(req.body)));
  r.post('/api/invoice/buyer/detail', { schema: { body: Id, summary: '购方详情', tags }, config: access.buyers }, async (req) => ok(await buyers.detail(req.body.id)));
  r.post('/api/invoice/buyer/save', { schema: { body: BuyerSaveBody, summary: '新增（空ID）或修改购方；税号按 GB 32100 校验，重复税号拒绝', tags }, config: access.buyerWrite }, async (req) =>
    ok(await buyers.save(req, req.body), '保存成功'),
  );
  r.post('/api/invoice/buyer/delete', { schema: { body: Id, summary: '删除购方（已有开票记录的不能删除）', tags }, config: access.buyerWrite }, async (req) => {
    await buyers.remove(req, req.body.id);
    return ok(undefined, '已删除');
  });
}
