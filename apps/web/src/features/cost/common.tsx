/**
 * What the 成本管理 pages share (台账, 待审核, 月度汇总, 成本设置): the query key, the state tag, the source and
 * category labels and select options, the month helpers ('YYYY-MM' as the API has it ↔ the month pickers'
 * Dayjs), the rate text, dropping a request's blanks, the import file check, and the link to 成本单台账 with its
 * filters (written by ledgerPath, read back by ledgerFiltersOf). The department and project pickers are in
 * pickers.tsx; the order lists' filter form ↔ request in filters.ts.
 */
import { Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { CostCategory, CostOrderSource, CostOrderState, canEnterCostOrders, monthLabel, shanghaiMonthOf, shiftMonth, type CostImportResult } from '@zhyy/shared';
import { ApiError } from '../../api/errors';
import { useSession } from '../../stores/session';

/** The root of every cost query key: a change on one cost page refreshes the others' lists. */
export const COST_KEY = ['cost'] as const;

const STATE_COLOURS: Record<number, string> = {
  [CostOrderState.toAudit]: 'processing',
  [CostOrderState.audited]: 'success',
  [CostOrderState.invalid]: 'default',
};

/** 待审核 / 已审核 / 已作废 as a coloured tag. */
export function CostStateTag({ state }: { state: number }) {
  return (
    <Tag color={STATE_COLOURS[state] ?? 'default'} data-testid="cost-state-tag">
      {CostOrderState.label(state)}
    </Tag>
  );
}

/** 'pms' → 项目管理系统, 'import' → Excel导入, 'entry' → 手工录入. */
export const costSourceLabel = (source: string) => CostOrderSource.label(source);
/** 'labour' → 人工 … */
export const costCategoryLabel = (category: string) => CostCategory.label(category);

export const COST_STATE_OPTIONS = CostOrderState.options.map((o) => ({ value: o.value, label: o.label }));
export const COST_SOURCE_OPTIONS = CostOrderSource.options.map((o) => ({ value: o.value, label: o.label }));
export const COST_CATEGORY_OPTIONS = CostCategory.options.map((o) => ({ value: o.value, label: o.label }));

/** 'YYYY-MM' → '2026年11月'; '' for none. */
export function formatMonth(month: string | null | undefined): string {
  return month ? monthLabel(month) : '';
}

/** A month picker's value → 'YYYY-MM' (undefined for none). */
export const toMonth = (d: Dayjs | null | undefined): string | undefined => (d ? d.format('YYYY-MM') : undefined);
/** 'YYYY-MM' → a month picker's value. */
export const fromMonth = (month: string): Dayjs => dayjs(`${month}-01`);
/** The current month in Asia/Shanghai, 'YYYY-MM'. */
export const currentMonth = (now: Date = new Date()) => shanghaiMonthOf(now);
/** The last `n` months up to this one: [from, to]. */
export function lastMonths(n: number, now: Date = new Date()): [string, string] {
  const to = currentMonth(now);
  return [shiftMonth(to, -(n - 1)), to];
}
/** Every month from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to && out.length < 600; m = shiftMonth(m, 1)) out.push(m);
  return out;
}

/** A tax rate as stored ('0.06') → '6%'. */
export function formatRate(rate: string | number): string {
  const n = Number(rate);
  return Number.isFinite(n) ? `${Number((n * 100).toFixed(4))}%` : String(rate);
}

/** Drops the empty fields (undefined, null, '') of a request. */
export function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** Why a file chosen for an import (orders, prices) cannot be sent, or '' when it can. */
export function fileProblem(f: { name: string; size: number }): string {
  if (!f.name.toLowerCase().endsWith('.xlsx')) return '请选择 .xlsx 文件';
  if (f.size > MAX_IMPORT_BYTES) return '文件不能超过5MB';
  return '';
}

/** Whether the signed-in user may enter orders (新增, 编辑, 复制上月, 重新取价, 导入, 同步: roles 1, 16, 17). */
export function useCanEnterCost(): boolean {
  return canEnterCostOrders(useSession((s) => s.roles));
}

export const LEDGER_PATH = '/cost-management/account';

/** The filters 成本单台账 takes from its address (the CostOrderFilter names). */
export interface LedgerLinkFilters {
  monthFrom?: string;
  monthTo?: string;
  deptId?: string;
  projectId?: string;
  orderNo?: string;
  state?: number;
}

/** 成本单台账 with its filters in the address (the summary's drill-down and the audit pages link there). */
export function ledgerPath(filters: LedgerLinkFilters): string {
  const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
  const s = q.toString();
  return s ? `${LEDGER_PATH}?${s}` : LEDGER_PATH;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The address's filters as ledgerPath wrote them; a malformed month or state is left out. */
export function ledgerFiltersOf(q: URLSearchParams): LedgerLinkFilters {
  const text = (k: string) => q.get(k)?.trim() || undefined;
  const month = (k: string) => (MONTH.test(q.get(k) ?? '') ? q.get(k)! : undefined);
  const state = q.get('state') ? Number(q.get('state')) : undefined;
  return compact({
    monthFrom: month('monthFrom'),
    monthTo: month('monthTo'),
    deptId: text('deptId'),
    projectId: text('projectId'),
    orderNo: text('orderNo'),
    state: CostOrderState.has(state) ? state : undefined,
  });
}

/** The per-row answer beside a refused import (30000: not one row saved, issue 27 item 8), or null for any other refusal. */
export function refusedImport(e: unknown): CostImportResult | null {
  const r = e instanceof ApiError ? (e.envelope?.r as CostImportResult | undefined) : undefined;
  return r && Array.isArray(r.rows) ? r : null;
}
