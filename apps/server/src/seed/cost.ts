/**
 * The demo company's 成本管理 (issue 16): the price list, auditor assignments, thirteen months of cost
 * orders (the twelve ended months before the demo's day and the current month's first ones), eleven
 * months closed. Static data in costData.ts; the data description and its cost are in docs/cost.md
 * ("Demo data").
 *
 * - Prices: about 120 keys (item, spec, unit), each revised on the two half-year starts (1 Jan, 1 Jul)
 *   that fall within the last twelve months: three windows that never overlap (the oldest opens on
 *   the half-year start twelve months before the latest, the newest is open-ended); some revisions fall
 *   mid-month, a few items are introduced mid-month (their first month priced by the window starting
 *   within it) and a few discontinued (no open window).
 * - Orders: `costPerMonth` (default 180) a month over the departments that bear cost and the projects,
 *   one live order per month × department × project; 5–20 lines priced exactly as the service prices
 *   them (priceForMonth for the order's month, the window copied, lineAmount / lineTax half-up, the
 *   order's sums). Numbers CB{yyyyMM}{seq} per month in creation order, cost_counters at each month's
 *   last. Sources: mostly the project-management push (pms_ref), some Excel imports, some entries; the
 *   current month has no push yet.
 * - States: closed months hold only audited and invalid orders (some invalid ones followed by a
 *   corrected order for the same month, department and project); last month (open) and the current
 *   month hold the orders awaiting audit. demo20, demo21 and demo22 each have at least three waiting.
 * - Closings: every department with orders, for the eleven months before last month, logged; one was
 *   reopened to add an order the push had missed and closed again.
 *
 * Volume is what the six shared projects can carry at the test servers' volume; at the full volume the
 * cost-only projects of costData.ts are added. Written in multi-row inserts (seed/bulk.ts); ids
 * UUID-shaped by number (incomeRowId, tables 0x92xx); deterministic (a generator of its own seed). The
 * price list and the auditors are drawn in costPrices.ts, the month's combinations in costCombos.ts.
 */
import {
  CostOrderSource, CostOrderState, costOrderNo, lineAmount, lineTax, orderTotals, priceForMonth, shanghaiMonthOf, shiftMonth, type CostCloseOrderFigures,
} from '@zhyy/shared';
import type { CostClosingSnapshotTable, CostOrderLineTable, CostOrderLogTable, CostOrderTable, CostPriceTable } from '../modules/cost/tables.js';
import { diffFigures, digestOfFigures, inForce, monthDigest } from '../modules/cost/settings/digest.js';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import {
  COST_DEPTS, COST_ITEMS, COST_PROJECTS, costItemKey, INVALID_REASONS, LINE_REMARKS, ORDER_REMARKS, QUANTITY, REOPEN_REASON, REPLACED_REASONS, type CostItem,
} from './costData.js';
import type { SeedContext } from './context.js';
import { incomeRowId as rowId } from './incomeData.js';
import { BUYERS, PROJECTS } from './invoiceData.js';
import { chooseCombos, weightedSample, type Combo } from './costCombos.js';
import { auditorAssignments, DAY, HOUR, iso, MIN, priceList, qtyText, shStart } from './costPrices.js';
import { Rng } from './rng.js';

/** About 180 orders a month at full volume. */
export const COST_DEMO_PER_MONTH = 180;
/** Orders of the current month, as a share of a full month (the push comes at the month's end). */
export const COST_CURRENT_SHARE = 0.4;
const SEED = 20261616;
const T = { price: 0x9201, order: 0x9202, line: 0x9203, log: 0x9204, closingLog: 0x9205, snapshot: 0x9206 } as const;

type Fate = 'audited' | 'toAudit' | 'invalid';

interface LineSpec {
  price: CostPriceTable;
  quantity: string;
  remark: string;
}

interface OrderSpec {
  month: string;
  combo: Combo;
  source: string;
  createdMs: number;
  creator: DemoUser;
  lines: LineSpec[];
  fate: Fate;
  /** Audit or invalidation time. */
  doneMs: number;
  auditor: DemoUser | null;
  reason: string;
  replaces: OrderSpec | null;
  remark: string;
  editedMs: number | null;
  pmsRef: string;
  /** Added while the month was reopened. */
  late: boolean;
  no?: string;
  id?: string;
}

export async function seedCost(ctx: SeedContext): Promise<void> {
  const db = ctx.db;
  const rng = new Rng(SEED);
  const nowMs = ctx.now.getTime();
  const perMonth = ctx.costPerMonth ?? COST_DEMO_PER_MONTH;
  const current = shanghaiMonthOf(ctx.now);
  const byLogin = new Map(ctx.users.map((u) => [u.loginName, u]));
  const manager = byLogin.get('demo17') ?? ctx.users[0]!;
  const deptName = (key: string) => DEPARTMENTS.find((d) => d.key === key)?.name ?? '';
  const deptId = (key: string) => demoId(`dept:${key}`);
  const costDepts = COST_DEPTS.map((d) => d.key);

  // ---- The price list ----
  const prices = priceList(rng, current, nowMs, manager.name);
  await bulkInsert(db, 'cost_prices', prices);
  const windowsOf = new Map<string, CostPriceTable[]>();
  for (const p of prices) {
    const k = costItemKey({ code: p.item_code, spec: p.spec, unit: p.unit });
    windowsOf.set(k, [...(windowsOf.get(k) ?? []), p]);
  }

  // ---- Auditor assignments ----
  const assigned = auditorAssignments(ctx.users, costDepts);
  await bulkInsert(db, 'cost_auditors', [...assigned].flatMap(([u, ds]) => [...ds].map((d) => ({ user_id: u.id, dept_id: deptId(d) }))));
  const auditorsOf = new Map(costDepts.map((d) => [d, [...assigned].filter(([, ds]) => ds.has(d)).map(([u]) => u)]));
  const pickAuditor = (dept: string) => {
    const pool = auditorsOf.get(dept)!;
    // The department's own auditors (20, 21, 22) do most of the work; 17 the rest.
    const own = pool.filter((u) => !u.roles.includes('17'));
    return own.length && rng.chance(0.8) ? rng.pick(own) : rng.pick(pool);
  };
  const closers = ctx.users.filter((u) => u.roles.includes('17'));
  const enterers = ctx.users.filter((u) => u.roles.includes('16') || u.roles.includes('17'));

  // costPerMonth 0: reference data only.
  if (perMonth <= 0) return;

  // ---- Projects: the six shared ones, and cost-only ones when the volume needs more combinations ----
  const months = Array.from({ length: 13 }, (_, i) => shiftMonth(current, i - 12));
  const lastMonth = months[11]!;
  const closedMonths = months.slice(0, 11);
  const counts = months.map((m) => Math.max(1, m === current ? Math.round(perMonth * COST_CURRENT_SHARE) : Math.round(perMonth * (0.92 + 0.16 * rng.next()))));
  const needed = Math.ceil(Math.max(...counts) * 1.12);
  const extra = Math.min(COST_PROJECTS.length, Math.max(0, Math.ceil(needed / costDepts.length) - PROJECTS.length));
  const extraRows = COST_PROJECTS.slice(0, extra).map((p) => {
    const at = iso(nowMs - rng.int(400, 540) * DAY);
    return { id: demoId(`project:${p.key}`), code: p.code, name: p.name, customer: BUYERS[p.customer]!.name, amount: p.amount, source: 2, is_temp: 0, created_at: at, updated_at: at };
  });
  await bulkInsert(db, 'projects', extraRows);
  const projects = [
    ...PROJECTS.map((p) => ({ id: demoId(`project:${p.key}`), code: p.code, name: p.name, weight: p.temp ? 0.4 : 1.3 })),
    ...extraRows.map((p) => ({ id: p.id, code: p.code, name: p.name, weight: 1 })),
  ];
  const combos: Combo[] = COST_DEPTS.flatMap((d) => projects.map((p) => ({ dept: d.key, project: { id: p.id, code: p.code, name: p.name }, weight: d.weight * p.weight })));

  // ---- Orders: which combinations each month, their lines ----
  const baskets = new Map<Combo, Map<string, number>>();
  const catWeight = new Map(COST_DEPTS.map((d) => [d.key, d.categories]));
  /** The price of each key for an order's month, as the service finds it (priceForMonth). */
  const pricesFor = (month: string) => {
    const out = new Map<string, CostPriceTable>();
    for (const [k, ws] of windowsOf) {
      const w = priceForMonth(ws.map((row) => ({ row, validFrom: row.valid_from, validTo: row.valid_to })), month);
      if (w) out.set(k, w.row);
    }
    return out;
  };
  const itemOf = new Map(COST_ITEMS.map((i) => [costItemKey(i), i]));
  const drawQuantity = (item: CostItem) => {
    const [lo, hi] = item.quantity ?? QUANTITY[item.unit] ?? [1, 10, 0];
    return lo * (hi / lo) ** rng.next();
  };
  const quantityText = (item: CostItem, base: number) => {
    const [lo, hi, dp] = item.quantity ?? QUANTITY[item.unit] ?? [1, 10, 0];
    const v = base * (0.7 + 0.6 * rng.next());
    const q = v > hi ? hi * (0.9 + 0.1 * rng.next()) : Math.max(lo, v);
    return qtyText(Math.max(1, Math.round(q * 10 ** dp)), dp);
  };
  /**
   * This month's lines of a combination: mostly last month's items again, some new, 5–20. An item
   * introduced within the month (its price window starts after the 1st) is a likely new pick.
   */
  const linesFor = (combo: Combo, month: string, available: Map<string, CostPriceTable>): LineSpec[] => {
    const basket = baskets.get(combo) ?? new Map<string, number>();
    const want = Math.round((rng.int(5, 20) + rng.int(5, 20)) / 2);
    const keep = [...basket.keys()].filter((k) => available.has(k) && rng.chance(0.85)).slice(0, want);
    const weights = catWeight.get(combo.dept)!;
    const pool = [...available.keys()].filter((k) => !keep.includes(k) && (weights[itemOf.get(k)!.category] ?? 0) > 0);
    const fresh = (k: string) => (available.get(k)!.valid_from > `${month}-01` ? 15 : 1);
    const picked = weightedSample(rng, pool, (k) => weights[itemOf.get(k)!.category]! * fresh(k), Math.max(0, want - keep.length));
    const keys = [...keep, ...picked].slice(0, 20);
    const next = new Map<string, number>();
    const lines = keys.map((k) => {
      const item = itemOf.get(k)!;
      const base = basket.get(k) ?? drawQuantity(item);
      next.set(k, base);
      return { price: available.get(k)!, quantity: quantityText(item, base), remark: rng.chance(0.04) ? rng.pick(LINE_REMARKS) : '' };
    });
    baskets.set(combo, next);
    return lines;
  };

  const specs: OrderSpec[] = [];
  const pmsSeq = new Map<string, number>();
  const pmsRef = (month: string) => {
    pmsSeq.set(month, (pmsSeq.get(month) ?? 0) + 1);
    return `PMS-${month.replace('-', '')}-${String(pmsSeq.get(month)!).padStart(5, '0')}`;
  };
  const draw = (lo: number, hi: number) => lo + Math.floor(rng.next() * Math.max(0, hi - lo) / 1000) * 1000;
  for (const [mi, month] of months.entries()) {
    const available = pricesFor(month);
    // demo20's and demo21's departments always have orders in the months that wait for audit.
    const chosen = chooseCombos(rng, combos, counts[mi]!, month === lastMonth ? 3 : month === current ? 2 : 0);
    const isCurrent = month === current;
    // When the month's orders arrive: from its 21st to the 6th of the next (the push on the 2nd), or,
    // for the current month, from its first day until now.
    let lo = isCurrent ? shStart(month) + 30 * MIN : shStart(month) + 20 * DAY;
    let hi = isCurrent ? nowMs - 30 * MIN : Math.min(shStart(shiftMonth(month, 1)) + 6 * DAY, nowMs - 2 * HOUR);
    if (hi <= lo) [lo, hi] = [Math.min(shStart(month), nowMs), Math.max(Math.min(shStart(month), nowMs), nowMs - MIN)];
    const pmsAt = Math.min(hi - 30 * MIN, Math.max(lo, shStart(shiftMonth(month, 1)) + DAY + 9 * HOUR + rng.int(0, 90) * MIN));
    const importAt = Array.from({ length: rng.int(1, 3) }, () => draw(lo, hi));
    const syncer = rng.pick(enterers);
    let pmsClock = pmsAt;
    let importN = 0;
    for (const combo of chosen) {
      const r = rng.next();
      const source = isCurrent ? (r < 0.45 ? CostOrderSource.import : CostOrderSource.entry) : r < 0.65 ? CostOrderSource.pms : r < 0.85 ? CostOrderSource.import : CostOrderSource.entry;
      let createdMs: number;
      let creator: DemoUser;
      if (source === CostOrderSource.pms) [createdMs, creator] = [Math.min(hi, (pmsClock += rng.int(1, 4) * 1000)), syncer];
      else if (source === CostOrderSource.import) {
        const b = importN++ % importAt.length;
        [createdMs, creator] = [Math.min(hi, importAt[b]! + importN * 1000), enterers[(b + mi) % enterers.length]!];
      } else [createdMs, creator] = [draw(lo, hi), rng.pick(enterers)];
      specs.push({
        month, combo, source, createdMs, creator, lines: linesFor(combo, month, available), fate: 'audited', doneMs: 0, auditor: null, reason: '', replaces: null,
        remark: source !== CostOrderSource.pms && rng.chance(0.1) ? rng.pick(ORDER_REMARKS) : '', editedMs: null, pmsRef: source === CostOrderSource.pms ? pmsRef(month) : '', late: false,
      });
    }
  }

  // ---- States ----
  const latest = nowMs - 10 * MIN;
  const inMonths = (ms: string[]) => specs.filter((s) => ms.includes(s.month));
  const sample = <X>(from: X[], n: number) => weightedSample(rng, from, () => 1, Math.min(n, from.length));
  // Invalid: about 2 % (at least three in closed months), the first reasons followed by a corrected order.
  const replacements: OrderSpec[] = [];
  for (const [group, share, least] of [[closedMonths, 0.022, 3], [[lastMonth], 0.02, 1], [[current], 0.02, 0]] as const) {
    const picked = sample(inMonths([...group]), Math.max(least, Math.round(inMonths([...group]).length * share)));
    for (const [i, s] of picked.entries()) {
      const invalidMs = s.createdMs + rng.int(60, 72 * 60) * MIN;
      if (invalidMs >= latest) continue;
      const replaced = i % 2 === 0;
      Object.assign(s, { fate: 'invalid', doneMs: invalidMs, auditor: pickAuditor(s.combo.dept) });
      const againMs = invalidMs + rng.int(60, 48 * 60) * MIN;
      if (!replaced || againMs >= latest) {
        s.reason = INVALID_REASONS[REPLACED_REASONS + rng.int(0, INVALID_REASONS.length - REPLACED_REASONS - 1)]!;
        continue;
      }
      s.reason = INVALID_REASONS[rng.int(0, REPLACED_REASONS - 1)]!;
      const source = s.source === CostOrderSource.pms && s.reason === INVALID_REASONS[2] ? CostOrderSource.pms : CostOrderSource.entry;
      const lines = s.lines.map((l) => ({ ...l, quantity: quantityText(itemOf.get(costItemKey({ code: l.price.item_code, spec: l.price.spec, unit: l.price.unit }))!, Number(l.quantity)) }));
      replacements.push({
        ...s, source, createdMs: againMs, creator: source === CostOrderSource.pms ? s.creator : rng.pick(enterers), lines, fate: 'audited', doneMs: 0, auditor: null, reason: '', replaces: s,
        remark: '', editedMs: null, pmsRef: source === CostOrderSource.pms ? pmsRef(s.month) : '',
      });
    }
  }
  specs.push(...replacements);
  // Audited or waiting: closed months all audited (their orders are all made and audited by the 17th of
  // the next month); last month about 30 % waiting, the current month about 70 %.
  for (const s of specs) {
    if (s.fate === 'invalid') continue;
    const auditMs = s.createdMs + rng.int(3 * 60, 5 * 24 * 60) * MIN;
    const closed = closedMonths.includes(s.month);
    const waitShare = s.month === current ? 0.7 : s.month === lastMonth ? 0.3 : 0;
    if (!closed && (auditMs >= latest || rng.chance(waitShare))) Object.assign(s, { fate: 'toAudit', doneMs: 0, auditor: null });
    else Object.assign(s, { fate: 'audited', doneMs: Math.min(auditMs, latest), auditor: pickAuditor(s.combo.dept) });
  }
  // demo20, demo21 and demo22 each find at least three orders waiting (last month and this one).
  for (const login of ['demo20', 'demo21', 'demo22']) {
    const depts = [...(assigned.get(byLogin.get(login)!) ?? [])];
    const open = specs.filter((s) => (s.month === lastMonth || s.month === current) && depts.includes(s.combo.dept));
    const short = 3 - open.filter((s) => s.fate === 'toAudit').length;
    if (short > 0) for (const s of open.filter((x) => x.fate === 'audited').slice(-short)) Object.assign(s, { fate: 'toAudit', doneMs: 0, auditor: null });
  }
  // Some entered or imported orders were edited before audit.
  for (const s of specs) {
    if (s.source === CostOrderSource.pms || !rng.chance(0.08)) continue;
    const at = s.createdMs + rng.int(20, 600) * MIN;
    if (at < (s.doneMs || latest)) s.editedMs = at;
  }

  // ---- Closings: each department with orders in the eleven months before last month; one reopened ----
  const closings: Array<{ dept: string; month: string; closedMs: number; by: DemoUser }> = [];
  const closingLogs: Array<{ dept: string; month: string; action: 'close' | 'reopen'; reason: string; by: DemoUser; ms: number }> = [];
  for (const month of closedMonths) {
    for (const dept of costDepts) {
      const own = specs.filter((s) => s.month === month && s.combo.dept === dept);
      if (!own.length) continue;
      const last = Math.max(...own.map((s) => Math.max(s.createdMs, s.doneMs, s.editedMs ?? 0)));
      const base = shStart(shiftMonth(month, 1)) + rng.int(9, 13) * DAY + rng.int(15 * 60, 18 * 60) * MIN;
      const by = rng.chance(0.8) ? manager : rng.pick(closers);
      const closedMs = Math.max(base, last + rng.int(2 * 60, 20 * 60) * MIN);
      closings.push({ dept, month, closedMs, by });
      closingLogs.push({ dept, month, action: 'close', reason: '', by, ms: closedMs });
    }
  }
  // The reopen: a month closed, reopened to add the order the push had missed, closed again.
  const reopenMonth = closedMonths[Math.max(0, closedMonths.length - 4)]!;
  let reopened: { dept: string; month: string; firstMs: number; firstBy: DemoUser; late: OrderSpec } | null = null;
  const candidates = closings.filter((c) => c.month === reopenMonth).sort((a, b) => (a.dept === 'eng2' ? -1 : b.dept === 'eng2' ? 1 : 0));
  for (const c of candidates) {
    const used = new Set(specs.filter((s) => s.month === c.month && s.combo.dept === c.dept).map((s) => s.combo.project.id));
    const combo = combos.find((x) => x.dept === c.dept && !used.has(x.project.id));
    if (!combo) continue;
    const reopenMs = c.closedMs + rng.int(2, 6) * DAY + rng.int(60, 300) * MIN;
    const createdMs = reopenMs + rng.int(60, 180) * MIN;
    const auditedMs = createdMs + rng.int(90, 300) * MIN;
    const againMs = auditedMs + rng.int(40, 120) * MIN;
    if (againMs >= latest) break;
    const late: OrderSpec = {
      month: c.month, combo, source: CostOrderSource.entry, createdMs, creator: manager, lines: linesFor(combo, c.month, pricesFor(c.month)), fate: 'audited', doneMs: auditedMs,
      auditor: pickAuditor(c.dept), reason: '', replaces: null, remark: '项目管理系统漏推，反结账后补录', editedMs: null, pmsRef: '', late: true,
    };
    specs.push(late);
    reopened = { dept: c.dept, month: c.month, firstMs: c.closedMs, firstBy: c.by, late };
    closingLogs.push({ dept: c.dept, month: c.month, action: 'reopen', reason: REOPEN_REASON, by: manager, ms: reopenMs }, { dept: c.dept, month: c.month, action: 'close', reason: '', by: manager, ms: againMs });
    c.closedMs = againMs;
    c.by = manager;
    break;
  }

  // ---- Numbers CB{yyyyMM}{seq} per month in creation order; the counters at each month's last ----
  specs.sort((a, b) => a.month.localeCompare(b.month) || a.createdMs - b.createdMs);
  const seqs = new Map<string, number>();
  specs.forEach((s, i) => {
    seqs.set(s.month, (seqs.get(s.month) ?? 0) + 1);
    s.no = costOrderNo(s.month, seqs.get(s.month)!);
    s.id = rowId(T.order, i + 1);
  });

  // ---- Rows ----
  const orders: CostOrderTable[] = [];
  const lines: CostOrderLineTable[] = [];
  const logs: CostOrderLogTable[] = [];
  const log = (orderId: string, action: string, message: string, userName: string, ms: number) =>
    logs.push({ id: rowId(T.log, logs.length + 1), order_id: orderId, action, message, user_name: userName, created_at: iso(ms) });
  for (const s of specs) {
    const own = s.lines.map((l, k): CostOrderLineTable => {
      const amount = lineAmount(l.quantity, l.price.unit_price);
      const p = l.price;
      return {
        id: rowId(T.line, lines.length + k + 1), order_id: s.id!, line_no: k + 1, price_id: p.id, item_code: p.item_code, item_name: p.item_name, category: p.category, spec: p.spec, unit: p.unit,
        quantity: l.quantity, unit_price: p.unit_price, tax_rate: p.tax_rate, amount, tax: lineTax(amount, p.tax_rate), price_from: p.valid_from, price_to: p.valid_to, remark: l.remark,
      };
    });
    lines.push(...own);
    const sums = orderTotals(own);
    const state = s.fate === 'invalid' ? CostOrderState.invalid : s.fate === 'audited' ? CostOrderState.audited : CostOrderState.toAudit;
    orders.push({
      id: s.id!, order_no: s.no!, month: s.month, dept_id: deptId(s.combo.dept), dept_name: deptName(s.combo.dept), project_id: s.combo.project.id, project_code: s.combo.project.code,
      project_name: s.combo.project.name, source: s.source, state, invalid_reason: s.reason, amount: sums.amount, tax: sums.tax, line_count: own.length, remark: s.remark, pms_ref: s.pmsRef,
      audited_by: s.fate === 'audited' ? s.auditor!.name : '', audited_at: s.fate === 'audited' ? iso(s.doneMs) : null, created_by_id: s.creator.id, created_by: s.creator.name,
      created_at: iso(s.createdMs), updated_at: iso(Math.max(s.createdMs, s.doneMs, s.editedMs ?? 0)),
    });
    const again = s.replaces ? `（替代已作废的 ${s.replaces.no}）` : '';
    if (s.source === CostOrderSource.pms) log(s.id!, 'pms', `项目管理系统推送 ${s.pmsRef}，${own.length} 行明细${again}`, s.creator.name, s.createdMs);
    else if (s.source === CostOrderSource.import) log(s.id!, 'import', `Excel导入，${own.length} 行明细${again}`, s.creator.name, s.createdMs);
    else log(s.id!, 'create', `新建成本单，${own.length} 行明细${again}${s.late ? '（反结账后补录）' : ''}`, s.creator.name, s.createdMs);
    if (s.editedMs) log(s.id!, 'edit', '修改成本明细', s.creator.name, s.editedMs);
    if (s.fate === 'audited') log(s.id!, 'audit', '审核通过', s.auditor!.name, s.doneMs);
    if (s.fate === 'invalid') log(s.id!, 'invalid', `作废：${s.reason}`, s.auditor!.name, s.doneMs);
  }
  closingLogs.sort((a, b) => a.ms - b.ms);

  await bulkInsert(db, 'cost_orders', orders);
  await bulkInsert(db, 'cost_order_lines', lines);
  await bulkInsert(db, 'cost_order_logs', logs);
  await bulkInsert(db, 'cost_counters', [...seqs].map(([month, seq]) => ({ month, seq })));
  await bulkInsert(db, 'cost_closings', closings.map((c) => ({ dept_id: deptId(c.dept), month: c.month, closed_by: c.by.name, closed_at: iso(c.closedMs) })));
  await bulkInsert(db, 'cost_closing_logs', closingLogs.map((c, i) => ({ id: rowId(T.closingLog, i + 1), dept_id: deptId(c.dept), dept_name: deptName(c.dept), month: c.month, action: c.action, reason: c.reason, user_name: c.by.name, created_at: iso(c.ms) })));

  // ---- Closing snapshots (issue 32 item 5): each close's digest and figures, as the close would have stored them ----
  const snapshots: CostClosingSnapshotTable[] = [];
  const snapshot = (dept: string, month: string, digest: string, figures: CostCloseOrderFigures[], changes: string, by: DemoUser, ms: number) => {
    const t = inForce(figures);
    snapshots.push({ id: rowId(T.snapshot, snapshots.length + 1), dept_id: deptId(dept), month, digest, orders: JSON.stringify(figures), order_count: t.orders, amount: t.amount, tax: t.tax, changes, closed_by: by.name, closed_at: iso(ms) });
  };
  for (const c of closings) {
    const now = await monthDigest(db, deptId(c.dept), c.month);
    if (reopened && reopened.dept === c.dept && reopened.month === c.month) {
      // The first close saw the month without the order added after the reopen (its digest: the same serialisation without it).
      const first = now.orders.filter((o) => o.orderId !== reopened!.late.id);
      snapshot(c.dept, c.month, digestOfFigures(deptId(c.dept), c.month, first), first, '', reopened.firstBy, reopened.firstMs);
      snapshot(c.dept, c.month, now.digest, now.orders, JSON.stringify(diffFigures(first, now.orders)), c.by, c.closedMs);
    } else snapshot(c.dept, c.month, now.digest, now.orders, '', c.by, c.closedMs);
  }
  await bulkInsert(db, 'cost_closing_snapshots', snapshots);
}
