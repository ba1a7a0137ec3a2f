/**
 * 税控作废: paper / 税控 blue invoices of the current month, created and not reversed, are cancelled
 * with a reason (created 2 → canceling 31 → cancelled 3). 数电 invoices are never voided: the refusal
 * tells to issue a red invoice. Each attempt is an invoice_cancellations row.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CancellationState,
  InvoiceColour,
  InvoiceStatus,
  OperationLogType,
  invoiceRefusal,
  invoiceTransition,
  isDigitalKind,
  type BatchAnswer,
  type IssueOutcome,
} from '@zhyy/shared';
import { notFound, refuse } from '../../../platform/envelope.js';
import { SYSTEM_OPERATOR, invoiceRef } from '../../../platform/oplog.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { TaxMessages } from '../../../integrations/tax/index.js';
import { isTransport, messageOf } from '../issuing/service.js';
import { monthStart } from '../lists.js';
import type { InvoiceSettings } from '../settings/service.js';

const S = InvoiceStatus;
const C = CancellationState;

export class CancellationService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}
  private get db() {
    return this.app.db.kysely;
  }

  async cancel(req: FastifyRequest, ids: readonly string[], reason: string): Promise<BatchAnswer> {
    const results: IssueOutcome[] = [];
    for (const id of new Set(ids)) results.push(await this.cancelOne(req, id, reason));
    const succeeded = results.filter((r) => r.ok).length;
    return { results, succeeded, failed: results.length - succeeded };
  }

  private async cancelOne(req: FastifyRequest, id: string, reason: string): Promise<IssueOutcome> {
    const user = req.user!;
    const claim = await this.db.transaction().execute(async (trx) => {
      const inv = await trx.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
      if (!inv) return { ok: false, orderNo: '', message: '发票不存在' };
      const fail = (message: string) => ({ ok: false, orderNo: inv.order_no, message, inv });
      if (isDigitalKind(inv.kind)) return fail(TaxMessages.cancelDigital);
      if (inv.colour !== InvoiceColour.blue) return fail('红字发票不能作废');
      if (invoiceTransition('cancel', inv.status) === null) return fail(invoiceRefusal('cancel', inv.status));
      if (!inv.issue_date || inv.issue_date < monthStart()) return fail('只能作废当月开具的发票；跨月的纸质发票须在税控开票系统中凭红字信息表开具红字发票');
      const red = await trx.selectFrom('invoices').select('id').where('blue_invoice_id', '=', id).where('status', '!=', S.cancelled).executeTakeFirst();
      if (red) return fail('该发票已开具红字发票冲销，不能作废');
      const u = await trx.updateTable('invoices').set({ status: S.canceling, updated_by_name: user.name, updated_at: nowIso() }).where('id', '=', id).where('status', '=', S.created).executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) return fail('该发票已在作废中');
      const recordId = newId();
      await trx.insertInto('invoice_cancellations').values({ id: recordId, invoice_id: id, state: C.canceling, reason, message: '', user_id: user.id, user_name: user.name, created_at: nowIso(), finished_at: null }).execute();
      await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.edit, `税控作废：发票 ${inv.invoice_no}（${inv.buyer_name}），原因：${reason}`, trx);
      return { ok: true, orderNo: inv.order_no, message: '', inv, recordId };
    });
    if (!claim.ok || !('recordId' in claim)) return { id, ok: false, orderNo: claim.orderNo, message: claim.message };
    const inv = claim.inv!;
    try {
      const gateway = await this.settings.gateway();
      const res = await gateway.cancelInvoice({ serialNo: inv.serial_no ?? '', invoiceNo: inv.invoice_no, invoiceCode: inv.invoice_code || undefined, reason }, { userId: user.id });
      if (res.status === S.cancelled) await this.finish(id, true, '作废成功');
      return { id, orderNo: inv.order_no, ok: true, message: res.status === S.cancelled ? '作废成功' : '已提交作废，等待税务端结果' };
    } catch (e) {
      if (isTransport(e)) return { id, orderNo: inv.order_no, ok: false, pending: true, message: `税务端暂时无法连接，作废结果请稍后刷新：${messageOf(e)}` };
      await this.finish(id, false, messageOf(e));
      return { id, orderNo: inv.order_no, ok: false, message: `税务端拒绝作废：${messageOf(e)}` };
    }
  }

  /** canceling 31 → cancelled 3 (done) or back to created 2 (refused), with the attempt's record. */
  private async finish(id: string, done: boolean, message: string, state: number = done ? C.done : C.failed): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const u = await trx
        .updateTable('invoices')
        .set({ status: done ? S.cancelled : S.created, updated_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', S.canceling)
        .executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) return false;
      await trx.updateTable('invoice_cancellations').set({ state, message: message.slice(0, 500), finished_at: nowIso() }).where('invoice_id', '=', id).where('state', '=', C.canceling).execute();
      if (!done && state === C.failed) await this.app.oplog.write({ type: OperationLogType.fail, description: `税控作废失败：${message.slice(0, 200)}`, actor: SYSTEM_OPERATOR, record: { kind: 'invoice', id } }, trx);
      return true;
    });
  }

  /** Asks the tax service about canceling invoices (the given ones, or all). */
  async refresh(ids?: readonly string[], userId: string | null = null, stillOurs: () => Promise<void> = async () => {}): Promise<number> {
    let q = this.db.selectFrom('invoices').select(['id', 'serial_no', 'order_no']).where('status', '=', S.canceling);
    if (ids) q = ids.length ? q.where('id', 'in', ids) : q.where('id', '=', '');
    const rows = await q.limit(100).execute();
    const serials = rows.filter((r) => r.serial_no).map((r) => r.serial_no!);
    if (!serials.length) return 0;
    await stillOurs();
    const results = await (await this.settings.gateway()).queryInvoices(serials, { userId });
    for (const r of results) {
      const row = rows.find((x) => x.serial_no === r.serialNo);
      if (!row) continue;
      if (r.status === S.cancelled) await this.finish(row.id, true, r.statusMessage || '作废成功');
      else if (r.status === S.created) await this.finish(row.id, false, r.failCause || r.statusMessage || '税务端未作废该发票');
    }
    return rows.length;
  }

  /** Gives up a cancellation that is stuck (canceling 31 → created 2), with a reason. */
  async invalidate(req: FastifyRequest, id: string, reason: string): Promise<void> {
    const inv = await this.db.selectFrom('invoices').select(['status', 'invoice_no']).where('id', '=', id).executeTakeFirst();
    if (!inv) throw notFound('发票不存在');
    if (invoiceTransition('cancelUndone', inv.status) === null) throw refuse(invoiceRefusal('cancelUndone', inv.status));
    if (!(await this.finish(id, false, `置为无效：${reason}`, C.invalid))) throw refuse('该发票的状态已变化，请刷新后重试');
    await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.edit, `作废申请置为无效：发票 ${inv.invoice_no}，原因：${reason}`);
  }
}
