/**
 * Reading cost orders for 成本单台账 and 待审核成本单: one page through a deferred join (the filtered,
 * sorted ids first, then the rows of those ids), the totals of the whole filtered set (one aggregate:
 * every order counts in `total`, only orders in force, not invalid, in the sums) and the badge count
 * (one indexed count); the export's reads are in export-reads.ts. bigint sums come back as strings on
 * PostgreSQL: every figure passes through Number().
 */
import { sql, type Kysely } from 'kysely';
import { CostOrderState, type CostOrderFilter, type CostOrderPage, type CostOrderQuery, type CostOrderRow, type CostOrderTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf } from '../../../platform/listing.js';
import '../tables.js';
import { applyOrderFilters, orderSort, type AuditScope } from './filters.js';

const INVALID = CostOrderState.invalid;

export const ROW_COLUMNS = [
  'o.id', 'o.order_no', 'o.month', 'o.dept_id', 'o.dept_name', 'o.project_id', 'o.project_code', 'o.project_name', 'o.source', 'o.state',
  'o.amount', 'o.tax', 'o.line_count', 'o.invalid_reason', 'o.audited_by', 'o.audited_at', 'o.created_by', 'o.created_at',
] as const;

/** 1 when the order's department has closed its month (cost_closings' primary key), else 0. */
export const closedExpr = sql<number>`case when exists (select 1 from cost_closings cc where cc.dept_id = o.dept_id and cc.month = o.month) then 1 else 0 end`;

export interface OrderRecord {
  id: string; order_no: string; month: string; dept_id: string; dept_name: string; project_id: string; project_code: string; project_name: string; source: string;
  state: number; amount: number | string; tax: number | string; line_count: number | string; invalid_reason: string; audited_by: string; audited_at: string | null;
  created_by: string; created_at: string; closed: number | string | boolean;
}

export function toOrderRow(r: OrderRecord): CostOrderRow {
  const amount = Number(r.amount);
  const tax = Number(r.tax);
  return {
    id: r.id, orderNo: r.order_no, month: r.month, deptId: r.dept_id, deptName: r.dept_name, projectId: r.project_id, projectCode: r.project_code, projectName: r.project_name,
    source: r.source, state: Number(r.state), amount, tax, total: amount + tax, lineCount: Number(r.line_count), invalidReason: r.invalid_reason,
    auditedBy: r.audited_by, auditedAt: r.audited_at, createdBy: r.created_by, createdAt: r.created_at, closed: Number(r.closed) === 1,
  };
}

/** Rows of the given orders, in the order of `ids`. */
export async function orderRows(db: Kysely<Database>, ids: readonly string[]): Promise<CostOrderRow[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('cost_orders as o').select([...ROW_COLUMNS, closedExpr.as('closed')]).where('o.id', 'in', [...ids]).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toOrderRow(r as OrderRecord)] : [];
  });
}

/** The totals of the filtered set: `count` all orders (the pager's total) and the sums of those in force. */
export async function orderTotals(db: Kysely<Database>, f: CostOrderFilter, scope?: AuditScope): Promise<{ all: number; totals: CostOrderTotals }> {
  const r = await applyOrderFilters(db.selectFrom('cost_orders as o'), f, scope)
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(case when o.state <> ${INVALID} then 1 else 0 end), 0)`.as('live'),
      sql<number>`coalesce(sum(case when o.state <> ${INVALID} then o.amount else 0 end), 0)`.as('amount'),
      sql<number>`coalesce(sum(case when o.state <> ${INVALID} then o.tax else 0 end), 0)`.as('tax'),
    ])
    .executeTakeFirst();
  const amount = Number(r?.amount ?? 0);
  const tax = Number(r?.tax ?? 0);
  return { all: Number(r?.n ?? 0), totals: { count: Number(r?.live ?? 0), amount, tax, total: amount + tax } };
}

/** The ids of one stretch of the filtered, sorted set (all of them when `limit` is null). */
async function idsOf(db: Kysely<Database>, f: CostOrderFilter, scope: AuditScope | undefined, offset: number, limit: number | null): Promise<string[]> {
  let q = applyOrderFilters(db.selectFrom('cost_orders as o'), f, scope).select('o.id');
  for (const [col, dir] of orderSort(f)) q = q.orderBy(col, dir);
  if (limit !== null) q = q.limit(limit).offset(offset);
  return (await q.execute()).map((r) => r.id);
}

/** A page of the ledger (no scope) or of the audit queue (with its scope). */
export async function orderPage(db: Kysely<Database>, q: CostOrderQuery, scope?: AuditScope): Promise<CostOrderPage> {
  const [ids, t] = await Promise.all([idsOf(db, q, scope, offsetOf(q), q.pageSize), orderTotals(db, q, scope)]);
  return { items: await orderRows(db, ids), total: t.all, totals: t.totals };
}

/** The badge 待审核成本单: exactly the total of the caller's queue without filters (one count on the index (state, dept_id, month)). */
export async function toAuditCount(db: Kysely<Database>, scope: AuditScope): Promise<number> {
  const r = await applyOrderFilters(db.selectFrom('cost_orders as o'), {}, scope).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The departments assigned to an auditor in 成本设置. */
export async function assignedDepts(db: Kysely<Database>, userId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('cost_auditors').select('dept_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => r.dept_id));
}
