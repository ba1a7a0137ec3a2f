/**
 * Files of an invoice. The file viewer (/file/view/:viewData) loads a plain URL without X-Token, so a
 * reader asks for a short-lived signed link (file-link, guarded like the detail) and the browser
 * loads that link (public route, checked by its HMAC and expiry). The guard itself is not weakened.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FileTicketBody, OperationLogType, Uuid, text } from '@zhyy/shared';
import { PUBLIC } from '../../platform/access.js';
import { notFound, refuse } from '../../platform/envelope.js';
import { invoiceRef } from '../../platform/oplog.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { sendUserFile } from '../../platform/userFiles.js';
import { FILE_ROUTE, readFile, signedLink, verifyLink } from './files.js';
import { access, tags } from './paths.js';
import type { InvoiceSettings } from './settings.js';

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

  r.get(
    `${FILE_ROUTE}/:id`,
    {
      schema: { params: z.object({ id: Uuid }), querystring: z.object({ e: z.coerce.number().int(), s: text().max(100) }), summary: '按限时链接读取发票文件（无须令牌）', tags },
      config: { access: PUBLIC },
    },
    async (req, reply) => {
      const s = await settings.row();
      const v = verifyLink(s.file_key, req.params.id, req.query.e, req.query.s);
      if (v === 'bad') throw refuse('文件链接无效', 403);
      if (v === 'expired') throw refuse('文件链接已过期，请重新打开', 403);
      const f = await readFile(app.db.kysely, req.params.id);
      if (!f) throw notFound('文件不存在');
      return sendUserFile(reply, { name: f.name, mime: f.mime, content: Buffer.from(f.content) }, { cacheControl: 'private, max-age=600' });
    },
  );
}
