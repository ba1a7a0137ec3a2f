/**
 * What the 成本管理 pages share (台账, 待审核, 月度汇总, 成本设置): the query key, the state tag, the source and
 * category labels and select options, and the month helpers ('YYYY-MM' as the API has it ↔ the month pickers'
 * Dayjs). Keep these exports stable: the other cost pages import them.
 */
import { Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { CostCategory, CostOrderSource, CostOrderState, canEnterCostOrders, monthLabel, shanghaiMonthOf } from '@zhyy/shared';
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

/** A tax rate as stored ('0.06') → '6%'. */
export function formatRate(rate: string | number): string {
  const n = Number(rate);
  return Number.isFinite(n) ? `${Number((n * 100).toFixed(4))}%` : String(rate);
}

/** Whether the signed-in user may enter orders (新增, 编辑, 复制上月, 重新取价, 导入, 同步: roles 1, 16, 17). */
export function useCanEnterCost(): boolean {
  return canEnterCostOrders(useSession((s) => s.roles));
}
