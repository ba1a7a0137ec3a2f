/**
 * Incoming invoices, the pool (issue 13): /api/income/pool/{list,export,other,other-export,abnormal,
 * abnormal-export,abnormal-count,detail}. Access from the route table: the invoicePool pages (roles 1, 13).
 * Registered by the module's routes.ts; 手工录入 (/save), 采集, upload and 查验 are in intake/routes.ts,
 * file-link and the signed file route in files/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PoolExportQuery, PoolIdBody, PoolQuery } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { exportPool } from './export.js';
import { access, tags } from './access.js';
import { poolDetail, poolPage } from './repo.js';
import { openCaseCount } from '../abnormal/queries.js';

export async function poolRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/income/pool';

  r.post(`${P}/list`, { schema: { body: PoolQuery, summary: '进项票池：全部进项发票，按各字段筛选、排序、分页，含筛选结果的合计', tags }, config: access.list }, async (req) => ok(await poolPage(db(), req.body, 'all')));
  r.post(`${P}/export`, { schema: { body: PoolExportQuery, summary: '导出进项票池（筛选结果全部，流式Excel）', tags }, config: access.list }, async (req, reply) => exportPool(app, req, reply, req.body, 'all'));
  r.post(`${P}/other`, { schema: { body: PoolQuery, summary: '其他票池：海关缴款书、代扣代缴完税凭证、旅客运输票据、通行费发票', tags }, config: access.other }, async (req) => ok(await poolPage(db(), req.body, 'other')));
  r.post(`${P}/other-export`, { schema: { body: PoolExportQuery, summary: '导出其他票池（流式Excel）', tags }, config: access.other }, async (req, reply) => exportPool(app, req, reply, req.body, 'other'));
  r.post(`${P}/abnormal`, { schema: { body: PoolQuery, summary: '异常票池：作废、红冲或红字确认中、失控、异常凭证、购方非本公司、疑似重复、查验不一致', tags }, config: access.abnormal }, async (req) =>
    ok(await poolPage(db(), req.body, 'abnormal')),
  );
  r.post(`${P}/abnormal-export`, { schema: { body: PoolExportQuery, summary: '导出异常票池（流式Excel）', tags }, config: access.abnormal }, async (req, reply) => exportPool(app, req, reply, req.body, 'abnormal'));
  r.post(`${P}/abnormal-count`, { schema: { body: z.object({}), summary: '有待处理异常的发票数（abnormalInvoicePoolCount）', tags }, config: access.abnormal }, async () => ok({ abnormalInvoicePoolCount: await openCaseCount(db()) }));
  r.post(`${P}/detail`, { schema: { body: PoolIdBody, summary: '票池发票详情：票面、明细、文件、查验与签收、使用记录和历史', tags }, config: access.detail }, async (req) => ok(await poolDetail(db(), req.body.id)));
}
