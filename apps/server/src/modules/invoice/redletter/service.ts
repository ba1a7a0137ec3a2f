/**
 * 数电红字确认单 actions: create a draft against a blue 数电 invoice, save (reason, VAT usage, chosen
 * lines), apply, confirm or refuse one that awaits us, cancel our own, refresh from the bureau. Every
 * move is checked against the shared table (redConfirmAllowed) and claimed with a conditional update.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvoiceColour, InvoiceKind, InvoiceStatus, OperationLogType, RED_ISSUED_STATES, RED_OPEN_STATES, RedConfirmState, computeLine, isDigitalKind, redConfirmAllowed, redConfirmRefusal, type RedConfirmSaveBody } from '@zhyy/shared';
import type { RedConfirm } from '../../../integrations/tax/index.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { SYSTEM_OPERATOR, invoiceRef } from '../../../platform/oplog.js';
import { isoBefore, nowIso } from '../../../platform/time.js';
import { messageOf, nextPollAt } from '../issuing/service.js';
import { newOrderNo, toLineRow } from '../mapping.js';
import { LIVE_STATES, ensureRedInvoice, loadRed, type RedLine } from './read.js';
import type { InvoiceSettings } from '../settings/service.js';

const R = RedConfirmState;

/**
 * After a submission the tax service is asked soon, then less and less often (the issuing steps: 3, 5, 10,
 * 20, 30, 60 s …); after this many polls the periodic refresh (every 5 minutes) takes over.
 */
export const RED_MAX_POLLS = 12;

/**
 * How long an application may stay 申请中 with no answer recorded (no billId from the service) before the
 * job settles it: far above one tax call's timeout, so a request still waiting for its answer is left alone.
 */
export const RED_APPLY_GRACE_MS = 2 * 60_000;
export const RED_APPLY_INTERRUPTED = '申请中断：税务端未收到该红字确认单申请，请重新提交';

/** Whether a confirmation may still move at the tax service by itself: open, or issued with the red invoice not yet known. */
function stillMoving(state: string, redSerialNo: string | null | undefined): boolean {
  return RED_OPEN_STATES.includes(state) || (RED_ISSUED_STATES.includes(state) && !redSerialNo);
}

function wholeLines(blue: ReturnType<typeof toLineRow>[]): RedLine[] {
  return blue.map((l) => ({ ...l, blueLineNo: l.lineNo, quantity: l.quantity ? `-${l.quantity}` : '', amountExcl: -l.amountExcl, tax: -l.tax, amountIncl: -l.amountIncl }));
}

/** When a confirmation is asked about next, and how often it has been. */
type RedPoll = { next_poll_at: string | null; poll_count: number };

/** A confirmation just submitted or answered: asked about again soon while it may still move. */
const firstPoll = (rc: RedConfirm): RedPoll => ({ next_poll_at: stillMoving(rc.state, rc.redSerialNo) ? nextPollAt(0) : null, poll_count: 0 });

export class RedConfirmService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}
  private get db() {
    return this.app.db.kysely;
  }

  async create(req: FastifyRequest, blueInvoiceId: string): Promise<{ id: number }> {
    const user = req.user!;
    return this.db.transaction().execute(async (trx) => {
      const blue = await trx.selectFrom('invoices').selectAll().where('id', '=', blueInvoiceId).executeTakeFirst();
      if (!blue) throw notFound('蓝字发票不存在');
      if (!isDigitalKind(blue.kind)) throw refuse('红字确认单只适用于数电发票；纸质发票请在当月作废，跨月的须在税控开票系统中开具红字发票');
      if (blue.colour !== InvoiceColour.blue || blue.status !== InvoiceStatus.created) throw refuse('只能对开票成功的蓝字发票申请红字确认单');
      const live = await trx.selectFrom('invoice_red_confirms').select('id').where('blue_invoice_id', '=', blueInvoiceId).where('state', 'in', LIVE_STATES).executeTakeFirst();
      if (live) throw refuse(`该发票已有进行中的红字确认单（编号 ${live.id}）`);
      const lines = wholeLines((await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', blueInvoiceId).orderBy('line_no').execute()).map(toLineRow));
      const now = nowIso();
      const row = await trx
        .insertInto('invoice_red_confirms')
        .values({
          bill_id: null, bill_no: newOrderNo('HZ'), confirm_no: '', direction: 'seller', state: R.draft, blue_invoice_id: blue.id,
          blue_invoice_no: blue.digital_no || blue.invoice_no, blue_issue_date: blue.issue_date ?? '', blue_kind: blue.kind, buyer_name: blue.buyer_name,
          buyer_tax_no: blue.buyer_tax_no, red_reason: 2, vat_usage: 4, amount_excl: -Number(blue.amount_excl), tax: -Number(blue.tax), amount_incl: -Number(blue.amount_incl),
          lines: JSON.stringify(lines), red_order_no: newOrderNo(), red_serial_no: null, red_invoice_id: null, message: '', created_by: user.id, created_by_name: user.name,
          created_at: now, updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.app.oplog.recordFor(invoiceRef(blue.id), req, OperationLogType.add, `新增红字确认单：蓝字发票 ${blue.digital_no || blue.invoice_no}（${blue.buyer_name}）`, trx);
      return { id: Number(row.id) };
    });
  }

  async save(req: FastifyRequest, b: RedConfirmSaveBody): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const c = await loadRed(trx, b.id);
      if (c.direction !== 'seller' || !redConfirmAllowed('save', c.state)) throw refuse(redConfirmRefusal('save', c.state));
      const blue = (await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', c.blue_invoice_id ?? '').orderBy('line_no').execute()).map(toLineRow);
      let lines: RedLine[];
      if (b.lines.length === 0) lines = wholeLines(blue);
      else {
        const seen = new Set<number>();
        lines = b.lines.map((x) => {
          const l = blue.find((y) => y.lineNo === x.lineNo);
          if (!l) throw refuse(`蓝字发票没有第${x.lineNo}行`);
          if (seen.has(x.lineNo)) throw refuse(`第${x.lineNo}行重复`);
          seen.add(x.lineNo);
          if (-x.amountIncl > l.amountIncl) throw refuse(`第${x.lineNo}行红冲金额不能超过蓝字金额`);
          if (-x.amountIncl === l.amountIncl) return wholeLines([l])[0]!;
          const a = computeLine({ amount: x.amountIncl, priceIncludesTax: true, taxRate: l.taxRate });
          return { ...l, blueLineNo: l.lineNo, quantity: '', unitPrice: '', amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl };
        });
      }
      const sum = (k: 'amountExcl' | 'tax' | 'amountIncl') => lines.reduce((s, l) => s + l[k], 0);
      const u = await trx
        .updateTable('invoice_red_confirms')
        .set({ red_reason: b.redReason, vat_usage: b.vatUsage, lines: JSON.stringify(lines.map((l, i) => ({ ...l, lineNo: i + 1 }))), amount_excl: sum('amountExcl'), tax: sum('tax'), amount_incl: sum('amountIncl'), updated_at: nowIso() })
        .where('id', '=', b.id)
        .where('state', '=', c.state)
        .executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) throw refuse('红字确认单状态已变化，请刷新后重试');
      await this.app.oplog.recordFor(invoiceRef(c.blue_invoice_id), req, OperationLogType.edit, `修改红字确认单 ${b.id}：${lines.length} 行，红冲金额 ${(sum('amountIncl') / 100).toFixed(2)} 元`, trx);
    });
  }

  /** Writes what the service says about a confirmation; a red invoice issued with it is recorded for fetching. */
  /** Records what the tax service said, and with it (`poll`) when to ask next, in the same update. */
  private async record(id: number, rc: RedConfirm, poll?: RedPoll): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('invoice_red_confirms')
        .set({ bill_id: rc.billId, state: rc.state, confirm_no: rc.confirmNo ?? '', message: (rc.failCause ?? rc.stateMessage ?? '').slice(0, 500), ...(rc.redSerialNo ? { red_serial_no: rc.redSerialNo } : {}), ...poll, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      if (RED_ISSUED_STATES.includes(rc.state) && rc.redSerialNo) await ensureRedInvoice(trx, id);
    });
  }

  async apply(req: FastifyRequest, id: number): Promise<string> {
    const c = await loadRed(this.db, id);
    if (c.direction !== 'seller' || !redConfirmAllowed('apply', c.state)) throw refuse(redConfirmRefusal('apply', c.state));
    const claimed = await this.db.updateTable('invoice_red_confirms').set({ state: R.applying, message: '', updated_at: nowIso() }).where('id', '=', id).where('state', '=', c.state).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw refuse('红字确认单状态已变化，请刷新后重试');
    const s = await this.settings.row();
    const lines = JSON.parse(c.lines) as RedLine[];
    const whole = lines.every((l) => l.quantity && l.quantity.startsWith('-')) && lines.length === (await this.db.selectFrom('invoice_lines').select('id').where('invoice_id', '=', c.blue_invoice_id ?? '').execute()).length;
    try {
      const rc = await (await this.settings.gateway()).applyRedConfirm(
        {
          billNo: c.bill_no ?? String(id), blueInvoiceNo: c.blue_invoice_no, blueIssueDate: c.blue_issue_date, blueKind: c.blue_kind as 9 | 10,
          redReason: c.red_reason as 1, vatUsage: c.vat_usage as 1, sellerTaxNumber: s.seller_tax_no, buyerName: c.buyer_name, buyerTaxNumber: c.buyer_tax_no || undefined,
          lines: whole ? undefined : lines.map((l) => ({ blueLineNo: l.blueLineNo, quantity: l.quantity || undefined, amountExcludingTax: l.amountExcl, tax: l.tax })),
          redOrderNo: c.red_order_no,
        },
        { userId: req.user!.id },
      );
      await this.record(id, rc, firstPoll(rc));
      await this.app.oplog.recordFor(invoiceRef(c.blue_invoice_id), req, OperationLogType.edit, `提交红字确认单 ${id}：${RedConfirmState.label(rc.state)}`);
      return RedConfirmState.label(rc.state);
    } catch (e) {
      await this.db.updateTable('invoice_red_confirms').set({ state: R.applyFailed, message: messageOf(e).slice(0, 500), updated_at: nowIso() }).where('id', '=', id).where('state', '=', R.applying).execute();
      throw refuse(`红字确认单申请失败：${messageOf(e)}`);
    }
  }

  async answer(req: FastifyRequest, id: number, accept: boolean, reason = ''): Promise<string> {
    const move = accept ? 'confirm' : 'refuse';
    const c = await loadRed(this.db, id);
    if (c.direction !== 'buyer' || !redConfirmAllowed(move, c.state)) throw refuse(redConfirmRefusal(move, c.state));
    if (!c.bill_id) throw refuse('该确认单缺少税务端编号，请先刷新');
    const rc = await (await this.settings.gateway()).confirmRedConfirm(c.bill_id, accept, { userId: req.user!.id });
    await this.record(id, rc, firstPoll(rc));
    await this.app.oplog.recordFor(invoiceRef(c.blue_invoice_id), req, OperationLogType.edit, `${accept ? '确认' : '拒绝'}红字确认单 ${id}${reason ? `，原因：${reason}` : ''}`);
    return RedConfirmState.label(rc.state);
  }

  async cancel(req: FastifyRequest, id: number): Promise<void> {
    const c = await loadRed(this.db, id);
    if (c.direction !== 'seller' || !redConfirmAllowed('cancel', c.state)) throw refuse(redConfirmRefusal('cancel', c.state));
    if (c.state === R.sellerAwaitingBuyer) {
      if (!c.bill_id) throw refuse('该确认单缺少税务端编号，请先刷新');
      await this.record(id, await (await this.settings.gateway()).cancelRedConfirm(c.bill_id, { userId: req.user!.id }));
    } else {
      const u = await this.db.updateTable('invoice_red_confirms').set({ state: R.voidWithdrawn, updated_at: nowIso() }).where('id', '=', id).where('state', '=', c.state).executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) throw refuse('红字确认单状态已变化，请刷新后重试');
    }
    await this.app.oplog.recordFor(invoiceRef(c.blue_invoice_id), req, OperationLogType.edit, `撤销红字确认单 ${id}`);
  }

  /**
   * Asks the tax service about the confirmations whose next poll is due (the job calls it every few
   * seconds), records what it says, and schedules the next poll with a growing step while they may still
   * move; returns how many were asked about.
   */
  async pollDue(limit = 50, stillOurs: () => Promise<void> = async () => {}): Promise<number> {
    const due = await this.db
      .selectFrom('invoice_red_confirms')
      .select(['id', 'bill_id', 'poll_count', 'state', 'red_serial_no'])
      .where('next_poll_at', '<=', nowIso())
      .orderBy('next_poll_at')
      .limit(limit)
      .execute();
    if (!due.length) return 0;
    const withBill = due.filter((d) => d.bill_id);
    if (withBill.length) await stillOurs();
    const answers = withBill.length ? await (await this.settings.gateway()).queryRedConfirms({ billIds: withBill.map((d) => d.bill_id!) }, { userId: null }) : [];
    const byBill = new Map(answers.map((rc) => [rc.billId, rc]));
    for (const d of due) {
      const rc = d.bill_id ? byBill.get(d.bill_id) : undefined;
      // What record() leaves in the row: the answer's state, and its red serial number when it has one.
      const state = rc ? rc.state : d.state;
      const serial = rc?.redSerialNo || d.red_serial_no;
      const count = d.poll_count + 1;
      const poll = { next_poll_at: d.bill_id && count < RED_MAX_POLLS && stillMoving(state, serial) ? nextPollAt(count) : null, poll_count: count };
      if (rc) await this.record(Number(d.id), rc, poll);
      else await this.db.updateTable('invoice_red_confirms').set(poll).where('id', '=', d.id).execute();
    }
    return due.length;
  }

  /**
   * Settles applications cut short (issue 27): `apply` claims the confirmation (→ 15 申请中) before it calls
   * the tax service, so a process that dies in between leaves it 申请中 with no billId — never polled, never
   * refreshed. Past RED_APPLY_GRACE_MS the job asks the service by our bill number (the apply's idempotency
   * key): found → its answer recorded (and polled from then on); not found → 申请失败 with the reason, from
   * which 提交申请 works again (same bill number, so still one application). A failed question leaves them
   * for the next round. Answers how many were settled.
   */
  async settleApplying(stillOurs: () => Promise<void> = async () => {}, now: Date = new Date()): Promise<number> {
    const stuck = await this.db
      .selectFrom('invoice_red_confirms')
      .select(['id', 'bill_no', 'blue_invoice_id'])
      .where('state', '=', R.applying)
      .where('direction', '=', 'seller')
      .where('bill_id', 'is', null)
      .where('updated_at', '<', isoBefore(RED_APPLY_GRACE_MS, now))
      .orderBy('updated_at')
      .limit(50)
      .execute();
    if (!stuck.length) return 0;
    await stillOurs();
    const keyOf = (c: (typeof stuck)[number]) => c.bill_no ?? String(c.id);
    const found = await (await this.settings.gateway()).queryRedConfirms({ billNos: stuck.map(keyOf) }, { userId: null });
    const byNo = new Map(found.map((rc) => [rc.billNo, rc]));
    let settled = 0;
    for (const c of stuck) {
      const rc = byNo.get(keyOf(c));
      if (rc) {
        await this.record(Number(c.id), rc, firstPoll(rc));
      } else {
        const u = await this.db.updateTable('invoice_red_confirms').set({ state: R.applyFailed, message: RED_APPLY_INTERRUPTED, updated_at: nowIso() }).where('id', '=', c.id).where('state', '=', R.applying).where('bill_id', 'is', null).executeTakeFirst();
        if (Number(u.numUpdatedRows) === 0) continue;
      }
      settled++;
      await this.app.oplog.write({ type: OperationLogType.edit, description: `红字确认单 ${c.id} 申请中断已处理：${rc ? `税务端已收到，${RedConfirmState.label(rc.state)}` : '税务端未收到，记为申请失败，可重新提交'}`, actor: SYSTEM_OPERATOR, ...(c.blue_invoice_id ? { record: { kind: 'invoice' as const, id: c.blue_invoice_id } } : {}) });
    }
    return settled;
  }

  /** Downloads from the bureau what changed (buyers' applications included) and asks about our open ones. */
  async refresh(userId: string | null = null): Promise<number> {
    const s = await this.settings.row();
    const gateway = await this.settings.gateway();
    const since = s.red_refreshed_at ?? isoBefore(90 * 86400_000);
    const started = nowIso();
    const seen = new Map<string, RedConfirm>();
    for (const rc of await gateway.refreshRedConfirms(since, { userId })) seen.set(rc.billId, rc);
    const open = await this.db.selectFrom('invoice_red_confirms').select('bill_id').where('state', 'in', [...RED_OPEN_STATES, ...RED_ISSUED_STATES]).where('bill_id', 'is not', null).where('red_invoice_id', 'is', null).execute();
    const ids = open.map((o) => o.bill_id!).filter((b) => !seen.has(b));
    if (ids.length) for (const rc of await gateway.queryRedConfirms({ billIds: ids }, { userId })) seen.set(rc.billId, rc);
    for (const rc of seen.values()) await this.upsert(rc);
    await this.db.updateTable('invoice_settings').set({ red_refreshed_at: started }).where('id', '=', s.id).execute();
    return seen.size;
  }

  private async upsert(rc: RedConfirm): Promise<void> {
    const mine = await this.db.selectFrom('invoice_red_confirms').select('id').where((eb) => eb.or([eb('bill_id', '=', rc.billId), ...(rc.billNo ? [eb('bill_no', '=', rc.billNo)] : [])])).executeTakeFirst();
    if (mine) return this.record(Number(mine.id), rc);
    const blue = await this.db.selectFrom('invoices').selectAll().where((eb) => eb.or([eb('digital_no', '=', rc.blueInvoiceNo), eb('invoice_no', '=', rc.blueInvoiceNo)])).where('colour', '=', InvoiceColour.blue).executeTakeFirst();
    const blueLines = blue ? (await this.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', blue.id).orderBy('line_no').execute()).map(toLineRow) : [];
    const lines: RedLine[] = rc.lines.map((l, i) => {
      const b = blueLines.find((x) => x.lineNo === l.blueLineNo);
      return { lineNo: i + 1, blueLineNo: l.blueLineNo, goodsName: l.goodsName, taxCode: b?.taxCode ?? '', spec: b?.spec ?? '', unit: b?.unit ?? '', quantity: l.quantity ?? '', unitPrice: l.quantity ? (b?.unitPrice ?? '') : '', priceIncludesTax: b?.priceIncludesTax ?? true, taxRate: l.taxRate, policy: b?.policy ?? 0, lineProperty: 0, amountExcl: l.amountExcludingTax, tax: l.tax, amountIncl: l.amountExcludingTax + l.tax };
    });
    const now = nowIso();
    const row = await this.db
      .insertInto('invoice_red_confirms')
      .values({
        bill_id: rc.billId, bill_no: null, confirm_no: rc.confirmNo ?? '', direction: rc.applicant === 1 ? 'buyer' : 'seller', state: rc.state, blue_invoice_id: blue?.id ?? null,
        blue_invoice_no: rc.blueInvoiceNo, blue_issue_date: rc.blueIssueDate, blue_kind: blue?.kind ?? InvoiceKind.bs, buyer_name: rc.buyerName, buyer_tax_no: rc.buyerTaxNumber ?? '',
        red_reason: rc.redReason, vat_usage: rc.vatUsage ?? 1, amount_excl: rc.amountExcludingTax, tax: rc.tax, amount_incl: rc.amountExcludingTax + rc.tax, lines: JSON.stringify(lines),
        red_order_no: newOrderNo('HX'), red_serial_no: rc.redSerialNo ?? null, red_invoice_id: null, message: rc.stateMessage ?? '', created_by: null, created_by_name: '购方（税务端）',
        created_at: rc.appliedAt || now, updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (RED_ISSUED_STATES.includes(rc.state) && rc.redSerialNo) await this.db.transaction().execute((trx) => ensureRedInvoice(trx, Number(row.id)));
  }
}
