/**
 * Files of an invoice. The file viewer (/file/view/:viewData) loads a plain URL without X-Token, so a
 * reader asks for a short-lived signed link (file-link, guarded like the detail) and the browser
 * loads that link (public route, checked by its HMAC and expiry). The guard itself is not weakened.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { FileTicketBody, OperationLogType, Uuid, text } from '@zhyy/shared';
import { PUBLIC } from '../../../platform/access.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { invoiceRef } from '../../../platform/oplog.js';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { sendUserFile, sendUserStream } from '../../../platform/userFiles.js';
import { FILE_ROUTE, readFile, signedLink, verifyLink } from './service.js';
import { access, tags } from '../paths.js';
import type { InvoiceSettings } from '../settings/service.js';

export async function fileRoutes(app: FastifyInstance, settings: InvoiceSettings): Promise<void> {
  const r = typed(app);

  r.post('/api/invoice/file-link', { schema: { body: FileTicketBody, summary: '发票文件的限时访问链接（10分钟），供文件预览使用', tags }, config: access.read }, async (req) => {
    const f = await app.db.kysely.selectFrom('invoice_files as f').innerJoin('invoices as i', 'i.id', 'f.invoice_id').select(['f.id', 'f.name', 'f.format', 'f.mime', 'i.order_no', 'i.id as invoice_id']).where('f.id', '=', req.body.fileId).executeTakeFirst();
    if (!f) throw notFound('文件不存在');
    const s = await settings.row();
    const link = signedLink(s.file_key, f.id);
    await app.oplog.recordFor(invoiceRef(f.invoice_id), req, OperationLogType.download, `查看发票文件：${f.name}（${f.order_no}）`);
    return ok({ ...link, name: f.name, type: f.mime });
  });

  signedFileRoute(app, settings, FILE_ROUTE, '按限时链接读取发票文件（无须令牌）', tags, (id) => readFile(app.db.kysely, id));
}

/**
 * The public GET `route/:id` that serves a file through a link signedLink(…, route) made: the HMAC and the
 * expiry are checked (文件链接无效 / 文件链接已过期，请重新打开, 403), then `serve` finds the file and sends it
 * (null: 文件不存在). signedFileRoute and signedStreamRoute are its two ways of sending.
 */
function signedRoute(
  app: FastifyInstance,
  settings: InvoiceSettings,
  route: string,
  summary: string,
  routeTags: string[],
  serve: (id: string, reply: FastifyReply) => Promise<FastifyReply | null>,
): void {
  typed(app).get(
    `${route}/:id`,
    {
      schema: { params: z.object({ id: Uuid }), querystring: z.object({ e: z.coerce.number().int(), s: text().max(100) }), summary, tags: routeTags },
      config: { access: PUBLIC },
    },
    async (req, reply) => {
      const v = verifyLink((await settings.row()).file_key, req.params.id, req.query.e, req.query.s, Date.now(), route);
      if (v === 'bad') throw refuse('文件链接无效', 403);
      if (v === 'expired') throw refuse('文件链接已过期，请重新打开', 403);
      const sent = await serve(req.params.id, reply);
      if (!sent) throw notFound('文件不存在');
      return sent;
    },
  );
}

const CACHE = { cacheControl: 'private, max-age=600' };

/** The outgoing invoices' and the incoming pool's files (database blobs): `read` answers the content. */
export function signedFileRoute(
  app: FastifyInstance,
  settings: InvoiceSettings,
  route: string,
  summary: string,
  routeTags: string[],
  read: (id: string) => Promise<{ name: string; mime: string; content: Uint8Array } | undefined>,
): void {
  signedRoute(app, settings, route, summary, routeTags, async (id, reply) => {
    const f = await read(id);
    return f ? sendUserFile(reply, { name: f.name, mime: f.mime, content: Buffer.from(f.content) }, CACHE) : null;
  });
}

/** Files kept in platform/storage: `open` answers a stream, sent as it is read (never held whole in memory). */
export function signedStreamRoute(
  app: FastifyInstance,
  settings: InvoiceSettings,
  route: string,
  summary: string,
  routeTags: string[],
  open: (id: string) => Promise<{ name: string; mime: string; size?: number; stream: Readable } | undefined>,
): void {
  signedRoute(app, settings, route, summary, routeTags, async (id, reply) => {
    const f = await open(id);
    return f ? sendUserStream(reply, f, CACHE) : null;
  });
}
