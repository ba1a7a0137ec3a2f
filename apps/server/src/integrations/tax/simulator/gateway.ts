/**
 * The tax service simulator (the default gateway): answers like Nuonuo, keeps its state in the
 * database (taxsim_*), lets results arrive after the configured delay and fails when asked to.
 * Rules: docs/tax-gateway.md ("The simulator").
 */
import { InvoiceKind, InvoiceStatus } from '@zhyy/shared';
import type { SyncLogService } from '../../../platform/synclog.js';
import { newId } from '../../../platform/ids.js';
import { TaxErrorCode, TaxGatewayError, TaxMessages } from '../errors.js';
import { exchange, fileSummary } from '../exchange.js';
import type {
  CancelRequest,
  CancelResult,
  RedConfirm,
  RedConfirmApplyRequest,
  RedConfirmQuery,
  SendInvoiceRequest,
  SubmitResult,
  TaxCallContext,
  TaxGateway,
  TaxInvoiceRequest,
  TaxInvoiceResult,
  TaxSimulatorControls,
} from '../types.js';
import type { BookingItem, BookingOutcome, StatusItem, StatusOutcome, CustomsCollectPage, CustomsTickRequest, CustomsUntickRequest, IncomeCollectPage, IncomeCollectQuery, IncomeVerifyQuery, IncomeVerifyResult, StatDetailPage, StatDetailQuery, StatFigures, StatRequest, TickOutcome, TickPeriod, TickRequest, UntickRequest } from '../income-types.js';
import { checkInvoiceRequest } from '../validate.js';
import { SimulatorIncome } from './income.js';
import { SimulatorTicks } from './income-ticks.js';
import { SimulatorStats } from './income-stats.js';
import { SimulatorBooking } from './income-booking.js';
import { SimulatorStatus } from './income-status.js';
import { SimulatorCustoms } from './income-customs.js';
import { newSerialNo, shanghaiDate } from './numbers.js';
import { advanceInvoice, toResult, type SimContext } from './progress.js';
import { applyRedConfirm, cancelRedConfirm, confirmRedConfirm, queryRedConfirms } from './redconfirm.js';
import type { InvoiceRow } from './store.js';

/**
 * A buyer name containing this always fails (22; 24 when it also contains 签章): the trigger for
 * tests and for trying failures by hand. The demo company's data never uses it (its failed invoices
 * come from SimulatorOptions.failOrders).
 */
export const FORCED_FAILURE = '测试失败';
export const REISSUE_DAILY_LIMIT = 20;

const M = {
  submit: 'nuonuo.OpeMplatform.requestBillingNew',
  query: 'nuonuo.OpeMplatform.queryInvoiceResult',
  reissue: 'nuonuo.OpeMplatform.reInvoice',
  cancel: 'nuonuo.electronInvoice.invoiceCancellation',
  apply: 'nuonuo.OpeMplatform.saveInvoiceRedConfirm',
  queryRed: 'nuonuo.OpeMplatform.queryInvoiceRedConfirm',
  refreshRed: 'nuonuo.OpeMplatform.refreshInvoiceRedConfirm',
  confirm: 'nuonuo.OpeMplatform.confirm',
  cancelRed: 'nuonuo.OpeMplatform.confirmInfoCancel',
  deliver: 'nuonuo.OpeMplatform.deliveryInvoice',
} as const;

const FAIL_CAUSES = {
  22: '税局校验未通过：购买方信息与税局登记信息不一致（模拟）',
  24: '电子签章服务异常，签章失败（模拟）',
} as const;

const isDigital = (kind: number) => kind === InvoiceKind.bs || kind === InvoiceKind.pc;
const isUniqueViolation = (err: unknown) => /unique|duplicate key/i.test(err instanceof Error ? err.message : String(err));
const state = (message: string, method: string) => new TaxGatewayError(TaxErrorCode.state, message, method);

/** How an attempt ends: 0 success, 22 or 24 (a re-issue can only fail at signing). */
export function drawFailure(ctx: SimContext, req: Pick<TaxInvoiceRequest, 'orderNo' | 'buyer'>, stage: 'submit' | 'reissue'): 0 | 22 | 24 {
  const buyerName = req.buyer.name;
  const scripted = stage === 'submit' ? ctx.failOrders?.[req.orderNo] : undefined;
  if (scripted) return scripted;
  if (buyerName.includes(FORCED_FAILURE)) return buyerName.includes('签章') ? 24 : stage === 'submit' ? 22 : 0;
  if (ctx.failureRate <= 0 || ctx.random() >= ctx.failureRate) return 0;
  return stage === 'reissue' || ctx.random() < 0.5 ? 24 : 22;
}

export class SimulatorTaxGateway implements TaxGateway {
  readonly mode = 'simulator' as const;
  now = (): Date => this.ctx.now();
  private readonly income: SimulatorIncome;
  private readonly ticks: SimulatorTicks;
  private readonly stats: SimulatorStats;
  private readonly booking: SimulatorBooking;
  private readonly status: SimulatorStatus;
  private readonly customs: SimulatorCustoms;

  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
  ) {
    this.income = new SimulatorIncome(ctx, synclog);
    this.ticks = new SimulatorTicks(ctx, synclog);
    this.stats = new SimulatorStats(ctx, synclog);
    this.booking = new SimulatorBooking(ctx, synclog, this.ticks);
    this.status = new SimulatorStatus(ctx, synclog, this.ticks);
    this.customs = new SimulatorCustoms(ctx, synclog);
  }

  queryIncomeStatus(items: StatusItem[], ctx?: TaxCallContext): Promise<StatusOutcome[]> {
    return this.status.queryIncomeStatus(items, ctx);
  }

  setBookingState(items: BookingItem[], ctx?: TaxCallContext): Promise<BookingOutcome[]> {
    return this.booking.setBookingState(items, ctx);
  }

  statFigures = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.statFigures(req, ctx);
  applyStat = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.act('apply', req, ctx);
  revokeStatApply = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.act('revokeApply', req, ctx);
  confirmStat = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.act('confirm', req, ctx);
  revokeStatConfirm = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.act('revokeConfirm', req, ctx);
  statDetails = (req: StatDetailQuery, ctx?: TaxCallContext): Promise<StatDetailPage> => this.stats.statDetails(req, ctx);
  /** Ticks made on the bureau's platform outside the product (issue 32 item 1). */
  readonly simulator: TaxSimulatorControls = { tickOutside: (r) => this.ticks.tickOutside(r), untickOutside: (r) => this.ticks.untickOutside(r) };

  tickPeriod(ctx?: TaxCallContext): Promise<TickPeriod> {
    return this.ticks.tickPeriod(ctx);
  }

  tickInvoices(req: TickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.ticks.tickInvoices(req, ctx);
  }

  untickInvoices(req: UntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.ticks.untickInvoices(req, ctx);
  }

  tickCustoms(req: CustomsTickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.ticks.tickCustoms(req, ctx);
  }

  untickCustoms(req: CustomsUntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.ticks.untickCustoms(req, ctx);
  }

  collectIncoming(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<IncomeCollectPage> {
    return this.income.collectIncoming(query, ctx);
  }

  verifyIncoming(query: IncomeVerifyQuery, ctx?: TaxCallContext): Promise<IncomeVerifyResult> {
    return this.income.verifyIncoming(query, ctx);
  }

  collectCustoms(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<CustomsCollectPage> {
    return this.customs.collectCustoms(query, ctx);
  }

  private async find(serialNo: string): Promise<InvoiceRow | undefined> {
    let q = this.ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('serial_no', '=', serialNo);
    if (this.ctx.taxNumber) q = q.where('seller_tax_number', '=', this.ctx.taxNumber);
    const row = await q.executeTakeFirst();
    return row ? advanceInvoice(this.ctx, row) : undefined;
  }

  private async byOrderNo(sellerTaxNumber: string, orderNo: string): Promise<InvoiceRow | undefined> {
    return this.ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('seller_tax_number', '=', sellerTaxNumber).where('order_no', '=', orderNo).executeTakeFirst();
  }

  async submitInvoice(req: TaxInvoiceRequest, ctx?: TaxCallContext): Promise<SubmitResult> {
    return exchange(this.synclog, M.submit, req, ctx, async () => {
      checkInvoiceRequest(req);
      const seller = req.seller.taxNumber!;
      if (this.ctx.taxNumber && seller !== this.ctx.taxNumber) throw new TaxGatewayError(TaxErrorCode.invalid, '销售方税号与授权税号不一致', M.submit);
      const existing = await this.byOrderNo(seller, req.orderNo);
      if (existing) return this.duplicate(existing);
      const now = this.ctx.now();
      const failStage = drawFailure(this.ctx, req, 'submit');
      const serialNo = await newSerialNo(this.ctx.sdb, now);
      const sum = (k: 'amountExcludingTax' | 'tax' | 'amountIncludingTax') => req.lines.reduce((s, l) => s + l[k], 0);
      try {
        await this.ctx.sdb
          .insertInto('taxsim_invoices')
          .values({
            serial_no: serialNo,
            seller_tax_number: seller,
            order_no: req.orderNo,
            kind: req.kind,
            colour: req.colour,
            request: JSON.stringify(req),
            status: InvoiceStatus.creating,
            next_at: new Date(now.getTime() + this.ctx.delayMs).toISOString(),
            fail_stage: failStage,
            fail_cause: failStage ? FAIL_CAUSES[failStage] : null,
            amount_excluding_tax: sum('amountExcludingTax'),
            tax: sum('tax'),
            amount_including_tax: sum('amountIncludingTax'),
            reissue_count: 0,
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .execute();
      } catch (err) {
        const raced = isUniqueViolation(err) ? await this.byOrderNo(seller, req.orderNo) : undefined;
        if (raced) return this.duplicate(raced);
        throw err;
      }
      const value: SubmitResult = { orderNo: req.orderNo, serialNo, duplicate: false };
      return { value, log: { code: 'E0000', describe: '开票提交成功', result: { invoiceSerialNum: serialNo } }, memo: `订单号 ${req.orderNo}：开票提交成功，流水号 ${serialNo}` };
    });
  }

  /** E9106 as the gateway reports it: the original serial, duplicate = true. */
  private duplicate(row: InvoiceRow) {
    const value: SubmitResult = { orderNo: row.order_no, serialNo: row.serial_no, duplicate: true };
    return { value, log: { code: TaxErrorCode.duplicateOrder, describe: '订单编号不能重复', result: { invoiceSerialNum: row.serial_no } }, memo: `订单号 ${row.order_no}：${TaxMessages.duplicateOrder}（E9106），流水号 ${row.serial_no}` };
  }

  private async results(rows: InvoiceRow[], request: unknown, ctx?: TaxCallContext): Promise<TaxInvoiceResult[]> {
    return exchange(this.synclog, M.query, request, ctx, async () => {
      const value: TaxInvoiceResult[] = [];
      for (const row of rows) value.push(toResult(await advanceInvoice(this.ctx, row)));
      const log = value.map((r) => ({ ...r, files: fileSummary(r.files) }));
      const memo = value.length ? value.map((r) => `${r.serialNo} ${r.statusMessage}`).join('；') : '未查到发票';
      return { value, log, memo };
    });
  }

  async queryInvoices(serialNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]> {
    if (serialNos.length === 0) return [];
    let q = this.ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('serial_no', 'in', serialNos);
    if (this.ctx.taxNumber) q = q.where('seller_tax_number', '=', this.ctx.taxNumber);
    return this.results(await q.execute(), { serialNos }, ctx);
  }

  async queryInvoicesByOrderNo(orderNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]> {
    if (orderNos.length === 0) return [];
    let q = this.ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('order_no', 'in', orderNos);
    if (this.ctx.taxNumber) q = q.where('seller_tax_number', '=', this.ctx.taxNumber);
    return this.results(await q.execute(), { orderNos }, ctx);
  }

  async reissueInvoice(serialNo: string, ctx?: TaxCallContext): Promise<void> {
    return exchange(this.synclog, M.reissue, { fpqqlsh: serialNo }, ctx, async () => {
      const row = await this.find(serialNo);
      if (!row) throw new TaxGatewayError(TaxErrorCode.notFound, TaxMessages.notFound(`流水号为 ${serialNo} 的发票`), M.reissue);
      if (row.status === InvoiceStatus.created) throw state('发票已生成，无需再重试开票', M.reissue);
      if (row.status === InvoiceStatus.creating || row.status === InvoiceStatus.signing) throw state('开票中（重试中），请耐心等待开票结果', M.reissue);
      if (row.status === InvoiceStatus.creationFailed) throw state('开票失败的发票请修改后以新的订单号重新提交', M.reissue);
      if (row.status !== InvoiceStatus.signFailed) throw state(`发票当前状态（${InvoiceStatus.label(row.status)}）不能重新开票`, M.reissue);
      const now = this.ctx.now();
      const today = shanghaiDate(now);
      const count = row.reissue_day === today ? row.reissue_count : 0;
      if (count >= REISSUE_DAILY_LIMIT) throw new TaxGatewayError(TaxErrorCode.reissueLimit, TaxMessages.reissueLimit, M.reissue);
      const req = JSON.parse(row.request) as TaxInvoiceRequest;
      const failStage = drawFailure(this.ctx, req, 'reissue');
      const done = await this.ctx.sdb
        .updateTable('taxsim_invoices')
        .set({
          status: InvoiceStatus.signing,
          next_at: new Date(now.getTime() + this.ctx.delayMs).toISOString(),
          fail_stage: failStage,
          fail_cause: failStage ? FAIL_CAUSES[failStage] : null,
          reissue_day: today,
          reissue_count: count + 1,
          updated_at: now.toISOString(),
        })
        .where('serial_no', '=', serialNo)
        .where('status', '=', InvoiceStatus.signFailed)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw state('开票中（重试中），请耐心等待开票结果', M.reissue);
      return { value: undefined, log: { code: 'E0000', describe: '重新开票提交成功', result: { reissuedToday: count + 1 } }, memo: `流水号 ${serialNo}：重新开票已提交（今日第${count + 1}次）` };
    });
  }

  async cancelInvoice(req: CancelRequest, ctx?: TaxCallContext): Promise<CancelResult> {
    return exchange(this.synclog, M.cancel, { invoiceId: req.serialNo, invoiceCode: req.invoiceCode, invoiceNo: req.invoiceNo, reason: req.reason }, ctx, async () => {
      const row = await this.find(req.serialNo);
      if (!row || row.invoice_no !== req.invoiceNo) throw new TaxGatewayError(TaxErrorCode.notFound, TaxMessages.notFound(`发票号码为 ${req.invoiceNo} 的发票`), M.cancel);
      if (isDigital(row.kind)) throw state(TaxMessages.cancelDigital, M.cancel);
      if (row.status === InvoiceStatus.canceling || row.status === InvoiceStatus.cancelled) {
        const value: CancelResult = { serialNo: row.serial_no, status: row.status };
        return { value, log: { code: 'E0000', describe: '发票已作废或作废中', result: value }, memo: `发票 ${req.invoiceNo}：${InvoiceStatus.label(row.status)}` };
      }
      if (row.status !== InvoiceStatus.created) throw state(`发票当前状态（${InvoiceStatus.label(row.status)}）不能作废`, M.cancel);
      const now = this.ctx.now();
      if (row.issued_at!.slice(0, 7) !== shanghaiDate(now).slice(0, 7)) throw state('只能作废当月开具的发票，跨月发票请开具红字发票', M.cancel);
      if (!req.reason.trim()) throw new TaxGatewayError(TaxErrorCode.invalid, '作废原因不能为空', M.cancel);
      await this.ctx.sdb
        .updateTable('taxsim_invoices')
        .set({ status: InvoiceStatus.canceling, next_at: new Date(now.getTime() + this.ctx.delayMs).toISOString(), cancel_reason: req.reason, updated_at: now.toISOString() })
        .where('serial_no', '=', row.serial_no)
        .where('status', '=', InvoiceStatus.created)
        .execute();
      const value: CancelResult = { serialNo: row.serial_no, status: InvoiceStatus.canceling };
      return { value, log: { code: 'E0000', describe: '作废提交成功', result: value }, memo: `发票 ${req.invoiceNo}：作废中` };
    });
  }

  applyRedConfirm(req: RedConfirmApplyRequest, ctx?: TaxCallContext): Promise<RedConfirm> {
    return exchange(this.synclog, M.apply, req, ctx, async () => {
      const value = await applyRedConfirm(this.ctx, req);
      return { value, log: value, memo: `红字确认单 ${value.billId}（${req.billNo}）：${value.stateMessage}` };
    });
  }

  queryRedConfirms(query: RedConfirmQuery, ctx?: TaxCallContext): Promise<RedConfirm[]> {
    return exchange(this.synclog, M.queryRed, query, ctx, async () => {
      const value = await queryRedConfirms(this.ctx, query);
      return { value, log: value, memo: `查询到 ${value.length} 张红字确认单` };
    });
  }

  refreshRedConfirms(since: string, ctx?: TaxCallContext): Promise<RedConfirm[]> {
    return exchange(this.synclog, M.refreshRed, { billTimeStart: since }, ctx, async () => {
      const value = await queryRedConfirms(this.ctx, { since });
      return { value, log: value, memo: `从税局下载 ${value.length} 张红字确认单` };
    });
  }

  confirmRedConfirm(billId: string, accept: boolean, ctx?: TaxCallContext): Promise<RedConfirm> {
    return exchange(this.synclog, M.confirm, { billId, confirmAgreement: accept ? '1' : '0' }, ctx, async () => {
      const value = await confirmRedConfirm(this.ctx, billId, accept);
      return { value, log: value, memo: `红字确认单 ${billId}：${accept ? '已同意' : '已拒绝'}，${value.stateMessage}` };
    });
  }

  cancelRedConfirm(billId: string, ctx?: TaxCallContext): Promise<RedConfirm> {
    return exchange(this.synclog, M.cancelRed, { billId }, ctx, async () => {
      const value = await cancelRedConfirm(this.ctx, billId);
      return { value, log: value, memo: `红字确认单 ${billId}：${value.stateMessage}` };
    });
  }

  sendInvoice(req: SendInvoiceRequest, ctx?: TaxCallContext): Promise<void> {
    return exchange(this.synclog, M.deliver, req, ctx, async () => {
      if (!req.email && !req.mobile) throw new TaxGatewayError(TaxErrorCode.invalid, '请填写交付邮箱或手机号', M.deliver);
      if (req.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(req.email)) throw new TaxGatewayError(TaxErrorCode.invalid, '交付邮箱格式不正确', M.deliver);
      if (req.mobile && !/^1\d{10}$/.test(req.mobile)) throw new TaxGatewayError(TaxErrorCode.invalid, '交付手机号格式不正确', M.deliver);
      const row = await this.find(req.serialNo);
      if (!row) throw new TaxGatewayError(TaxErrorCode.notFound, TaxMessages.notFound(`流水号为 ${req.serialNo} 的发票`), M.deliver);
      if (row.status !== InvoiceStatus.created) throw state('只能交付已开具的发票', M.deliver);
      await this.ctx.sdb.insertInto('taxsim_deliveries').values({ id: newId(), serial_no: row.serial_no, email: req.email ?? null, mobile: req.mobile ?? null, sent_at: this.ctx.now().toISOString() }).execute();
      const to = [req.email, req.mobile].filter(Boolean).join('、');
      return { value: undefined, log: { code: 'E0000', describe: '交付成功' }, memo: `发票 ${row.invoice_no}：已交付至 ${to}` };
    });
  }
}
