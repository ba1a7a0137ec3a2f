/**
 * The tax gateway (同步税务端): what the invoice module sees of the tax service (Nuonuo open
 * platform, DOMAIN.md "Outgoing invoices"). Two implementations: the Nuonuo client and the simulator
 * (the default). Nothing here says which one is behind it.
 *
 * Conventions: money is integer 分 (negative on red invoices); quantities, unit prices and tax rates
 * are decimal strings ("3", "1234.56789012", "0.13"); dates are 'YYYY-MM-DD' (Asia/Shanghai) and
 * instants ISO-8601 UTC text.
 */
import type { EnumValue, InvoiceColour, InvoiceKind, InvoiceStatus } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import type { SyncLogService } from '../../platform/synclog.js';
import type { IncomeTaxGateway, TaxCallContext, TickOutcome, TickRequest, UntickRequest } from './income-types.js';

export type TaxGatewayMode = 'simulator' | 'nuonuo';
export type InvoiceKindCode = EnumValue<typeof InvoiceKind>; // 1 c, 2 s, 9 bs, 10 pc
export type InvoiceColourCode = EnumValue<typeof InvoiceColour>; // 1 blue, 2 red
/** Statuses the tax service reports: 20 creating, 21 signing, 2 created, 22/24 failed, 31 canceling, 3 cancelled. */
export type TaxInvoiceStatus = Exclude<EnumValue<typeof InvoiceStatus>, 0>;
/** 0 none, 31 建安 (construction: project name and site), 32 real estate. */
export type SpecialFactor = 0 | 31 | 32;
/** 1 销货退回, 2 开票有误, 3 服务中止, 4 销售折让. */
export type RedReason = 1 | 2 | 3 | 4;
/** 1 抵扣, 2 出口退税, 3 代办退税, 4 不抵扣. */
export type VatUsage = 1 | 2 | 3 | 4;
/** 0 normal, 1 discount line (折扣行), 2 discounted line (被折扣行). */
export type LineProperty = 0 | 1 | 2;
/** Preferential policy (优惠政策): none, 免税, 不征税, a simplified rate (简易征收). */
export type PolicyFlag = 'none' | 'exempt' | 'nonTaxable' | 'simplified';

/** One party of the invoice. Address + phone together <= 100 characters (checked by the caller). */
export interface TaxParty {
  name: string;
  /** 统一社会信用代码 / 纳税人识别号; optional only for an individual buyer of an ordinary invoice. */
  taxNumber?: string;
  address?: string;
  phone?: string;
  bankName?: string;
  bankAccount?: string;
}

export interface TaxInvoiceLine {
  goodsName: string;
  /** 19-digit 税收分类编码. */
  taxCode: string;
  spec?: string;
  unit?: string;
  /** Decimal strings, up to 8 places; negative quantity on red invoices. Omitted for a line without quantity. */
  quantity?: string;
  unitPrice?: string;
  /** Whether unitPrice includes tax (含税价). */
  priceIncludesTax: boolean;
  /** Decimal string: "0.13", "0.09", "0.06", "0.05", "0.03", "0.015", "0.01", "0". */
  taxRate: string;
  /** 分: excluding tax + tax = including tax exactly. */
  amountExcludingTax: number;
  tax: number;
  amountIncludingTax: number;
  lineProperty: LineProperty;
  policyFlag: PolicyFlag;
}

export interface TaxInvoiceRequest {
  /** Our order number: unique per company, the idempotency key towards the tax service. */
  orderNo: string;
  /** 'YYYY-MM-DD'; the service's date when omitted. */
  orderDate?: string;
  kind: InvoiceKindCode;
  colour: InvoiceColourCode;
  buyer: TaxParty & {
    /** Delivery of the issued invoice (交付). */
    email?: string;
    mobile?: string;
  };
  seller: TaxParty;
  clerk: string;
  payee?: string;
  checker?: string;
  remark?: string;
  specialFactor: SpecialFactor;
  /** With special factor 31 (建安): 建筑服务发生地 and 建筑项目名称. */
  projectName?: string;
  projectSite?: string;
  /** Red invoices only. */
  redReason?: RedReason;
  /** Red invoices: the blue invoice's number (20-digit 数电 number, or the paper invoice number). */
  blueInvoiceNo?: string;
  /** Red invoices of paper kinds: the blue invoice's code. */
  blueInvoiceCode?: string;
  lines: TaxInvoiceLine[];
}

export interface SubmitResult {
  orderNo: string;
  /** The service's serial number (流水号): the key of every later call. */
  serialNo: string;
  /** True when the order number was already known (E9106) and the serial came from a query. */
  duplicate: boolean;
}

export interface TaxInvoiceFile {
  type: 'pdf' | 'ofd' | 'xml';
  fileName: string;
  content: Buffer;
}

export interface TaxInvoiceResult {
  serialNo: string;
  orderNo: string;
  status: TaxInvoiceStatus;
  /** The service's own words for the status (e.g. 开票完成, 开票失败：…). */
  statusMessage: string;
  /** With 22 / 24: why (shown on the retry screen). */
  failCause?: string;
  kind: InvoiceKindCode;
  colour: InvoiceColourCode;
  /** From 2 created on. Paper invoices: invoiceCode + invoiceNo; 数电: the 20-digit allElectronicNo (invoiceNo equals it). */
  invoiceNo?: string;
  invoiceCode?: string;
  allElectronicNo?: string;
  /** 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai), as the service reports it. */
  issuedAt?: string;
  amountExcludingTax?: number;
  tax?: number;
  amountIncludingTax?: number;
  /** Present with status 2 (PDF always; OFD/XML when the service has them). */
  files: TaxInvoiceFile[];
}

export interface CancelRequest {
  serialNo: string;
  /** When given, 数电 kinds (9, 10) are refused before anything is sent. */
  kind?: InvoiceKindCode;
  invoiceNo: string;
  invoiceCode?: string;
  reason: string;
}

export interface CancelResult {
  serialNo: string;
  status: Extract<TaxInvoiceStatus, 3 | 31>;
}

/** Bureau states of a red-letter confirmation (红字确认单), plus Nuonuo's 15 applying and 16 failed. */
export type RedConfirmState = '01' | '02' | '03' | '04' | '05' | '06' | '07' | '08' | '09' | '10' | '15' | '16';

export interface RedConfirmLineChoice {
  /** 1-based line number on the blue invoice (partial reversal keeps the blue order). */
  blueLineNo: number;
  /** Negative decimal string; omitted when the whole line is reversed. */
  quantity?: string;
  /** Negative 分; omitted when the whole line is reversed. */
  amountExcludingTax?: number;
  tax?: number;
}

export interface RedConfirmApplyRequest {
  /** Our bill number (idempotency key of the application). */
  billNo: string;
  /** The blue 数电 invoice: its 20-digit number and issue date 'YYYY-MM-DD'. */
  blueInvoiceNo: string;
  blueIssueDate: string;
  /** 9 bs or 10 pc. */
  blueKind: InvoiceKindCode;
  redReason: RedReason;
  vatUsage: VatUsage;
  sellerTaxNumber: string;
  buyerName: string;
  buyerTaxNumber?: string;
  /** Empty / omitted: the whole invoice. */
  lines?: RedConfirmLineChoice[];
  /** The red invoice's order number (issued automatically at 01 / 04). */
  redOrderNo: string;
}

export interface RedConfirm {
  /** The service's id of the confirmation (billId). */
  billId: string;
  /** Our bill number (ours only; empty for applications entered by the buyer). */
  billNo: string;
  /** The bureau's 红字确认单编号 once known. */
  confirmNo?: string;
  state: RedConfirmState;
  stateMessage: string;
  /** Who entered it: 0 seller (us), 1 buyer. */
  applicant: 0 | 1;
  /** True when the other side entered it and it waits for our confirm / refuse (state 03 for a seller). */
  awaitingUs: boolean;
  blueInvoiceNo: string;
  blueIssueDate: string;
  redReason: RedReason;
  vatUsage?: VatUsage;
  buyerName: string;
  buyerTaxNumber?: string;
  /** Negative 分. */
  amountExcludingTax: number;
  tax: number;
  lines: Array<{ blueLineNo: number; goodsName: string; quantity?: string; amountExcludingTax: number; tax: number; taxRate: string }>;
  /** When the red invoice was issued (states 01 / 04): fetch it with queryInvoices([redSerialNo]). */
  redSerialNo?: string;
  redInvoiceNo?: string;
  failCause?: string;
  /** ISO instant of the application. */
  appliedAt: string;
}

export interface RedConfirmQuery {
  billIds?: string[];
  /**
   * Our own applications by our bill number (the apply's idempotency key): whether an application cut short
   * (a crash before its answer was recorded) reached the service. Nuonuo: the application's billId is our
   * bill number, so this is queryInvoiceRedConfirm by billId.
   */
  billNos?: string[];
  /** Applications entered since (ISO instant); with refresh, what the bureau holds since then. */
  since?: string;
  /** Only those awaiting our confirmation. */
  awaitingUs?: boolean;
}

export interface SendInvoiceRequest {
  serialNo: string;
  /** At least one of email / mobile. */
  email?: string;
  mobile?: string;
}

// Who acts on one call: defined beside the incoming-invoice calls (income-types.ts), which this file extends.
export type { TaxCallContext } from './income-types.js';

/**
 * Every method writes one integrated sync log row (system tax) per exchange and throws
 * TaxGatewayError on a refusal or a failed exchange. The incoming-invoice calls (collection, 查验)
 * come from IncomeTaxGateway (income-types.ts): a module that only needs those depends on that part.
 */
export interface TaxGateway extends IncomeTaxGateway {
  readonly mode: TaxGatewayMode;
  /** The service's time: deadlines it answers are judged against it (the simulator's may be set, TAX_SIMULATOR_NOW). */
  now(): Date;
  /** requestBillingNew. A repeated order number (E9106) is answered by querying: the same serial, duplicate = true. */
  submitInvoice(req: TaxInvoiceRequest, ctx?: TaxCallContext): Promise<SubmitResult>;
  /** queryInvoiceResult by serial numbers (unknown ones are left out of the answer). */
  queryInvoices(serialNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]>;
  /** queryInvoiceResult by our order numbers. */
  queryInvoicesByOrderNo(orderNos: string[], ctx?: TaxCallContext): Promise<TaxInvoiceResult[]>;
  /** reInvoice: re-issue a signFailed (24) invoice on the same serial; 20 a day per serial, then E9613. */
  reissueInvoice(serialNo: string, ctx?: TaxCallContext): Promise<void>;
  /** invoiceCancellation: paper / 税控 kinds only (数电 refused: issue a red invoice). */
  cancelInvoice(req: CancelRequest, ctx?: TaxCallContext): Promise<CancelResult>;
  /** saveInvoiceRedConfirm. */
  applyRedConfirm(req: RedConfirmApplyRequest, ctx?: TaxCallContext): Promise<RedConfirm>;
  /** queryInvoiceRedConfirm. */
  queryRedConfirms(query: RedConfirmQuery, ctx?: TaxCallContext): Promise<RedConfirm[]>;
  /** refreshInvoiceRedConfirm: download from the bureau what was entered since (buyers' applications included), then query. */
  refreshRedConfirms(since: string, ctx?: TaxCallContext): Promise<RedConfirm[]>;
  /** confirm: accept (true) or refuse (false) one that awaits us. */
  confirmRedConfirm(billId: string, accept: boolean, ctx?: TaxCallContext): Promise<RedConfirm>;
  /** confirmInfoCancel: withdraw our own application. */
  cancelRedConfirm(billId: string, ctx?: TaxCallContext): Promise<RedConfirm>;
  /** Deliver an issued invoice to the buyer by email and/or SMS. */
  sendInvoice(req: SendInvoiceRequest, ctx?: TaxCallContext): Promise<void>;
  /** The simulator's controls (simulator mode only; absent with Nuonuo): what happens at the bureau outside the product. */
  readonly simulator?: TaxSimulatorControls;
}

/**
 * The simulated tax service's controls for demos and tests (issue 32 item 1): ticks the clerk makes on the
 * bureau's platform outside the product, which our ledger does not know of. No sync log rows (not our calls).
 */
export interface TaxSimulatorControls {
  tickOutside(req: TickRequest): Promise<TickOutcome[]>;
  untickOutside(req: UntickRequest): Promise<TickOutcome[]>;
}

export interface SimulatorOptions {
  /** Milliseconds from submit to signing and again from signing to the result (default 3000). */
  delayMs?: number;
  /** 0..1: share of requests that fail with 22 or 24 (default 0). */
  failureRate?: number;
  /**
   * Order numbers whose submission fails with the given status whatever the buyer: how the demo
   * company gets its failed invoices without a buyer named after the trigger. Re-issues draw as usual.
   */
  failOrders?: Readonly<Record<string, 22 | 24>>;
  /** The seller's tax number: scopes what the simulator shows, like Nuonuo's userTax (all sellers when absent). */
  taxNumber?: string;
  /**
   * The company (the invoice settings' seller name and tax number): the buyer of the incoming invoices
   * the simulator plays its suppliers for. Incoming calls are refused without it.
   */
  company?: { name: string; taxNumber: string };
}

export interface NuonuoOptions {
  /** Default https://sdk.nuonuo.com/open/v1/services (sandbox https://sandbox.nuonuocs.cn/open/v1/services). */
  endpoint?: string;
  /** Default https://open.nuonuo.com/accessToken. */
  tokenUrl?: string;
  appKey: string;
  appSecret: string;
  /** The seller's tax number (userTax). */
  taxNumber: string;
  /** Per-request timeout (default 15000 ms). */
  timeoutMs?: number;
}

export type TaxGatewayConfig =
  | { mode: 'simulator'; simulator?: SimulatorOptions }
  | { mode: 'nuonuo'; nuonuo: NuonuoOptions };

/** Time and chance, injectable so tests drive them. */
export interface TaxClock {
  now(): Date;
}

export interface TaxGatewayDeps {
  db: Db;
  synclog: SyncLogService;
  clock?: TaxClock;
  /** Uniform [0, 1) — the simulator's failure draws. */
  random?: () => number;
  /** The Nuonuo client's HTTP (tests may pass their own). */
  fetch?: typeof fetch;
}
