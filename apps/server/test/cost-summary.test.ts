/**
 * Issue 16, 月度成本汇总 (roles 1, 16–19): the cells month × department × project × category from the
 * rounded lines of the orders in force (待审核 and 已审核, never 已作废), checked against an independent
 * reading of the fixture. Issue 30: the summary answers department-months, paged, and a department-month
 * drills down to its projects and their categories (paged); the trend, the composition and the totals
 * add up to the rows and to the ledger's totals of the same orders; the filters; the drill-down to orders
 * (the ledger filtered by month, department and project); the export of every cell; and 权限不足 for the
 * auditors without a ledger role (demo20). Fixture: ./cost-audit-fixture.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostCategory } from '@zhyy/shared';
import { ITEMS, lineFigures, ORDERS, seedCostFixture, sheetRows, type Fixture } from './cost-audit-fixture.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let fx: Fixture;
const tokens: Record<string, string> = {};
const P = '/api/cost-order';
const YEAR = { monthFrom: '2040-01', monthTo: '2040-12' };

beforeAll(async () => {
  s = await startTestServer();
  fx = await seedCostFixture(s);
  for (const u of ['admin', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[u] = await s.login(u);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, user = 'demo18') => s.call(`${P}/${path}`, body, tokens[user]);

type Cell = { month: string; deptId: string; projectId: string; category: string; amount: number; tax: number; orderCount: number };
/** The cells read straight from the fixture. */
function expectedCells(f: { monthFrom: string; monthTo: string; deptId?: string; projectId?: string; category?: string }): Cell[] {
  const cells = new Map<string, Cell & { orders: Set<string> }>();
  for (const o of ORDERS) {
    if (o.state === 2 || o.month < f.monthFrom || o.month > f.monthTo) continue;
    const deptId = fx.dept[o.dept].id;
    const projectId = fx.project[o.project].id;
    if ((f.deptId && deptId !== f.deptId) || (f.projectId && projectId !== f.projectId)) continue;
    for (const l of o.lines) {
      const category = ITEMS[l.item].category;
      if (f.category && category !== f.category) continue;
      const key = `${o.month}|${deptId}|${projectId}|${category}`;
      const c = cells.get(key) ?? { month: o.month, deptId, projectId, category, amount: 0, tax: 0, orderCount: 0, orders: new Set<string>() };
      const fig = lineFigures(l);
      c.amount += fig.amount;
      c.tax += fig.tax;
      c.orders.add(o.key);
      c.orderCount = c.orders.size;
      cells.set(key, c);
    }
  }
  return [...cells.values()].map(({ orders: _o, ...c }) => c);
}
type DeptMonth = { month: string; deptId: string; amount: number; tax: number; orderCount: number };
/** The department-months of the expected cells (an order is one month, department and project). */
function expectedRows(f: Parameters<typeof expectedCells>[0]): DeptMonth[] {
  const rows = new Map<string, DeptMonth & { projects: Set<string> }>();
  for (const c of expectedCells(f)) {
    const k = `${c.month}|${c.deptId}`;
    const r = rows.get(k) ?? { month: c.month, deptId: c.deptId, amount: 0, tax: 0, orderCount: 0, projects: new Set<string>() };
    r.amount += c.amount;
    r.tax += c.tax;
    r.projects.add(c.projectId);
    r.orderCount = r.projects.size;
    rows.set(k, r);
  }
  return [...rows.values()].map(({ projects: _p, ...r }) => r).sort((a, b) => `${a.month}|${a.deptId}`.localeCompare(`${b.month}|${b.deptId}`));
}
const pickRow = (r: DeptMonth): DeptMonth => ({ month: r.month, deptId: r.deptId, amount: r.amount, tax: r.tax, orderCount: r.orderCount });
const byRowKey = (a: DeptMonth, b: DeptMonth) => `${a.month}|${a.deptId}`.localeCompare(`${b.month}|${b.deptId}`);
/** Every page of the summary's rows, one after the other. */
async function allRows(f: Record<string, unknown>, pageSize = 2): Promise<DeptMonth[]> {
  const out: DeptMonth[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const v = (await call('summary', { ...f, pageIndex, pageSize })).r;
    out.push(...v.rows);
    if (out.length >= v.total || !v.rows.length) return out;
  }
}

describe('permissions', () => {
  it('roles 1, 16–19 read the summary and export it; demo20, demo21 and demo22 get 权限不足', async () => {
    for (const u of ['admin', 'demo16', 'demo17', 'demo18', 'demo19']) expect((await call('summary', YEAR, u)).code, u).toBe(20000);
    for (const u of ['demo20', 'demo21', 'demo22']) {
      for (const path of ['summary', 'summary-projects', 'export-cost-summary']) {
        const a = await call(path, YEAR, u);
        expect(a.status, `${u} ${path}`).toBe(403);
        expect(a.message).toBe('权限不足');
      }
    }
  });
});

describe('月度成本汇总', () => {
  it('answers a page of department-months of the orders in force, with names, in month and department order', async () => {
    const v = (await call('summary', YEAR)).r;
    const want = expectedRows(YEAR);
    expect(v.total).toBe(want.length);
    expect(v.rows.map(pickRow).sort(byRowKey)).toEqual(want);
    // The invalid order (O5, 2040-02, B, P2) is nowhere.
    expect(v.rows.some((r: DeptMonth) => r.month === '2040-02' && r.deptId === fx.dept.B.id)).toBe(false);
    expect(v.rows.find((r: DeptMonth) => r.month === '2040-03' && r.deptId === fx.dept.A.id)).toMatchObject({ deptName: fx.dept.A.name, orderCount: 2 });
    expect(v.rows.map((r: DeptMonth) => r.month)).toEqual([...v.rows.map((r: DeptMonth) => r.month)].sort());
    // Paged on the server: pages of two hold the same rows in the same order.
    expect(await allRows(YEAR)).toEqual(v.rows);
    const p2 = (await call('summary', { ...YEAR, pageIndex: 2, pageSize: 3 })).r;
    expect([p2.total, p2.rows]).toEqual([want.length, v.rows.slice(3, 6)]);
  });

  it('the trend, the composition and the totals add up to all the rows and to the ledger’s totals', async () => {
    const v = (await call('summary', { ...YEAR, pageSize: 2 })).r;
    const rows = await allRows(YEAR);
    const sum = (xs: Array<{ amount: number }>) => xs.reduce((x, r) => x + r.amount, 0);
    const sumTax = (xs: Array<{ tax: number }>) => xs.reduce((x, r) => x + r.tax, 0);
    expect(v.byMonth.map((m: { month: string }) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => `2040-${String(i + 1).padStart(2, '0')}`));
    expect(v.byMonth.find((m: { month: string }) => m.month === '2040-01')).toEqual({ month: '2040-01', amount: 0, tax: 0 });
    expect(sum(v.byMonth)).toBe(v.totals.amount);
    expect(sumTax(v.byMonth)).toBe(v.totals.tax);
    expect(sum(v.byCategory)).toBe(v.totals.amount);
    expect(sum(rows)).toBe(v.totals.amount);
    expect(sumTax(rows)).toBe(v.totals.tax);
    expect(rows.reduce((n, r) => n + r.orderCount, 0)).toBe(v.totals.orderCount);
    expect(v.totals.total).toBe(v.totals.amount + v.totals.tax);
    expect(v.byCategory.map((c: { category: string }) => c.category)).toEqual(['labour', 'vehicle', 'material']);
    for (const m of v.byMonth) expect(sum(rows.filter((r) => r.month === m.month))).toBe(m.amount);
    // The ledger's totals of the same orders (amount and tax of an order = the sums of its rounded lines).
    const ledger = (await call('list', YEAR)).r.totals;
    expect({ amount: v.totals.amount, tax: v.totals.tax, total: v.totals.total, orderCount: v.totals.orderCount }).toEqual({ amount: ledger.amount, tax: ledger.tax, total: ledger.total, orderCount: ledger.count });
    expect(v.totals.orderCount).toBe(ORDERS.filter((o) => o.state !== 2).length);
    for (const m of v.byMonth) {
      const t = (await call('list', { monthFrom: m.month, monthTo: m.month })).r.totals;
      expect([t.amount, t.tax], m.month).toEqual([m.amount, m.tax]);
    }
  });

  it('drills down: a department-month’s projects (paged) with their categories, and the ledger of each project holds its order', async () => {
    const cells = expectedCells(YEAR);
    for (const row of await allRows(YEAR)) {
      const d = (await call('summary-projects', { month: row.month, deptId: row.deptId, pageSize: 1 })).r;
      expect(d.total).toBe(row.orderCount);
      const projects = [d.items[0]];
      for (let i = 2; i <= d.total; i++) projects.push((await call('summary-projects', { month: row.month, deptId: row.deptId, pageIndex: i, pageSize: 1 })).r.items[0]);
      expect(projects.reduce((x, p) => x + p.amount, 0)).toBe(row.amount);
      expect(projects.map((p) => p.projectCode)).toEqual([...projects.map((p) => p.projectCode)].sort());
      for (const p of projects) {
        const want = cells.filter((c) => c.month === row.month && c.deptId === row.deptId && c.projectId === p.projectId);
        expect(p.categories.map((c: { category: string; amount: number; tax: number }) => [c.category, c.amount, c.tax]).sort()).toEqual(want.map((c) => [c.category, c.amount, c.tax]).sort());
        expect([p.amount, p.tax]).toEqual([want.reduce((x, c) => x + c.amount, 0), want.reduce((x, c) => x + c.tax, 0)]);
        const l = (await call('list', { monthFrom: row.month, monthTo: row.month, deptId: row.deptId, projectId: p.projectId })).r;
        expect([l.totals.count, l.totals.amount, l.totals.tax]).toEqual([1, p.amount, p.tax]);
        expect(l.items[0].lineCount).toBe(p.lineCount);
      }
    }
    const a = fx.dept.A.id;
    const mat = (await call('summary-projects', { month: '2040-03', deptId: a, category: 'material' })).r;
    expect(mat.items.map((p: { projectCode: string; categories: unknown[] }) => [p.projectCode, p.categories.length])).toEqual([['CATEST-01', 1], ['CATEST-02', 1]]);
    const none = (await call('summary-projects', { month: '2040-01', deptId: a })).r;
    expect(none).toEqual({ items: [], total: 0 });
  });

  it('filters by month range, department, project and category', async () => {
    const filters = [
      { monthFrom: '2040-03', monthTo: '2040-03' },
      { ...YEAR, deptId: fx.dept.A.id },
      { ...YEAR, projectId: fx.project.P2.id },
      { ...YEAR, category: 'material' },
      { monthFrom: '2040-02', monthTo: '2040-08', deptId: fx.dept.B.id, category: 'labour' },
      { ...YEAR, deptId: fx.dept.A.id, projectId: fx.project.P1.id, category: 'labour' },
      { monthFrom: '2039-01', monthTo: '2039-12' },
    ];
    for (const f of filters) {
      const v = (await call('summary', f)).r;
      const want = expectedRows(f);
      expect(v.rows.map(pickRow).sort(byRowKey), JSON.stringify(f)).toEqual(want);
      expect(v.totals.amount).toBe(want.reduce((x, c) => x + c.amount, 0));
      expect(v.byCategory.map((c: { category: string; amount: number }) => [c.category, c.amount]).sort()).toEqual(
        [...new Set(expectedCells(f).map((c) => c.category))].map((cat) => [cat, expectedCells(f).filter((c) => c.category === cat).reduce((x, c) => x + c.amount, 0)]).sort(),
      );
    }
    // With a category, an order counts once when it has a line of it.
    const mat = (await call('summary', { ...YEAR, category: 'material' })).r;
    expect(mat.totals.orderCount).toBe(ORDERS.filter((o) => o.state !== 2 && o.lines.some((l) => l.item === 'M01')).length);
    expect(mat.byCategory).toEqual([{ category: 'material', amount: mat.totals.amount }]);
    const none = (await call('summary', { monthFrom: '2039-01', monthTo: '2039-03' })).r;
    expect(none).toEqual({ rows: [], total: 0, closed: [], byMonth: ['2039-01', '2039-02', '2039-03'].map((month) => ({ month, amount: 0, tax: 0 })), byCategory: [], totals: { amount: 0, tax: 0, total: 0, orderCount: 0 } });
  });

  it('refuses a wrong query in Chinese', async () => {
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['summary', { monthFrom: '2040-05', monthTo: '2040-01' }, '开始月份不能晚于结束月份'],
      ['summary', { monthFrom: '2037-01', monthTo: '2040-01' }, '汇总跨度不能超过36个月'],
      ['summary', { monthFrom: '2040-00', monthTo: '2040-01' }, '月份格式须为YYYY-MM'],
      ['summary', { monthTo: '2040-01' }, '请选择月份'],
      ['summary', { ...YEAR, category: 'food' }, '费用类别不正确'],
      ['summary', { ...YEAR, pageSize: 201 }, '每页最多200条'],
      ['summary-projects', { month: '2040-03' }, '请选择部门'],
      ['summary-projects', { month: '2040-3', deptId: fx.dept.A.id }, '月份格式须为YYYY-MM'],
      ['export-cost-summary', { monthFrom: '2037-01', monthTo: '2040-01' }, '汇总跨度不能超过36个月'],
    ];
    for (const [path, body, msg] of bad) {
      const a = await call(path, body);
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(a.message).toContain(msg);
    }
    expect((await call('summary', { monthFrom: '2038-01', monthTo: '2040-12' })).code).toBe(20000);
  });

  it('exports every cell as a row with Chinese headers and a 合计 row, in the table’s order, money in 元, and logs it', async () => {
    const v = (await call('summary', YEAR)).r;
    const { res, ws } = await s.download(`${P}/export-cost-summary`, YEAR, tokens.demo17!);
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(ws);
    expect(rows[0]).toEqual(['月份', '部门', '项目编码', '项目名称', '费用类别', '成本单数', '不含税金额（元）', '税额（元）', '价税合计（元）']);
    const want = expectedCells(YEAR);
    expect(rows.length).toBe(1 + want.length + 1);
    const byId = new Map(want.map((c) => [`${c.month}|${fx.project[c.projectId === fx.project.P1.id ? 'P1' : 'P2'].code}|${CostCategory.label(c.category)}|${c.deptId}`, c]));
    const deptName = new Map(Object.values(fx.dept).map((d) => [d.name, d.id]));
    for (const r of rows.slice(1, -1)) {
      const c = byId.get(`${r[0]}|${r[2]}|${r[4]}|${deptName.get(r[1] as string)}`)!;
      expect(r.slice(5), JSON.stringify(r)).toEqual([c.orderCount, c.amount / 100, c.tax / 100, (c.amount + c.tax) / 100]);
    }
    // The table's order: the department-months as the summary lists them.
    const seen = rows.slice(1, -1).map((r) => `${r[0]}|${r[1]}`).filter((x, i, a) => a.indexOf(x) === i);
    expect(seen).toEqual(v.rows.map((r: DeptMonth & { deptName: string }) => `${r.month}|${r.deptName}`));
    const m = rows.find((r) => r[0] === '2040-03' && r[1] === fx.dept.A.name && r[4] === '材料耗材' && r[2] === 'CATEST-01')!;
    expect(m.slice(6)).toEqual([10001.25, 1300.16, 11301.41]);
    const last = rows[rows.length - 1]!;
    expect(last[0]).toBe('合计');
    expect(last[5]).toBe(v.totals.orderCount);
    expect(last[6]).toBe(v.totals.amount / 100);
    expect(last[7]).toBeCloseTo(v.totals.tax / 100, 2);
    expect(last[8]).toBeCloseTo(v.totals.total / 100, 2);
    const log = await s.db.kysely.selectFrom('file_export_logs').selectAll().where('category', '=', '月度成本汇总').executeTakeFirstOrThrow();
    expect(log.description).toContain('2040年1月 至 2040年12月');
    expect(log.description).toContain(`导出月度成本汇总 ${want.length} 行`);
    expect(log.file_name).toBe('月度成本汇总2040-01至2040-12.xlsx');

    const filtered = sheetRows((await s.download(`${P}/export-cost-summary`, { ...YEAR, deptId: fx.dept.C.id, category: 'vehicle' }, tokens.demo16!)).ws);
    const wantC = expectedCells({ ...YEAR, deptId: fx.dept.C.id, category: 'vehicle' });
    expect(filtered.length).toBe(1 + wantC.length + 1);
    expect(filtered.slice(1, -1).every((r) => r[1] === fx.dept.C.name && r[4] === '车辆')).toBe(true);
  });
});
