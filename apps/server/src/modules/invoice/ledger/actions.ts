/**
 * The ledger's two changes: attaching files to a history invoice (type and content checked, size
 * limited, stored as issue 6 stores the tax service's files) and re-sending an issued invoice to the
 * buyer through the tax gateway (one sync log row per exchange, one operation log row).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvoiceStatus, OperationLogType, SourceKind, UPLOAD_MAX_BYTES, type SendInvoiceBody, type UploadInvoiceFileBody } from '@zhyy/shared';
import { TaxGatewayError } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { invoiceRef } from '../../../platform/oplog.js';
import { checkUpload, extensionOf } from '../../../platform/userFiles.js';
import { storeFile } from '../files/service.js';
import type { InvoiceSettings } from '../settings/service.js';

const LEDGER_FORMATS = new Set(['pdf', 'ofd', 'xml', 'jpg', 'png']);

export async function uploadInvoiceFile(app: FastifyInstance, req: FastifyRequest, b: UploadInvoiceFileBody): Promise<{ fileId: string }> {
  const db = app.db.kysely;
  const inv = await db.selectFrom('invoices').select(['id', 'source', 'order_no', 'invoice_no']).where('id', '=', b.id).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  if (inv.source !== SourceKind.history) throw refuse('只能为历史发票上传文件');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b.content)) throw refuse('文件内容格式不正确');
  const content = Buffer.from(b.content, 'base64');
  if (content.length === 0) throw refuse('文件内容为空');
  if (content.length > UPLOAD_MAX_BYTES) throw refuse(`文件不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`);
  const format = checkUpload(content, b.fileName);
  const ext = extensionOf(b.fileName);
  if (!format || !LEDGER_FORMATS.has(format) || format !== ext) throw refuse('文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件');
  if (b.type === 1000 && !['pdf', 'ofd', 'xml'].includes(format)) throw refuse('发票原件须为PDF、OFD或XML文件');
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const same = await db.selectFrom('invoice_files').select('name').where('invoice_id', '=', inv.id).where('sha256', '=', sha256).executeTakeFirst();
  if (same) throw refuse(`该文件已上传过（${same.name}）`);
  await storeFile(db, inv.id, { type: b.type, format, name: b.fileName, content, createdBy: currentUser(req).id });
  const row = await db.selectFrom('invoice_files').select('id').where('invoice_id', '=', inv.id).where('sha256', '=', sha256).executeTakeFirstOrThrow();
  await app.oplog.recordFor(invoiceRef(inv.id), req, OperationLogType.upload, `上传发票文件：${b.fileName}（发票 ${inv.invoice_no || inv.order_no}）`);
  return { fileId: row.id };
}

export async function sendInvoice(app: FastifyInstance, settings: InvoiceSettings, req: FastifyRequest, b: SendInvoiceBody): Promise<string> {
  const inv = await app.db.kysely.selectFrom('invoices').select(['id', 'serial_no', 'status', 'invoice_no', 'digital_no', 'order_no', 'buyer_name']).where('id', '=', b.id).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  if (inv.status !== InvoiceStatus.created || !inv.serial_no) throw refuse('只能交付已开具的发票');
  const gateway = await settings.gateway();
  try {
    await gateway.sendInvoice({ serialNo: inv.serial_no, ...(b.email ? { email: b.email } : {}), ...(b.mobile ? { mobile: b.mobile } : {}) }, { userId: currentUser(req).id });
  } catch (e) {
    if (e instanceof TaxGatewayError) throw refuse(`交付失败：${e.message}`);
    throw e;
  }
  const to = [b.email, b.mobile].filter(Boolean).join('、');
  await app.oplog.recordFor(invoiceRef(inv.id), req, OperationLogType.edit, `重新交付发票 ${inv.digital_no || inv.invoice_no}（${inv.order_no}，${inv.buyer_name}）至 ${to}`);
  return to;
}
