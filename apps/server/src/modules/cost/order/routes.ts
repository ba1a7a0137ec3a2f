/**
 * 成本单录入 (issue 16): /api/cost-order/save, copy-last-month, reprice, import, import-template,
 * pms-sync (the 成本单台账 page, access.ledger, and only roles 1, 16, 17 by assertEntry: 18 and 19 read
 * the ledger but get 403 权限不足 here), and the project-management interface of 成本设置:
 * /api/cost-setting/pms, pms-save, pms-test (access.setting, roles 1 and 17).
 */
import { loadExcelJS } from '../../../platform/heavy.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CostCopyBody, CostFileBody, CostProjectQuery, CostIdBody, CostOrderBody, CostPmsBody, CostPmsSyncBody, monthLabel } from '@zhyy/shared';
import { pmsConfigFromEnv } from '../../../integrations/pms/index.js';
import { contains } from '../../../platform/listing.js';
import { currentUser } from '../../../platform/context.js';
import { ok, refuseWhenNoRowSaved } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { countOf } from '../../../platform/user-records.js';
import { contentDisposition } from '../../../platform/userFiles.js';
import { access, assertEntry, tags } from '../paths.js';
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, importOrders } from './import.js';
import { pmsView, savePms, testPms } from './pms-settings.js';
import { syncPmsMonth } from './pms-sync.js';
import { CostOrderEntry } from './service.js';

const P = '/api/cost-order';
const S = '/api/cost-setting';
const IMPORT_BODY_LIMIT = 7_500_000;

/** The template's example rows: two lines of one order (one month, department and project). */
export const ORDER_EXAMPLES: string[][] = [
  ['2026-10', '工程一部', 'XM2026-001', 'RG001', '一般普工', '工日', '12.5', '10月上旬'],
  ['2026-10', '工程一部', 'XM2026-001', 'JX001', '', '台班', '3', ''],
];

/** The import template: the columns on the first sheet, how to fill them (with example rows) on the second. */
async function importTemplate(): Promise<Buffer> {
  const wb = new (await loadExcelJS()).Workbook();
  const ws = wb.addWorksheet('成本单导入');
  ws.columns = IMPORT_COLUMNS.map((h) => ({ header: h, key: h, width: h === '备注' ? 30 : h === '部门' || h === '成本项编码' ? 18 : 14 }));
  ws.getRow(1).font = { bold: true };
  for (const c of [1, 3, 4, 5, 6, 7]) ws.getColumn(c).numFmt = '@';
  const help = wb.addWorksheet('填写说明');
  help.columns = [{ header: '列', key: 'c', width: 14 }, { header: '说明', key: 'd', width: 90 }];
  help.getRow(1).font = { bold: true };
  help.addRows([
    { c: '月份', d: '成本所属月份，格式 YYYY-MM（如 2026-10），必填' },
    { c: '部门', d: '部门名称，须与组织架构中的名称一致，必填' },
    { c: '项目编码', d: '项目编码（如 XM2026-001），必填' },
    { c: '成本项编码', d: '价格表中的成本项编码，必填；按 成本项编码 + 规格 + 单位 取该月有效价格' },
    { c: '规格', d: '价格表中的规格，没有规格的留空' },
    { c: '单位', d: '价格表中的单位，必填' },
    { c: '数量', d: '大于0，最多4位小数，必填' },
    { c: '备注', d: '选填，最多100个字符' },
    { c: '', d: '' },
    { c: '规则', d: '同一月份、部门、项目的行合并为一张成本单（最多200行）；一组中任何一行有误，该组整单不导入，其他组照常导入。' },
    { c: '', d: '该部门该项目该月已有成本单（未作废）或该部门该月已结账时，该组不导入。单价、税率按价格表取，无需填写。' },
    { c: '', d: `一次最多导入${IMPORT_MAX_ROWS}行。` },
  ]);
  // Example rows under the import's own headers (issue 31), here and not on the imported sheet, where
  // rows left in would be imported.
  help.addRow([]);
  help.addRow(['示例（按此格式填写在「成本单导入」工作表第2行起；本工作表不导入）']).font = { bold: true };
  help.addRow([...IMPORT_COLUMNS]).font = { bold: true };
  for (const r of ORDER_EXAMPLES) help.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function orderEntryRoutes(app: FastifyInstance): Promise<void> {
  // Read once at start-up: an incomplete PMS_COST_MODE=http setting stops the server with its message.
  pmsConfigFromEnv();
  const svc = new CostOrderEntry(app);
  const r = typed(app);
  const ledger = access.ledger;
  app.userRecords.register(async (db, userId) => {
    const n = countOf(await db.selectFrom('cost_orders').select((eb) => eb.fn.countAll().as('n')).where('created_by_id', '=', userId).executeTakeFirst());
    return n ? `录入${n}张成本单` : null;
  });

  r.post(`${P}/projects`, { schema: { body: CostProjectQuery, summary: '成本页面的项目选择：按编码或名称，最多50个（临时项目除外）', tags }, config: access.projects }, async (req) => {
    let q = app.db.kysely.selectFrom('projects').select(['id', 'code', 'name']).where('is_temp', '=', 0);
    const kw = req.body.keyword;
    if (kw) q = q.where((eb) => eb.or([contains(eb.ref('name'), kw), contains(eb.ref('code'), kw)]));
    return ok(await q.orderBy('code').limit(50).execute());
  });
  r.post(`${P}/save`, { schema: { body: CostOrderBody, summary: '保存成本单：无 id 新建（单号 CB+年月+序号，待审核，手工录入），有 id 修改待审核且未结账的成本单；明细按成本单月份取价并复制到行上（角色1、16、17）', tags }, config: ledger }, async (req) => {
    assertEntry(req);
    const a = await svc.save(req, currentUser(req), req.body);
    return ok(a, `成本单 ${a.orderNo} 已保存`);
  });
  r.post(`${P}/copy-last-month`, { schema: { body: CostCopyBody, summary: '复制上月：按同部门同项目上月的成本单明细新建本月成本单，按本月价格取价（角色1、16、17）', tags }, config: ledger }, async (req) => {
    assertEntry(req);
    const a = await svc.copyLastMonth(req, currentUser(req), req.body);
    return ok(a, `已复制上月成本单，新建 ${a.orderNo}`);
  });
  r.post(`${P}/reprice`, { schema: { body: CostIdBody, summary: '重新取价：待审核且未结账的成本单按价格表当前为该月有效的价格重新计算各行（角色1、16、17）', tags }, config: ledger }, async (req) => {
    assertEntry(req);
    const a = await svc.reprice(req, currentUser(req), req.body.id);
    return ok(a, a.changed ? `已重新取价，${a.changed} 行价格变更` : '价格无变化');
  });
  r.post(`${P}/import`, { bodyLimit: IMPORT_BODY_LIMIT, schema: { body: CostFileBody, summary: `导入成本单（Excel，base64）：列 ${IMPORT_COLUMNS.join('、')}；按月份+部门+项目成单，一组有误整组不导入；逐行结果（角色1、16、17）`, tags }, config: ledger }, async (req) => {
    assertEntry(req);
    const a = await importOrders(app, req, currentUser(req), req.body.file);
    // Not one row saved: a refusal, 30000 with each row's reason (issue 27 item 8); some saved: 20000, the rest in r.
    refuseWhenNoRowSaved(a);
    return ok(a, `导入完成：成功 ${a.succeeded} 行，失败 ${a.failed} 行`);
  });
  r.post(`${P}/import-template`, { schema: { body: z.object({}), summary: '成本单导入模板（Excel）', tags }, config: ledger }, async (req, reply) => {
    assertEntry(req);
    return reply
      .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('Content-Disposition', contentDisposition('attachment', '成本单导入模板.xlsx'))
      .header('Cache-Control', 'no-store')
      .send(await importTemplate());
  });
  r.post(`${P}/pms-sync`, { schema: { body: CostPmsSyncBody, summary: '同步项目管理系统：取该月项目管理系统的成本单新建为待审核成本单（按项目管理系统编号只取一次），逐单报告新建、跳过、失败（角色1、16、17）', tags }, config: ledger }, async (req) => {
    assertEntry(req);
    const a = await syncPmsMonth(app, req, currentUser(req), req.body.month);
    const total = a.created + a.skipped + a.failed.length;
    return ok(a, total ? `同步完成：新建 ${a.created} 张，跳过 ${a.skipped} 张，失败 ${a.failed.length} 张` : `项目管理系统${monthLabel(req.body.month)}没有成本单`);
  });

  const setting = access.setting;
  r.post(`${S}/pms`, { schema: { body: z.object({}), summary: '项目管理系统接口：模式、地址、超时、是否已设密钥、配置来源（成本设置或环境变量）', tags }, config: setting }, async () => ok(await pmsView(app.db.kysely)));
  r.post(`${S}/pms-save`, { schema: { body: CostPmsBody, summary: '保存项目管理系统接口（模拟器或接口地址与密钥；密钥留空则保留原值）', tags }, config: setting }, async (req) =>
    ok(await savePms(app, req, req.body), '项目管理系统接口已保存'),
  );
  r.post(`${S}/pms-test`, { schema: { body: z.object({}), summary: '测试项目管理系统连接（按已保存的配置）', tags }, config: setting }, async (req) => ok(await testPms(app, req)));
}
