/** 开票设置: /api/invoice/setting/* and the lookups of the entry form and the settings (tax codes, projects, contracts). HTTP only; the rules are in ../settings.ts and ../reference.ts. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ReferenceQuery, SettingSaveBody, Uuid } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { optText } from '@zhyy/shared';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { findContracts, findProjects, findTaxCodes } from '../reference.js';
import type { InvoiceSettings } from './service.js';

export async function settingRoutes(app: FastifyInstance, settings: InvoiceSettings): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;

  r.post('/api/invoice/setting/get', { schema: { body: z.object({}), summary: '开票设置（appSecret 只返回是否已设置）', tags }, config: access.setting }, async () => ok(await settings.view()));
  r.post('/api/invoice/setting/save', { schema: { body: SettingSaveBody, summary: '保存开票设置；appSecret 留空则保留原值', tags }, config: access.setting }, async (req) => {
    await settings.save(req, req.body);
    return ok(await settings.view(), '保存成功');
  });

  r.post('/api/invoice/tax-codes', { schema: { body: z.object({ keyword: optText(100) }), summary: '税收分类编码查询（开票明细选择）', tags }, config: access.lookups }, async (req) => ok(await findTaxCodes(db(), req.body.keyword)));
  r.post('/api/invoice/projects', { schema: { body: ReferenceQuery, summary: '项目查询（编码、名称、客户）', tags }, config: access.lookups }, async (req) => ok(await findProjects(db(), req.body)));
  r.post('/api/invoice/contracts', { schema: { body: ReferenceQuery.extend({ projectId: Uuid.optional() }), summary: '合同查询（编码、名称、客户、项目）', tags }, config: access.lookups }, async (req) =>
    ok(await findContracts(db(), req.body)),
  );
}
