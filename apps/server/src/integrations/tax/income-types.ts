/**
 * Incoming invoices (进项) as the tax gateway sees them: collection from the tax digital account and
 * verification (查验). Both implementations (simulator, Nuonuo) answer with these types; the
 * incoming-invoice module talks to IncomeTaxGateway and never knows which one is behind it.
 *
 * Money is integer 分 (amount excluding tax + tax = total, per line and in sum); quantities, unit
 * prices and rates are decimal strings; dates 'YYYY-MM-DD' and times 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai).
 */

import type { TaxCallContext } from './call-context.js';
import type { IncomeBookingGateway } from './income-booking-types.js';

/**
 * Kinds as the tax service names them: 01 专票, 04 普票, 08 电子专票, 10 电子普票, 14 通行费电子普票,
 * 81/82 数电专/普, 85/86 数电纸质专/普, 51 铁路电子客票, 61 航空运输电子客票行程单, and 99 公路、水路等
 * 其他客票 (paper passenger tickets: no tax-service code, ours).
 */
export type IncomeKind = '01' | '04' | '08' | '10' | '14' | '81' | '82' | '85' | '86' | '51' | '61' | '99';
/** 0 正常, 1 失控, 2 作废, 3 已红冲, 7 部分红冲, 8 全额红冲. */
export type IncomeInvoiceState = 0 | 1 | 2 | 3 | 7 | 8;
/** 01 正常, 02 异常凭证, 03 疑点发票. */
export type IncomeRiskLevel = '01' | '02' | '03';

export interface IncomeInvoiceLine {
  name: string;
  spec: string;
  unit: string;
  /** Decimal strings; empty when the line has no quantity (services, tickets). */
  quantity: string;
  unitPrice: string;
  /** 分 */
  amountExcludingTax: number;
  /** Decimal string ("0.13"); "0" on tickets that print no tax. */
  taxRate: string;
  tax: number;
}

export interface IncomeParty {
  name: string;
  taxNumber: string;
}

export interface IncomingInvoice {
  /** The invoice's identity: the 20-digit 数电 number, else 发票代码 + 发票号码. */
  key: string;
  kind: IncomeKind;
  /** 10 (专票) or 12 digits; empty on 81 / 82 / 51 / 61. */
  invoiceCode: string;
  /** 8 digits, or the 20-digit 数电 number on 81 / 82 / 51 / 61. */
  invoiceNo: string;
  /** The 20-digit 数电 number (81, 82, 85, 86, 51, 61); empty otherwise. */
  allElectronicNo: string;
  /** 'YYYY-MM-DD' */
  issueDate: string;
  /** 'YYYY-MM-DD HH:mm:ss' */
  issuedAt: string;
  seller: IncomeParty;
  buyer: IncomeParty;
  amountExcludingTax: number;
  tax: number;
  total: number;
  /** 20 digits on 普票 (04, 10, 14, 86); empty otherwise. */
  checkCode: string;
  lines: IncomeInvoiceLine[];
  state: IncomeInvoiceState;
  riskLevel: IncomeRiskLevel;
  /** When the state or risk level last changed ('YYYY-MM-DD HH:mm:ss'); empty while never. */
  changedAt: string;
  /** Passenger tickets: the traveller and the day of travel. */
  passengerName?: string;
  travelDate?: string;
  remark: string;
}

export interface IncomeCollectQuery {
  /** 'YYYY-MM-DD', issue dates from … to inclusive, at most 366 days. */
  from: string;
  to: string;
  /** From the previous page's nextCursor. */
  cursor?: string;
  /** Default 200, at most 500. */
  pageSize?: number;
}

export interface IncomeCollectPage {
  invoices: IncomingInvoice[];
  /** Invoices in the whole window. */
  total: number;
  /** Present while more pages follow. */
  nextCursor?: string;
}

/**
 * What 查验 needs: 专票 (01, 08, 85) code, number, date and amount excluding tax; 普票 (04, 10, 14, 86)
 * code, number, date and the last 6 digits of the check code; 数电 (81, 82, 51, 61) the 20-digit
 * number, date and total.
 */
export interface IncomeVerifyQuery {
  invoiceCode?: string;
  invoiceNo: string;
  issueDate: string;
  /** 分, 专票 */
  amountExcludingTax?: number;
  /** 普票 */
  checkCodeLast6?: string;
  /** 分, 数电 */
  total?: number;
}

export type IncomeVerifyField = 'invoiceCode' | 'invoiceNo' | 'issueDate' | 'amountExcludingTax' | 'checkCodeLast6' | 'total';

export type IncomeVerifyResult =
  | { outcome: 'match'; invoice: IncomingInvoice; message: string; checksToday: number }
  | { outcome: 'notFound'; message: '查无此票'; checksToday: number }
  | { outcome: 'mismatch'; message: string; fields: IncomeVerifyField[]; checksToday: number };

/**
 * One 海关进口增值税专用缴款书 as the tax service holds it for the company (the 缴款单位): a 扣税凭证 of its own
 * (公告2019年第45号), collected by its own call (the bureau's interfaces list 海关缴款书 apart from invoices).
 */
export interface CustomsNotice {
  /** 缴款书号码 as printed (digits, letters and '-', e.g. 220120251000012345-L01). */
  noticeNo: string;
  /** 填发日期 'YYYY-MM-DD'. */
  fillDate: string;
  /** The customs office that filled it (海关, e.g. 中华人民共和国南京海关) and its code. */
  customsName: string;
  customsCode: string;
  /** The 缴款单位 (the company). */
  payer: IncomeParty;
  /** 分: 完税价格 (the value the VAT is levied on) and 税款金额 (the import VAT). */
  dutiablePrice: number;
  tax: number;
  /** 0 正常; 2 作废 (as invoices' states). */
  state: IncomeInvoiceState;
}

export interface CustomsCollectPage {
  notices: CustomsNotice[];
  /** Notices in the whole window. */
  total: number;
  nextCursor?: string;
}

/** Every call writes one sync log row (system tax) and throws TaxGatewayError on a refusal. */
export interface IncomeTaxGateway extends IncomeTickGateway, IncomeStatGateway, IncomeBookingGateway, IncomeStatusGateway {
  /** 进项发票采集: the tax digital account's incoming invoices issued in the window, paged. */
  collectIncoming(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<IncomeCollectPage>;
  /**
   * 海关缴款书采集: the customs notices filled for the company in the window (填发日期 from … to, the same window rules
   * as collectIncoming), paged.
   */
  collectCustoms(query: IncomeCollectQuery, ctx?: TaxCallContext): Promise<CustomsCollectPage>;
  /** 发票查验: the invoice's face and state, or 查无此票 / 信息不一致. Changes nothing (only the day's count). */
  verifyIncoming(query: IncomeVerifyQuery, ctx?: TaxCallContext): Promise<IncomeVerifyResult>;
}

// ---------------------------------------------------------------- ticking (勾选)

/** 1 抵扣, 2 出口退税, 3 代办退税, 4 不抵扣. */
export type TickUsage = 1 | 2 | 3 | 4;
/** 不抵扣 reasons: 1 非应税项目, 2 免税项目, 3 集体福利或个人消费, 4 非正常损失, 5 其他. */
export type NonDeductReason = 1 | 2 | 3 | 4 | 5;
/** 0 未统计, 1 已申请, 2 已确认. */
export type PeriodStatState = 0 | 1 | 2;

/** The current tax period (税款所属期) as the service reports it. */
export interface TickPeriod {
  /** 'YYYYMM' */
  period: string;
  /** The last moment ticks for the period are accepted (ISO UTC). */
  deadline: string;
  /** Issue dates that may be ticked in this period ('YYYY-MM-DD', inclusive). */
  windowFrom: string;
  windowTo: string;
  statState: PeriodStatState;
}

/** One invoice of a tick or undo batch: its number(s) as the service knows them. */
export interface TickItem {
  /** 10 or 12 digits; empty for 数电. */
  invoiceCode: string;
  /** 8 digits, or the 20-digit 数电 number. */
  invoiceNo: string;
  issueDate: string;
  /** 分: the effective tax (抵扣; the tax for the other usages). */
  effectiveTax: number;
}

export interface TickRequest {
  /** 'YYYYMM': the period the caller believes current (the service refuses another). */
  period: string;
  usage: TickUsage;
  /** Only with usage 4. */
  reason?: NonDeductReason;
  items: TickItem[];
}

export interface UntickRequest {
  period: string;
  usage: TickUsage;
  items: Array<Pick<TickItem, 'invoiceCode' | 'invoiceNo' | 'issueDate'>>;
}

/** The service's answer per invoice (same order as asked): accepted, or refused with its reason. */
export interface TickOutcome {
  /** The invoice's key (数电 number, else code + number). */
  key: string;
  accepted: boolean;
  message: string;
}

/**
 * One 海关进口增值税专用缴款书 of a customs tick or undo batch (公告2019年第45号: a 扣税凭证 ticked like an
 * invoice, through its own call: the bureau matches it against the customs data).
 */
export interface CustomsTickItem {
  /** 缴款书号码 as printed (digits, letters and '-', e.g. 530120261000123456-L01). */
  noticeNo: string;
  /** 填发日期 'YYYY-MM-DD'. */
  fillDate: string;
  /** 分: the effective tax (抵扣; the 税款金额 for 不抵扣). */
  effectiveTax: number;
}

export interface CustomsTickRequest {
  period: string;
  /** 1 抵扣 or 4 不抵扣 (customs notices have no rebate use). */
  usage: TickUsage;
  reason?: NonDeductReason;
  items: CustomsTickItem[];
}

export interface CustomsUntickRequest {
  period: string;
  usage: TickUsage;
  items: Array<Pick<CustomsTickItem, 'noticeNo' | 'fillDate'>>;
}

/** Ticking calls: one sync log row per call; a call-wide refusal (past the deadline, period confirmed, wrong period) throws TaxGatewayError. */
export interface IncomeTickGateway {
  /** 当前税款所属期: the period, its deadline, the window of dates and the statistics state. */
  tickPeriod(ctx?: TaxCallContext): Promise<TickPeriod>;
  /** 发票勾选 (抵扣 / 不抵扣 / 退税 / 代办退税), a batch: each invoice accepted or refused. */
  tickInvoices(req: TickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]>;
  /** 撤销勾选, a batch. */
  untickInvoices(req: UntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]>;
  /** 海关缴款书勾选: the customs notices' own call (their key: the 缴款书号码). */
  tickCustoms(req: CustomsTickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]>;
  /** 撤销海关缴款书勾选. */
  untickCustoms(req: CustomsUntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]>;
}

// ---------------------------------------------------------------- period statistics (抵扣统计 / 退税统计)

/** deduction: the 抵扣 ticks (usage 1); rebate: the 出口退税 and 代办退税 ticks (usages 2, 3). Each has its own state. */
export type StatScope = 'deduction' | 'rebate';

export interface StatRequest {
  /** 'YYYYMM' */
  period: string;
  scope: StatScope;
}

/** One row of the figures: the invoices of one kind ticked for the scope in the period. Money in 分. */
export interface StatKindRow {
  kind: string;
  count: number;
  amountExcludingTax: number;
  tax: number;
  /** 抵扣: the effective tax ticked; the rebates: the tax. */
  effectiveTax: number;
}

export type StatTotals = Omit<StatKindRow, 'kind'>;

/** 统计结果: the state of the scope's statistics for the period and the figures the service computed. */
export interface StatFigures {
  period: string;
  scope: StatScope;
  state: PeriodStatState;
  /** The period's deadline as the service reports it (ISO UTC). */
  deadline: string;
  rows: StatKindRow[];
  totals: StatTotals;
}

/**
 * 抵扣统计明细 / 已勾选发票查询 (issue 32 item 1): one page of the invoices the bureau holds ticked for a period
 * and scope — 抵扣 and 不抵扣 for 'deduction' (the ticks 申请统计 freezes together), 出口退税 and 代办退税 for
 * 'rebate' — in key order. Modelled on the vendors' statistics detail calls (docs/tax-gateway.md "The
 * bureau's counted invoices").
 */
export interface StatDetailQuery extends StatRequest {
  /** From 1 (default 1). */
  pageNo?: number;
  /** Default and at most STAT_DETAIL_PAGE_MAX (500). */
  pageSize?: number;
}

/** One invoice the bureau holds ticked in the period. Money in 分. */
export interface StatDetailItem {
  /** The invoice's key (数电 number, else code + number; a customs notice's 缴款书号码). */
  key: string;
  kind: string;
  invoiceCode: string;
  invoiceNo: string;
  issueDate: string;
  usage: TickUsage;
  reason: NonDeductReason | null;
  tax: number;
  /** 抵扣: the effective tax ticked; the other usages: the tax. */
  effectiveTax: number;
  /** When it was ticked at the bureau (ISO), '' when the bureau does not say. */
  tickedAt: string;
}

export interface StatDetailPage {
  items: StatDetailItem[];
  /** The invoices of the whole period and scope. */
  total: number;
  pageNo: number;
  pageSize: number;
}

/**
 * Statistics calls: one sync log row per call; a refusal throws TaxGatewayError with the bureau's code
 * and message (stat-rules.ts: 08 不能重复确认, 09 当前月与属期相等时不符合确认条件, 10 已确认统计不能撤销, …).
 * Each action answers the figures after it.
 */
export interface IncomeStatGateway {
  /** 统计结果查询. */
  statFigures(req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures>;
  /** 申请统计: 0 未统计 → 1 已申请. */
  applyStat(req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures>;
  /** 撤销申请: 1 → 0. */
  revokeStatApply(req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures>;
  /** 确认: 1 → 2 (抵扣: locks ticking of the period). */
  confirmStat(req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures>;
  /** 撤销确认: 2 → 1, until the period's deadline. */
  revokeStatConfirm(req: StatRequest, ctx?: TaxCallContext): Promise<StatFigures>;
  /** 抵扣统计明细 / 已勾选发票查询: one page of the invoices the bureau holds ticked for the period and scope. */
  statDetails(req: StatDetailQuery, ctx?: TaxCallContext): Promise<StatDetailPage>;
}

export * from './income-booking-types.js';

// ---------------------------------------------------------------- status re-check (发票状态查询)

/** One invoice of a status query: its number(s) as the service knows them. */
export interface StatusItem {
  /** 10 or 12 digits; empty for 数电. */
  invoiceCode: string;
  /** 8 digits, or the 20-digit 数电 number. */
  invoiceNo: string;
  issueDate: string;
}

/** The service's answer per invoice (same order as asked). */
export interface StatusOutcome {
  key: string;
  /** False: the service does not know the invoice (state and risk then 0 / '01', meaningless). */
  found: boolean;
  state: IncomeInvoiceState;
  riskLevel: IncomeRiskLevel;
  /** When the state or risk level last changed ('YYYY-MM-DD HH:mm:ss'); empty while never. */
  changedAt: string;
}

/** 发票状态查询 (issue 32): one sync log row per call; a call-wide refusal or a failed exchange throws TaxGatewayError. */
export interface IncomeStatusGateway {
  /** The current 发票状态 and 风险等级 of each invoice (a batch of at most STATUS_BATCH_MAX). Changes nothing. */
  queryIncomeStatus(items: StatusItem[], ctx?: TaxCallContext): Promise<StatusOutcome[]>;
}

export type { TaxCallContext } from './call-context.js';
