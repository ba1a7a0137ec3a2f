/**
 * Issuing through the tax service. A request is claimed by a conditional update (none 0 → creating
 * 20) so that of two concurrent or repeated calls exactly one submits; the order number is the
 * idempotency key towards the service (a resubmission of the same number is answered with the same
 * serial). Results arrive by polling (the background job, or refresh on demand) and are applied with
 * conditional updates, so two pollers never record a result twice.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  InvoiceStatus,
  OperationLogType,
  checkInvoice,
  invoiceRefusal,
  invoiceTransition,
  settlePollDelayMs,
  type BatchAnswer,
  type IssueOutcome,
} from '@zhyy/shared';
import { TaxErrorCode, TaxGatewayError, type TaxInvoiceResult } from '../../../integrations/tax/index.js';
import { SYSTEM_OPERATOR, invoiceRef } from '../../../platform/oplog.js';
import { isoAfter, nowIso } from '../../../platform/time.js';
import { allocateOnCreated } from '../apportionment/store.js';
import type { InvoiceSettings } from '../settings/service.js';
import { createdColumns, storeResultFiles, toTaxRequest } from './taxmap.js';
import type { InvoiceTable } from '../tables.js';

const S = InvoiceStatus;
/** Seconds until the next poll after the n-th one: a few seconds first, then a slower schedule. */
export const nextPollAt = (count: number, from = new Date()) => isoAfter(settlePollDelayMs(count), from);
/** A request without a serial number this long after its claim is submitted again (same order number). */
const RESUBMIT_AFTER_MS = 15_000;

export const isTransport = (e: unknown) => e instanceof TaxGatewayError && (e.serviceCode === TaxErrorCode.transport || e.serviceCode === TaxErrorCode.auth);
export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class IssuingService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}
  private get db() {
    return this.app.db.kysely;
  }

  async lines(id: string) {
    return this.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute();
  }

  /** 一键开票: claims and submits each request; one failure does not stop the others. */
  async issue(req: FastifyRequest, ids: readonly string[]): Promise<BatchAnswer> {
    const results: IssueOutcome[] = [];
    for (const id of new Set(ids)) results.push(await this.issueOne(req, id));
    const succeeded = results.filter((r) => r.ok).length;
    return { results, succeeded, failed: results.length - succeeded };
  }

  private async issueOne(req: FastifyRequest, id: string): Promise<IssueOutcome> {
    const user = req.user!;
    const claim = await this.db.transaction().execute(async (trx) => {
      const inv = await trx.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
      if (!inv) return { ok: false, orderNo: '', message: '开票申请不存在' };
      const fail = (message: string) => ({ ok: false, orderNo: inv.order_no, message });
      if (inv.invalid) return fail('该开票申请已置为无效');
      if (invoiceTransition('issue', inv.status) === null) return fail(invoiceRefusal('issue', inv.status));
      const lines = await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute();
      const problems = checkInvoice(headerFacts(inv), lines.map(lineFacts));
      if (problems.length) return fail(`请先修改开票申请：${problems.slice(0, 3).join('；')}`);
      const now = new Date();
      const r = await trx
        .updateTable('invoices')
        .set({ status: S.creating, submitted_at: null, next_poll_at: isoAfter(RESUBMIT_AFTER_MS, now), poll_count: 0, updated_by_name: user.name, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', S.none)
        .where('invalid', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return fail('该申请已在开票中，不会重复开具');
      await this.app.oplog.recordFor(invoiceRef(id), req, OperationLogType.add, `一键开票：${inv.order_no}（${inv.buyer_name}，价税合计 ${(Number(inv.amount_incl) / 100).toFixed(2)} 元）`, trx);
      return { ok: true, orderNo: inv.order_no, message: '' };
    });
    if (!claim.ok) return { id, ...claim };
    return this.submit(id, user.id);
  }

  /** Sends a claimed request (creating, no serial yet) to the tax service. */
  async submit(id: string, userId: string | null): Promise<IssueOutcome> {
    const inv = await this.db.selectFrom('invoices').selectAll().where('id', '=', id).where('status', '=', S.creating).executeTakeFirst();
    if (!inv) return { id, orderNo: '', ok: false, message: '该申请不在开票中' };
    const lines = await this.lines(id);
    try {
      const gateway = await this.settings.gateway();
      const res = await gateway.submitInvoice(toTaxRequest(inv, lines), { userId });
      const now = new Date();
      await this.db
        .updateTable('invoices')
        .set({ serial_no: res.serialNo, submitted_at: now.toISOString(), next_poll_at: nextPollAt(0, now), updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', S.creating)
        .execute();
      return { id, orderNo: inv.order_no, ok: true, message: res.duplicate ? '税务端已有该订单，已按原流水号继续查询' : '已提交税务端，开票中' };
    } catch (e) {
      if (isTransport(e)) {
        await this.db.updateTable('invoices').set({ next_poll_at: isoAfter(30_000), status_message: messageOf(e) }).where('id', '=', id).where('status', '=', S.creating).execute();
        return { id, orderNo: inv.order_no, ok: false, pending: true, message: `税务端暂时无法连接，系统将自动重试：${messageOf(e)}` };
      }
      await this.fail(inv.id, S.creationFailed, messageOf(e));
      return { id, orderNo: inv.order_no, ok: false, message: `税务端拒绝开票：${messageOf(e)}` };
    }
  }

  private async fail(id: string, status: number, cause: string): Promise<boolean> {
    const r = await this.db
      .updateTable('invoices')
      .set({ status, failure_cause: cause.slice(0, 500), next_poll_at: null, updated_at: nowIso() })
      .where('id', '=', id)
      .where('status', 'in', [S.creating, S.signing])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) await this.app.oplog.write({ type: OperationLogType.fail, description: `税务端回传：${InvoiceStatus.label(status)}（${cause.slice(0, 200)}）`, actor: SYSTEM_OPERATOR, record: { kind: 'invoice', id } });
    return Number(r.numUpdatedRows) > 0;
  }

  /** Records one result of queryInvoiceResult; a result that arrives twice changes nothing the second time. */
  async applyResult(r: TaxInvoiceResult): Promise<void> {
    const inv = await this.db
      .selectFrom('invoices')
      .select(['id', 'status', 'order_no', 'poll_count'])
      .where((eb) => eb.or([eb('serial_no', '=', r.serialNo), eb('order_no', '=', r.orderNo)]))
      .executeTakeFirst();
    if (!inv || (inv.status !== S.creating && inv.status !== S.signing)) return;
    const now = new Date();
    if (r.status === S.creating || r.status === S.signing) {
      await this.db
        .updateTable('invoices')
        .set({ status: r.status === S.signing ? S.signing : inv.status, serial_no: r.serialNo, status_message: r.statusMessage, poll_count: inv.poll_count + 1, next_poll_at: nextPollAt(inv.poll_count + 1, now) })
        .where('id', '=', inv.id)
        .where('status', 'in', [S.creating, S.signing])
        .execute();
      return;
    }
    if (r.status === S.creationFailed || r.status === S.signFailed) {
      await this.fail(inv.id, r.status, r.failCause || r.statusMessage || '税务端未说明原因');
      return;
    }
    if (r.status !== S.created) return;
    await this.db.transaction().execute(async (trx) => {
      const u = await trx
        .updateTable('invoices')
        .set({ status: S.created, serial_no: r.serialNo, ...createdColumns(r, now.toISOString()), next_poll_at: null, poll_count: inv.poll_count + 1, updated_at: now.toISOString() })
        .where('id', '=', inv.id)
        .where('status', 'in', [S.creating, S.signing])
        .executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) return;
      await storeResultFiles(trx, inv.id, r);
      await allocateOnCreated(trx, inv.id);
      await this.app.oplog.write({ type: OperationLogType.edit, description: `税务端回传：${inv.order_no} 开票成功，发票号码 ${r.invoiceNo ?? r.allElectronicNo ?? ''}`, actor: SYSTEM_OPERATOR, record: { kind: 'invoice', id: inv.id } }, trx);
    });
  }

  /**
   * Asks the tax service about invoices in creating / signing: the given ones (refresh), or those
   * whose next poll is due (the job). Returns how many were asked about.
   */
  /**
   * Asks the tax service about invoices being issued. `stillOurs` (the background job's lease check)
   * runs before each call to the tax service, so a server that has lost its lease stops partway.
   */
  async poll(opts: { ids?: readonly string[]; userId?: string | null; limit?: number; stillOurs?: () => Promise<void> } = {}): Promise<number> {
    const stillOurs = opts.stillOurs ?? (async () => {});
    let q = this.db.selectFrom('invoices').selectAll().where('status', 'in', [S.creating, S.signing]);
    q = opts.ids ? (opts.ids.length ? q.where('id', 'in', opts.ids) : q.where('id', '=', '')) : q.where('next_poll_at', '<=', nowIso());
    const rows = await q.orderBy('next_poll_at').limit(opts.limit ?? 100).execute();
    if (rows.length === 0) return 0;
    const gateway = await this.settings.gateway();
    const ctx = { userId: opts.userId ?? null };
    const withSerial = rows.filter((r) => r.serial_no);
    const found = new Set<string>();
    if (withSerial.length) {
      await stillOurs();
      for (const res of await gateway.queryInvoices(withSerial.map((r) => r.serial_no!), ctx)) {
        found.add(withSerial.find((r) => r.serial_no === res.serialNo)?.order_no ?? res.orderNo);
        await this.applyResult(res);
      }
    }
    const noSerial = rows.filter((r) => !r.serial_no);
    if (noSerial.length) {
      await stillOurs();
      for (const res of await gateway.queryInvoicesByOrderNo(noSerial.map((r) => r.order_no), ctx)) {
        found.add(res.orderNo);
        await this.db.updateTable('invoices').set({ serial_no: res.serialNo, submitted_at: nowIso() }).where('order_no', '=', res.orderNo).where('serial_no', 'is', null).execute();
        await this.applyResult(res);
      }
      // Claimed but never accepted (a crash or a lost connection between claim and submit): submit again, same order number.
      for (const r of noSerial.filter((x) => !found.has(x.order_no))) {
        await stillOurs();
        await this.submit(r.id, ctx.userId);
      }
    }
    for (const r of withSerial.filter((x) => !found.has(x.order_no))) {
      await this.db.updateTable('invoices').set({ poll_count: r.poll_count + 1, next_poll_at: nextPollAt(r.poll_count + 1) }).where('id', '=', r.id).execute();
    }
    return rows.length;
  }
}

export function headerFacts(i: InvoiceTable) {
  return {
    kind: i.kind, colour: i.colour, buyerName: i.buyer_name, buyerTaxNo: i.buyer_tax_no, buyerAddress: i.buyer_address, buyerPhone: i.buyer_phone,
    buyerBank: i.buyer_bank, buyerAccount: i.buyer_account, specialFactor: i.special_factor, constructionSite: i.construction_site,
    constructionProject: i.construction_project, redReason: i.red_reason, blueInvoiceNo: i.blue_invoice_no,
  };
}

export function lineFacts(l: { goods_name: string; tax_code: string; spec: string; unit: string; quantity: string; unit_price: string; price_includes_tax: number; tax_rate: string; policy: number; line_property: number; amount_excl: number; tax: number; amount_incl: number }) {
  return {
    goodsName: l.goods_name, taxCode: l.tax_code, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unit_price, priceIncludesTax: l.price_includes_tax === 1,
    taxRate: l.tax_rate, policy: l.policy, lineProperty: l.line_property, amountExcl: Number(l.amount_excl), tax: Number(l.tax), amountIncl: Number(l.amount_incl),
  };
}
