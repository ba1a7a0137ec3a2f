/**
 * /api/tender/attachment/*: the files of tender records (docs/tender.md "Files and settings").
 * - upload: the raw file as application/octet-stream, the owner and type in the query string; streamed
 *   through the format and size check into file storage (never buffered: the parser hands the request
 *   stream over as it is).
 * - list, delete, file-link (a 10-minute signed link for /file/view, streamed from storage by
 *   signedStreamRoute).
 * The page access is the union of the pages that show files (access.attachments); inside, the owner
 * registered for ownerKind decides (canRead / canWrite, describe for 404, kinds, locked).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import {
  AttachmentType, OperationLogType, SIGNED_TENDER_FILE_ROUTE, TenderAttachmentIdBody, TenderAttachmentListBody, TenderAttachmentUploadQuery,
} from '@zhyy/shared';
import { forbidden, notFound, ok, refuse } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { signedLink } from '../../invoice/files/service.js';
import { signedStreamRoute } from '../../invoice/files/routes.js';
import { InvoiceSettings } from '../../invoice/settings/service.js';
import { access, tags } from '../paths.js';
import { ATTACHMENT_NOT_FOUND, attachmentRow, deleteAttachments, listAttachments, openAttachment, storeAttachment } from './attachments.js';
import { attachmentOwner, type AttachmentOwner } from './owners.js';


const P = '/api/tender/attachment';
/** The request stream of an upload, handed over by the octet-stream parser. */
const uploads = new WeakMap<FastifyRequest, Readable>();

const kindLabel = (kind: number) => (kind ? AttachmentType.label(kind) : '附件');

function ownerOf(kind: string): AttachmentOwner {
  const o = attachmentOwner(kind);
  if (!o) throw refuse('附件所属类型不正确');
  return o;
}

export async function attachmentRoutes(app: FastifyInstance): Promise<void> {
  const settings = new InvoiceSettings(app);
  const db = () => app.db.kysely;

  /** The owner's label, or 404; refuses what the owner does not allow the user or the record now. */
  async function writable(req: FastifyRequest, ownerKind: string, ownerId: string): Promise<{ owner: AttachmentOwner; label: string }> {
    const owner = ownerOf(ownerKind);
    if (!owner.canWrite(req)) throw forbidden();
    const label = await owner.describe(db(), ownerId);
    if (label === null) throw notFound('附件所属记录不存在');
    const reason = (await owner.locked?.(db(), ownerId)) ?? null;
    if (reason) throw refuse(reason);
    return { owner, label };
  }

  // The upload lives in a context of its own, so its octet-stream parser serves no other route.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (req, payload, done) => {
      uploads.set(req, payload);
      done(null, undefined);
    });
    typed(scope).post(
      `${P}/upload`,
      {
        schema: { querystring: TenderAttachmentUploadQuery, summary: '上传投标附件（请求体为文件本身，application/octet-stream；仅PDF、JPG、PNG，不超过50MB）', tags },
        config: access.attachments,
      },
      async (req) => {
        const body = uploads.get(req);
        uploads.delete(req);
        const q = req.query;
        try {
          if (!body) throw refuse('请以application/octet-stream上传文件内容');
          const { owner, label } = await writable(req, q.ownerKind, q.ownerId);
          if (owner.kinds && !owner.kinds.includes(q.kind)) throw refuse('附件类型不正确');
          const wrongKind = (await owner.refuseKind?.(db(), q.ownerId, q.kind)) ?? null;
          if (wrongKind) throw refuse(wrongKind);
          const view = await storeAttachment(app, { ownerKind: q.ownerKind, ownerId: q.ownerId, kind: q.kind, name: q.name, body, by: req.user?.name ?? '' }, (trx, row) =>
            app.oplog.recordFor(owner.history?.(q.ownerId) ?? null, req, OperationLogType.upload, `上传投标附件：${label} ${kindLabel(row.kind)} ${row.file_name}（${row.size}字节）`, trx),
          );
          return ok(view, '上传成功');
        } catch (e) {
          // What was not read is discarded, so the connection stays usable.
          if (body && !body.readableEnded) body.resume();
          throw e;
        }
      },
    );
  });

  const r = typed(app);

  r.post(`${P}/list`, { schema: { body: TenderAttachmentListBody, summary: '若干记录的投标附件（按记录、类型、上传时间）', tags }, config: access.attachments }, async (req) => {
    const owner = ownerOf(req.body.ownerKind);
    if (!owner.canRead(req)) throw forbidden();
    return ok(await listAttachments(db(), req.body.ownerKind, req.body.ownerIds));
  });

  r.post(`${P}/delete`, { schema: { body: TenderAttachmentIdBody, summary: '删除投标附件（先删记录，提交后删除存储的文件）', tags }, config: access.attachments }, async (req) => {
    const row = await attachmentRow(db(), req.body.id);
    if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
    const { owner, label } = await writable(req, row.owner_kind, row.owner_id);
    const kept = (await owner.refuseDelete?.(db(), row.owner_id)) ?? null;
    if (kept) throw refuse(kept);
    const gone = await deleteAttachments(app, [row.id], async (trx, rows) => {
      for (const x of rows) await app.oplog.recordFor(owner.history?.(row.owner_id) ?? null, req, OperationLogType.delete, `删除投标附件：${label} ${kindLabel(x.kind)} ${x.file_name}`, trx);
    });
    if (!gone.length) throw notFound(ATTACHMENT_NOT_FOUND);
    return ok(null, '删除成功');
  });

  r.post(`${P}/file-link`, { schema: { body: TenderAttachmentIdBody, summary: '投标附件的限时访问链接（10分钟），供文件预览使用', tags }, config: access.attachments }, async (req) => {
    const row = await attachmentRow(db(), req.body.id);
    if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
    const owner = ownerOf(row.owner_kind);
    if (!owner.canRead(req)) throw forbidden();
    const label = (await owner.describe(db(), row.owner_id)) ?? row.owner_id;
    const link = signedLink((await settings.row()).file_key, row.id, Date.now(), SIGNED_TENDER_FILE_ROUTE);
    await app.oplog.record(req, OperationLogType.view, `查看投标附件：${label} ${kindLabel(row.kind)} ${row.file_name}`);
    return ok({ ...link, name: row.file_name, type: row.mime });
  });

  signedStreamRoute(app, settings, SIGNED_TENDER_FILE_ROUTE, '按限时链接读取投标附件（无须令牌）', tags, async (id) => {
    const row = await attachmentRow(db(), id);
    if (!row) return undefined;
    return openAttachment(app, id);
  });
}

