/**
 * 成本单详情: the order with its lines, log, the same department and project's live order of the month
 * before (the comparison of 待审核成本单) and what the caller may do with it.
 *
 * Who reads it: the ledger's roles (1, 16, 17, 18, 19) read every order; a caller who reaches it only
 * through the audit queue (roles 20, 21, 22) reads the orders of the departments assigned to them, and
 * gets 403 权限不足 for the others (the id is not guessable, and "not allowed" tells the truth where 404
 * would not).
 *
 * Each line carries `currentPrice`: the unit price the price list holds for the order's month now
 * (priceForMonth over the windows of its item, spec and unit), when it differs from the copied one;
 * null when it is the same or the list has no price for that month any more.
 */
import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import {
  canAccessAny, canEnterCostOrders, CostOrderState, previousMonth, priceForMonth, requirementForPages, seesAllCostDepts,
  type CostOrderDetail, type CostOrderLineView, type CostOrderLog,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { forbidden, notFound } from '../../../platform/envelope.js';
import { PAGE } from '../paths.js';
import type { CostOrderLineTable } from '../tables.js';
import { closedExpr, ROW_COLUMNS, toOrderRow, type OrderRecord } from './repo.js';

const LEDGER = requirementForPages([PAGE.ledger]);
const AUDIT = requirementForPages([PAGE.examine]);

/** Whether the user reads every order (a ledger role), else only those of assigned departments. */
export const readsAllOrders = (roles: readonly string[]) => canAccessAny([...roles], LEDGER);
/** Whether the user works the audit queue at all (roles 1, 17, 20, 21, 22, admin). */
export const auditsOrders = (roles: readonly string[]) => canAccessAny([...roles], AUDIT);

type LineRecord = Pick<CostOrderLineTable, 'id' | 'order_id' | 'line_no' | 'price_id' | 'item_code' | 'item_name' | 'category' | 'spec' | 'unit' | 'quantity' | 'unit_price' | 'tax_rate' | 'amount' | 'tax' | 'price_from' | 'price_to' | 'remark'>;
type Window = { validFrom: string; validTo: string | null; unitPrice: string };

const sameNumber = (a: string, b: string) => {
  try {
    return new Decimal(a).eq(b);
  } catch {
    return a === b;
  }
};

async function linesOf(db: Kysely<Database>, orderIds: string[]): Promise<LineRecord[]> {
  if (!orderIds.length) return [];
  return db
    .selectFrom('cost_order_lines')
    .select(['id', 'order_id', 'line_no', 'price_id', 'item_code', 'item_name', 'category', 'spec', 'unit', 'quantity', 'unit_price', 'tax_rate', 'amount', 'tax', 'price_from', 'price_to', 'remark'])
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('line_no')
    .execute();
}

/** The price windows of every item the lines name (one query), by item, spec and unit. */
async function windowsOf(db: Kysely<Database>, lines: LineRecord[]): Promise<Map<string, Window[]>> {
  const codes = [...new Set(lines.map((l) => l.item_code))];
  const out = new Map<string, Window[]>();
  if (!codes.length) return out;
  const rows = await db.selectFrom('cost_prices').select(['item_code', 'spec', 'unit', 'unit_price', 'valid_from', 'valid_to']).where('item_code', 'in', codes).execute();
  for (const w of rows) {
    const k = `${w.item_code}\u0000${w.spec}\u0000${w.unit}`;
    out.set(k, [...(out.get(k) ?? []), { validFrom: w.valid_from, validTo: w.valid_to, unitPrice: w.unit_price }]);
  }
  return out;
}

function lineView(l: LineRecord, month: string, windows: Map<string, Window[]>): CostOrderLineView {
  const now = priceForMonth(windows.get(`${l.item_code}\u0000${l.spec}\u0000${l.unit}`) ?? [], month);
  return {
    id: l.id, lineNo: Number(l.line_no), itemCode: l.item_code, itemName: l.item_name, category: l.category, spec: l.spec, unit: l.unit, quantity: l.quantity,
    unitPrice: l.unit_price, taxRate: l.tax_rate, amount: Number(l.amount), tax: Number(l.tax), priceId: l.price_id, priceFrom: l.price_from, priceTo: l.price_to,
    currentPrice: now && !sameNumber(now.unitPrice, l.unit_price) ? now.unitPrice : null, remark: l.remark,
  };
}

export async function orderDetail(db: Kysely<Database>, id: string, user: Pick<AuthUser, 'id' | 'roles'>): Promise<CostOrderDetail> {
  const o = await db.selectFrom('cost_orders as o').select([...ROW_COLUMNS, 'o.remark', 'o.pms_ref', closedExpr.as('closed')]).where('o.id', '=', id).executeTakeFirst();
  if (!o) throw notFound('成本单不存在');
  const roles = user.roles;
  const assigned = !!(await db.selectFrom('cost_auditors').select('dept_id').where('user_id', '=', user.id).where('dept_id', '=', o.dept_id).executeTakeFirst());
  if (!readsAllOrders(roles) && !assigned && !seesAllCostDepts(roles)) throw forbidden();

  const row = toOrderRow(o as OrderRecord);
  const prevMonth = previousMonth(o.month);
  const [prev, logs] = await Promise.all([
    db
      .selectFrom('cost_orders')
      .select(['id', 'order_no', 'amount', 'tax'])
      .where('month', '=', prevMonth)
      .where('dept_id', '=', o.dept_id)
      .where('project_id', '=', o.project_id)
      .where('state', '<>', CostOrderState.invalid)
      .executeTakeFirst(),
    db.selectFrom('cost_order_logs').select(['action', 'message', 'user_name', 'created_at']).where('order_id', '=', id).orderBy('created_at').orderBy('id').execute(),
  ]);
  const lines = await linesOf(db, prev ? [o.id, prev.id] : [o.id]);
  const windows = await windowsOf(db, lines);
  const own = lines.filter((l) => l.order_id === o.id).map((l) => lineView(l, o.month, windows));
  const prevLines = prev ? lines.filter((l) => l.order_id === prev.id).map((l) => lineView(l, prevMonth, windows)) : [];

  const open = row.state === CostOrderState.toAudit && !row.closed;
  const auditor = seesAllCostDepts(roles) || (assigned && auditsOrders(roles));
  const enter = canEnterCostOrders(roles);
  return {
    ...row,
    remark: o.remark,
    pmsRef: o.pms_ref,
    lines: own,
    logs: logs.map((l): CostOrderLog => ({ action: l.action, message: l.message, userName: l.user_name, createdAt: l.created_at })),
    previous: prev ? { id: prev.id, orderNo: prev.order_no, amount: Number(prev.amount), tax: Number(prev.tax), total: Number(prev.amount) + Number(prev.tax), lines: prevLines } : null,
    can: { edit: enter && open, reprice: enter && open, audit: auditor && open, invalidate: auditor && open },
  };
}
