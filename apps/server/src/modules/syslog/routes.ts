/**
 * /api/syslog/*: events the client reports (operation log, downloads, sync details, client errors),
 * and the log screens and reports of system administration (query.routes.ts, reports.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  AddFileDownLogBody,
  AddOperationLogBody,
  AddSyncLogBody,
  AddSyncLogDetailBody,
  CLIENT_REPORTABLE_OPERATION_TYPES,
  CLIENT_REPORTABLE_SYNC_SYSTEMS,
  ClientErrorBody,
  OperationLogType,
  SyncSystem,
} from '@zhyy/shared';
import { SIGNED_IN, SIGNED_IN_INITIAL_OK } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { ok, refuse } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { recordFileExport } from './fileExports.js';
import { logQueryRoutes } from './query.routes.js';
import { reportRoutes } from './reports.routes.js';

const OPERATION_REFUSED = `客户端只能上报${CLIENT_REPORTABLE_OPERATION_TYPES.map((t) => OperationLogType.label(t)).join('、')}操作，其他操作由系统自动记录`;
const SYNC_REFUSED = `客户端只能上报${CLIENT_REPORTABLE_SYNC_SYSTEMS.map((x) => SyncSystem.label(x)).join('、')}的同步记录，与外部系统的交互由系统自动记录`;

export async function syslogRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['日志'];

  r.post(
    '/api/syslog/add-operation-log',
    { schema: { body: AddOperationLogBody, summary: '记录客户端上报的操作日志', tags }, config: { access: SIGNED_IN } },
    async (req) => {
      if (!CLIENT_REPORTABLE_OPERATION_TYPES.includes(req.body.type)) throw refuse(OPERATION_REFUSED);
      await app.oplog.reportedByClient(req, req.body.type, req.body.description);
      return ok();
    },
  );

  r.post(
    '/api/syslog/add-file-down-log',
    { schema: { body: AddFileDownLogBody, summary: '记录文件下载（操作日志类型74，并计入文件导出与下载记录）', tags }, config: { access: SIGNED_IN } },
    async (req) => {
      await recordFileExport(app, req, { kind: 'download', category: '文件下载', description: req.body.description, clientReported: true });
      return ok();
    },
  );

  // One row holds an exchange and its detail, so the spec's two calls record the same thing: the
  // header call (status defaults to success) and the detail call (status required). A client reports
  // only the platform's own exchanges (system 3); the server logs those it makes with outside systems.
  for (const [url, body, summary] of [
    ['/api/syslog/add-integrated-synclog', AddSyncLogBody, '记录一次与外部系统的同步（status 缺省为成功）'],
    ['/api/syslog/add-integrated-synclog-detail', AddSyncLogDetailBody, '记录一次与外部系统的交互（status 1 为失败）'],
  ] as const) {
    r.post(url, { schema: { body, summary, tags }, config: { access: SIGNED_IN } }, async (req) => {
      const b = req.body;
      if (!CLIENT_REPORTABLE_SYNC_SYSTEMS.includes(b.system)) throw refuse(SYNC_REFUSED);
      const id = await app.synclog.write({
        clientReported: true,
        system: b.system,
        type: b.type,
        status: b.status,
        memo: b.memo,
        request: b.request,
        response: b.response,
        userId: currentUser(req).id,
      });
      return ok({ id });
    });
  }

  r.post(
    '/api/syslog/client-error',
    { schema: { body: ClientErrorBody, summary: '浏览器端错误日志（生产环境上报最近25条）', tags }, config: { access: SIGNED_IN_INITIAL_OK } },
    async (req) => {
      const u = currentUser(req);
      for (const e of req.body.entries) req.log.warn({ clientError: e, user: u.loginName }, 'client error');
      return ok();
    },
  );

  await logQueryRoutes(app);
  await reportRoutes(app);
}
