/**
 * Files of an incoming invoice, opened in the file viewer (/file/view) as the outgoing invoices' are: a
 * reader of the invoice asks for a short-lived signed link (file-link, guarded like the detail pages of the
 * pool and of 发票签收), and the browser loads that link without a token (public route, checked by its HMAC,
 * which covers the route, and its expiry).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FileTicketBody, OperationLogType, SIGNED_INCOME_FILE_ROUTE, Uuid, text } from '@zhyy/shared';
import { PUBLIC, pages } from '../../platform/access.js';
import { notFound, ok, refuse } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { sendUserFile } from '../../platform/userFiles.js';
import { MIME, signedLink, verifyLink } from '../invoice/files.js';
import type { InvoiceSettings } from '../invoice/settings.js';
import { POOL, tags } from './paths.js';
import { ENTRY } from './signing/access.js';

/** Whoever may open an incoming invoice's detail (the pool's or 发票签收's) may open its files. */
const readers = { access: pages(POOL.detail, POOL.list, POOL.other, POOL.abnormal, ENTRY.detail, ENTRY.list, ENTRY.sign, ENTRY.dept, ENTRY.revokeList, ENTRY.apportion, ENTRY.change) };

export async function incomeFileRoutes(app: FastifyInstance, settings: InvoiceSettings): Promise<void> {
  const r = typed(app);
  const file = (id: string) =>
    app.db.kysely
      .selectFrom('income_files as f')
      .innerJoin('income_invoices as i', 'i.id', 'f.invoice_id')
      .select(['f.id', 'f.name', 'f.format', 'f.sha256', 'i.invoice_no', 'i.digital_no'])
      .where('f.id', '=', id)
      .executeTakeFirst();

  r.post('/api/income/pool/file-link', { schema: { body: FileTicketBody, summary: '进项发票文件的限时访问链接（10分钟），供文件预览使用', tags }, config: readers }, async (req) => {
    const f = await file(req.body.fileId);
    if (!f) throw notFound('文件不存在');
    const link = signedLink((await settings.row()).file_key, f.id, Date.now(), SIGNED_INCOME_FILE_ROUTE);
    await app.oplog.record(req, OperationLogType.download, `查看进项发票文件：${f.name}（${f.digital_no || f.invoice_no}）`);
    return ok({ ...link, name: f.name, type: MIME[f.format] ?? 'application/octet-stream' });
  });

  r.get(
    `${SIGNED_INCOME_FILE_ROUTE}/:id`,
    {
      schema: { params: z.object({ id: Uuid }), querystring: z.object({ e: z.coerce.number().int(), s: text().max(100) }), summary: '按限时链接读取进项发票文件（无须令牌）', tags },
      config: { access: PUBLIC },
    },
    async (req, reply) => {
      const v = verifyLink((await settings.row()).file_key, req.params.id, req.query.e, req.query.s, Date.now(), SIGNED_INCOME_FILE_ROUTE);
      if (v === 'bad') throw refuse('文件链接无效', 403);
      if (v === 'expired') throw refuse('文件链接已过期，请重新打开', 403);
      const f = await app.db.kysely
        .selectFrom('income_files as f')
        .innerJoin('invoice_blobs as b', 'b.sha256', 'f.sha256')
        .select(['f.name', 'f.format', 'b.content'])
        .where('f.id', '=', req.params.id)
        .executeTakeFirst();
      if (!f) throw notFound('文件不存在');
      return sendUserFile(reply, { name: f.name, mime: MIME[f.format] ?? 'application/octet-stream', content: Buffer.from(f.content) }, { cacheControl: 'private, max-age=600' });
    },
  );
}
