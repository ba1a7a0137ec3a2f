/**
 * The rules of incoming-invoice collection and verification both implementations apply before
 * anything is sent: the 366-day window, the fields 查验 needs per kind, the day-after and 5-year rules.
 */
import { COLLECT_MAX_DAYS, CollectMessages } from '@zhyy/shared';
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import type { IncomeCollectQuery, IncomeInvoiceState, IncomeKind, IncomeRiskLevel, IncomeVerifyField, IncomeVerifyQuery } from './income-types.js';

export const MAX_WINDOW_DAYS = COLLECT_MAX_DAYS;
export const DEFAULT_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 500;
/** The tax service's limit: 查验 of one invoice at most 5 times a day. */
export const VERIFY_DAILY_LIMIT = 5;
export const VERIFY_YEARS = 5;

export const IncomeMessages = {
  windowTooLong: CollectMessages.windowTooLong,
  windowReversed: CollectMessages.windowReversed,
  badDate: (label: string) => `${label}格式不正确，应为YYYY-MM-DD`,
  badCursor: '翻页标记无效，请从第一页重新采集',
  badPageSize: `每页条数须为1至${MAX_PAGE_SIZE}`,
  sameDay: '发票开具当日不能查验，请于开票次日起查验',
  tooOld: `只能查验最近${VERIFY_YEARS}年内开具的发票`,
  verifyLimit: `该发票今日查验次数已达上限（${VERIFY_DAILY_LIMIT}次），请明日再查`,
  notFound: '查无此票',
  matched: '查验成功，发票信息一致',
  mismatch: (labels: string[]) => `信息不一致：${labels.join('、')}与税务端不符`,
} as const;

/** The Chinese words of the invoice states and risk levels the service reports. */
export const INCOME_STATE_LABELS: Record<IncomeInvoiceState, string> = { 0: '正常', 1: '失控', 2: '作废', 3: '已红冲', 7: '部分红冲', 8: '全额红冲' };
export const RISK_LEVEL_LABELS: Record<IncomeRiskLevel, string> = { '01': '正常', '02': '异常凭证', '03': '疑点发票' };

export const VERIFY_FIELD_LABELS: Record<IncomeVerifyField, string> = {
  invoiceCode: '发票代码',
  invoiceNo: '发票号码',
  issueDate: '开票日期',
  amountExcludingTax: '不含税金额',
  checkCodeLast6: '校验码后6位',
  total: '价税合计',
};

/** 专票 kinds: verified by the amount excluding tax. */
export const SPECIAL_KINDS: ReadonlySet<IncomeKind> = new Set(['01', '08', '85']);
/** 普票 kinds with a 20-digit check code: verified by its last 6 digits. */
export const ORDINARY_KINDS: ReadonlySet<IncomeKind> = new Set(['04', '10', '14', '86']);
/** Kinds whose only number is the 20-digit 数电 number (no code). */
export const DIGITAL_ONLY_KINDS: ReadonlySet<IncomeKind> = new Set(['81', '82', '51', '61']);

const DAY_MS = 86_400_000;
const invalid = (message: string, method?: string) => new TaxGatewayError(TaxErrorCode.invalid, message, method);

/** Whether 'YYYY-MM-DD' is a real calendar day. */
export function isDay(s: unknown): s is string {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The window's checks; answers the page size. */
export function checkCollectQuery(q: IncomeCollectQuery, method?: string): number {
  if (!isDay(q.from)) throw invalid(IncomeMessages.badDate('采集开始日期'), method);
  if (!isDay(q.to)) throw invalid(IncomeMessages.badDate('采集结束日期'), method);
  const days = dayNumber(q.to) - dayNumber(q.from) + 1;
  if (days < 1) throw invalid(IncomeMessages.windowReversed, method);
  if (days > MAX_WINDOW_DAYS) throw invalid(IncomeMessages.windowTooLong, method);
  const size = q.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw invalid(IncomeMessages.badPageSize, method);
  return size;
}

/** Which rule the query asks for: 数电 (20-digit number), or by code + number (专票 / 普票, told by the invoice's kind). */
export type VerifyForm = 'digital' | 'coded';

/**
 * The query's own checks and the service's date rules (from the day after issue, for the last 5
 * years; `today` is the service's day, Asia/Shanghai).
 */
export function checkVerifyQuery(q: IncomeVerifyQuery, today: string, method?: string): VerifyForm {
  if (!/^(\d{8}|\d{20})$/.test(q.invoiceNo ?? '')) throw invalid('发票号码须为8位或20位数字', method);
  if (!isDay(q.issueDate)) throw invalid(IncomeMessages.badDate('开票日期'), method);
  const form: VerifyForm = q.invoiceNo.length === 20 ? 'digital' : 'coded';
  if (form === 'digital') {
    if (q.total === undefined) throw invalid('数电发票请按发票号码、开票日期和价税合计查验', method);
    if (!Number.isSafeInteger(q.total)) throw invalid('价税合计须为以分计的整数', method);
  } else {
    if (!/^(\d{10}|\d{12})$/.test(q.invoiceCode ?? '')) throw invalid('请填写10位或12位发票代码', method);
    if (q.amountExcludingTax === undefined && q.checkCodeLast6 === undefined) throw invalid('专票请填写不含税金额，普票请填写校验码后6位', method);
    if (q.amountExcludingTax !== undefined && !Number.isSafeInteger(q.amountExcludingTax)) throw invalid('不含税金额须为以分计的整数', method);
    if (q.checkCodeLast6 !== undefined && !/^\d{6}$/.test(q.checkCodeLast6)) throw invalid('校验码后6位须为6位数字', method);
  }
  if (q.issueDate >= today) throw invalid(IncomeMessages.sameDay, method);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const earliest = dayOf(Date.UTC(y - VERIFY_YEARS, m - 1, d) / DAY_MS);
  if (q.issueDate < earliest) throw invalid(IncomeMessages.tooOld, method);
  return form;
}

/** The invoice key a query names: the 20-digit number, else code + number. */
export const queryKey = (q: IncomeVerifyQuery) => (q.invoiceNo.length === 20 ? q.invoiceNo : `${q.invoiceCode ?? ''}${q.invoiceNo}`);
