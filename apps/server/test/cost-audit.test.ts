/**
 * Issue 16, 成本单台账 and 成本单详情 (the calls of cost/audit): the ledger (every filter against an
 * independent reading of the fixture, sorting, paging, totals of the orders in force, the streamed export),
 * the detail (lines with the current price, log, the previous month's order, `closed`, `can` per caller,
 * auditors limited to their departments), and the permissions: demo20 audits but gets 权限不足 on the
 * ledger; demo18 reads the ledger but gets 权限不足 on the audit calls. Fixture: ./cost-audit-fixture.ts.
 * The queue, badge, audit and invalidate are in cost-audit-queue.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditHelpers, ORDERS, orderFigures, sheetRows, sorted, startAuditServer, YEAR, type Fixture, type OrderSpec } from './cost-audit-fixture.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
let fx: Fixture;
const tokens: Record<string, string> = {};
const P = '/api/cost-order';
/** The states as the tests moved them (starting from the fixture's). */
const state: Record<string, number> = {};

beforeAll(async () => {
  ({ s, fx } = await startAuditServer(tokens, state));
});
afterAll(() => s?.close());

const { call, keys } = auditHelpers(() => s, () => fx, tokens);
const deptOf = (o: OrderSpec) => fx.dept[o.dept].id;

describe('permissions', () => {
  it('demo20 audits but gets 权限不足 on the ledger list and export; demo18 reads but gets 权限不足 on every audit call', async () => {
    for (const [path, body] of [['list', YEAR], ['export', YEAR]] as const) {
      const a = await call(path, body, 'demo20');
      expect(a.status).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    expect((await call('to-audit-list', {}, 'demo20')).code).toBe(20000);
    for (const [path, body] of [['to-audit-list', {}], ['cost-todo-data', {}], ['set-coststatus-audited', { ids: [fx.id.O1] }], ['set-coststatus-invalid', { ids: [fx.id.O1], reason: '测试' }]] as const) {
      const a = await call(path, body, 'demo18');
      expect(a.status, path).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    expect(state.O1).toBe(0);
    expect((await call('list', YEAR, 'demo18')).code).toBe(20000);
    // Roles 16 and 19 read the ledger; neither audits.
    for (const u of ['demo16', 'demo19']) {
      expect((await call('list', YEAR, u)).r.total).toBe(ORDERS.length);
      expect((await call('cost-todo-data', {}, u)).status).toBe(403);
    }
  });
});

describe('成本单台账 (list, export)', () => {
  type F = Record<string, unknown>;
  const matches = (o: OrderSpec, f: F) => {
    const t = orderFigures(o);
    return (
      (!f.monthFrom || o.month >= (f.monthFrom as string)) && (!f.monthTo || o.month <= (f.monthTo as string)) && (!f.deptId || deptOf(o) === f.deptId)
      && (!f.projectId || fx.project[o.project].id === f.projectId) && (f.state === undefined || o.state === f.state) && (!f.source || o.source === f.source)
      && (!f.itemCode || o.lines.some((l) => l.item === f.itemCode)) && (!f.orderNo || o.no.includes(f.orderNo as string))
      && (f.amountMin === undefined || t.amount >= (f.amountMin as number)) && (f.amountMax === undefined || t.amount <= (f.amountMax as number))
    );
  };

  it('filters by each field and their combinations, with the totals of the orders in force over the whole filtered set', async () => {
    const o1 = orderFigures(ORDERS[0]!).amount;
    const filters: F[] = [
      {}, { monthFrom: '2040-03' }, { monthTo: '2040-03' }, { monthFrom: '2040-03', monthTo: '2040-04' }, { deptId: fx.dept.A.id }, { deptId: fx.dept.B.id, state: 2 },
      { projectId: fx.project.P2.id }, { state: 0 }, { state: 1 }, { source: 'pms' }, { source: 'import', deptId: fx.dept.C.id }, { itemCode: 'M01' }, { itemCode: 'V01', state: 1 },
      { itemCode: 'NONE' }, { orderNo: 'CB2040030002' }, { orderNo: '204002' }, { amountMin: o1 }, { amountMax: o1 - 1 }, { amountMin: 100_00, amountMax: o1 },
      { monthFrom: '2040-02', monthTo: '2040-03', deptId: fx.dept.A.id, projectId: fx.project.P1.id, itemCode: 'L01', source: 'pms' },
    ];
    for (const f of filters) {
      const a = await call('list', { ...YEAR, ...f, pageSize: 100 }, 'demo18');
      const want = ORDERS.filter((o) => matches(o, f));
      expect(sorted(keys(a.r.items)), JSON.stringify(f)).toEqual(sorted(want.map((o) => o.key)));
      expect(a.r.total).toBe(want.length);
      const live = want.filter((o) => o.state !== 2).map(orderFigures);
      const amount = live.reduce((x, t) => x + t.amount, 0);
      const tax = live.reduce((x, t) => x + t.tax, 0);
      expect(a.r.totals, JSON.stringify(f)).toEqual({ count: live.length, amount, tax, total: amount + tax });
    }
  });

  it('answers the rows with their figures, state, source and whether the month is closed', async () => {
    const items = (await call('list', { ...YEAR, pageSize: 100 }, 'demo18')).r.items as Array<Record<string, unknown>>;
    const row = (k: string) => items.find((i) => i.id === fx.id[k])!;
    const o1 = orderFigures(ORDERS[0]!);
    expect(row('O1')).toMatchObject({
      orderNo: 'CB2040030001', month: '2040-03', deptId: fx.dept.A.id, deptName: fx.dept.A.name, projectId: fx.project.P1.id, projectCode: 'CATEST-01',
      projectName: '成本测试项目一', source: 'entry', state: 0, amount: o1.amount, tax: o1.tax, total: o1.total, lineCount: 2, closed: false, createdBy: '测试录入人',
    });
    // 10 × 300 = 3000.00 and 2.5 × 4000.5 = 10001.25; tax 90.00 + 1300.16 (1300.1625 half-up).
    expect(o1).toEqual({ amount: 1_300_125, tax: 9_000 + 130_016, total: 1_300_125 + 139_016 });
    expect(row('O5')).toMatchObject({ state: 2, invalidReason: '重复录入' });
    expect(row('O6').closed).toBe(true);
  });

  it('sorts and pages, with a stable order', async () => {
    const all = (await call('list', { ...YEAR, pageSize: 100 }, 'demo18')).r.items as Array<{ month: string; orderNo: string }>;
    // Default: newest month first, then the order number.
    expect(all.map((i) => i.orderNo)).toEqual([...ORDERS].sort((a, b) => b.month.localeCompare(a.month) || b.no.localeCompare(a.no)).map((o) => o.no));
    const byAmount = (await call('list', { ...YEAR, pageSize: 100, sort: { field: 'amount', order: 'ascend' } }, 'demo18')).r.items as Array<{ amount: number }>;
    expect(byAmount.map((i) => i.amount)).toEqual([...byAmount.map((i) => i.amount)].sort((a, b) => a - b));
    const byTotal = (await call('list', { ...YEAR, pageSize: 100, sort: { field: 'total', order: 'descend' } }, 'demo18')).r.items as Array<{ total: number }>;
    expect(byTotal.map((i) => i.total)).toEqual([...byTotal.map((i) => i.total)].sort((a, b) => b - a));
    const page2 = await call('list', { ...YEAR, pageSize: 3, pageIndex: 2 }, 'demo18');
    expect(page2.r.items.map((i: { orderNo: string }) => i.orderNo)).toEqual(all.slice(3, 6).map((i) => i.orderNo));
    expect(page2.r.total).toBe(ORDERS.length);
  });

  it('refuses a wrong filter in Chinese', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ monthFrom: '2040-05', monthTo: '2040-01' }, '开始月份不能晚于结束月份'],
      [{ amountMin: 500, amountMax: 100 }, '最小金额不能大于最大金额'],
      [{ state: 3 }, '状态不正确'],
      [{ source: 'fax' }, '来源不正确'],
      [{ monthFrom: '2040-13' }, '月份格式须为YYYY-MM'],
      [{ deptId: 'x' }, 'ID格式不正确'],
    ];
    for (const [body, msg] of bad) {
      const a = await call('list', body, 'demo18');
      expect(a.status).toBe(400);
      expect(a.message).toContain(msg);
    }
  });

  it('exports the filtered orders with Chinese headers, labels, money in 元 and a 合计 row of the orders in force, and logs it', async () => {
    const { res, ws } = await s.download(`${P}/export`, { ...YEAR, sort: { field: 'orderNo', order: 'ascend' } }, tokens.demo18!);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    const rows = sheetRows(ws);
    const head = rows[0] as string[];
    expect(head).toEqual(['成本单号', '月份', '部门', '项目编码', '项目名称', '来源', '状态', '明细行数', '不含税金额（元）', '税额（元）', '价税合计（元）', '作废原因', '审核/作废人', '审核/作废时间', '录入人', '录入时间', '已结账']);
    const col = (h: string) => head.indexOf(h);
    expect(rows.slice(1, -1).map((r) => r[0])).toEqual(ORDERS.map((o) => o.no).sort());
    const r1 = rows.find((r) => r[0] === 'CB2040030001')!;
    expect(r1[col('来源')]).toBe('手工录入');
    expect(r1[col('状态')]).toBe('待审核');
    expect(r1[col('不含税金额（元）')]).toBe(13001.25);
    expect(r1[col('税额（元）')]).toBe(1390.16);
    expect(r1[col('价税合计（元）')]).toBe(14391.41);
    expect(r1[col('部门')]).toBe(fx.dept.A.name);
    expect(rows.find((r) => r[0] === 'CB2040020002')![col('状态')]).toBe('已作废');
    expect(rows.find((r) => r[0] === 'CB2040020001')![col('来源')]).toBe('项目管理系统');
    expect(rows.find((r) => r[0] === 'CB2040040001')![col('已结账')]).toBe('是');
    const last = rows[rows.length - 1]!;
    expect(last[0]).toBe('合计');
    const t = (await call('list', YEAR, 'demo18')).r.totals;
    expect(last[col('不含税金额（元）')]).toBe(t.amount / 100);
    expect(last[col('税额（元）')]).toBeCloseTo(t.tax / 100, 2);
    expect(last[col('价税合计（元）')]).toBeCloseTo(t.total / 100, 2);
    const log = await s.db.kysely.selectFrom('file_export_logs').selectAll().where('category', '=', '成本单台账').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(Number(log.row_count)).toBe(ORDERS.length);
    expect(log.description).toContain('2040年1月 至 2040年12月');

    const byDept = sheetRows((await s.download(`${P}/export`, { ...YEAR, deptId: fx.dept.C.id, state: 1 }, tokens.demo16!)).ws);
    expect(byDept.slice(1, -1).map((r) => r[0])).toEqual(['CB2040020003']);
  });
});

describe('成本单详情', () => {
  const detail = (k: string, user: string) => call('cost-order-detail', { id: fx.id[k] }, user);

  it('answers the order with its lines, log, closed flag and the previous month’s live order of the same department and project', async () => {
    const a = await detail('O1', 'demo18');
    expect(a.code).toBe(20000);
    const d = a.r;
    expect(d).toMatchObject({ orderNo: 'CB2040030001', remark: '备注 O1', pmsRef: '', closed: false, state: 0 });
    expect(d.lines.map((l: { itemCode: string; lineNo: number }) => [l.lineNo, l.itemCode])).toEqual([[1, 'L01'], [2, 'M01']]);
    expect(d.lines[1]).toMatchObject({ itemName: '螺纹钢', category: 'material', spec: 'φ12', unit: '吨', quantity: '2.5', unitPrice: '4000.5', taxRate: '0.13', amount: 1_000_125, tax: 130_016, priceFrom: '2040-01-01', priceTo: null, currentPrice: null });
    expect(d.lines[0].priceTo).toBe('2040-06-30');
    expect(d.logs).toEqual([expect.objectContaining({ action: 'create', message: '新建成本单 CB2040030001', userName: '测试录入人' })]);
    const o4 = orderFigures(ORDERS.find((o) => o.key === 'O4')!);
    expect(d.previous).toMatchObject({ id: fx.id.O4, orderNo: 'CB2040020001', amount: o4.amount, tax: o4.tax, total: o4.total });
    expect(d.previous.lines.map((l: { itemCode: string }) => l.itemCode)).toEqual(['L01', 'V01']);
    // The month before O9 (2040-04, B, P1) has no order; O5's month-before is not live (and O5 itself is invalid).
    expect((await detail('O9', 'demo18')).r.previous).toBeNull();
    expect((await detail('O6', 'demo18')).r.closed).toBe(true);
  });

  it('an invalid order is not the previous one of the next month', async () => {
    // O5 (2040-02, B, P2) is invalid: an order of 2040-03 for B and P2 would see no previous one. None exists, so read O5's own month-before: none.
    expect((await detail('O5', 'demo18')).r.previous).toBeNull();
    const k = s.db.kysely;
    const id = '00000000-0000-4000-8c05-000000000001';
    await k.insertInto('cost_orders').values({
      id, order_no: 'CB2040030099', month: '2040-03', dept_id: fx.dept.B.id, dept_name: fx.dept.B.name, project_id: fx.project.P2.id, project_code: 'CATEST-02', project_name: '成本测试项目二',
      source: 'entry', state: 2, invalid_reason: '测试', amount: 0, tax: 0, line_count: 0, remark: '', pms_ref: '', audited_by: '', audited_at: null, created_by_id: null, created_by: '', created_at: '2040-03-01T00:00:00.000Z', updated_at: '2040-03-01T00:00:00.000Z',
    }).execute();
    try {
      const d = (await s.call(`${P}/cost-order-detail`, { id }, tokens.demo18)).r;
      expect(d.previous).toBeNull();
      expect(d.can).toEqual({ edit: false, reprice: false, audit: false, invalidate: false });
    } finally {
      await k.deleteFrom('cost_orders').where('id', '=', id).execute();
    }
  });

  it('shows the price list’s current price where it differs from the copied one', async () => {
    // O7 is of 2040-08: the labour price is 320 since 2040-07-01, the line copied 300.
    const d = (await detail('O7', 'demo18')).r;
    expect(d.lines.map((l: { itemCode: string; unitPrice: string; currentPrice: string | null }) => [l.itemCode, l.unitPrice, l.currentPrice])).toEqual([['L01', '300', '320'], ['M01', '4000.5', null]]);
  });

  it('tells each caller what it may do', async () => {
    const can = async (k: string, u: string) => (await detail(k, u)).r.can;
    const none = { edit: false, reprice: false, audit: false, invalidate: false };
    expect(await can('O1', 'demo18')).toEqual(none);
    expect(await can('O1', 'demo19')).toEqual(none);
    expect(await can('O1', 'demo16')).toEqual({ edit: true, reprice: true, audit: false, invalidate: false });
    // demo17 enters orders and audits department A.
    expect(await can('O1', 'demo17')).toEqual({ edit: true, reprice: true, audit: true, invalidate: true });
    expect(await can('O2', 'demo17')).toEqual({ edit: true, reprice: true, audit: false, invalidate: false });
    expect(await can('O1', 'demo20')).toEqual({ edit: false, reprice: false, audit: true, invalidate: true });
    expect(await can('O3', 'admin')).toEqual({ edit: true, reprice: true, audit: true, invalidate: true });
    // Closed month, audited, invalid: nothing.
    expect(await can('O6', 'admin')).toEqual(none);
    expect(await can('O4', 'admin')).toEqual(none);
    expect(await can('O5', 'demo17')).toEqual(none);
  });

  it('an auditor without a ledger role reads only the orders of the assigned departments; an unknown order is 404', async () => {
    expect((await detail('O1', 'demo20')).code).toBe(20000);
    expect((await detail('O2', 'demo21')).code).toBe(20000);
    expect((await detail('O3', 'demo22')).code).toBe(20000);
    for (const [k, u] of [['O3', 'demo20'], ['O1', 'demo21'], ['O1', 'demo22']] as const) {
      const a = await detail(k, u);
      expect(a.status, `${u} ${k}`).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    // demo17 (a ledger role) reads department C's order it does not audit.
    expect((await detail('O3', 'demo17')).code).toBe(20000);
    const a = await call('cost-order-detail', { id: '00000000-0000-4000-8000-0000000fffff' }, 'demo18');
    expect(a.status).toBe(404);
    expect(a.message).toBe('成本单不存在');
  });
});

