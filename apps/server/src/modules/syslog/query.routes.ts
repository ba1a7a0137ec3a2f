/** /api/syslog/list, export, integratedsync-log, integratedsync-log-details: reading the logs (role 1). */
import type { FastifyInstance } from 'fastify';
import {
  OperationLogQuery,
  OperationLogType,
  SyncLogDetailBody,
  SyncLogQuery,
  SyncLogStatus,
  type OperationLogRow,
  type PageResult,
  type SyncLogDetail,
  type SyncLogPage,
} from '@zhyy/shared';
import { pages } from '../../platform/access.js';
import { notFound, ok } from '../../platform/envelope.js';
import { offsetOf, shanghaiDay, shanghaiTime } from '../../platform/listing.js';
import { typed } from '../../platform/route.js';
import { batches } from '../../platform/xlsx.js';
import { exportXlsx } from './fileExports.js';
import * as repo from './query.repo.js';

export async function logQueryRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['日志'];
  const db = () => app.db.kysely;

  r.post('/api/syslog/list', { schema: { body: OperationLogQuery, summary: '操作日志（用户、类型、时间段、内容）', tags }, config: { access: pages('/system/log/list') } }, async (req) => {
    const q = req.body;
    const result: PageResult<OperationLogRow> = { total: await repo.countOperations(db(), q), items: await repo.listOperations(db(), q, offsetOf(q), q.pageSize) };
    return ok(result);
  });

  r.post('/api/syslog/export', { schema: { body: OperationLogQuery, summary: '导出操作日志（Excel，流式）', tags }, config: { access: pages('/system/log/list') } }, async (req, reply) => {
    const q = req.body;
    return exportXlsx(app, req, reply, {
      category: '操作日志',
      description: `导出操作日志${q.type !== undefined ? `（类型：${OperationLogType.label(q.type)}）` : ''}`,
      fileName: `操作日志-${shanghaiDay().replaceAll('-', '')}`,
      sheetName: '操作日志',
      rowCount: await repo.countOperations(db(), q),
      rows: batches((offset, limit) => repo.listOperations(db(), q, offset, limit)),
      columns: [
        { header: '时间', value: (o: OperationLogRow) => shanghaiTime(o.createdAt), width: 20 },
        { header: '登录名', value: (o) => o.loginName },
        { header: '姓名', value: (o) => o.userName, width: 12 },
        { header: '类型', value: (o) => OperationLogType.label(o.type), width: 8 },
        { header: '内容', value: (o) => o.description, width: 60 },
        { header: 'IP', value: (o) => o.ip },
      ],
    });
  });

  r.post('/api/syslog/integratedsync-log', { schema: { body: SyncLogQuery, summary: '集成同步日志（系统、类型、状态：1为失败、时间段、说明）', tags }, config: { access: pages('/system/integratedsyncLogdetails') } }, async (req) => {
    const q = req.body;
    const result: SyncLogPage = {
      total: await repo.countSync(db(), q),
      failures: await repo.countSync(db(), { ...q, status: SyncLogStatus.failure }),
      items: await repo.listSync(db(), q),
    };
    return ok(result);
  });

  r.post('/api/syslog/integratedsync-log-details', { schema: { body: SyncLogDetailBody, summary: '一次同步的完整请求与响应', tags }, config: { access: pages('/system/integratedsyncLogdetails') } }, async (req) => {
    const row = await repo.syncDetail(db(), req.body.id);
    if (!row) throw notFound('同步记录不存在');
    const detail: SyncLogDetail = row;
    return ok(detail);
  });
}
