/** Manual entry of a paper invoice (手工录入): the files decoded and checked, then the same arrival as every source. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IncomeSource, OperationLogType, UPLOAD_MAX_BYTES, type PoolArrival, type PoolEntryBody } from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { refuse } from '../../../platform/envelope.js';
import { checkUpload, extensionOf } from '../../../platform/userFiles.js';
import { arrive, FaceMismatch, recordFaceMismatch, type ArrivingFile } from './arrival.js';

const FORMATS = new Set(['pdf', 'ofd', 'xml', 'jpg', 'png']);

export function decodeFiles(files: PoolEntryBody['files']): ArrivingFile[] {
  let total = 0;
  return files.map((f) => {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(f.content)) throw refuse(`文件「${f.fileName}」内容格式不正确`);
    const content = Buffer.from(f.content, 'base64');
    if (content.length === 0) throw refuse(`文件「${f.fileName}」内容为空`);
    total += content.length;
    if (total > UPLOAD_MAX_BYTES) throw refuse(`文件合计不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`);
    const format = checkUpload(content, f.fileName);
    const ext = extensionOf(f.fileName) === 'jpeg' ? 'jpg' : extensionOf(f.fileName);
    if (!format || !FORMATS.has(format) || format !== ext) throw refuse('文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件');
    return { name: f.fileName, format, content };
  });
}

export async function saveManual(app: FastifyInstance, req: FastifyRequest, b: PoolEntryBody): Promise<PoolArrival> {
  const user = currentUser(req);
  const files = decodeFiles(b.files);
  const inv = { ...b, kind: String(b.kind), files };
  const label = `手工录入进项发票 ${b.digitalNo || `${b.invoiceCode} ${b.invoiceNo}`.trim()}`;
  try {
    return await app.db.kysely.transaction().execute(async (trx) => {
      const a = await arrive(inv, IncomeSource.manual, trx, { userId: user.id, userName: user.name });
      await app.oplog.record(req, a.outcome === 'created' ? OperationLogType.add : OperationLogType.edit, `${label}：${a.message}`, trx);
      return a;
    });
  } catch (err) {
    if (err instanceof FaceMismatch) await refusedMerge(app, req, err, IncomeSource.manual, label);
    throw err;
  }
}

/** A refused merge, recorded after its transaction rolled back: on the pool invoice's history and in the operation log. */
export async function refusedMerge(app: FastifyInstance, req: FastifyRequest, e: FaceMismatch, source: number, what: string): Promise<void> {
  const user = currentUser(req);
  await recordFaceMismatch(app.db.kysely, e, source, user.name, `${user.name}（${user.loginName}）`);
  await app.oplog.record(req, OperationLogType.edit, `${what}：${e.message}`);
}
