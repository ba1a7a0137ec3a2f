/** 同步日志: /api/invoice/invoice-synclog-details and invoice-synclog-detail (the reads are in ../queries.ts). HTTP only. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InvoiceSyncLogQuery, Uuid } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { invoiceSyncLogDetail, invoiceSyncLogs } from '../queries.js';

export async function syncLogRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;

  r.post('/api/invoice/invoice-synclog-details', { schema: { body: InvoiceSyncLogQuery, summary: '开票同步日志（税务端），可按发票、方法、状态、时间筛选', tags }, config: access.synclog }, async (req) => ok(await invoiceSyncLogs(db(), req.body)));
  r.post('/api/invoice/invoice-synclog-detail', { schema: { body: z.object({ id: Uuid }), summary: '一条同步日志，含请求与响应报文', tags }, config: access.synclog }, async (req) => ok(await invoiceSyncLogDetail(db(), req.body.id)));
}
