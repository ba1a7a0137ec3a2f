/** /api/tender/setting/*: 投标设置 (/tender/setting/edit, roles 1 and 6); read by every tender page that needs the values. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TenderSettingsBody } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { saveTenderSettings, tenderSettingsView } from './settings.js';

export async function settingRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const P = '/api/tender/setting';
  r.post(`${P}/get`, { schema: { body: z.object({}), summary: '投标设置：默认水印、业绩年限与金额门槛、证书到期提醒天数', tags }, config: access.settingRead }, async () => ok(await tenderSettingsView(app.db.kysely)));
  r.post(`${P}/save`, { schema: { body: TenderSettingsBody, summary: '保存投标设置（记入操作日志）', tags }, config: access.setting }, async (req) => {
    await saveTenderSettings(app.db.kysely, app.oplog, req, req.body);
    return ok(await tenderSettingsView(app.db.kysely), '保存成功');
  });
}
