/** Table types of migration 0034_cost (declaration merging, as the other areas' tables.ts do). */
import '../../db/schema.js';

export interface CostPriceTable {
  id: string;
  item_code: string;
  item_name: string;
  /** CostCategory */
  category: string;
  spec: string;
  unit: string;
  /** Yuan excluding tax, decimal text (up to 8 places). */
  unit_price: string;
  tax_rate: string;
  valid_from: string;
  /** null: open-ended. */
  valid_to: string | null;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface CostOrderTable {
  id: string;
  order_no: string;
  /** 'YYYY-MM' */
  month: string;
  dept_id: string;
  dept_name: string;
  project_id: string;
  project_code: string;
  project_name: string;
  /** CostOrderSource: pms, import, entry. */
  source: string;
  /** CostOrderState: 0 待审核, 1 已审核, 2 已作废. */
  state: number;
  invalid_reason: string;
  amount: number;
  tax: number;
  line_count: number;
  remark: string;
  pms_ref: string;
  audited_by: string;
  audited_at: string | null;
  created_by_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface CostOrderLineTable {
  id: string;
  order_id: string;
  line_no: number;
  price_id: string | null;
  item_code: string;
  item_name: string;
  category: string;
  spec: string;
  unit: string;
  /** Decimal text (up to 4 places). */
  quantity: string;
  unit_price: string;
  tax_rate: string;
  amount: number;
  tax: number;
  price_from: string;
  price_to: string | null;
  remark: string;
}

export interface CostOrderLogTable {
  id: string;
  order_id: string;
  /** create, edit, reprice, audit, invalid, import, pms */
  action: string;
  message: string;
  user_name: string;
  created_at: string;
}

export interface CostAuditorTable {
  user_id: string;
  dept_id: string;
}

export interface CostClosingTable {
  dept_id: string;
  month: string;
  closed_by: string;
  closed_at: string;
}

export interface CostClosingLogTable {
  id: string;
  dept_id: string;
  dept_name: string;
  month: string;
  action: 'close' | 'reopen';
  reason: string;
  user_name: string;
  created_at: string;
}

/** Migration 0049: what each close of a department's month found (its digest and per-order figures). */
export interface CostClosingSnapshotTable {
  id: string;
  dept_id: string;
  month: string;
  /** Hex SHA-256 of the month's canonical serialisation (settings/digest.ts). */
  digest: string;
  /** JSON CostCloseOrderFigures[] (every order of the department-month, invalid ones included). */
  orders: string;
  /** Orders in force (not invalid) and their totals, 分. */
  order_count: number;
  amount: number;
  tax: number;
  /** JSON CostCloseDiff against the close before; '' on a first close. */
  changes: string;
  closed_by: string;
  closed_at: string;
}

/** Migration 0052: the lines of the orders in force per month × department × project × category ('*': all), kept by triggers. */
export interface CostSummaryCellTable {
  month: string;
  dept_id: string;
  project_id: string;
  category: string;
  amount: number;
  tax: number;
  lines: number;
}

/** Migration 0052: the cells per month × department × category; `orders`: the cells with lines (one order each). */
export interface CostSummaryMonthTable {
  month: string;
  dept_id: string;
  category: string;
  amount: number;
  tax: number;
  orders: number;
}

export interface CostCounterTable {
  month: string;
  seq: number;
}

export interface CostSettingTable {
  key: string;
  value: string;
}

declare module '../../db/schema.js' {
  interface Database {
    cost_prices: CostPriceTable;
    cost_orders: CostOrderTable;
    cost_order_lines: CostOrderLineTable;
    cost_order_logs: CostOrderLogTable;
    cost_auditors: CostAuditorTable;
    cost_closings: CostClosingTable;
    cost_closing_logs: CostClosingLogTable;
    cost_closing_snapshots: CostClosingSnapshotTable;
    cost_counters: CostCounterTable;
    cost_summary_cells: CostSummaryCellTable;
    cost_summary_months: CostSummaryMonthTable;
    cost_settings: CostSettingTable;
  }
}
