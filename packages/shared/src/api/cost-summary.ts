/**
 * 月度成本汇总 answers (issue 30: a page of department-months, the drill-down to projects, the export's cells);
 * the queries are in ./cost.ts beside the other cost filters, which re-exports these.
 */
/** One cell of the export: month × department × project × category. */
export interface CostSummaryCell {
  month: string;
  deptId: string;
  deptName: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  category: string;
  amount: number;
  tax: number;
  orderCount: number;
}
/** A row of the summary: one department's month (the orders in force, and the filters' category). */
export interface CostSummaryRow {
  month: string;
  deptId: string;
  deptName: string;
  amount: number;
  tax: number;
  orderCount: number;
}
export interface CostSummary {
  /** The page of department-months (month, then the departments' order) and how many there are. */
  rows: CostSummaryRow[];
  total: number;
  /** The closed department-months of the range (and department filter): their digests are checked one month at a time (close-check). */
  closed: Array<{ month: string; deptId: string; deptName: string; closedBy: string; closedAt: string }>;
  /** By month (the trend) and by category (the composition), audited and to-audit orders (not invalid). */
  byMonth: Array<{ month: string; amount: number; tax: number }>;
  byCategory: Array<{ category: string; amount: number }>;
  /** Of every row (not only the page). */
  totals: { amount: number; tax: number; total: number; orderCount: number };
}
/** A project of a department-month (its one order in force) and its figures by category. */
export interface CostSummaryProject {
  projectId: string;
  projectCode: string;
  projectName: string;
  amount: number;
  tax: number;
  lineCount: number;
  categories: Array<{ category: string; amount: number; tax: number }>;
}
export interface CostSummaryProjects {
  items: CostSummaryProject[];
  total: number;
}
