/**
 * /api/cost-price/*: the price list. Reading (list, the order editor's options, an item's timeline,
 * the export) is for the ledger and settings pages (1, 16–19); changes (save, delete, import, the
 * import template) for 成本设置 (1, 17). HTTP only: the rules are in service.ts, import.ts, queries.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CostCategory, CostFileBody, CostIdBody, CostPriceBody, CostPriceKey, CostPriceOptionsQuery, CostPriceQuery } from '@zhyy/shared';
import { ok, refuse, refuseWhenNoRowSaved } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { contentDisposition } from '../../../platform/userFiles.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { importPrices } from './import.js';
import { priceBatches, priceCount, priceOptions, pricePage, priceTimeline, type CostPriceFilter } from './queries.js';
import { CostPriceService } from './service.js';
import { EXPORT_COLUMNS, priceTemplate } from './sheet.js';

/** The import file as base64: 5 MB of .xlsx. */
const IMPORT_BODY_LIMIT = 7_500_000;
export const PRICE_EXPORT_MAX_ROWS = 1_000_000;
const CostPriceExportQuery = CostPriceQuery.omit({ pageIndex: true, pageSize: true });

function describeFilter(f: CostPriceFilter): string {
  const parts: string[] = [];
  if (f.keyword) parts.push(`关键字 ${f.keyword}`);
  if (f.category) parts.push(`费用类别 ${CostCategory.label(f.category)}`);
  if (f.on) parts.push(`${f.on} 有效`);
  return parts.length ? parts.join('，') : '全部';
}

export async function priceRoutes(app: FastifyInstance): Promise<void> {
  const s = new CostPriceService(app);
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/cost-price';

  r.post(`${P}/list`, { schema: { body: CostPriceQuery, summary: '价格表：成本项的价格有效期（关键字、费用类别、某日有效），分页，含被成本明细引用的行数', tags }, config: access.prices }, async (req) =>
    ok(await pricePage(db(), req.body)),
  );
  r.post(`${P}/options`, { schema: { body: CostPriceOptionsQuery, summary: '成本单编辑的价格选项：某月适用的价格（月初有效的，否则月内最早生效的），每个成本项、规格、单位一条，最多500条', tags }, config: access.prices }, async (req) =>
    ok(await priceOptions(db(), req.body)),
  );
  r.post(`${P}/timeline`, { schema: { body: CostPriceKey, summary: '成本项（编码、规格、单位）的全部价格有效期，按生效日期从早到晚', tags }, config: access.prices }, async (req) =>
    ok(await priceTimeline(db(), req.body)),
  );

  r.post(`${P}/save`, { schema: { body: CostPriceBody, summary: '新增或修改价格（有效期不能与同一成本项、规格、单位的其他价格重叠；已被成本单引用的价格不能改单价、税率，有效期须覆盖引用月份）', tags }, config: access.setting }, async (req) => {
    const row = await s.save(req, req.body);
    return ok(row, req.body.id ? '保存成功' : '已新增');
  });
  r.post(`${P}/delete`, { schema: { body: CostIdBody, summary: '删除价格（已被成本单引用的不能删除，只能缩短有效期）', tags }, config: access.setting }, async (req) => {
    await s.delete(req, req.body.id);
    return ok(null, '已删除');
  });

  r.post(`${P}/export`, { schema: { body: CostPriceExportQuery, summary: '导出价格表（筛选结果全部，流式Excel；列与导入模板一致，另含引用行数、更新人、更新时间）', tags }, config: access.prices }, async (req, reply) => {
    const f = req.body;
    const count = await priceCount(db(), f);
    if (count > PRICE_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${PRICE_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
    return exportXlsx(app, req, reply, {
      fileName: '成本价格表', sheetName: '价格表', category: '成本价格表', rowCount: count,
      description: `导出成本价格表 ${count} 条（${describeFilter(f)}）`, columns: EXPORT_COLUMNS, rows: priceBatches(db(), f),
    });
  });
  r.post(`${P}/import`, { bodyLimit: IMPORT_BODY_LIMIT, schema: { body: CostFileBody, summary: '从Excel导入价格（列同导入模板；逐行结果，正确的行保存，错误与重叠的行列出原因）', tags }, config: access.setting }, async (req) => {
    const result = await importPrices(app, s, req, req.body.file);
    // Not one row saved: a refusal, 30000 with each row's reason (issue 27 item 8); some saved: 20000, the rest in r.
    refuseWhenNoRowSaved(result);
    return ok(result, `导入完成：成功 ${result.succeeded} 行，失败 ${result.failed} 行`);
  });
  r.post(`${P}/template`, { schema: { body: z.object({}), summary: '下载价格导入模板（Excel，表头即导出的前九列；填写说明工作表有各列说明与示例行）', tags }, config: access.setting }, async (_req, reply) =>
    reply
      .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('Content-Disposition', contentDisposition('attachment', '成本价格导入模板.xlsx'))
      .header('Cache-Control', 'no-store')
      .send(await priceTemplate()),
  );
}
