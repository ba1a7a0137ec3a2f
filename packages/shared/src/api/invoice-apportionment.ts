/**
 * Outgoing invoices, part 2 (issue 7): apportionment (分摊) of invoices to projects and to
 * orders/contracts, the moves between them, and the statistics. Money in 分; days YYYY-MM-DD.
 */
import { z } from '../zod-locale.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { optText } from './system.js';

/** What an allocation points at: a project (项目分摊) or an order/contract (订单分摊). */
export const AllocationDim = z.enum(['project', 'contract'], { message: '分摊类型不正确' });
export type AllocationDim = z.infer<typeof AllocationDim>;

const Day = isoDay();
const Month = text().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式应为YYYY-MM');
const Money = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');
const Reason = text({ message: '请填写变更原因' }).trim().min(2, '变更原因至少2个字').max(200, '变更原因不能超过200个字');
const Colour = z.union([z.literal(1), z.literal(2)], { message: '发票颜色不正确' });

export const ApportionmentQuery = PageQuery.extend({
  /** Issue days, inclusive. */
  from: Day.optional(),
  to: Day.optional(),
  targetId: Uuid.optional(),
  /** Code or name of the project / contract. */
  target: optText(100),
  /** Invoice number, 数电 number, order number or buyer. */
  keyword: optText(100),
  colour: Colour.optional(),
  tempOnly: z.boolean().optional(),
});
export type ApportionmentQuery = z.infer<typeof ApportionmentQuery>;

export interface AllocationRow {
  id: string;
  invoiceId: string;
  dim: AllocationDim;
  targetId: string;
  targetCode: string;
  targetName: string;
  targetTemp: boolean;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  invoiceNo: string;
  orderNo: string;
  kind: number;
  colour: number;
  buyerName: string;
  issueDate: string | null;
  invoiceAmountIncl: number;
  /** Other allocations of the same invoice on this dimension. */
  shareCount: number;
  createdByName: string;
  updatedAt: string;
}

export interface AmountTotals {
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export interface ApportionmentPage {
  items: AllocationRow[];
  total: number;
  totals: AmountTotals;
}

export const AllocationItem = z.object({
  targetId: Uuid,
  amountExcl: Money,
  tax: Money,
  amountIncl: Money,
});
export type AllocationItem = z.infer<typeof AllocationItem>;

export const AllocationSetBody = z.object({
  invoiceId: Uuid,
  dim: AllocationDim,
  items: z.array(AllocationItem).min(1, '请至少分摊到一个对象').max(50, '一张发票最多分摊到50个对象'),
  reason: Reason,
});
export type AllocationSetBody = z.infer<typeof AllocationSetBody>;

/** project-change / contract-change: move (part of) an allocation to another target. */
export const AllocationMoveBody = z.object({
  allocationId: Uuid,
  toTargetId: Uuid,
  /** The part moved (价税合计, 分, positive even on red invoices); the whole allocation when equal to it. */
  amountIncl: z.number({ message: '请填写变更金额' }).int('金额须精确到分').positive('变更金额须大于0').max(1e13, '金额超出范围'),
  reason: Reason,
});
export type AllocationMoveBody = z.infer<typeof AllocationMoveBody>;

export const InvoiceRef = z.object({ invoiceId: Uuid });

export interface AllocationSnapshot {
  targetId: string;
  name: string;
  amountIncl: number;
}

export interface AllocationChangeRow {
  id: string;
  invoiceId: string;
  invoiceNo: string;
  dim: AllocationDim;
  /** default 开票自动分摊, set 调整分摊, move 变更, match 临时项目匹配 */
  action: 'default' | 'set' | 'move' | 'match';
  fromName: string;
  toName: string;
  amountIncl: number;
  before: AllocationSnapshot[];
  after: AllocationSnapshot[];
  reason: string;
  userName: string;
  createdAt: string;
}

export interface InvoiceApportionment {
  invoice: {
    id: string;
    invoiceNo: string;
    orderNo: string;
    kind: number;
    colour: number;
    status: number;
    buyerName: string;
    issueDate: string | null;
    amountExcl: number;
    tax: number;
    amountIncl: number;
    blueInvoiceId: string | null;
    blueInvoiceNo: string;
  };
  project: AllocationRow[];
  contract: AllocationRow[];
  history: AllocationChangeRow[];
}

export const AllocationChangeQuery = PageQuery.extend({
  dim: AllocationDim.optional(),
  invoiceId: Uuid.optional(),
  keyword: optText(100),
  from: Day.optional(),
  to: Day.optional(),
});
export type AllocationChangeQuery = z.infer<typeof AllocationChangeQuery>;

export const TargetLookup = z.object({ dim: AllocationDim, keyword: optText(100), realOnly: z.boolean().optional() });
export type TargetLookup = z.infer<typeof TargetLookup>;

export interface TargetOption {
  id: string;
  code: string;
  name: string;
  customer: string;
  temp: boolean;
  amount: number;
}

// ---------------------------------------------------------------- statistics

export const StatisticsQuery = PageQuery.extend({
  fromMonth: Month.optional(),
  toMonth: Month.optional(),
  keyword: optText(100),
});
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

export const ContractStatisticsQuery = StatisticsQuery.extend({
  contractType: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: '合同类型不正确' }).optional(),
  /** Only contracts invoiced beyond their amount. */
  overOnly: z.boolean().optional(),
});
export type ContractStatisticsQuery = z.infer<typeof ContractStatisticsQuery>;

export interface ChartPoint {
  name: string;
  value: number;
  extra?: number;
}

export interface StatisticsPage<T> {
  items: T[];
  total: number;
  totals: AmountTotals & { invoiceCount: number };
  chart: ChartPoint[];
}

export interface ProjectMonthRow {
  projectId: string;
  projectCode: string;
  projectName: string;
  month: string;
  invoiceCount: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export interface TempInvoiceRow {
  allocationId: string | null;
  invoiceId: string;
  invoiceNo: string;
  orderNo: string;
  kind: number;
  colour: number;
  buyerName: string;
  issueDate: string | null;
  targetId: string | null;
  targetCode: string;
  targetName: string;
  invoiceAmountIncl: number;
  /** The part still on the temporary target (or not allocated to a real one). */
  amountIncl: number;
  amountExcl: number;
  tax: number;
}

export interface ContractStatisticsRow {
  contractId: string;
  contractCode: string;
  contractName: string;
  contractType: number;
  projectName: string;
  customer: string;
  contractAmount: number;
  invoiceCount: number;
  invoiced: number;
  remaining: number;
  /** Invoiced / contract amount in basis points (10000 = 100%); null when the contract has no amount. */
  percentBp: number | null;
}

export interface ContractStatisticsTotals extends AmountTotals {
  invoiceCount: number;
  contractAmount: number;
  remaining: number;
}

export const TempMatchBody = z.object({
  invoiceId: Uuid,
  /** The temporary project (or contract) allocation to match; null: the unallocated part (contracts). */
  allocationId: Uuid.nullable(),
  toTargetId: Uuid,
  reason: text().trim().max(200, '说明不能超过200个字').default(''),
});
export type TempMatchBody = z.infer<typeof TempMatchBody>;
