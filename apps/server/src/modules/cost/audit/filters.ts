/**
 * 成本单台账's filters and sorts as SQL on `cost_orders as o` (CostOrderFilter): month range, department,
 * project, state, source, an item (orders having a line of it: EXISTS on cost_order_lines, index
 * (item_code, order_id)), the order number (exact when it is a whole number, else "contains"), and a range
 * of the amount excluding tax. The audit queue adds its scope: orders awaiting audit of the departments
 * assigned to the caller (cost_auditors), unless the caller sees every department (role 1 / admin).
 */
import { sql, type Expression, type SelectQueryBuilder } from 'kysely';
import { COST_ORDER_NO, CostOrderSource, CostOrderState, monthLabel, type CostOrderFilter } from '@zhyy/shared';
import { contains, sortOf } from '../../../platform/listing.js';
import type { Database } from '../../../db/schema.js';
import '../tables.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQ = SelectQueryBuilder<any, any, any>;
type Q = SelectQueryBuilder<Database & { o: Database['cost_orders'] }, 'o', object>;

/** Sort field -> column (CostOrderRow's names); `total` is amount + tax. */
const SORTS = {
  month: 'o.month',
  orderNo: 'o.order_no',
  deptName: 'o.dept_name',
  projectCode: 'o.project_code',
  state: 'o.state',
  source: 'o.source',
  amount: 'o.amount',
  tax: 'o.tax',
  total: 'total',
  lineCount: 'o.line_count',
  auditedAt: 'o.audited_at',
  createdAt: 'o.created_at',
} as const;

/** The requested sort column (`total` for amount + tax), else the newest month first. */
export const orderSortColumn = (f: Pick<CostOrderFilter, 'sort'>) => sortOf(f.sort, SORTS, { column: 'o.month', order: 'desc' });

/** A sort column as SQL. */
export const sortExpression = (column: (typeof SORTS)[keyof typeof SORTS]): Expression<unknown> => (column === 'total' ? sql`o.amount + o.tax` : sql.ref(column));

/** ORDER BY of a listing: the requested field, else the newest month first; then the order number (unique) for a stable order. */
export function orderSort(f: Pick<CostOrderFilter, 'sort'>): Array<[Expression<unknown>, 'asc' | 'desc']> {
  const s = orderSortColumn(f);
  const col = sortExpression(s.column);
  const out: Array<[Expression<unknown>, 'asc' | 'desc']> = [];
  // An order not audited has no audit time: last in either direction, on both databases (they differ by default).
  if (s.column === 'o.audited_at') out.push([sql`case when o.audited_at is null then 1 else 0 end`, 'asc']);
  out.push([col, s.order]);
  if (s.column !== 'o.order_no') out.push([sql.ref('o.order_no'), s.order]);
  return out;
}

/** Who the audit queue is for: every department, or those assigned to the user. */
export type AuditScope = { all: true } | { all: false; userId: string };

/** Adds the filters (and, for the queue, its scope) to any query that reads `cost_orders as o`. */
export function applyOrderFilters<QB extends AnyQ>(query: QB, f: CostOrderFilter, scope?: AuditScope): QB {
  let q = query as unknown as Q;
  if (scope) {
    q = q.where('o.state', '=', CostOrderState.toAudit);
    if (!scope.all) {
      const userId = scope.userId;
      q = q.where('o.dept_id', 'in', (eb) => eb.selectFrom('cost_auditors as ca').select('ca.dept_id').where('ca.user_id', '=', userId));
    }
  }
  if (f.monthFrom) q = q.where('o.month', '>=', f.monthFrom);
  if (f.monthTo) q = q.where('o.month', '<=', f.monthTo);
  if (f.deptId) q = q.where('o.dept_id', '=', f.deptId);
  if (f.projectId) q = q.where('o.project_id', '=', f.projectId);
  if (f.state !== undefined) q = q.where('o.state', '=', Number(f.state));
  if (f.source !== undefined) q = q.where('o.source', '=', String(f.source));
  if (f.itemCode) {
    const code = f.itemCode;
    q = q.where((eb) => eb.exists(eb.selectFrom('cost_order_lines as fl').select('fl.id').where('fl.item_code', '=', code).whereRef('fl.order_id', '=', 'o.id')));
  }
  if (f.orderNo) q = COST_ORDER_NO.test(f.orderNo) ? q.where('o.order_no', '=', f.orderNo) : q.where(contains(sql.ref('o.order_no'), f.orderNo));
  if (f.amountMin !== undefined) q = q.where('o.amount', '>=', f.amountMin);
  if (f.amountMax !== undefined) q = q.where('o.amount', '<=', f.amountMax);
  return q as unknown as QB;
}

const yuan = (v: number | undefined) => (v === undefined ? '…' : (v / 100).toFixed(2));

/** A Chinese description of the filters, for the operation log of an export. */
export function describeOrderFilters(f: CostOrderFilter, names: { dept?: string; project?: string } = {}): string {
  const parts: string[] = [];
  if (f.monthFrom || f.monthTo) parts.push(`月份 ${f.monthFrom ? monthLabel(f.monthFrom) : '…'} 至 ${f.monthTo ? monthLabel(f.monthTo) : '…'}`);
  if (f.deptId) parts.push(`部门 ${names.dept ?? f.deptId}`);
  if (f.projectId) parts.push(`项目 ${names.project ?? f.projectId}`);
  if (f.state !== undefined) parts.push(`状态 ${CostOrderState.label(Number(f.state))}`);
  if (f.source !== undefined) parts.push(`来源 ${CostOrderSource.label(f.source)}`);
  if (f.itemCode) parts.push(`含成本项 ${f.itemCode}`);
  if (f.orderNo) parts.push(`成本单号含「${f.orderNo}」`);
  if (f.amountMin !== undefined || f.amountMax !== undefined) parts.push(`不含税金额 ${yuan(f.amountMin)} 至 ${yuan(f.amountMax)} 元`);
  return parts.length ? parts.join('，') : '全部';
}
