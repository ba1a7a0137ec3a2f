/**
 * 开票重试 and 置为无效. creationFailed 22: the data is corrected (optional) and resubmitted under a new
 * order number; signFailed 24: re-issued on the same serial (reInvoice, 20 a day per serial).
 * A request not yet issued (0) or failed at creation (22) may be marked invalid with a reason.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvoiceStatus, OperationLogType, invoiceRefusal, invoiceTransition, type InvoiceSaveBody, type IssueOutcome } from '@zhyy/shared';
import { notFound, refuse } from '../../../platform/envelope.js';
import { invoiceRef } from '../../../platform/oplog.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { checkBody } from './entry.js';
import { isTransport, messageOf, nextPollAt, type IssuingService } from './service.js';
import { lineValues, newOrderNo } from '../mapping.js';
import type { InvoiceSettings } from '../settings/service.js';

const S = InvoiceStatus;

export class RetryService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
    private readonly issuing: IssuingService,
  ) {}
  private get db() {
    return this.app.db.kysely;
  }

  async retry(req: FastifyRequest, id: string, correction?: InvoiceSaveBody): Promise<IssueOutcome> {
    const inv = await this.db.selectFrom('invoices').select(['status', 'invalid', 'order_no', 'serial_no']).where('id', '=', id).executeTakeFirst();
    if (!inv) throw notFound('发票不存在');
    if (inv.invalid) throw refuse('该开票申请已置为无效');
    if (inv.status === S.signFailed) return this.reissue(req, id, inv.serial_no ?? '', inv.order_no);
    if (invoiceTransition('resubmit', inv.status) === null) throw refuse(invoiceRefusal('resubmit', inv.status));
    if (correction) {
      if (correction.id !== id) throw refuse('修改的开票申请与重试的发票不一致');
      checkBody(correction);
    }
    const settings = await this.settings.row();
    const user = req.user!;
    const orderNo = newOrderNo();
    await this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const changes = correction
        ? {
            kind: correction.kind, buyer_id: correction.buyerId, buyer_name: correction.buyerName, buyer_tax_no: correction.buyerTaxNo,
            buyer_address: correction.buyerAddress, buyer_phone: correction.buyerPhone, buyer_bank: correction.buyerBank, buyer_account: correction.buyerAccount,
            buyer_email: correction.buyerEmail, buyer_mobile: correction.buyerMobile, project_id: correction.projectId, contract_id: correction.contractId,
            special_factor: correction.specialFactor, construction_site: correction.constructionSite, construction_project: correction.constructionProject,
            remark: correction.remark, clerk: correction.clerk || settings.clerk, payee: correction.payee || settings.payee, checker: correction.checker || settings.checker,
            amount_excl: correction.lines.reduce((s, l) => s + l.amountExcl, 0), tax: correction.lines.reduce((s, l) => s + l.tax, 0),
            amount_incl: correction.lines.reduce((s, l) => s + l.amountIncl, 0),
          }
        : {};
      const r = await trx
        .updateTable('invoices')
        .set((eb) => ({
          ...changes,
          order_no: orderNo, serial_no: null, status: S.creating, failure_cause: '', status_message: '', submitted_at: null, poll_count: 0,
          next_poll_at: nextPollAt(3), retry_count: eb('retry_count', '+', 1), updated_by_name: user.name, updated_at: now,
        }))
        .where('id', '=', id)
        .where('status', '=', S.creationFailed)
        .where('invalid', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw refuse('该发票已在重试中，不会重复提交');
      // The earlier attempts' exchanges stay with the invoice under its new order number.
      await this.app.synclog.linkRefs([inv.order_no, inv.serial_no ?? ''], orderNo, trx);
      if (correction) {
        await trx.deleteFrom('invoice_lines').where('invoice_id', '=', id).execute();
        await trx.insertInto('invoice_lines').values(lineValues(id, correction.lines.map((l, i) => ({ lineNo: i + 1, ...l })), newId)).execute();
      }
      await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.edit, `开票重试：${inv.order_no} ${correction ? '修改后' : ''}以新订单号 ${orderNo} 重新提交`, trx);
    });
    return this.issuing.submit(id, user.id);
  }

  private async reissue(req: FastifyRequest, id: string, serialNo: string, orderNo: string): Promise<IssueOutcome> {
    const user = req.user!;
    const claimed = await this.db
      .updateTable('invoices')
      .set((eb) => ({ status: S.creating, failure_cause: '', poll_count: 0, next_poll_at: nextPollAt(0), retry_count: eb('retry_count', '+', 1), updated_by_name: user.name, updated_at: nowIso() }))
      .where('id', '=', id)
      .where('status', '=', S.signFailed)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw refuse('该发票已在重试中，不会重复提交');
    try {
      await (await this.settings.gateway()).reissueInvoice(serialNo, { userId: user.id });
    } catch (e) {
      if (!isTransport(e)) {
        await this.db.updateTable('invoices').set({ status: S.signFailed, failure_cause: messageOf(e).slice(0, 500), next_poll_at: null }).where('id', '=', id).where('status', '=', S.creating).execute();
        throw refuse(`重新开具失败：${messageOf(e)}`);
      }
      await this.db.updateTable('invoices').set({ status: S.signFailed, next_poll_at: null }).where('id', '=', id).where('status', '=', S.creating).execute();
      throw refuse(`税务端暂时无法连接，请稍后重试：${messageOf(e)}`, 502);
    }
    await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.edit, `开票重试：${orderNo} 以原流水号 ${serialNo} 重新开具`);
    return { id, orderNo, ok: true, message: '已按原流水号重新开具，开票中' };
  }

  async invalidate(req: FastifyRequest, id: string, reason: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const inv = await trx.selectFrom('invoices').select(['status', 'invalid', 'order_no']).where('id', '=', id).executeTakeFirst();
      if (!inv) throw notFound('开票申请不存在');
      if (inv.invalid) throw refuse('该开票申请已置为无效');
      if (invoiceTransition('invalidate', inv.status) === null) throw refuse(invoiceRefusal('invalidate', inv.status));
      const r = await trx
        .updateTable('invoices')
        .set({ invalid: 1, invalid_reason: reason, next_poll_at: null, updated_by_name: req.user!.name, updated_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', inv.status)
        .where('invalid', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw refuse('该申请的状态已变化，请刷新后重试');
      await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.edit, `开票申请置为无效：${inv.order_no}，原因：${reason}`, trx);
    });
  }
}
