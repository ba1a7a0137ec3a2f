/**
 * Closing digests (issue 32 item 5): proof that a closed department-month has not changed since its close.
 *
 * Canonical serialisation, version 1 (docs/cost.md "Closing digests"): every order of the department-month
 * (invalid ones included) becomes one JSON array (JSON.stringify, no spaces, UTF-8) of fixed positions:
 *
 *   ["order", id, order_no, month, dept_id, project_id, source, state, amount, tax, line_count,
 *     [["line", id, line_no, item_code, category, spec, unit, quantity, unit_price, tax_rate, amount, tax,
 *       price_id, price_from, price_to], …  lines by line_no, then id],
 *     [["price", id, item_code, spec, unit, unit_price, tax_rate], …  the price rows the lines use, by id]]
 *
 * Integers (state, amounts and tax in 分, counts, line_no) are JSON numbers; the decimal texts (quantity,
 * unit_price, tax_rate) are the stored text as is (the schemas store them normalised: `280.5`, never
 * `0280.50`); a missing price_id or an open price_to is null. The order's digest is the hex SHA-256 of
 * that text; the month's digest is the hex SHA-256 of
 *
 *   ["zhyy-cost-close", 1, dept_id, month, [[order_id, order_digest], …  by order id]]
 *
 * Left out on purpose: display names copied for reading (department and project names, item names), the
 * remark, the audit trail and timestamps, and a price row's name, category and window days — those may be
 * corrected on a used price (docs/cost.md, the price list) and do not change what the month cost; the
 * window a line was priced from is on the line itself (price_from, price_to) and is in.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CostOrderState, fenToYuan, type CostCloseDiff, type CostCloseOrderFigures } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import '../tables.js';

type Db = Kysely<Database>;

export const DIGEST_VERSION = 1;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The month's orders, each with its digest (and the figures a snapshot keeps), and the month's digest. */
export interface MonthDigest {
  digest: string;
  orders: CostCloseOrderFigures[];
}

async function inChunks<T>(ids: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await read(ids.slice(i, i + 500))));
  return out;
}

/** Reads a department-month's orders, lines and used price rows and computes its digest. */
export async function monthDigest(db: Db, deptId: string, month: string): Promise<MonthDigest> {
  const orders = await db
    .selectFrom('cost_orders')
    .select(['id', 'order_no', 'month', 'dept_id', 'project_id', 'project_code', 'project_name', 'source', 'state', 'amount', 'tax', 'line_count'])
    .where('dept_id', '=', deptId)
    .where('month', '=', month)
    .execute();
  orders.sort((a, b) => byText(a.id, b.id));
  const lines = await inChunks(orders.map((o) => o.id), (chunk) =>
    db
      .selectFrom('cost_order_lines')
      .select(['id', 'order_id', 'line_no', 'item_code', 'category', 'spec', 'unit', 'quantity', 'unit_price', 'tax_rate', 'amount', 'tax', 'price_id', 'price_from', 'price_to'])
      .where('order_id', 'in', chunk)
      .execute(),
  );
  const priceIds = [...new Set(lines.map((l) => l.price_id).filter((p): p is string => !!p))];
  const prices = new Map(
    (await inChunks(priceIds, (chunk) => db.selectFrom('cost_prices').select(['id', 'item_code', 'spec', 'unit', 'unit_price', 'tax_rate']).where('id', 'in', chunk).execute())).map((p) => [p.id, p]),
  );
  const linesOf = new Map<string, typeof lines>();
  for (const l of lines) linesOf.set(l.order_id, [...(linesOf.get(l.order_id) ?? []), l]);

  const figures: CostCloseOrderFigures[] = orders.map((o) => {
    const own = (linesOf.get(o.id) ?? []).sort((a, b) => Number(a.line_no) - Number(b.line_no) || byText(a.id, b.id));
    const used = [...new Set(own.map((l) => l.price_id).filter((p): p is string => !!p))].sort(byText);
    const text = JSON.stringify([
      'order', o.id, o.order_no, o.month, o.dept_id, o.project_id, o.source, Number(o.state), Number(o.amount), Number(o.tax), Number(o.line_count),
      own.map((l) => ['line', l.id, Number(l.line_no), l.item_code, l.category, l.spec, l.unit, l.quantity, l.unit_price, l.tax_rate, Number(l.amount), Number(l.tax), l.price_id ?? null, l.price_from, l.price_to ?? null]),
      used.map((id) => {
        const p = prices.get(id);
        return p ? ['price', p.id, p.item_code, p.spec, p.unit, p.unit_price, p.tax_rate] : ['price', id, null];
      }),
    ]);
    return {
      orderId: o.id, orderNo: o.order_no, projectCode: o.project_code, projectName: o.project_name, state: Number(o.state),
      amount: Number(o.amount), tax: Number(o.tax), lineCount: Number(o.line_count), digest: sha256(text),
    };
  });
  return { digest: digestOfFigures(deptId, month, figures), orders: figures };
}

/** The month's digest over its orders' digests (orders by id). */
export function digestOfFigures(deptId: string, month: string, figures: readonly CostCloseOrderFigures[]): string {
  const sorted = [...figures].sort((a, b) => byText(a.orderId, b.orderId));
  return sha256(JSON.stringify(['zhyy-cost-close', DIGEST_VERSION, deptId, month, sorted.map((f) => [f.orderId, f.digest])]));
}

/** Orders in force (not invalid) and their totals. */
export function inForce(orders: readonly CostCloseOrderFigures[]): { orders: number; amount: number; tax: number } {
  const live = orders.filter((o) => o.state !== CostOrderState.invalid);
  return { orders: live.length, amount: live.reduce((s, o) => s + o.amount, 0), tax: live.reduce((s, o) => s + o.tax, 0) };
}

/** What moved in one order, in Chinese (amounts in 元). */
function whatMoved(a: CostCloseOrderFigures, b: CostCloseOrderFigures): string[] {
  const out: string[] = [];
  if (a.state !== b.state) out.push(`状态 ${CostOrderState.label(a.state)} → ${CostOrderState.label(b.state)}`);
  if (a.amount !== b.amount) out.push(`不含税金额 ${fenToYuan(a.amount)} → ${fenToYuan(b.amount)} 元`);
  if (a.tax !== b.tax) out.push(`税额 ${fenToYuan(a.tax)} → ${fenToYuan(b.tax)} 元`);
  if (a.lineCount !== b.lineCount) out.push(`明细 ${a.lineCount} → ${b.lineCount} 行`);
  if (a.orderNo !== b.orderNo) out.push(`单号 ${a.orderNo} → ${b.orderNo}`);
  if (!out.length) out.push('明细内容或所用价格变化（金额未变）');
  return out;
}

/** The difference between a previous set of order figures and the present one, orders by number. */
export function diffFigures(before: readonly CostCloseOrderFigures[], after: readonly CostCloseOrderFigures[]): CostCloseDiff {
  const was = new Map(before.map((o) => [o.orderId, o]));
  const now = new Map(after.map((o) => [o.orderId, o]));
  const byNo = (a: CostCloseOrderFigures, b: CostCloseOrderFigures) => byText(a.orderNo, b.orderNo) || byText(a.orderId, b.orderId);
  const changed: CostCloseDiff['changed'] = [];
  for (const o of after) {
    const p = was.get(o.orderId);
    if (p && p.digest !== o.digest) changed.push({ before: p, after: o, what: whatMoved(p, o) });
  }
  changed.sort((x, y) => byNo(x.after, y.after));
  return {
    added: after.filter((o) => !was.has(o.orderId)).sort(byNo),
    removed: before.filter((o) => !now.has(o.orderId)).sort(byNo),
    changed,
    before: inForce(before),
    after: inForce(after),
  };
}

/** True when a difference lists nothing. */
export const noDifference = (d: CostCloseDiff) => !d.added.length && !d.removed.length && !d.changed.length;

/** The latest snapshot of a department-month (the close in force, when it is closed). */
export async function latestSnapshot(db: Db, deptId: string, month: string) {
  return db
    .selectFrom('cost_closing_snapshots')
    .selectAll()
    .where('dept_id', '=', deptId)
    .where('month', '=', month)
    .orderBy('closed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export const figuresOf = (json: string): CostCloseOrderFigures[] => JSON.parse(json) as CostCloseOrderFigures[];
export const changesOf = (json: string): CostCloseDiff | null => (json ? (JSON.parse(json) as CostCloseDiff) : null);
