/**
 * 成本管理 (issue 16): the calls of the /cost group. SPEC section 7 names /cost-price/list and the
 * /cost-order/* calls; the rest are ours (docs/cost.md). Money in 分 (integers); unit prices are decimal
 * strings in yuan excluding tax (up to 8 places), quantities decimal strings (up to 4); months 'YYYY-MM'.
 * The rules (price windows, line arithmetic, states, closing) are in ../cost-rules.ts.
 */
import { z } from '../zod-locale.js';
import { COST_MONTH, COST_TAX_RATES, CostCategory, CostOrderSource, CostOrderState } from '../cost-rules.js';
import { isoDay, PageQuery, text, Uuid } from './common.js';

const oneOf = <V extends number | string>(values: readonly V[], message: string) =>
  z.union([z.number(), z.string()], { message }).refine((v): v is V => values.includes(v as V), message);
const reqText = (label: string, max: number) => text({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}不能超过${max}个字符`);
const optText = (label: string, max: number) => text().trim().max(max, `${label}不能超过${max}个字符`).optional();
const Fen = z.number({ error: '金额须为数字' }).int('金额须精确到分').min(0, '金额不能为负数').max(1e13, '金额超出范围');

export const CostMonth = text({ error: '请选择月份' }).regex(COST_MONTH, '月份格式须为YYYY-MM');
export const CostItemCode = text({ error: '请填写成本项编码' }).trim().regex(/^[0-9A-Za-z._-]{1,30}$/, '成本项编码为1至30位字母、数字、点、下划线或短横线');
/** Yuan excluding tax, > 0, at most 8 decimal places. */
export const CostUnitPrice = text({ error: '请填写不含税单价' })
  .trim()
  .regex(/^\d{1,10}(\.\d{1,8})?$/, '不含税单价须为不超过8位小数的正数')
  .refine((v) => Number(v) > 0, '不含税单价须大于0');
/** > 0, at most 4 decimal places. */
export const CostQuantity = text({ error: '请填写数量' })
  .trim()
  .regex(/^\d{1,9}(\.\d{1,4})?$/, '数量须为不超过4位小数的正数')
  .refine((v) => Number(v) > 0, '数量须大于0');

// ---- The price list (/cost-price/*, 成本设置; the list also feeds the order editor) ----

export const CostPriceQuery = PageQuery.extend({
  keyword: optText('关键字', 50),
  category: oneOf(CostCategory.values, '费用类别不正确').optional(),
  /** In force on this day. */
  on: isoDay().optional(),
});
export type CostPriceQuery = z.infer<typeof CostPriceQuery>;

export const CostPriceBody = z
  .object({
    /** Absent: a new window. */
    id: Uuid.optional(),
    itemCode: CostItemCode,
    itemName: reqText('成本项名称', 50),
    category: oneOf(CostCategory.values, '费用类别不正确'),
    spec: text().trim().max(50, '规格不能超过50个字符').default(''),
    unit: reqText('单位', 10),
    unitPrice: CostUnitPrice,
    taxRate: oneOf(COST_TAX_RATES, '税率不正确'),
    validFrom: isoDay(),
    /** Empty or absent: open-ended. */
    validTo: z.union([isoDay(), z.literal(''), z.null()]).optional(),
  })
  .refine((b) => !b.validTo || b.validTo >= b.validFrom, { message: '失效日期不能早于生效日期', path: ['validTo'] });
export type CostPriceBody = z.infer<typeof CostPriceBody>;
export const CostPriceKey = z.object({ itemCode: CostItemCode, spec: text().trim().max(50).default(''), unit: reqText('单位', 10) });
export type CostPriceKey = z.infer<typeof CostPriceKey>;
/** Prices in force for an order's month (the line editor's choices). */
export const CostPriceOptionsQuery = z.object({ month: CostMonth, keyword: optText('关键字', 50) });
export type CostPriceOptionsQuery = z.infer<typeof CostPriceOptionsQuery>;
/** The project choices of the cost pages: up to 50 by code or name. */
export const CostProjectQuery = z.object({ keyword: optText('关键字', 50) });
export interface CostProjectOption {
  id: string;
  code: string;
  name: string;
}
export const CostFileBody = z.object({ file: text({ message: '请选择文件' }).min(1, '请选择文件').max(7_000_000, '文件不能超过5MB') });

export interface CostPriceRow {
  id: string;
  itemCode: string;
  itemName: string;
  category: string;
  spec: string;
  unit: string;
  unitPrice: string;
  taxRate: string;
  validFrom: string;
  validTo: string | null;
  /** Lines of orders priced from it (such a window can be shortened only to cover their months). */
  usedCount: number;
  updatedBy: string;
  updatedAt: string;
}
/** One imported row's result (the sheet's row number, 1-based with the header at 1). */
export interface CostImportRowResult {
  row: number;
  ok: boolean;
  message: string;
}
export interface CostImportResult {
  total: number;
  succeeded: number;
  failed: number;
  rows: CostImportRowResult[];
}

// ---- Orders (/cost-order/*) ----

export const CostOrderFilterShape = {
  monthFrom: CostMonth.optional(),
  monthTo: CostMonth.optional(),
  deptId: Uuid.optional(),
  projectId: Uuid.optional(),
  state: oneOf(CostOrderState.values, '状态不正确').optional(),
  source: oneOf(CostOrderSource.values, '来源不正确').optional(),
  /** Orders with a line of this item. */
  itemCode: optText('成本项编码', 30),
  orderNo: optText('成本单号', 20),
  amountMin: Fen.optional(),
  amountMax: Fen.optional(),
};
const checkRange = (f: { monthFrom?: string | undefined; monthTo?: string | undefined; amountMin?: number | undefined; amountMax?: number | undefined }, ctx: z.RefinementCtx) => {
  if (f.monthFrom && f.monthTo && f.monthFrom > f.monthTo) ctx.addIssue({ code: 'custom', message: '开始月份不能晚于结束月份', path: ['monthTo'] });
  if (f.amountMin !== undefined && f.amountMax !== undefined && f.amountMin > f.amountMax) ctx.addIssue({ code: 'custom', message: '最小金额不能大于最大金额', path: ['amountMax'] });
};
export const CostOrderQuery = PageQuery.extend(CostOrderFilterShape).superRefine(checkRange);
export type CostOrderQuery = z.infer<typeof CostOrderQuery>;
export const CostOrderFilter = PageQuery.pick({ sort: true }).extend(CostOrderFilterShape).superRefine(checkRange);
export type CostOrderFilter = z.infer<typeof CostOrderFilter>;

export const CostOrderLineBody = z.object({
  /** The price list row chosen; the server looks the price up again for the order's month. */
  itemCode: CostItemCode,
  spec: text().trim().max(50, '规格不能超过50个字符').default(''),
  unit: reqText('单位', 10),
  quantity: CostQuantity,
  remark: optText('备注', 100),
});
export type CostOrderLineBody = z.infer<typeof CostOrderLineBody>;
export const CostOrderBody = z.object({
  /** Absent: a new order (roles 1, 16, 17); present: an edit of an order awaiting audit. */
  id: Uuid.optional(),
  month: CostMonth,
  deptId: Uuid,
  projectId: Uuid,
  remark: optText('备注', 200),
  lines: z.array(CostOrderLineBody, { error: '请填写成本明细' }).min(1, '请至少填写一行成本明细').max(200, '成本明细最多200行'),
});
export type CostOrderBody = z.infer<typeof CostOrderBody>;
/** 复制上月: a new order of `month` with the lines of the same department and project's order of the month before, priced for `month`. */
export const CostCopyBody = z.object({ month: CostMonth, deptId: Uuid, projectId: Uuid });
export const CostIdBody = z.object({ id: Uuid });
export const CostIdsBody = z.object({ ids: z.array(Uuid, { error: '请选择成本单' }).min(1, '请选择成本单').max(500, '一次最多处理500张成本单') });
export const CostInvalidBody = CostIdsBody.extend({ reason: reqText('作废原因', 200) });
/** 同步项目管理系统: the month's orders pushed by the project-management system. */
export const CostPmsSyncBody = z.object({ month: CostMonth });
/** What save and copy-last-month answer. */
export interface CostOrderSaved {
  id: string;
  orderNo: string;
}
/** What reprice answers: the lines whose price changed. */
export interface CostRepriceResult extends CostOrderSaved {
  changed: number;
}
/** What pms-sync answers: counts, the failures, and the outcome of every PMS order in the PMS's order. */
export interface CostPmsSyncResult {
  created: number;
  skipped: number;
  failed: Array<{ ref: string; message: string }>;
  orders: Array<{ ref: string; outcome: 'created' | 'skipped' | 'failed'; orderId: string | null; orderNo: string; message: string }>;
}
const CostSummaryFilter = z.object({
  monthFrom: CostMonth,
  monthTo: CostMonth,
  deptId: Uuid.optional(),
  projectId: Uuid.optional(),
  category: oneOf(CostCategory.values, '费用类别不正确').optional(),
});
const monthSpan = (f: { monthFrom: string; monthTo: string }, ctx: z.RefinementCtx) => {
  if (f.monthFrom > f.monthTo) ctx.addIssue({ code: 'custom', message: '开始月份不能晚于结束月份', path: ['monthTo'] });
  const span = (Number(f.monthTo.slice(0, 4)) - Number(f.monthFrom.slice(0, 4))) * 12 + Number(f.monthTo.slice(5, 7)) - Number(f.monthFrom.slice(5, 7));
  if (span >= 36) ctx.addIssue({ code: 'custom', message: '汇总跨度不能超过36个月', path: ['monthTo'] });
};
/** The summary's filters (the export: every cell). */
export const CostSummaryQuery = CostSummaryFilter.superRefine(monthSpan);
/** The summary's page of department-months (issue 30: aggregated and paged on the server). */
export const CostSummaryPageQuery = CostSummaryFilter.extend({
  pageIndex: PageQuery.shape.pageIndex,
  pageSize: z.coerce.number().int().min(1, '每页条数至少为1').max(200, '每页最多200条').default(50),
}).superRefine(monthSpan);
export type CostSummaryPageQuery = z.infer<typeof CostSummaryPageQuery>;
/** The drill-down of one department-month: its projects, paged (the filters' project and category apply). */
export const CostSummaryProjectsQuery = CostSummaryFilter.omit({ monthFrom: true, monthTo: true, deptId: true }).extend({
  month: CostMonth,
  deptId: Uuid,
  pageIndex: PageQuery.shape.pageIndex,
  pageSize: z.coerce.number().int().min(1, '每页条数至少为1').max(200, '每页最多200条').default(20),
});
export type CostSummaryProjectsQuery = z.infer<typeof CostSummaryProjectsQuery>;
export type CostSummaryQuery = z.infer<typeof CostSummaryQuery>;

export interface CostOrderRow {
  id: string;
  orderNo: string;
  month: string;
  deptId: string;
  deptName: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  source: string;
  state: number;
  /** 分 */
  amount: number;
  tax: number;
  total: number;
  lineCount: number;
  invalidReason: string;
  auditedBy: string;
  auditedAt: string | null;
  createdBy: string;
  createdAt: string;
  /** The department's month is closed (the order is immutable). */
  closed: boolean;
}
export interface CostOrderTotals {
  count: number;
  /** Orders in force only (not invalid). */
  amount: number;
  tax: number;
  total: number;
}
export interface CostOrderPage {
  items: CostOrderRow[];
  total: number;
  totals: CostOrderTotals;
}
export interface CostOrderLineView {
  id: string;
  lineNo: number;
  itemCode: string;
  itemName: string;
  category: string;
  spec: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  amount: number;
  tax: number;
  /** The price list window the price was copied from. */
  priceId: string | null;
  priceFrom: string;
  priceTo: string | null;
  /** The unit price the list holds for the order's month now, when it differs (re-pricing would change it). */
  currentPrice: string | null;
  remark: string;
}
export interface CostOrderLog {
  action: string;
  message: string;
  userName: string;
  createdAt: string;
}
export interface CostOrderDetail extends CostOrderRow {
  remark: string;
  pmsRef: string;
  lines: CostOrderLineView[];
  logs: CostOrderLog[];
  /** The same department and project's live order of the month before, for comparison. */
  previous: { id: string; orderNo: string; amount: number; tax: number; total: number; lines: CostOrderLineView[] } | null;
  /** What the caller may do with it. */
  can: { edit: boolean; reprice: boolean; audit: boolean; invalidate: boolean };
}
export interface CostBatchResult {
  done: number;
  /** Per order refused: its number and why. */
  refused: Array<{ id: string; orderNo: string; message: string }>;
}
export interface CostTodoData {
  toAudit: number;
}
export type { CostSummary, CostSummaryCell, CostSummaryProject, CostSummaryProjects, CostSummaryRow } from './cost-summary.js';

// ---- Settings (/cost-setting/*, 成本设置, roles 1 and 17) ----

export const CostAuditorBody = z.object({ userId: Uuid, deptIds: z.array(Uuid).max(200, '部门过多') });
export const CostCloseBody = z.object({ deptId: Uuid, month: CostMonth });
export const CostReopenBody = CostCloseBody.extend({ reason: reqText('反结账原因', 200) });
export const CostClosingQuery = z.object({ month: CostMonth });
/** close-check: the closed departments of one month (or one department's), their digests recomputed. */
export const CostCloseCheckQuery = z.object({ month: CostMonth, deptId: Uuid.optional() });
export type CostCloseCheckQuery = z.infer<typeof CostCloseCheckQuery>;
export const CostPmsMode = ['simulator', 'http'] as const;
export const CostPmsBody = z.object({
  mode: oneOf(CostPmsMode, '接口模式不正确'),
  url: text().trim().max(300, '接口地址不能超过300个字符').default(''),
  /** Left empty: the stored credential stays. */
  token: text().max(500, '接口密钥不能超过500个字符').default(''),
  timeoutMs: z.number({ error: '超时须为数字' }).int('超时须为整数毫秒').min(1000, '超时至少1000毫秒').max(120_000, '超时不能超过120000毫秒').default(15_000),
});
export type CostPmsBody = z.infer<typeof CostPmsBody>;

export interface CostAuditorView {
  userId: string;
  name: string;
  loginName: string;
  deptName: string;
  roles: string[];
  deptIds: string[];
}
export interface CostClosingView {
  deptId: string;
  deptName: string;
  month: string;
  closed: boolean;
  closedBy: string;
  closedAt: string | null;
  /** Orders of the month: awaiting audit, and all live. */
  toAudit: number;
  orders: number;
  /** The digest stored by the close in force (null: not closed, or closed before digests were kept). */
  digest: string | null;
  /** What changed since the previous close of this department-month, recorded by the close in force (null: first close). */
  changes: CostCloseDiff | null;
}
/** One order as a close saw it (the snapshot kept for the next close). Amounts in 分. */
export interface CostCloseOrderFigures {
  orderId: string;
  orderNo: string;
  projectCode: string;
  projectName: string;
  state: number;
  amount: number;
  tax: number;
  lineCount: number;
  /** Hex SHA-256 of the order's canonical serialisation (its lines and the price rows they use included). */
  digest: string;
}
/** The difference between two sets of order figures (a previous close and now). */
export interface CostCloseDiff {
  added: CostCloseOrderFigures[];
  removed: CostCloseOrderFigures[];
  /** Orders on both sides whose digest differs; `what` says in Chinese which figures moved. */
  changed: Array<{ before: CostCloseOrderFigures; after: CostCloseOrderFigures; what: string[] }>;
  /** Orders in force (not invalid) and their totals on each side, 分. */
  before: { orders: number; amount: number; tax: number };
  after: { orders: number; amount: number; tax: number };
}
/** A closed department-month checked against the digest its close stored. */
export interface CostCloseCheck {
  deptId: string;
  deptName: string;
  month: string;
  closedBy: string;
  closedAt: string;
  /** Stored at the close (null: closed before digests were kept — nothing to check against). */
  digest: string | null;
  /** Recomputed now. */
  actual: string;
  /** true 已核验, false 已变更, null 无摘要. */
  holds: boolean | null;
  /** What differs from the close's snapshot (null when it holds or nothing is stored). */
  differences: CostCloseDiff | null;
}
export interface CostClosingLog {
  deptName: string;
  month: string;
  action: 'close' | 'reopen';
  reason: string;
  userName: string;
  createdAt: string;
}
export interface CostPmsView {
  mode: 'simulator' | 'http';
  url: string;
  timeoutMs: number;
  tokenSet: boolean;
  source: 'setting' | 'env';
}
