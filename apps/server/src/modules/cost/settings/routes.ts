/** /api/cost-setting/*: 成本设置 (/costmanagement/setting, roles 1 and 17): auditors' departments and month closing. HTTP only; the rules are in service.ts. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CostAuditorBody, CostCloseBody, CostClosingQuery, CostReopenBody, monthLabel, PageQuery } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { CostSettingService } from './service.js';

export async function settingRoutes(app: FastifyInstance): Promise<void> {
  const s = new CostSettingService(app);
  const r = typed(app);
  const cfg = access.setting;
  const P = '/api/cost-setting';

  r.post(`${P}/auditors`, { schema: { body: z.object({}), summary: '成本审核人员（持有角色17、20、21、22的在职用户）及其分配的部门', tags }, config: cfg }, async () => ok(await s.auditors()));
  r.post(`${P}/auditors-save`, { schema: { body: CostAuditorBody, summary: '设置审核人员负责的部门（替换原有分配；只能分配给持有成本审核角色的用户）', tags }, config: cfg }, async (req) => {
    await s.saveAuditor(req, req.body.userId, req.body.deptIds);
    return ok(await s.auditors(), '保存成功');
  });

  r.post(`${P}/closings`, { schema: { body: CostClosingQuery, summary: '某月各部门的结账状态、结账人与时间、待审核与有效成本单数', tags }, config: cfg }, async (req) => ok(await s.closings(req.body.month)));
  r.post(`${P}/close`, { schema: { body: CostCloseBody, summary: '部门月度结账（该月须已结束，且没有待审核的成本单；结账后该月成本单不能修改）', tags }, config: cfg }, async (req) => {
    await s.close(req, req.body.deptId, req.body.month);
    return ok(await s.closings(req.body.month), `${monthLabel(req.body.month)}已结账`);
  });
  r.post(`${P}/reopen`, { schema: { body: CostReopenBody, summary: '部门月度反结账（须填写原因）', tags }, config: cfg }, async (req) => {
    await s.reopen(req, req.body.deptId, req.body.month, req.body.reason);
    return ok(await s.closings(req.body.month), `${monthLabel(req.body.month)}已反结账`);
  });
  r.post(`${P}/closing-logs`, { schema: { body: PageQuery, summary: '结账与反结账记录（最新在前，分页）', tags }, config: cfg }, async (req) => ok(await s.closingLogs(req.body)));
}
