/**
 * Writing cost orders (issue 16), shared by entry, copy-last-month, import and the project-management
 * sync: the number (CB{yyyyMM}{seq} from cost_counters), the lines priced for the order's month and the
 * price copied onto them, the totals as sums of the rounded lines, the order's log, and the refusals
 * (department or project unknown, month closed, a second live order, no price).
 *
 * One live order per month, department and project is the database's rule (cost_orders_live_uq): the
 * service looks first for a friendly message, and when two requests create at once the index refuses
 * the second; `mapUnique` turns that violation into the same Chinese refusal, naming the order that won.
 */
import { sql, type Kysely } from 'kysely';
import { costOrderNo, lineAmount, lineTax, monthDays, monthLabel, orderTotals, priceForMonth, CostOrderState } from '@zhyy/shared';
import type { Db as AppDb } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { referenceOrRefuse } from '../../invoice/reference.js';
import type { CostOrderLineTable, CostOrderTable, CostPriceTable } from '../tables.js';
import '../tables.js';

type Db = Kysely<Database>;

/** A line as entered (or imported, or sent by the PMS), already checked by CostOrderLineBody. */
export interface LineInput {
  itemCode: string;
  spec: string;
  unit: string;
  quantity: string;
  remark?: string | undefined;
}

/** What a line copies from the price list window it was priced from. */
export interface PriceCopy {
  priceId: string | null;
  itemName: string;
  category: string;
  unitPrice: string;
  taxRate: string;
  priceFrom: string;
  priceTo: string | null;
}

export interface PricedLine extends PriceCopy {
  itemCode: string;
  spec: string;
  unit: string;
  quantity: string;
  remark: string;
  amount: number;
  tax: number;
}

export const keyOf = (l: { itemCode: string; spec: string; unit: string }) => `${l.itemCode}\u0000${l.spec}\u0000${l.unit}`;
/** 'RG01 高级 工日' (an empty spec left out). */
export const itemText = (l: { itemCode: string; spec: string; unit: string }) => [l.itemCode, l.spec, l.unit].filter(Boolean).join(' ');
export const noPriceMessage = (l: { itemCode: string; spec: string; unit: string }, month: string) => `${itemText(l)} 在${monthLabel(month)}没有有效价格`;
export const yuan = (fen: number) => (fen / 100).toFixed(2);
/** Quantities are kept in a plain form: '12.50' → '12.5'. */
export const normalQuantity = (q: string) => {
  const [i = '0', f = ''] = q.trim().split('.');
  const int = i.replace(/^0+(?=\d)/, '');
  const frac = f.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
};

export const copyOf = (w: CostPriceTable): PriceCopy => ({
  priceId: w.id, itemName: w.item_name, category: w.category, unitPrice: w.unit_price, taxRate: w.tax_rate, priceFrom: w.valid_from, priceTo: w.valid_to,
});

/** The window of each key in force for `month` (priceForMonth), for the keys that have one. */
export async function pricesFor(db: Db, month: string, keys: ReadonlyArray<{ itemCode: string; spec: string; unit: string }>): Promise<Map<string, CostPriceTable>> {
  const out = new Map<string, CostPriceTable>();
  const codes = [...new Set(keys.map((k) => k.itemCode))];
  if (!codes.length) return out;
  const { first, last } = monthDays(month);
  const byKey = new Map<string, Array<CostPriceTable & { validFrom: string; validTo: string | null }>>();
  for (let i = 0; i < codes.length; i += 500) {
    const rows = await db
      .selectFrom('cost_prices')
      .selectAll()
      .where('item_code', 'in', codes.slice(i, i + 500))
      .where('valid_from', '<=', last)
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', first)]))
      .execute();
    for (const r of rows) {
      const k = keyOf({ itemCode: r.item_code, spec: r.spec, unit: r.unit });
      byKey.set(k, [...(byKey.get(k) ?? []), { ...r, validFrom: r.valid_from, validTo: r.valid_to }]);
    }
  }
  for (const [k, ws] of byKey) {
    const w = priceForMonth(ws, month);
    if (w) {
      const { validFrom: _f, validTo: _t, ...row } = w;
      out.set(k, row);
    }
  }
  return out;
}

export const priced = (l: LineInput, c: PriceCopy): PricedLine => {
  const quantity = normalQuantity(l.quantity);
  const amount = lineAmount(quantity, c.unitPrice);
  return { ...c, itemCode: l.itemCode, spec: l.spec, unit: l.unit, quantity, remark: l.remark ?? '', amount, tax: lineTax(amount, c.taxRate) };
};

/**
 * Prices `lines` for `month`: each takes the copy in `kept` for its key (an edit keeps what its lines
 * were priced at), else the window in force now. Answers the priced lines, or per line the refusal.
 */
export async function priceLines(db: Db, month: string, lines: readonly LineInput[], kept: ReadonlyMap<string, PriceCopy> = new Map()): Promise<{ lines: PricedLine[]; problems: Array<{ index: number; message: string }> }> {
  const windows = await pricesFor(db, month, lines.filter((l) => !kept.has(keyOf(l))));
  const out: PricedLine[] = [];
  const problems: Array<{ index: number; message: string }> = [];
  lines.forEach((l, index) => {
    const k = keyOf(l);
    const copy = kept.get(k) ?? (windows.has(k) ? copyOf(windows.get(k)!) : undefined);
    if (!copy) problems.push({ index, message: noPriceMessage(l, month) });
    else out.push(priced(l, copy));
  });
  return { lines: out, problems };
}

/** Prices the lines or refuses with the first few lines that have no price. */
export async function priceLinesOrRefuse(db: Db, month: string, lines: readonly LineInput[], kept?: ReadonlyMap<string, PriceCopy>): Promise<PricedLine[]> {
  const r = await priceLines(db, month, lines, kept);
  if (r.problems.length) {
    const shown = r.problems.slice(0, 5).map((p) => `第${p.index + 1}行 ${p.message}`);
    throw refuse(`${shown.join('；')}${r.problems.length > 5 ? `等${r.problems.length}行` : ''}`);
  }
  return r.lines;
}

/**
 * The next order number of `month`: one atomic upsert of the month's counter (key 'YYYY-MM'), in the
 * caller's transaction (rolled back with it). A month without a counter row starts after the highest
 * number already there, so orders written without the counter (a data load) are never numbered again.
 */
export async function nextOrderNo(trx: Db, month: string): Promise<string> {
  const prefix = `CB${month.replace('-', '')}`;
  const r = await sql<{ seq: number | string }>`
    insert into cost_counters (month, seq)
    values (${month}, 1 + coalesce((select max(cast(substr(order_no, 9) as integer)) from cost_orders where order_no like ${`${prefix}%`}), 0))
    on conflict (month) do update set seq = cost_counters.seq + 1
    returning seq`.execute(trx);
  return costOrderNo(month, Number(r.rows[0]!.seq));
}

export interface DeptRef {
  id: string;
  name: string;
}
export interface ProjectRef {
  id: string;
  code: string;
  name: string;
}

export async function deptOrRefuse(db: Db, id: string): Promise<DeptRef> {
  const d = await db.selectFrom('departments').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!d) throw refuse('所选部门不存在');
  return d;
}

export async function projectOrRefuse(db: Db, id: string): Promise<ProjectRef> {
  // The shared reference check (issue 27): an existing, real (not temporary) project.
  return referenceOrRefuse(db, 'project', { id });
}

/** The key under which a department's month is changed: orders made or changed in it, and its closing. */
export const deptMonthKey = (deptId: string, month: string) => `cost-month:${deptId}:${month}`;

/**
 * Holds the department-months for the rest of the transaction on PostgreSQL, under the same advisory
 * lock as `exclusive(db, deptMonthKey(...))` (db/index.ts): a closing run under that key and an order
 * made in the month wait for each other, so a month is never closed with an order it did not see.
 * SQLite has one writer. Keys are taken in order (no deadlock between two edits).
 */
export async function lockDeptMonths(trx: Db, app: AppDb, pairs: ReadonlyArray<{ deptId: string; month: string }>): Promise<void> {
  if (app.dialect !== 'postgres') return;
  const keys = [...new Set(pairs.map((p) => deptMonthKey(p.deptId, p.month)))].sort();
  for (const key of keys) await sql`select pg_advisory_xact_lock(hashtext(${`zhyy:${app.schema ?? 'public'}:${key}`}))`.execute(trx);
}

export async function isClosed(db: Db, deptId: string, month: string): Promise<boolean> {
  return !!(await db.selectFrom('cost_closings').select('month').where('dept_id', '=', deptId).where('month', '=', month).executeTakeFirst());
}

export const closedForNew = (dept: DeptRef, month: string) => `${dept.name}${monthLabel(month)}已结账，不能新增成本单`;
export const closedForChange = (deptName: string, month: string) => `${deptName}${monthLabel(month)}已结账，成本单不能修改`;
export const liveMessage = (month: string, orderNo: string) => `该部门该项目${monthLabel(month)}已有成本单 ${orderNo}`;

/** The live (not invalid) order of the month, department and project, other than `except`. */
export function liveOrder(db: Db, month: string, deptId: string, projectId: string, except?: string) {
  return db
    .selectFrom('cost_orders')
    .select(['id', 'order_no', 'state', 'pms_ref'])
    .where('month', '=', month)
    .where('dept_id', '=', deptId)
    .where('project_id', '=', projectId)
    .where('state', '<>', CostOrderState.invalid)
    .$if(!!except, (q) => q.where('id', '<>', except!))
    .executeTakeFirst();
}

/** Which of cost_orders' unique indexes a write broke, if it was one of them. */
export function uniqueBroken(err: unknown): 'live' | 'pms' | 'no' | null {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === '23505') {
    if (e.constraint === 'cost_orders_live_uq') return 'live';
    if (e.constraint === 'cost_orders_pms_uq') return 'pms';
    if (e.constraint === 'cost_orders_order_no_key') return 'no';
    return null;
  }
  const m = String(e.message ?? '');
  if (!String(e.code ?? '').startsWith('SQLITE_CONSTRAINT') || !m.includes('UNIQUE')) return null;
  if (m.includes('cost_orders.month') && m.includes('cost_orders.project_id')) return 'live';
  if (m.includes('cost_orders.pms_ref')) return 'pms';
  if (m.includes('cost_orders.order_no')) return 'no';
  return null;
}

/**
 * Runs a write of an order of (month, dept, project) in a transaction; when the live-order index
 * refuses it (another request got there first), answers the Chinese refusal naming that order.
 */
export async function writeOrder<T>(db: Db, key: { month: string; deptId: string; projectId: string; except?: string }, fn: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(fn);
  } catch (err) {
    if (uniqueBroken(err) !== 'live') throw err;
    const other = await liveOrder(db, key.month, key.deptId, key.projectId, key.except);
    throw refuse(other ? liveMessage(key.month, other.order_no) : '该部门该项目该月已有成本单');
  }
}

export async function addLog(trx: Db, orderId: string, action: string, message: string, userName: string): Promise<void> {
  await trx.insertInto('cost_order_logs').values({ id: newId(), order_id: orderId, action, message: message.slice(0, 1000), user_name: userName, created_at: nowIso() }).execute();
}

export async function insertLines(trx: Db, orderId: string, lines: readonly PricedLine[]): Promise<void> {
  if (!lines.length) return;
  const rows: CostOrderLineTable[] = lines.map((l, i) => ({
    id: newId(), order_id: orderId, line_no: i + 1, price_id: l.priceId, item_code: l.itemCode, item_name: l.itemName, category: l.category, spec: l.spec, unit: l.unit,
    quantity: l.quantity, unit_price: l.unitPrice, tax_rate: l.taxRate, amount: l.amount, tax: l.tax, price_from: l.priceFrom, price_to: l.priceTo, remark: l.remark,
  }));
  for (let i = 0; i < rows.length; i += 100) await trx.insertInto('cost_order_lines').values(rows.slice(i, i + 100)).execute();
}

export interface NewOrder {
  month: string;
  dept: DeptRef;
  project: ProjectRef;
  source: string;
  remark: string;
  pmsRef?: string;
  lines: readonly PricedLine[];
  user: { id: string | null; name: string };
  log: { action: string; message: (orderNo: string) => string };
}

/** Inserts a new order (state 0) with its number, lines, totals and first log entry, in `trx`. */
export async function insertOrder(trx: Db, o: NewOrder): Promise<{ id: string; orderNo: string }> {
  const id = newId();
  const orderNo = await nextOrderNo(trx, o.month);
  const totals = orderTotals(o.lines);
  const now = nowIso();
  const row: CostOrderTable = {
    id, order_no: orderNo, month: o.month, dept_id: o.dept.id, dept_name: o.dept.name, project_id: o.project.id, project_code: o.project.code, project_name: o.project.name,
    source: o.source, state: CostOrderState.toAudit, invalid_reason: '', amount: totals.amount, tax: totals.tax, line_count: o.lines.length, remark: o.remark,
    pms_ref: o.pmsRef ?? '', audited_by: '', audited_at: null, created_by_id: o.user.id, created_by: o.user.name, created_at: now, updated_at: now,
  };
  await trx.insertInto('cost_orders').values(row).execute();
  await insertLines(trx, id, o.lines);
  await addLog(trx, id, o.log.action, o.log.message(orderNo), o.user.name);
  return { id, orderNo };
}

/** '，N 行，金额 X 元，税额 Y 元' of priced lines. */
export const sumsText = (lines: readonly PricedLine[]) => {
  const t = orderTotals(lines);
  return `共 ${lines.length} 行，金额 ${yuan(t.amount)} 元，税额 ${yuan(t.tax)} 元`;
};

/** The order row, locked for the transaction on PostgreSQL (SQLite has one writer). */
export async function lockOrder(trx: Db, id: string, pg: boolean): Promise<CostOrderTable> {
  const o = await trx.selectFrom('cost_orders').selectAll().where('id', '=', id).$if(pg, (q) => q.forUpdate()).executeTakeFirst();
  if (!o) throw notFound('成本单不存在');
  return o;
}

/** The refusal of changing an order in `state` ('' when it awaits audit). */
export const stateProblem = (state: number) => (state === CostOrderState.toAudit ? '' : state === CostOrderState.audited ? '成本单已审核，不能修改' : '成本单已作废，不能修改');
