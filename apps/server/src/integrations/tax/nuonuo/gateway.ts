/**
 * The Nuonuo open-platform client as a TaxGateway. A repeated order number (E9106) is answered by
 * querying the order instead of submitting again; E9613 (re-issue limit) becomes a Chinese refusal.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { TaxErrorCode, TaxGatewayError, TaxMessages } from '../errors.js';
import { RED_STATE_MESSAGES } from '../states.js';
import type {
  CancelRequest,
  CancelResult,
  NuonuoOptions,
  RedConfirm,
  RedConfirmApplyRequest,
  RedConfirmQuery,
  SendInvoiceRequest,
  SubmitResult,
  TaxCallContext,
  TaxClock,
  TaxGateway,
  TaxInvoiceFile,
  TaxInvoiceRequest,
  TaxInvoiceResult,
} from '../types.js';
import { fenToYuan } from '../money.js';
import { INVOICE_LINES, fileUrls, fromRedForm, fromResultItem, toOrder } from './mapping.js';
import type { BookingItem, BookingOutcome, StatusItem, StatusOutcome, CustomsCollectPage, CustomsTickRequest, CustomsUntickRequest, IncomeCollectPage, IncomeCollectQuery, IncomeVerifyQuery, IncomeVerifyResult, StatDetailPage, StatDetailQuery, StatFigures, StatRequest, TickOutcome, TickPeriod, TickRequest, UntickRequest } from '../income-types.js';
import { NuonuoIncome } from './income.js';
import { NuonuoStats } from './income-stats.js';
import { NuonuoTransport } from './transport.js';

/** Nuonuo's "no such invoice" answer to a query. */
const NOT_FOUND = 'E9500';
const SELLER = '0';
const PAGE_SIZE = 50;
const MAX_PAGES = 20;
const SHANGHAI_MS = 8 * 3600_000;
const day = (iso: string | Date) => new Date(new Date(iso).getTime() + SHANGHAI_MS).toISOString().slice(0, 10);

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export class NuonuoTaxGateway implements TaxGateway {
  readonly mode = 'nuonuo' as const;
  now = (): Date => this.clock.now();
  private readonly t: NuonuoTransport;
  private readonly income: NuonuoIncome;
  private readonly stats: NuonuoStats;

  constructor(
    private readonly opts: NuonuoOptions,
    synclog: SyncLogService,
    private readonly clock: TaxClock,
    http: typeof fetch,
  ) {
    this.t = new NuonuoTransport(opts, synclog, clock, http);
    this.income = new NuonuoIncome(this.t, clock);
    this.stats = new NuonuoStats(this.t);
  }

  statFigures = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.statFigures(req, ctx);
  applyStat = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.applyStat(req, ctx);
  revokeStatApply = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.revokeStatApply(req, ctx);
  confirmStat = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.confirmStat(req, ctx);
  revokeStatConfirm = (req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> => this.stats.revokeStatConfirm(req, ctx);
  statDetails = (req: StatDetailQuery, ctx?: TaxCallContext): Promise<StatDetailPage> => this.stats.statDetails(req, ctx);

  collectIncoming(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<IncomeCollectPage> {
    return this.income.collectIncoming(query, ctx);
  }

  collectCustoms(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<CustomsCollectPage> {
    return this.income.collectCustoms(query, ctx);
  }

  verifyIncoming(query: IncomeVerifyQuery, ctx?: TaxCallContext): Promise<IncomeVerifyResult> {
    return this.income.verifyIncoming(query, ctx);
  }

  tickPeriod(ctx?: TaxCallContext): Promise<TickPeriod> {
    return this.income.tickPeriod(ctx);
  }

  tickInvoices(req: TickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.income.tickInvoices(req, ctx);
  }

  untickInvoices(req: UntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.income.untickInvoices(req, ctx);
  }

  tickCustoms(req: CustomsTickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.income.tickCustoms(req, ctx);
  }

  untickCustoms(req: CustomsUntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    return this.income.untickCustoms(req, ctx);
  }

  queryIncomeStatus(items: StatusItem[], ctx?: TaxCallContext): Promise<StatusOutcome[]> {
    return this.income.queryIncomeStatus(items, ctx);
  }

  setBookingState(items: BookingItem[], ctx?: TaxCallContext): Promise<BookingOutcome[]> {
    return this.income.setBookingState(items, ctx);
  }

  async submitInvoice(req: TaxInvoiceRequest, ctx?: TaxCallContext): Promise<SubmitResult> {
    const answer = await this.t.call('nuonuo.OpeMplatform.requestBillingNew', toOrder(req, this.clock.now()), ctx, [TaxErrorCode.duplicateOrder]);
    if (answer.code === TaxErrorCode.duplicateOrder) {
      const [found] = await this.queryBy({ orderNos: [req.orderNo] }, ctx, false);
      if (!found) throw new TaxGatewayError(TaxErrorCode.duplicateOrder, `订单号 ${req.orderNo} 重复，但税务端未查到该订单`, 'nuonuo.OpeMplatform.requestBillingNew');
      return { orderNo: req.orderNo, serialNo: found.serialNo, duplicate: true };
    }
    const serialNo = String((answer.result as Obj | null)?.invoiceSerialNum ?? '');
    if (!serialNo) throw new TaxGatewayError(TaxErrorCode.transport, '税务端未返回开票流水号', 'nuonuo.OpeMplatform.requestBillingNew');
    return { orderNo: req.orderNo, serialNo, duplicate: false };
  }

  private async queryBy(keys: { serialNos?: string[]; orderNos?: string[] }, ctx: TaxCallContext | undefined, withFiles: boolean): Promise<TaxInvoiceResult[]> {
    const answer = await this.t.call('nuonuo.OpeMplatform.queryInvoiceResult', { ...keys, isOfferInvoiceDetail: '0' }, ctx, [NOT_FOUND]);
    if (answer.code === NOT_FOUND) return [];
    const out: TaxInvoiceResult[] = [];
    for (const item of list(answer.result)) {
      const base = fromResultItem(item);
      const files: TaxInvoiceFile[] = [];
      if (withFiles && base.status === 2) {
        for (const f of fileUrls(item)) {
          const content = await this.t.download(f.url);
          if (content) files.push({ type: f.type, fileName: `${base.invoiceNo ?? base.serialNo}.${f.type}`, content });
        }
      }
      out.push({ ...base, files });
    }
    return out;
  }

  queryInvoices(serialNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]> {
    return serialNos.length ? this.queryBy({ serialNos }, ctx, true) : Promise.resolve([]);
  }

  queryInvoicesByOrderNo(orderNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]> {
    return orderNos.length ? this.queryBy({ orderNos }, ctx, true) : Promise.resolve([]);
  }

  async reissueInvoice(serialNo: string, ctx?: TaxCallContext): Promise<void> {
    await this.t.call('nuonuo.OpeMplatform.reInvoice', { fpqqlsh: serialNo }, ctx);
  }

  async cancelInvoice(req: CancelRequest, ctx?: TaxCallContext): Promise<CancelResult> {
    if (req.kind === 9 || req.kind === 10) throw new TaxGatewayError(TaxErrorCode.state, TaxMessages.cancelDigital, 'nuonuo.electronInvoice.invoiceCancellation');
    await this.t.call('nuonuo.electronInvoice.invoiceCancellation', { invoiceId: req.serialNo, invoiceCode: req.invoiceCode ?? '', invoiceNo: req.invoiceNo }, ctx);
    return { serialNo: req.serialNo, status: 31 };
  }

  private async forms(query: Obj, ctx?: TaxCallContext): Promise<RedConfirm[]> {
    const out: RedConfirm[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.t.call('nuonuo.OpeMplatform.queryInvoiceRedConfirm', { identity: SELLER, ...query, pageNo: String(page), pageSize: String(PAGE_SIZE) }, ctx);
      const result = (answer.result ?? {}) as Obj;
      const batch = list(result.list);
      out.push(...batch.map((f) => this.withMessage(fromRedForm(f))));
      if (batch.length < PAGE_SIZE || out.length >= Number(result.total ?? 0)) break;
    }
    return out;
  }

  private withMessage(c: RedConfirm): RedConfirm {
    return /^\d\d$/.test(c.stateMessage) ? { ...c, stateMessage: RED_STATE_MESSAGES[c.state] ?? c.stateMessage } : c;
  }

  private async one(billId: string, ctx?: TaxCallContext): Promise<RedConfirm> {
    const [form] = await this.forms({ billId }, ctx);
    if (!form) throw new TaxGatewayError(TaxErrorCode.notFound, TaxMessages.notFound(`申请号为 ${billId} 的红字确认单`), 'nuonuo.OpeMplatform.queryInvoiceRedConfirm');
    return form;
  }

  async applyRedConfirm(req: RedConfirmApplyRequest, ctx?: TaxCallContext): Promise<RedConfirm> {
    const body: Obj = {
      billId: req.billNo,
      blueInvoiceLine: INVOICE_LINES[req.blueKind],
      applySource: SELLER,
      blueElecInvoiceNumber: req.blueInvoiceNo,
      blueInvoiceTime: req.blueIssueDate,
      sellerTaxNo: req.sellerTaxNumber,
      buyerName: req.buyerName,
      buyerTaxNo: req.buyerTaxNumber ?? '',
      vatUsage: String(req.vatUsage),
      redReason: String(req.redReason),
      orderNo: req.redOrderNo,
      ...(req.lines?.length
        ? {
            detailList: req.lines.map((l) => ({
              blueDetailIndex: String(l.blueLineNo),
              ...(l.quantity ? { num: l.quantity } : {}),
              ...(l.amountExcludingTax !== undefined ? { taxExcludedAmount: fenToYuan(l.amountExcludingTax) } : {}),
              ...(l.tax !== undefined ? { taxAmount: fenToYuan(l.tax) } : {}),
            })),
          }
        : {}),
    };
    await this.t.call('nuonuo.OpeMplatform.saveInvoiceRedConfirm', body, ctx);
    return this.one(req.billNo, ctx);
  }

  async queryRedConfirms(query: RedConfirmQuery, ctx?: TaxCallContext): Promise<RedConfirm[]> {
    let out: RedConfirm[];
    if (query.billIds || query.billNos) {
      // Our applications are sent with our bill number as their billId, so both are asked by billId.
      out = [];
      for (const billId of [...(query.billIds ?? []), ...(query.billNos ?? [])]) out.push(...(await this.forms({ billId }, ctx)));
    } else {
      const since = query.since ?? new Date(this.clock.now().getTime() - 30 * 86_400_000).toISOString();
      out = await this.forms({ billTimeStart: day(since), billTimeEnd: day(this.clock.now()) }, ctx);
    }
    return query.awaitingUs ? out.filter((c) => c.awaitingUs) : out;
  }

  async refreshRedConfirms(since: string, ctx?: TaxCallContext): Promise<RedConfirm[]> {
    await this.t.call('nuonuo.OpeMplatform.refreshInvoiceRedConfirm', { identity: SELLER, startTime: day(since), endTime: day(this.clock.now()) }, ctx);
    return this.queryRedConfirms({ since }, ctx);
  }

  async confirmRedConfirm(billId: string, accept: boolean, ctx?: TaxCallContext): Promise<RedConfirm> {
    await this.t.call('nuonuo.OpeMplatform.confirm', { billId, identity: SELLER, confirmAgreement: accept ? '1' : '0' }, ctx);
    return this.one(billId, ctx);
  }

  async cancelRedConfirm(billId: string, ctx?: TaxCallContext): Promise<RedConfirm> {
    await this.t.call('nuonuo.OpeMplatform.confirmInfoCancel', { billId, identity: SELLER }, ctx);
    return this.one(billId, ctx);
  }

  async sendInvoice(req: SendInvoiceRequest, ctx?: TaxCallContext): Promise<void> {
    if (!req.email && !req.mobile) throw new TaxGatewayError(TaxErrorCode.invalid, '请填写交付邮箱或手机号', 'nuonuo.OpeMplatform.deliveryInvoice');
    const [invoice] = await this.queryBy({ serialNos: [req.serialNo] }, ctx, false);
    if (!invoice || invoice.status !== 2 || !invoice.invoiceNo) throw new TaxGatewayError(TaxErrorCode.state, '只能交付已开具的发票', 'nuonuo.OpeMplatform.deliveryInvoice');
    await this.t.call(
      'nuonuo.OpeMplatform.deliveryInvoice',
      { taxnum: this.opts.taxNumber, invoiceCode: invoice.invoiceCode ?? '', invoiceNum: invoice.invoiceNo, phone: req.mobile ?? '', mail: req.email ?? '' },
      ctx,
    );
  }
}
