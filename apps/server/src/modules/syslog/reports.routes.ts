/**
 * /api/syslog/file-export-log, file-export-log-statistic (file exports and downloads) and
 * ai-interface-statistic, export-ai-interface-statistic (calls of the recognition service).
 */
import type { FastifyInstance } from 'fastify';
import {
  AiStatQuery,
  FileExportLogQuery,
  FileExportStatQuery,
  type AiStatRow,
  type FileExportLogRow,
  type PageResult,
} from '@zhyy/shared';
import { pages } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { offsetOf, shanghaiDay } from '../../platform/listing.js';
import { typed } from '../../platform/route.js';
import { exportXlsx } from './fileExports.js';
import * as repo from './reports.repo.js';

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['日志'];
  const db = () => app.db.kysely;

  r.post(
    '/api/syslog/file-export-log',
    { schema: { body: FileExportLogQuery, summary: '文件导出与下载记录', tags }, config: { access: pages('/system/log/list', '/tender/file/file-export-log') } },
    async (req) => {
      const q = req.body;
      const result: PageResult<FileExportLogRow> = { total: await repo.countFileExports(db(), q), items: await repo.listFileExports(db(), q, offsetOf(q), q.pageSize) };
      return ok(result);
    },
  );

  r.post(
    '/api/syslog/file-export-log-statistic',
    { schema: { body: FileExportStatQuery, summary: '文件导出与下载统计（按人、类别或日期）', tags }, config: { access: pages('/system/log/list', '/tender/file/file-export-statistic') } },
    async (req) => ok(await repo.fileExportStatistic(db(), req.body)),
  );

  r.post(
    '/api/syslog/ai-interface-statistic',
    { schema: { body: AiStatQuery, summary: 'AI识别接口调用统计（按接口、用户或日期：次数、成功率、平均耗时）', tags }, config: { access: pages('/system/report/ai-interface-statistic') } },
    async (req) => ok(await repo.aiStatistic(db(), req.body)),
  );

  r.post(
    '/api/syslog/export-ai-interface-statistic',
    { schema: { body: AiStatQuery, summary: '导出AI识别接口调用统计（Excel）', tags }, config: { access: pages('/system/report/ai-interface-statistic') } },
    async (req, reply) => {
      const stat = await repo.aiStatistic(db(), req.body);
      const dimension = { interface: '接口', user: '用户', day: '日期' }[req.body.groupBy];
      const rows = [...stat.rows, stat.total];
      return exportXlsx(app, req, reply, {
        category: 'AI接口统计',
        description: `导出AI接口调用统计（按${dimension}）`,
        fileName: `AI接口调用统计-${shanghaiDay().replaceAll('-', '')}`,
        sheetName: 'AI接口统计',
        rowCount: rows.length,
        rows: (async function* () {
          yield rows;
        })(),
        columns: [
          { header: dimension, value: (x: AiStatRow) => x.label, width: 22 },
          { header: '调用次数', value: (x) => x.calls, width: 10 },
          { header: '成功次数', value: (x) => x.successes, width: 10 },
          { header: '成功率', value: (x) => (x.successRate === null ? '' : `${(x.successRate * 100).toFixed(1)}%`), width: 10 },
          { header: '平均耗时（毫秒）', value: (x) => x.avgDurationMs ?? '', width: 16 },
        ],
      });
    },
  );
}
