/**
 * Issue 16, 月度成本汇总 (roles 1, 16–19): the cells month × department × project × category from the
 * rounded lines of the orders in force (待审核 and 已审核, never 已作废), checked against an independent
 * reading of the fixture; the trend, the composition and the totals add up to the cells and to the
 * ledger's totals of the same orders; the filters; the drill-down (the ledger filtered by month,
 * department and project); the export; and 权限不足 for the auditors without a ledger role (demo20).
 * Fixture: ./cost-audit-fixture.ts.
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
const cellKey = (c: Cell) => `${c.month}|${c.deptId}|${c.projectId}|${c.category}`;
const pick = (c: Cell): Cell => ({ month: c.month, deptId: c.deptId, projectId: c.projectId, category: c.category, amount: c.amount, tax: c.tax, orderCount: c.orderCount });
const bySortKey = (a: Cell, b: Cell) => cellKey(a).localeCompare(cellKey(b));

describe('permissions', () => {
  it('roles 1, 16–19 read the summary and export it; demo20, demo21 and demo22 get 权限不足', async () => {
    for (const u of ['admin', 'demo16', 'demo17', 'demo18', 'demo19']) expect((await call('summary', YEAR, u)).code, u).toBe(20000);
    for (const u of ['demo20', 'demo21', 'demo22']) {
      for (const path of ['summary', 'export-cost-summary']) {
        const a = await call(path, YEAR, u);
        expect(a.status, `${u} ${path}`).toBe(403);
        expect(a.message).toBe('权限不足');
      }
    }
  });
});

describe('月度成本汇总', () => {
  it('answers the cells of the orders in force, from their rounded lines, with names', async () => {
    const v = (await call('summary', YEAR)).r;
    const want = expectedCells(YEAR);
    expect(v.rows.map(pick).sort(bySortKey)).toEqual(want.sort(bySortKey));
    // The invalid order (O5, 2040-02, B, P2) is nowhere.
    expect(v.rows.some((r: Cell) => r.month === '2040-02' && r.deptId === fx.dept.B.id)).toBe(false);
    const c = v.rows.find((r: Cell) => r.month === '2040-03' && r.deptId === fx.dept.A.id && r.category === 'material');
    expect(c).toMatchObject({ deptName: fx.dept.A.name, projectId: fx.project.P1.id, projectCode: 'CATEST-01', projectName: '成本测试项目一', amount: 1_000_125, tax: 130_016, orderCount: 1 });
    // Ordered by month, then department, project and category.
    expect(v.rows.map((r: Cell) => r.month)).toEqual([...v.rows.map((r: Cell) => r.month)].sort());
  });

  it('the trend, the composition and the totals add up to the cells and to the ledger’s totals', async () => {
    const v = (await call('summary', YEAR)).r;
    const sum = (xs: Array<{ amount: number }>) => xs.reduce((x, r) => x + r.amount, 0);
    const sumTax = (xs: Array<{ tax: number }>) => xs.reduce((x, r) => x + r.tax, 0);
    expect(v.byMonth.map((m: { month: string }) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => `2040-${String(i + 1).padStart(2, '0')}`));
    expect(v.byMonth.find((m: { month: string }) => m.month === '2040-01')).toEqual({ month: '2040-01', amount: 0, tax: 0 });
    expect(sum(v.byMonth)).toBe(v.totals.amount);
    expect(sumTax(v.byMonth)).toBe(v.totals.tax);
    expect(sum(v.byCategory)).toBe(v.totals.amount);
    expect(sum(v.rows)).toBe(v.totals.amount);
    expect(sumTax(v.rows)).toBe(v.totals.tax);
    expect(v.totals.total).toBe(v.totals.amount + v.totals.tax);
    expect(v.byCategory.map((c: { category: string }) => c.category)).toEqual(['labour', 'vehicle', 'material']);
    for (const m of v.byMonth) {
      const monthRows = v.rows.filter((r: Cell) => r.month === m.month);
      expect(sum(monthRows)).toBe(m.amount);
    }
    // The ledger's totals of the same orders (amount and tax of an order = the sums of its rounded lines).
    const ledger = (await call('list', YEAR)).r.totals;
    expect({ amount: v.totals.amount, tax: v.totals.tax, total: v.totals.total, orderCount: v.totals.orderCount }).toEqual({ amount: ledger.amount, tax: ledger.tax, total: ledger.total, orderCount: ledger.count });
    expect(v.totals.orderCount).toBe(ORDERS.filter((o) => o.state !== 2).length);
    // Each month of the trend equals the ledger of that month.
    for (const m of v.byMonth) {
      const t = (await call('list', { monthFrom: m.month, monthTo: m.month })).r.totals;
      expect([t.amount, t.tax], m.month).toEqual([m.amount, m.tax]);
    }
  });

  it('drills down: the ledger filtered by a cell’s month, department and project holds its orders and figures', async () => {
    const v = (await call('summary', YEAR)).r;
    const groups = new Map<string, Cell[]>();
    for (const r of v.rows as Cell[]) groups.set(`${r.month}|${r.deptId}|${r.projectId}`, [...(groups.get(`${r.month}|${r.deptId}|${r.projectId}`) ?? []), r]);
    for (const [k, cells] of groups) {
      const [month, deptId, projectId] = k.split('|');
      const l = (await call('list', { monthFrom: month, monthTo: month, deptId, projectId })).r;
      expect(l.totals.amount, k).toBe(cells.reduce((x, c) => x + c.amount, 0));
      expect(l.totals.tax, k).toBe(cells.reduce((x, c) => x + c.tax, 0));
      expect(l.totals.count).toBe(Math.max(...cells.map((c) => c.orderCount)));
    }
  });

  it('filters by month range, department, project and category', async () => {
    const filters = [
      { monthFrom: '2040-03', monthTo: '2040-03' },
      { ...YEAR, deptId: fx.dept.A.id },
      { ...YEAR, projectId: fx.project.P2.id },
      { ...YEAR, category: 'material' },
      { monthFrom: '2040-02', monthTo: '2040-08', deptId: fx.dept.B.id, category: 'labour' },
      { monthFrom: '2039-01', monthTo: '2039-12' },
    ];
    for (const f of filters) {
      const v = (await call('summary', f)).r;
      const want = expectedCells(f);
      expect(v.rows.map(pick).sort(bySortKey), JSON.stringify(f)).toEqual(want.sort(bySortKey));
      expect(v.totals.amount).toBe(want.reduce((x, c) => x + c.amount, 0));
    }
    // With a category, an order counts once when it has a line of it.
    const mat = (await call('summary', { ...YEAR, category: 'material' })).r;
    expect(mat.totals.orderCount).toBe(ORDERS.filter((o) => o.state !== 2 && o.lines.some((l) => l.item === 'M01')).length);
    expect(mat.byCategory).toEqual([{ category: 'material', amount: mat.totals.amount }]);
    const none = (await call('summary', { monthFrom: '2039-01', monthTo: '2039-03' })).r;
    expect(none).toEqual({ rows: [], closed: [], byMonth: ['2039-01', '2039-02', '2039-03'].map((month) => ({ month, amount: 0, tax: 0 })), byCategory: [], totals: { amount: 0, tax: 0, total: 0, orderCount: 0 } });
  });

  it('refuses a wrong query in Chinese', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ monthFrom: '2040-05', monthTo: '2040-01' }, '开始月份不能晚于结束月份'],
      [{ monthFrom: '2037-01', monthTo: '2040-01' }, '汇总跨度不能超过36个月'],
      [{ monthFrom: '2040-00', monthTo: '2040-01' }, '月份格式须为YYYY-MM'],
      [{ monthTo: '2040-01' }, '请选择月份'],
      [{ ...YEAR, category: 'food' }, '费用类别不正确'],
    ];
    for (const [body, msg] of bad) {
      const a = await call('summary', body);
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(a.message).toContain(msg);
    }
    expect((await call('summary', { monthFrom: '2038-01', monthTo: '2040-12' })).code).toBe(20000);
  });

  it('exports the cells as rows with Chinese headers and a 合计 row, money in 元, and logs it', async () => {
    const v = (await call('summary', YEAR)).r;
    const { res, ws } = await s.download(`${P}/export-cost-summary`, YEAR, tokens.demo17!);
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(ws);
    expect(rows[0]).toEqual(['月份', '部门', '项目编码', '项目名称', '费用类别', '成本单数', '不含税金额（元）', '税额（元）', '价税合计（元）']);
    expect(rows.length).toBe(1 + v.rows.length + 1);
    rows.slice(1, -1).forEach((r, i) => {
      const c = v.rows[i];
      expect(r).toEqual([c.month, c.deptName, c.projectCode, c.projectName, CostCategory.label(c.category), c.orderCount, c.amount / 100, c.tax / 100, (c.amount + c.tax) / 100]);
    });
    const m = rows.find((r) => r[0] === '2040-03' && r[1] === fx.dept.A.name && r[4] === '材料耗材')!;
    expect(m.slice(6)).toEqual([10001.25, 1300.16, 11301.41]);
    const last = rows[rows.length - 1]!;
    expect(last[0]).toBe('合计');
    expect(last[5]).toBe(v.totals.orderCount);
    expect(last[6]).toBe(v.totals.amount / 100);
    expect(last[7]).toBeCloseTo(v.totals.tax / 100, 2);
    expect(last[8]).toBeCloseTo(v.totals.total / 100, 2);
    const log = await s.db.kysely.selectFrom('file_export_logs').selectAll().where('category', '=', '月度成本汇总').executeTakeFirstOrThrow();
    expect(log.description).toContain('2040年1月 至 2040年12月');
    expect(log.file_name).toBe('月度成本汇总2040-01至2040-12.xlsx');

    const filtered = sheetRows((await s.download(`${P}/export-cost-summary`, { ...YEAR, deptId: fx.dept.C.id, category: 'vehicle' }, tokens.demo16!)).ws);
    const want = expectedCells({ ...YEAR, deptId: fx.dept.C.id, category: 'vehicle' });
    expect(filtered.length).toBe(1 + want.length + 1);
    expect(filtered.slice(1, -1).every((r) => r[1] === fx.dept.C.name && r[4] === '车辆')).toBe(true);
  });
});
