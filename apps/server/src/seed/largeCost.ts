/**
 * The large mode of 成本管理 (`npm run seed -- --cost-orders 100000`, issue 30): appends generated cost
 * orders with 3–12 lines each to a database that holds the demo company, in batches, each batch in its
 * own transaction. Order i is a pure function of i and the demo's reference data (its own seeded stream),
 * so a load is the same on every machine and resumes where it stopped.
 *
 * - Spread: the 36 months before the demo's first cost month (so the demo's closed months and their
 *   closing digests are not touched), over the departments that bear cost in the demo (COST_DEPTS) and
 *   generated projects (规模项目 LGP00001 …, added to `projects` as the volume needs them). Order i takes
 *   the slot month i mod 36, department ⌊i / 36⌋ mod D, project ⌊i / 36D⌋: one order per month ×
 *   department × project, as the live-order index demands, and every month and department evenly filled.
 * - Lines: categories drawn with the department's weights (COST_DEPTS), items of that category from the
 *   price list, priced at the item's oldest window (its price row, price and rate copied; the large
 *   months lie before the windows' dates), amounts and tax as the service rounds them (lineAmount,
 *   lineTax), the order's sums its lines' (orderTotals).
 * - States: 97 % 已审核 (by an auditor of the department when one is assigned), 3 % 已作废 with a reason;
 *   sources 80 % project-management push (pms_ref PMSL…), 15 % Excel import, 5 % entry. No closings and
 *   no order log for these months. Numbers CB{yyyyMM}{seq} of their months (cost_counters set to each
 *   month's last); ids of the series 6f1c9281…/9282…/9283….
 */
import { sql } from 'kysely';
import { CostOrderSource, CostOrderState, costOrderNo, lineAmount, lineTax, orderTotals, shiftMonth } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { CostOrderLineTable, CostOrderTable } from '../modules/cost/tables.js';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import { COST_DEPTS, INVALID_REASONS } from './costData.js';
import { incomeRowId } from './incomeData.js';
import { Rng } from './rng.js';

export const LARGE_COST_SEED = 20261818;
const T = { project: 0x9281, order: 0x9282, line: 0x9283 } as const;
/** Demo cost orders' ids (seed/cost.ts, table 0x9202). */
const DEMO_ORDER = 0x9202;
export const LARGE_COST_MONTHS = 36;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export const largeOrderId = (i: number) => incomeRowId(T.order, i);
export const largeProjectId = (p: number) => incomeRowId(T.project, p);

interface Price { id: string; item_code: string; item_name: string; category: string; spec: string; unit: string; unit_price: string; tax_rate: string; valid_from: string; valid_to: string | null }
export interface LargeCostContext {
  /** Oldest month first. */
  months: string[];
  depts: Array<{ id: string; name: string; weights: Array<[string, number]>; people: Array<{ id: string; name: string }>; auditor: string }>;
  /** The oldest window of every item, by category. */
  prices: Map<string, Price[]>;
}

export async function largeCostContext(db: Db): Promise<LargeCostContext> {
  const k = db.kysely;
  const first = (await k.selectFrom('cost_orders').select(sql<string>`min(month)`.as('m')).where('id', '>=', incomeRowId(DEMO_ORDER, 0)).where('id', '<', incomeRowId(DEMO_ORDER + 1, 0)).executeTakeFirst())?.m;
  if (!first) throw new Error('the large mode of 成本 needs the demo company (its cost orders)');
  const months = Array.from({ length: LARGE_COST_MONTHS }, (_, j) => shiftMonth(first, j - LARGE_COST_MONTHS));
  const all = await k.selectFrom('cost_prices').select(['id', 'item_code', 'item_name', 'category', 'spec', 'unit', 'unit_price', 'tax_rate', 'valid_from', 'valid_to']).orderBy('valid_from').orderBy('id').execute();
  const oldest = new Map<string, Price>();
  for (const p of all) {
    const key = `${p.item_code}\u0000${p.spec}\u0000${p.unit}`;
    if (!oldest.has(key)) oldest.set(key, p);
  }
  const prices = new Map<string, Price[]>();
  for (const p of oldest.values()) prices.set(p.category, [...(prices.get(p.category) ?? []), p]);
  const names = new Map((await k.selectFrom('departments').select(['id', 'name']).execute()).map((d) => [d.id, d.name]));
  const users = await k.selectFrom('users').select(['id', 'name', 'dept_id']).where('status', '=', 1).orderBy('id').execute();
  const auditors = await k.selectFrom('cost_auditors as a').innerJoin('users as u', 'u.id', 'a.user_id').select(['a.dept_id', 'u.name']).orderBy('u.id').execute();
  const depts = COST_DEPTS.map((d) => {
    const id = demoId(`dept:${d.key}`);
    const people = users.filter((u) => u.dept_id === id).map((u) => ({ id: u.id, name: u.name }));
    const weights = Object.entries(d.categories).filter(([c, w]) => (w ?? 0) > 0 && prices.has(c)) as Array<[string, number]>;
    return { id, name: names.get(id) ?? '', weights, people, auditor: auditors.find((a) => a.dept_id === id)?.name ?? 'admin' };
  }).filter((d) => d.name && d.weights.length && d.people.length);
  if (!depts.length || !prices.size) throw new Error('the large mode of 成本 needs the demo company (departments, the price list)');
  return { months, depts, prices };
}

function weighted(r: Rng, items: Array<[string, number]>): string {
  let x = r.next() * items.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of items) if ((x -= w) < 0) return v;
  return items[items.length - 1]![0];
}

/** The project of slot p. */
const project = (p: number) => ({ id: largeProjectId(p), code: `LGP${pad(p + 1, 5)}`, name: `规模项目${pad(p + 1, 5)}` });

/** Order i (0-based) of the large mode with its lines. */
export function largeOrder(i: number, c: LargeCostContext): { order: CostOrderTable; lines: CostOrderLineTable[] } {
  const r = new Rng(LARGE_COST_SEED * 31 + i * 7919);
  const M = c.months.length;
  const D = c.depts.length;
  const month = c.months[i % M]!;
  const dept = c.depts[Math.floor(i / M) % D]!;
  const proj = project(Math.floor(i / (M * D)));
  const id = largeOrderId(i);
  const lines: CostOrderLineTable[] = [];
  const n = r.int(3, 12);
  for (let j = 0; j < n; j++) {
    const p = r.pick(c.prices.get(weighted(r, dept.weights))!);
    const quantity = String(r.int(4, 800) / 4);
    const amount = lineAmount(quantity, p.unit_price);
    lines.push({
      id: incomeRowId(T.line, i * 16 + j), order_id: id, line_no: j + 1, price_id: p.id, item_code: p.item_code, item_name: p.item_name, category: p.category, spec: p.spec, unit: p.unit,
      quantity, unit_price: p.unit_price, tax_rate: p.tax_rate, amount, tax: lineTax(amount, p.tax_rate), price_from: p.valid_from, price_to: p.valid_to, remark: '',
    });
  }
  const sums = orderTotals(lines);
  const invalid = r.chance(0.03);
  const x = r.next();
  const source = x < 0.8 ? CostOrderSource.pms : x < 0.95 ? CostOrderSource.import : CostOrderSource.entry;
  const creator = r.pick(dept.people);
  // Made in the month's last days, audited one to five days later (Asia/Shanghai, 09:00–18:00).
  const [y, m] = month.split('-').map(Number) as [number, number];
  const createdMs = Date.UTC(y, m, 1) - r.int(1, 5) * 86_400_000 + r.int(1, 9 * 60) * 60_000 + 60 * 60_000;
  const doneMs = createdMs + r.int(1, 5) * 86_400_000;
  const order: CostOrderTable = {
    id, order_no: costOrderNo(month, Math.floor(i / M) + 1), month, dept_id: dept.id, dept_name: dept.name, project_id: proj.id, project_code: proj.code, project_name: proj.name,
    source, state: invalid ? CostOrderState.invalid : CostOrderState.audited, invalid_reason: invalid ? r.pick(INVALID_REASONS) : '', amount: sums.amount, tax: sums.tax, line_count: n,
    remark: '', pms_ref: source === CostOrderSource.pms ? `PMSL${pad(i, 10)}` : '', audited_by: invalid ? '' : dept.auditor, audited_at: invalid ? null : new Date(doneMs).toISOString(),
    created_by_id: creator.id, created_by: creator.name, created_at: new Date(createdMs).toISOString(), updated_at: new Date(doneMs).toISOString(),
  };
  return { order, lines };
}

export interface LargeCostOptions {
  orders: number;
  /** Orders per transaction. */
  batch?: number;
  log?: (line: string) => void;
}

/** Loads orders 0 … n−1 of the large mode that are not there yet (and the projects they need); returns how many it added. */
export async function seedLargeCostOrders(db: Db, opts: LargeCostOptions): Promise<number> {
  const k = db.kysely;
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 5000;
  const inRange = (table: number) => [incomeRowId(table, 0), incomeRowId(table + 1, 0)] as const;
  const count = async (t: 'cost_orders' | 'projects', table: number) =>
    Number((await k.selectFrom(t).select(sql<number>`count(*)`.as('n')).where('id', '>=', inRange(table)[0]).where('id', '<', inRange(table)[1]).executeTakeFirstOrThrow()).n);
  const have = await count('cost_orders', T.order);
  if (have >= opts.orders) return 0;
  const c = await largeCostContext(db);
  const needed = Math.ceil(opts.orders / (c.months.length * c.depts.length));
  const projects = await count('projects', T.project);
  const at = `${c.months[0]}-01T00:00:00.000Z`;
  await bulkInsert(k, 'projects', Array.from({ length: Math.max(0, needed - projects) }, (_, j) => {
    const p = project(projects + j);
    return { ...p, customer: '', amount: 0, source: 2, is_temp: 0, created_at: at, updated_at: at };
  }));
  const started = Date.now();
  let added = 0;
  for (let from = have; from < opts.orders; from += batch) {
    const list = Array.from({ length: Math.min(batch, opts.orders - from) }, (_, j) => largeOrder(from + j, c));
    await k.transaction().execute(async (trx) => {
      await bulkInsert(trx, 'cost_orders', list.map((v) => v.order));
      await bulkInsert(trx, 'cost_order_lines', list.flatMap((v) => v.lines));
    });
    added += list.length;
    if ((from / batch) % 5 === 0 || from + batch >= opts.orders) log(`  ${from + list.length} / ${opts.orders} cost orders (${Math.round((added * 1000) / Math.max(1, Date.now() - started))} a second)`);
  }
  // The months' counters: the next order of a month takes the number after its last.
  const last = c.months.map((month, m) => ({ month, seq: m < opts.orders ? Math.floor((opts.orders - 1 - m) / c.months.length) + 1 : 0 })).filter((x) => x.seq > 0);
  await k.transaction().execute(async (trx) => {
    await trx.deleteFrom('cost_counters').where('month', 'in', last.map((x) => x.month)).execute();
    await bulkInsert(trx, 'cost_counters', last);
  });
  log('  analysing…');
  for (const t of ['cost_orders', 'cost_order_lines']) await sql.raw(db.dialect === 'postgres' ? `vacuum analyze ${t}` : `analyze ${t}`).execute(k);
  return added;
}
