/**
 * The file export and download log: every Excel export and every file download writes a row here
 * and one operation log row (80 export, 74 download). Other areas call recordFileExport() or
 * exportXlsx() for their own exports.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperationLogType } from '@zhyy/shared';
import '../system/tables.js';
import { newId } from '../../platform/ids.js';
import { shanghaiDay } from '../../platform/listing.js';
import { nowIso } from '../../platform/time.js';
import { sendXlsx, type XlsxSpec } from '../../platform/xlsx.js';

export interface FileExportEntry {
  kind: 'export' | 'download';
  /** What was exported: 用户列表, 操作日志, 投标文件 … (the statistic groups by it). */
  category: string;
  description: string;
  fileName?: string;
  rowCount?: number | null;
  /** Reported by the client (/syslog/add-file-down-log), not recorded where the file was sent: its log row says so. */
  clientReported?: boolean;
}

export async function recordFileExport(app: FastifyInstance, req: FastifyRequest, e: FileExportEntry): Promise<void> {
  const u = req.user;
  const now = new Date();
  await app.db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('file_export_logs')
      .values({
        id: newId(),
        kind: e.kind,
        category: e.category.slice(0, 40),
        description: e.description.slice(0, 500),
        file_name: (e.fileName ?? '').slice(0, 200),
        row_count: e.rowCount ?? null,
        user_id: u?.id ?? null,
        login_name: u?.loginName ?? '',
        user_name: u?.name ?? '',
        dept_name: u?.deptName ?? '',
        day: shanghaiDay(now),
        created_at: nowIso(),
      })
      .execute();
    const type = e.kind === 'export' ? OperationLogType.export : OperationLogType.download;
    if (e.clientReported) await app.oplog.reportedByClient(req, type, e.description, trx);
    else await app.oplog.record(req, type, e.description, trx);
  });
}

/**
 * Logs an Excel export (with the number of rows it holds) and streams it as the answer.
 * `describe` says what was exported with which filters, in Chinese.
 */
export async function exportXlsx<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  spec: XlsxSpec<T> & { category: string; description: string; rowCount: number },
): Promise<FastifyReply> {
  await recordFileExport(app, req, {
    kind: 'export',
    category: spec.category,
    description: spec.description,
    fileName: `${spec.fileName}.xlsx`,
    rowCount: spec.rowCount,
  });
  return sendXlsx(reply, spec);
}
