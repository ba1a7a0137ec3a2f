/**
 * /api/tender/export-stat/*: 导出日志 (the tender file exports, their items and downloads; Excel) and
 * 导出统计 (contracts, certificates, people or exporters by done exports per month; drill-down through
 * the log's list with dimension and key; Excel). Pages file-export-log and file-export-statistic: roles
 * 1 and 6 (access.exportAdmin).
 */
import type { FastifyInstance } from 'fastify';
import {
  TENDER_EXPORT_KIND_LABELS,
  TENDER_EXPORT_STATE_LABELS,
  TENDER_STAT_DIMENSION_LABELS,
  TenderExportIdBody,
  TenderExportLogFilter,
  TenderExportLogQuery,
  TenderExportStatFilter,
  TenderExportStatQuery,
  type TenderExportLogRow,
  type TenderExportStatRow,
} from '@zhyy/shared';
import { notFound, ok, refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { exportBatches, exportCount, exportDetail, exportPage, exportStatistic, exportStatisticAll } from './statistic.js';

export const EXPORT_LOG_MAX_ROWS = 200_000;

const LOG_COLUMNS: XlsxColumn<TenderExportLogRow>[] = [
  { header: '导出时间', width: 20, value: (r) => shanghaiTime(r.createdAt) },
  { header: '导出人', width: 12, value: (r) => r.createdByName },
  { header: '类型', width: 8, value: (r) => TENDER_EXPORT_KIND_LABELS[r.kind] ?? r.kind },
  { header: '格式', width: 8, value: (r) => r.format.toUpperCase() },
  { header: '标题', width: 30, value: (r) => r.title },
  { header: '文件名', width: 36, value: (r) => r.fileName },
  { header: '项数', width: 8, value: (r) => r.itemCount },
  { header: '页数', width: 8, value: (r) => r.pageCount ?? '' },
  { header: '大小（字节）', width: 14, value: (r) => r.size ?? '' },
  { header: 'SHA-256', width: 66, value: (r) => r.sha256 ?? '' },
  { header: '状态', width: 10, value: (r) => (r.purged ? '已清理' : (TENDER_EXPORT_STATE_LABELS[r.state] ?? r.state)) },
  { header: '失败原因', width: 30, value: (r) => r.error ?? '' },
  { header: '下载次数', width: 10, value: (r) => r.downloads },
  { header: '最近下载', width: 20, value: (r) => shanghaiTime(r.lastDownloadAt) },
];

function describeLog(f: TenderExportLogFilter): string {
  const parts: string[] = [];
  if (f.from || f.to) parts.push(`${f.from ?? ''}至${f.to ?? ''}`);
  if (f.user) parts.push(`导出人 ${f.user}`);
  if (f.kind) parts.push(TENDER_EXPORT_KIND_LABELS[f.kind]!);
  if (f.state) parts.push(TENDER_EXPORT_STATE_LABELS[f.state]!);
  if (f.keyword) parts.push(`关键字 ${f.keyword}`);
  return parts.length ? parts.join('，') : '全部';
}

export async function tenderExportStatRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const S = '/api/tender/export-stat';
  const config = access.exportAdmin;

  r.post(`${S}/list`, { schema: { body: TenderExportLogQuery, summary: '导出日志：投标文件导出记录（时间、导出人、类型、关键字；统计下钻按维度与统计项），含下载次数，分页', tags }, config }, async (req) => {
    const q = req.body;
    const [total, items] = await Promise.all([exportCount(db(), q), exportPage(db(), q, (q.pageIndex - 1) * q.pageSize, q.pageSize)]);
    return ok({ total, items });
  });
  r.post(`${S}/detail`, { schema: { body: TenderExportIdBody, summary: '导出记录详情：所含合同、证书与人员，每次下载（谁、何时）', tags }, config }, async (req) => {
    const d = await exportDetail(db(), req.body.id);
    if (!d) throw notFound('导出记录不存在');
    return ok(d);
  });
  r.post(`${S}/export`, { schema: { body: TenderExportLogFilter, summary: '导出投标文件导出日志（筛选结果全部，流式Excel）', tags }, config }, async (req, reply) => {
    const n = await exportCount(db(), req.body);
    if (n > EXPORT_LOG_MAX_ROWS) throw refuse(`筛选结果 ${n} 条，超过导出上限 ${EXPORT_LOG_MAX_ROWS} 条，请缩小筛选范围`);
    return exportXlsx(app, req, reply, {
      fileName: '投标文件导出日志', sheetName: '导出日志', category: '投标文件导出日志', rowCount: n, description: `导出投标文件导出日志 ${n} 条（${describeLog(req.body)}）`,
      columns: LOG_COLUMNS, rows: exportBatches(db(), req.body),
    });
  });
  r.post(`${S}/statistic`, { schema: { body: TenderExportStatQuery, summary: '导出统计：合同、证书、人员或导出人按月被导出（已完成的导出）的次数，前N名与每月导出数', tags }, config }, async (req) =>
    ok(await exportStatistic(db(), req.body)),
  );
  r.post(`${S}/statistic/export`, { schema: { body: TenderExportStatFilter, summary: '导出导出统计（该维度全部统计项，每月次数与合计，流式Excel）', tags }, config }, async (req, reply) => {
    const q = req.body;
    const s = await exportStatisticAll(db(), q);
    const dim = TENDER_STAT_DIMENSION_LABELS[q.dimension];
    const columns: XlsxColumn<TenderExportStatRow & { rank: number }>[] = [
      { header: '排名', width: 6, value: (x) => x.rank },
      { header: dim, width: 40, value: (x) => x.label },
      ...s.months.map((m, i): XlsxColumn<TenderExportStatRow & { rank: number }> => ({ header: m, width: 9, value: (x) => x.counts[i] ?? 0 })),
      { header: '合计', width: 8, value: (x) => x.total },
    ];
    const ranked = s.rows.map((x, i) => ({ ...x, rank: i + 1 }));
    async function* rows() {
      for (let i = 0; i < ranked.length; i += 500) yield ranked.slice(i, i + 500);
    }
    return exportXlsx(app, req, reply, {
      fileName: `投标文件导出统计_${dim}`, sheetName: '导出统计', category: '投标文件导出统计', rowCount: ranked.length,
      description: `导出投标文件导出统计 ${ranked.length} 条（${dim}，${q.fromMonth}至${q.toMonth}）`, columns, rows: rows(),
    });
  });
}
