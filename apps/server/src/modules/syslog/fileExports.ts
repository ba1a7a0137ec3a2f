/**
 * The file export and download log: every Excel export and every file download writes a row here
 * and one operation log row (80 export, 74 download). Other areas call recordFileExport() or
 * exportXlsx() for their own exports.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperationLogType } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import type { OperationLogService } from '../../platform/oplog.js';
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
  /** The file's bytes, SHA-256 (hex) and number of items (a tender export's contracts or certificates). */
  size?: number | null;
  sha256?: string | null;
  itemCount?: number | null;
  /** Reported by the client (/syslog/add-file-down-log), not recorded where the file was sent: its log row says so. */
  clientReported?: boolean;
}

/** Who exported or downloaded, when there is no request (a background export job runs for its creator). */
export interface FileExportActor {
  id: string | null;
  loginName: string;
  name: string;
  deptName: string;
}

/** The actor of a user id as the log names it (login name, name, department); null when the user is gone. */
export async function fileExportActorOf(db: Kysely<Database>, userId: string): Promise<FileExportActor | null> {
  const u = await db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.login_name', 'u.name', 'd.name as dept_name'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return u ? { id: u.id, loginName: u.login_name, name: u.name, deptName: u.dept_name ?? '' } : null;
}

async function insertFileExport(trx: Kysely<Database>, who: FileExportActor | null, e: FileExportEntry): Promise<void> {
  const now = new Date();
  await trx
    .insertInto('file_export_logs')
    .values({
      id: newId(),
      kind: e.kind,
      category: e.category.slice(0, 40),
      description: e.description.slice(0, 500),
      file_name: (e.fileName ?? '').slice(0, 200),
      row_count: e.rowCount ?? null,
      size: e.size ?? null,
      sha256: e.sha256 ?? null,
      item_count: e.itemCount ?? null,
      user_id: who?.id ?? null,
      login_name: who?.loginName ?? '',
      user_name: who?.name ?? '',
      dept_name: who?.deptName ?? '',
      day: shanghaiDay(now),
      created_at: nowIso(),
    })
    .execute();
}

/**
 * recordFileExport for work without a request (a background export job): the log row and the operation
 * log row (80 export, 74 download) name `actor`, the user the job runs for. Inside `trx` when given, so a
 * job's final state and its log row are written together.
 */
export async function recordFileExportAs(db: Db, oplog: OperationLogService, actor: FileExportActor | null, e: FileExportEntry, trx?: Kysely<Database>): Promise<void> {
  const write = async (t: Kysely<Database>) => {
    await insertFileExport(t, actor, e);
    const type = e.kind === 'export' ? OperationLogType.export : OperationLogType.download;
    await oplog.write({ type, description: e.description, actor: actor ? { id: actor.id, loginName: actor.loginName, name: actor.name } : null }, t);
  };
  if (trx) await write(trx);
  else await db.kysely.transaction().execute(write);
}

export async function recordFileExport(app: FastifyInstance, req: FastifyRequest, e: FileExportEntry): Promise<void> {
  const u = req.user;
  await app.db.kysely.transaction().execute(async (trx) => {
    await insertFileExport(trx, u ? { id: u.id, loginName: u.loginName, name: u.name, deptName: u.deptName } : null, e);
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
