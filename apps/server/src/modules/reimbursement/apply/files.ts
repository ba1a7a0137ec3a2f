/**
 * A bill's files (issue 15): its attachments (行程单, 说明: uploaded, deleted and downloaded while the
 * applicant may edit it / whoever may read it), and the invoice files behind its lines, read only by those
 * the invoice or a bill it backs concerns (issue 27). The bill's own rules are ApplyService's.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { OperationLogType, REIMB_MAX_ATTACHMENTS, isSuperUser, type ReimbAttachmentUploadBody } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { forbidden, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { checkUpload } from '../../../platform/userFiles.js';
import { claimableCondition } from './invoices.js';
import { BILL_READER_ROLES, type ApplyService } from './service.js';

export class BillFiles {
  constructor(
    private readonly app: FastifyInstance,
    private readonly svc: ApplyService,
  ) {}

  private get db(): Kysely<Database> {
    return this.app.db.kysely;
  }

  async uploadAttachment(req: FastifyRequest, user: AuthUser, body: ReimbAttachmentUploadBody): Promise<{ id: string; name: string; size: number }> {
    const bytes = Buffer.from(body.content, 'base64');
    if (bytes.length === 0) throw refuse('文件为空');
    if (bytes.length > 10 * 1024 * 1024) throw refuse('单个附件不能超过10MB');
    const name = path.basename(body.name).slice(0, 200);
    if (!name) throw refuse('文件名不能为空');
    checkUpload(bytes, name);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    return this.db.transaction().execute(async (trx) => {
      const b = await this.svc.lockBill(trx, body.billId);
      this.svc.mustEdit(b, user);
      const n = await trx.selectFrom('reimb_attachments').select((eb) => eb.fn.countAll<number>().as('n')).where('bill_id', '=', b.id).executeTakeFirstOrThrow();
      if (Number(n.n) >= REIMB_MAX_ATTACHMENTS) throw refuse(`每张报销单最多${REIMB_MAX_ATTACHMENTS}个附件`);
      const now = nowIso();
      await trx.insertInto('invoice_blobs').values({ sha256, size: bytes.length, content: bytes, created_at: now }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
      const id = newId();
      await trx.insertInto('reimb_attachments').values({ id, bill_id: b.id, name, size: bytes.length, sha256, created_by: user.id, created_at: now }).execute();
      await this.app.oplog.record(req, OperationLogType.upload, `上传报销单 ${b.bill_no} 附件：${name}`, trx);
      return { id, name, size: bytes.length };
    });
  }

  async deleteAttachment(req: FastifyRequest, user: AuthUser, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const a = await trx.selectFrom('reimb_attachments').selectAll().where('id', '=', id).executeTakeFirst();
      if (!a) throw notFound('附件不存在');
      const b = await this.svc.lockBill(trx, a.bill_id);
      this.svc.mustEdit(b, user);
      await trx.deleteFrom('reimb_attachments').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除报销单 ${b.bill_no} 附件：${a.name}`, trx);
    });
  }

  async attachmentFile(req: FastifyRequest, user: AuthUser, id: string): Promise<{ name: string; mime: string; content: Buffer }> {
    const a = await this.db.selectFrom('reimb_attachments as a').innerJoin('invoice_blobs as f', 'f.sha256', 'a.sha256').select(['a.bill_id', 'a.name', 'f.content']).where('a.id', '=', id).executeTakeFirst();
    if (!a) throw notFound('附件不存在');
    const b = await this.svc.readable(user, a.bill_id);
    await this.app.oplog.record(req, OperationLogType.download, `下载报销单 ${b.bill_no} 附件：${a.name}`);
    return { name: a.name, mime: 'application/octet-stream', content: Buffer.from(a.content) };
  }

  /**
   * An invoice file (issue 27): nobody reads a file they did not upload, unless the invoice is theirs to
   * claim (their upload, their passenger ticket), their role reads every bill (1, 12, 16), or they may read a
   * bill it backs (its applicant, a handler of its approval).
   */
  async invoiceFile(req: FastifyRequest, user: AuthUser, fileId: string): Promise<{ name: string; mime: string; content: Buffer }> {
    const f = await this.db.selectFrom('income_files as f').innerJoin('invoice_blobs as b', 'b.sha256', 'f.sha256').select(['f.invoice_id', 'f.name', 'f.created_by', 'b.content']).where('f.id', '=', fileId).executeTakeFirst();
    if (!f) throw notFound('文件不存在');
    let ok = f.created_by === user.id || isSuperUser(user.roles) || user.roles.some((r) => BILL_READER_ROLES.includes(r));
    if (!ok) ok = !!(await this.db.selectFrom('income_invoices as i').select('i.id').where('i.id', '=', f.invoice_id).where(claimableCondition(user.id, user.name)).executeTakeFirst());
    if (!ok) {
      const bills = await this.db.selectFrom('reimb_lines as l').innerJoin('reimb_bills as b', 'b.id', 'l.bill_id').selectAll('b').where('l.invoice_id', '=', f.invoice_id).execute();
      for (const b of bills) if (!ok && (await this.svc.mayRead(b, user))) ok = true;
    }
    if (!ok) throw forbidden();
    await this.app.oplog.record(req, OperationLogType.download, `查看报销发票文件：${f.name}`);
    return { name: f.name, mime: 'application/octet-stream', content: Buffer.from(f.content) };
  }
}
