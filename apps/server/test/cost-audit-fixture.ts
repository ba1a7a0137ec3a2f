/**
 * The cost orders the ledger, audit and summary tests read (cost-audit.test.ts, cost-audit-queue.test.ts,
 * cost-summary.test.ts),
 * written straight into the tables: the demo's cost data (if any) is removed first, so every count
 * here is this fixture's. Three of the demo's departments (A, B, C), two projects of our own, a price
 * list of three items (one with a revision on 2040-07-01), orders in 2040 (no demo order is there) in
 * every state and from every source, with lines priced and rounded by the shared rules, and auditor
 * assignments: demo20 → A and B, demo21 → B, demo22 → C, demo17 → A.
 */
import type ExcelJS from 'exceljs';
import { lineAmount, lineTax, orderTotals } from '@zhyy/shared';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

export type DeptKey = 'A' | 'B' | 'C';
export type ProjectKey = 'P1' | 'P2';
export interface LineSpec {
  item: 'L01' | 'M01' | 'V01';
  quantity: string;
  /** The copied unit price (the one in force for the order's month, unless a test wants it stale). */
  price: string;
}
export interface OrderSpec {
  key: string;
  no: string;
  month: string;
  dept: DeptKey;
  project: ProjectKey;
  state: 0 | 1 | 2;
  source: 'pms' | 'import' | 'entry';
  lines: LineSpec[];
  reason?: string;
}

export const ITEMS = {
  L01: { name: '高级技工', category: 'labour', spec: '', unit: '工日', rate: '0.03' },
  M01: { name: '螺纹钢', category: 'material', spec: 'φ12', unit: '吨', rate: '0.13' },
  V01: { name: '工程车', category: 'vehicle', spec: '轻型', unit: '公里', rate: '0.09' },
} as const;

export const ORDERS: OrderSpec[] = [
  { key: 'O1', no: 'CB2040030001', month: '2040-03', dept: 'A', project: 'P1', state: 0, source: 'entry', lines: [{ item: 'L01', quantity: '10', price: '300' }, { item: 'M01', quantity: '2.5', price: '4000.5' }] },
  { key: 'O2', no: 'CB2040030002', month: '2040-03', dept: 'B', project: 'P1', state: 0, source: 'pms', lines: [{ item: 'L01', quantity: '3.333', price: '300' }, { item: 'V01', quantity: '123.4567', price: '2.345' }] },
  { key: 'O3', no: 'CB2040030003', month: '2040-03', dept: 'C', project: 'P2', state: 0, source: 'import', lines: [{ item: 'M01', quantity: '0.0375', price: '4000.5' }] },
  { key: 'O4', no: 'CB2040020001', month: '2040-02', dept: 'A', project: 'P1', state: 1, source: 'pms', lines: [{ item: 'L01', quantity: '8', price: '300' }, { item: 'V01', quantity: '40', price: '2.345' }] },
  { key: 'O5', no: 'CB2040020002', month: '2040-02', dept: 'B', project: 'P2', state: 2, source: 'entry', reason: '重复录入', lines: [{ item: 'L01', quantity: '99', price: '300' }] },
  { key: 'O6', no: 'CB2040040001', month: '2040-04', dept: 'A', project: 'P2', state: 0, source: 'entry', lines: [{ item: 'V01', quantity: '77.77', price: '2.345' }] },
  { key: 'O7', no: 'CB2040080001', month: '2040-08', dept: 'B', project: 'P2', state: 0, source: 'import', lines: [{ item: 'L01', quantity: '5', price: '300' }, { item: 'M01', quantity: '1', price: '4000.5' }] },
  { key: 'O8', no: 'CB2040030004', month: '2040-03', dept: 'A', project: 'P2', state: 0, source: 'pms', lines: [{ item: 'M01', quantity: '1.2345', price: '4000.5' }] },
  { key: 'O9', no: 'CB2040050001', month: '2040-05', dept: 'B', project: 'P1', state: 0, source: 'entry', lines: [{ item: 'L01', quantity: '1.5', price: '300' }, { item: 'L01', quantity: '0.5', price: '300' }] },
  { key: 'O10', no: 'CB2040020003', month: '2040-02', dept: 'C', project: 'P1', state: 1, source: 'entry', lines: [{ item: 'V01', quantity: '12.3456', price: '2.345' }, { item: 'M01', quantity: '0.3333', price: '4000.5' }] },
  { key: 'O11', no: 'CB2040060001', month: '2040-06', dept: 'B', project: 'P2', state: 0, source: 'pms', lines: [{ item: 'V01', quantity: '1000', price: '2.345' }] },
];
/** Closed department-months: 2040-04 of A (O6 awaits audit there: written directly, as closing would refuse it). */
export const CLOSED: Array<{ dept: DeptKey; month: string }> = [{ dept: 'A', month: '2040-04' }];
export const ASSIGNED: Record<string, DeptKey[]> = { demo20: ['A', 'B'], demo21: ['B'], demo22: ['C'], demo17: ['A'] };

export interface Fixture {
  dept: Record<DeptKey, { id: string; name: string }>;
  project: Record<ProjectKey, { id: string; code: string; name: string }>;
  /** Order key → id. */
  id: Record<string, string>;
  users: Record<string, { id: string; name: string }>;
}

export const lineFigures = (l: LineSpec) => {
  const amount = lineAmount(l.quantity, l.price);
  return { amount, tax: lineTax(amount, ITEMS[l.item].rate) };
};
export const orderFigures = (o: OrderSpec) => orderTotals(o.lines.map(lineFigures));

const uuid = (prefix: string, n: number) => `00000000-0000-4000-${prefix}-${String(n).padStart(12, '0')}`;

/** Empties the cost tables the demo seed filled (prices, orders, auditors, closings), for tests that build their own. */
export async function clearCostTables(s: TestServer): Promise<void> {
  for (const t of ['cost_order_logs', 'cost_order_lines', 'cost_orders', 'cost_auditors', 'cost_closings', 'cost_closing_logs', 'cost_closing_snapshots', 'cost_prices', 'cost_counters'] as const) await s.db.kysely.deleteFrom(t).execute();
}

export async function seedCostFixture(s: TestServer): Promise<Fixture> {
  const k = s.db.kysely;
  for (const t of ['cost_order_logs', 'cost_order_lines', 'cost_orders', 'cost_auditors', 'cost_closings', 'cost_closing_logs', 'cost_closing_snapshots', 'cost_prices', 'cost_counters'] as const) await k.deleteFrom(t).execute();
  const depts = await k.selectFrom('departments').select(['id', 'name']).orderBy('sort').orderBy('id').limit(3).execute();
  const dept = { A: depts[0]!, B: depts[1]!, C: depts[2]! };
  const now = new Date().toISOString();
  const project = {
    P1: { id: uuid('8c00', 1), code: 'CATEST-01', name: '成本测试项目一' },
    P2: { id: uuid('8c00', 2), code: 'CATEST-02', name: '成本测试项目二' },
  };
  for (const p of Object.values(project)) await k.insertInto('projects').values({ ...p, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }).execute();
  const prices = [
    { item: 'L01', price: '300', from: '2040-01-01', to: '2040-06-30' },
    { item: 'L01', price: '320', from: '2040-07-01', to: null },
    { item: 'M01', price: '4000.5', from: '2040-01-01', to: null },
    { item: 'V01', price: '2.345', from: '2040-01-01', to: null },
  ] as const;
  const priceIds = new Map<string, string>();
  let n = 0;
  for (const p of prices) {
    const it = ITEMS[p.item];
    const id = uuid('8c01', ++n);
    priceIds.set(`${p.item}|${p.from}`, id);
    await k.insertInto('cost_prices').values({
      id, item_code: p.item, item_name: it.name, category: it.category, spec: it.spec, unit: it.unit, unit_price: p.price, tax_rate: it.rate,
      valid_from: p.from, valid_to: p.to, updated_by: '测试', created_at: now, updated_at: now,
    }).execute();
  }
  const ids: Record<string, string> = {};
  n = 0;
  let ln = 0;
  for (const o of ORDERS) {
    const id = uuid('8c02', ++n);
    ids[o.key] = id;
    const t = orderFigures(o);
    const p = project[o.project];
    await k.insertInto('cost_orders').values({
      id, order_no: o.no, month: o.month, dept_id: dept[o.dept].id, dept_name: dept[o.dept].name, project_id: p.id, project_code: p.code, project_name: p.name,
      source: o.source, state: o.state, invalid_reason: o.reason ?? '', amount: t.amount, tax: t.tax, line_count: o.lines.length, remark: `备注 ${o.key}`,
      pms_ref: o.source === 'pms' ? `PMS-${o.no}` : '', audited_by: o.state ? '测试审核人' : '', audited_at: o.state ? now : null, created_by_id: null, created_by: '测试录入人',
      created_at: now, updated_at: now,
    }).execute();
    let lineNo = 0;
    for (const l of o.lines) {
      const it = ITEMS[l.item];
      const from = l.item === 'L01' && l.price === '300' ? '2040-01-01' : l.item === 'L01' ? '2040-07-01' : '2040-01-01';
      const f = lineFigures(l);
      await k.insertInto('cost_order_lines').values({
        id: uuid('8c03', ++ln), order_id: id, line_no: ++lineNo, price_id: priceIds.get(`${l.item}|${from}`) ?? null, item_code: l.item, item_name: it.name, category: it.category,
        spec: it.spec, unit: it.unit, quantity: l.quantity, unit_price: l.price, tax_rate: it.rate, amount: f.amount, tax: f.tax, price_from: from,
        price_to: l.item === 'L01' && from === '2040-01-01' ? '2040-06-30' : null, remark: '',
      }).execute();
    }
    await k.insertInto('cost_order_logs').values({ id: uuid('8c04', n), order_id: id, action: 'create', message: `新建成本单 ${o.no}`, user_name: '测试录入人', created_at: now }).execute();
  }
  for (const c of CLOSED) await k.insertInto('cost_closings').values({ dept_id: dept[c.dept].id, month: c.month, closed_by: '测试', closed_at: now }).execute();
  const users = Object.fromEntries(
    (await k.selectFrom('users').select(['id', 'login_name', 'name']).where('login_name', 'in', ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']).execute()).map((u) => [u.login_name, { id: u.id, name: u.name }]),
  );
  for (const [login, keys] of Object.entries(ASSIGNED)) {
    await k.insertInto('cost_auditors').values(keys.map((d) => ({ user_id: users[login]!.id, dept_id: dept[d].id }))).execute();
  }
  return { dept, project, id: ids, users };
}

export const sheetRows = (ws: ExcelJS.Worksheet | undefined): unknown[][] => {
  const out: unknown[][] = [];
  ws!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
};

/** The fixture's orders only (2040). */
export const YEAR = { monthFrom: '2040-01', monthTo: '2040-12' };

/**
 * The server of the ledger and audit tests (cost-audit.test.ts, cost-audit-queue.test.ts): the fixture seeded,
 * `state` set to the fixture's states (the tests move them on), the cost roles signed in (into `tokens`).
 */
export async function startAuditServer(tokens: Record<string, string>, state: Record<string, number>): Promise<{ s: TestServer; fx: Fixture }> {
  const s = await startTestServer();
  const fx = await seedCostFixture(s);
  for (const o of ORDERS) state[o.key] = o.state;
  for (const u of ['admin', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[u] = await s.login(u);
  return { s, fx };
}

/** The ledger and audit tests' calls of one server and the fixture's keys of listed orders (once beforeAll has run). */
export function auditHelpers(server: () => TestServer, fixture: () => Fixture, tokens: Record<string, string>) {
  const keyOf = (id: string) => Object.entries(fixture().id).find(([, v]) => v === id)?.[0];
  return {
    call: (path: string, body: unknown, user: string) => server().call(`/api/cost-order/${path}`, body, tokens[user]),
    keyOf,
    keys: (items: Array<{ id: string }>) => items.map((i) => keyOf(i.id)),
  };
}
export const sorted = (a: Array<string | undefined>) => [...a].sort();
