/**
 * Files of an incoming invoice, opened in the file viewer (/file/view) as the outgoing invoices' are: a
 * reader of the invoice asks for a short-lived signed link (file-link, guarded like the detail pages of the
 * pool and of 发票签收), and the browser loads that link without a token (public route, checked by its HMAC,
 * which covers the route, and its expiry).
 */
import type { FastifyInstance } from 'fastify';
import { FileTicketBody, OperationLogType, SIGNED_INCOME_FILE_ROUTE } from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { notFound, ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { MIME, signedLink } from '../../invoice/files/service.js';
import { signedFileRoute } from '../../invoice/files/routes.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { POOL, tags } from '../pool/access.js';
import { ENTRY } from '../signing/access.js';

/** Whoever may open an incoming invoice's detail (the pool's or 发票签收's) may open its files. */
const readers = { access: pages(POOL.detail, POOL.list, POOL.other, POOL.abnormal, ENTRY.detail, ENTRY.list, ENTRY.sign, ENTRY.dept, ENTRY.revokeList, ENTRY.apportion, ENTRY.change) };

export async function incomeFileRoutes(app: FastifyInstance, settings: InvoiceSettings): Promise<void> {
  const r = typed(app);
  const file = (id: string) =>
    app.db.kysely
      .selectFrom('income_files as f')
      .innerJoin('income_invoices as i', 'i.id', 'f.invoice_id')
      .select(['f.id', 'f.name', 'f.format', 'i.invoice_no', 'i.digital_no'])
      .where('f.id', '=', id)
      .executeTakeFirst();

  r.post('/api/income/pool/file-link', { schema: { body: FileTicketBody, summary: '进项发票文件的限时访问链接（10分钟），供文件预览使用', tags }, config: readers }, async (req) => {
    const f = await file(req.body.fileId);
    if (!f) throw notFound('文件不存在');
    const link = signedLink((await settings.row()).file_key, f.id, Date.now(), SIGNED_INCOME_FILE_ROUTE);
    await app.oplog.record(req, OperationLogType.download, `查看进项发票文件：${f.name}（${f.digital_no || f.invoice_no}）`);
    return ok({ ...link, name: f.name, type: MIME[f.format] ?? 'application/octet-stream' });
  });

  signedFileRoute(app, settings, SIGNED_INCOME_FILE_ROUTE, '按限时链接读取进项发票文件（无须令牌）', tags, async (id) => {
    const f = await app.db.kysely
      .selectFrom('income_files as f')
      .innerJoin('invoice_blobs as b', 'b.sha256', 'f.sha256')
      .select(['f.name', 'f.format', 'b.content'])
      .where('f.id', '=', id)
      .executeTakeFirst();
    return f && { name: f.name, mime: MIME[f.format] ?? 'application/octet-stream', content: f.content };
  });
}
