/**
 * Passenger transport deduction (issue 14, 计算抵扣 /invoice/calc-deduction/statistic): the period's
 * passenger tickets with the computed tax (transport-rules.ts), totals by kind and month, the export.
 * Money in 分.
 */
import { z } from '../zod-locale.js';
import { TransportKind, TransportReason } from '../transport-rules.js';
import { PageQuery, text } from './common.js';
import { incomeOneOf } from './income.js';
import { optText } from './system.js';

/** A tax month, YYYYMM (202611). */
export const TaxPeriod = text({ message: '请选择所属期' }).regex(/^\d{4}(0[1-9]|1[0-2])$/, '所属期格式应为YYYYMM');

const TransportFilterShape = {
  period: TaxPeriod,
  transportKind: incomeOneOf(TransportKind.values, '票据种类不正确').optional(),
  /** 旅客姓名 contains. */
  passengerName: optText(50),
  sellerName: optText(100),
  /** true: only the deductible; false: only the others. */
  deductible: z.boolean({ message: '是否可抵扣须为是或否' }).optional(),
  reason: incomeOneOf(TransportReason.values, '不可抵扣原因不正确').optional(),
};

export const TransportQuery = PageQuery.extend(TransportFilterShape);
export type TransportQuery = z.infer<typeof TransportQuery>;
export const TransportExportQuery = PageQuery.pick({ sort: true }).extend(TransportFilterShape);
export type TransportExportQuery = z.infer<typeof TransportExportQuery>;
export type TransportFilter = TransportExportQuery;

export const TransportSummaryQuery = z
  .object({ fromPeriod: TaxPeriod, toPeriod: TaxPeriod })
  .superRefine((b, ctx) => {
    if (b.fromPeriod > b.toPeriod) ctx.addIssue({ code: 'custom', message: '开始所属期不能晚于结束所属期', path: ['toPeriod'] });
    const months = (Number(b.toPeriod.slice(0, 4)) - Number(b.fromPeriod.slice(0, 4))) * 12 + Number(b.toPeriod.slice(4)) - Number(b.fromPeriod.slice(4)) + 1;
    if (months > 24) ctx.addIssue({ code: 'custom', message: '统计范围最多24个月', path: ['toPeriod'] });
  });
export type TransportSummaryQuery = z.infer<typeof TransportSummaryQuery>;

export interface TransportRow {
  id: string;
  /** The pool kind (rail, air, road, 10, 82). */
  kind: string;
  transportKind: string;
  invoiceCode: string;
  invoiceNo: string;
  digitalNo: string;
  issueDate: string;
  sellerName: string;
  passengerName: string;
  travelDate: string;
  international: boolean;
  amountIncl: number;
  /** The tax printed on the document. */
  printedTax: number;
  /** Air: 票价 and 燃油附加费 (分). */
  fare: number;
  fuel: number;
  basis: number;
  formula: string;
  /** The tax the formula gives. */
  formulaTax: number;
  deductible: boolean;
  /** The deductible tax (0 when not deductible). */
  tax: number;
  reason: string | null;
  reimbursed: boolean;
  useKind: string;
  docNo: string;
}

export interface TransportTotals {
  /** Every ticket of the filter. */
  count: number;
  /** The deductible ones. */
  deductibleCount: number;
  basis: number;
  tax: number;
}

export interface TransportKindTotal {
  transportKind: string;
  count: number;
  basis: number;
  tax: number;
}

export interface TransportPage {
  items: TransportRow[];
  total: number;
  totals: TransportTotals;
  /** The deductible tickets of the filter by kind. */
  byKind: TransportKindTotal[];
}

export interface TransportMonthTotal {
  period: string;
  count: number;
  basis: number;
  tax: number;
  byKind: TransportKindTotal[];
}

export interface TransportSummary {
  months: TransportMonthTotal[];
  byKind: TransportKindTotal[];
  total: { count: number; basis: number; tax: number };
}
