/**
 * Issue 16, 成本单台账 and 待审核成本单 (the calls of cost/audit): the ledger (every filter against an
 * independent reading of the fixture, sorting, paging, totals of the orders in force, the streamed export),
 * the detail (lines with the current price, log, the previous month's order, `closed`, `can` per caller,
 * auditors limited to their departments), the queue and its badge count for auditors with different
 * assignments, batch audit and invalidate (assigned departments only, audited and invalid orders
 * immutable, closed months refused, a reason required, each change logged, one winner of two auditors
 * at once), and the permissions: demo20 audits but gets 权限不足 on the ledger; demo18 reads the ledger
 * but gets 权限不足 on the audit calls. Fixture: ./cost-audit-fixture.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostOrderState } from '@zhyy/shared';
import { moveOne } from '../src/modules/cost/audit/service.js';
import { ASSIGNED, CLOSED, ORDERS, orderFigures, seedCostFixture, sheetRows, type Fixture, type OrderSpec } from './cost-audit-fixture.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let fx: Fixture;
const tokens: Record<string, string> = {};
const P = '/api/cost-order';
/** The fixture's orders only (2040). */
const YEAR = { monthFrom: '2040-01', monthTo: '2040-12' };
/** The states as the tests moved them (starting from the fixture's). */
const state: Record<string, number> = {};

beforeAll(async () => {
  s = await startTestServer();
  fx = await seedCostFixture(s);
  for (const o of ORDERS) state[o.key] = o.state;
  for (const u of ['admin', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[u] = await s.login(u);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, user: string) => s.call(`${P}/${path}`, body, tokens[user]);
const keyOf = (id: string) => Object.entries(fx.id).find(([, v]) => v === id)?.[0];
const keys = (items: Array<{ id: string }>) => items.map((i) => keyOf(i.id));
const sorted = (a: Array<string | undefined>) => [...a].sort();
const isClosed = (o: OrderSpec) => CLOSED.some((c) => c.dept === o.dept && c.month === o.month);
const deptOf = (o: OrderSpec) => fx.dept[o.dept].id;

/** The queue of a user, read from the fixture and the moves so far. */
function expectedQueue(user: string): string[] {
  const depts = user === 'admin' ? null : (ASSIGNED[user] ?? []);
  return ORDERS.filter((o) => state[o.key] === 0 && (!depts || depts.includes(o.dept))).map((o) => o.key).sort();
}

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

describe('待审核成本单 (queue, badge, audit, invalidate)', () => {
  const queue = async (user: string, body: Record<string, unknown> = {}) => (await call('to-audit-list', { pageSize: 100, ...body }, user)).r;
  const todo = async (user: string) => (await call('cost-todo-data', {}, user)).r.toAudit as number;
  const auditors = ['admin', 'demo17', 'demo20', 'demo21', 'demo22'];

  const checkQueues = async () => {
    for (const u of auditors) {
      const q = await queue(u);
      expect(sorted(keys(q.items)), u).toEqual(expectedQueue(u));
      expect(q.total, u).toBe(expectedQueue(u).length);
      expect(await todo(u), u).toBe(q.total);
    }
  };

  it('each auditor sees the orders awaiting audit of the assigned departments (admin: all), and the badge counts exactly those', async () => {
    expect(expectedQueue('demo20')).toHaveLength(7);
    expect(expectedQueue('demo21')).toHaveLength(4);
    expect(expectedQueue('demo22')).toHaveLength(1);
    await checkQueues();
    // An auditor with no assignment: an empty queue and 0.
    await s.db.kysely.deleteFrom('cost_auditors').where('user_id', '=', fx.users.demo22!.id).execute();
    expect((await queue('demo22')).total).toBe(0);
    expect(await todo('demo22')).toBe(0);
    await s.db.kysely.insertInto('cost_auditors').values({ user_id: fx.users.demo22!.id, dept_id: fx.dept.C.id }).execute();
  });

  it('filters the queue like the ledger, within the scope', async () => {
    const q = await queue('demo20', { monthFrom: '2040-03', monthTo: '2040-03' });
    expect(sorted(keys(q.items))).toEqual(['O1', 'O2', 'O8']);
    expect((await queue('demo20', { deptId: fx.dept.C.id })).total).toBe(0);
    expect(sorted(keys((await queue('demo20', { itemCode: 'L01' })).items))).toEqual(['O1', 'O2', 'O7', 'O9']);
    // A state other than 待审核 finds nothing there.
    expect((await queue('admin', { state: 1 })).total).toBe(0);
    const o2 = orderFigures(ORDERS[1]!);
    expect((await queue('demo21', { orderNo: 'CB2040030002' })).totals).toEqual({ count: 1, amount: o2.amount, tax: o2.tax, total: o2.total });
  });

  it('an auditor cannot audit or invalidate another department’s order', async () => {
    // A refusal is 30000 with its message, never 20000 (issue 27); the per-order answer stays beside it.
    const a = await call('set-coststatus-audited', { ids: [fx.id.O1] }, 'demo21');
    expect(a.code).toBe(30000);
    expect(a.r).toEqual({ done: 0, refused: [{ id: fx.id.O1, orderNo: 'CB2040030001', message: `您未被分配审核${fx.dept.A.name}的成本单` }] });
    expect(a.message).toBe(`您未被分配审核${fx.dept.A.name}的成本单`);
    const b = await call('set-coststatus-invalid', { ids: [fx.id.O3], reason: '越权' }, 'demo20');
    expect(b.code).toBe(30000);
    expect(b.r.done).toBe(0);
    // Several orders, none done: 30000 naming each order and its reason.
    const c = await call('set-coststatus-audited', { ids: [fx.id.O1, fx.id.O3] }, 'demo21');
    expect(c.code).toBe(30000);
    expect(c.r.done).toBe(0);
    expect(c.message).toBe(`2 张成本单均未审核：${c.r.refused.map((x: { orderNo: string; message: string }) => `${x.orderNo} ${x.message}`).join('；')}`);
    expect(c.r.refused.map((x: { message: string }) => x.message)).toEqual([`您未被分配审核${fx.dept.A.name}的成本单`, expect.stringMatching(/^您未被分配审核/)]);
    const rows = await s.db.kysely.selectFrom('cost_orders').select(['id', 'state']).where('id', 'in', [fx.id.O1!, fx.id.O3!]).execute();
    expect(rows.map((r) => Number(r.state))).toEqual([0, 0]);
  });

  it('audits a batch: each order checked on its own, each change logged with the auditor’s name', async () => {
    const a = await call('set-coststatus-audited', { ids: [fx.id.O1, fx.id.O2, fx.id.O6, fx.id.O5, fx.id.O4, '00000000-0000-4000-8000-0000000fffff'] }, 'demo20');
    expect(a.code).toBe(20000);
    expect(a.r.done).toBe(2);
    expect(a.r.refused).toEqual([
      { id: fx.id.O6, orderNo: 'CB2040040001', message: `${fx.dept.A.name}2040年4月已结账，成本单不能修改` },
      { id: fx.id.O5, orderNo: 'CB2040020002', message: '成本单已作废，不能修改' },
      { id: fx.id.O4, orderNo: 'CB2040020001', message: '成本单已审核，不能修改' },
      { id: '00000000-0000-4000-8000-0000000fffff', orderNo: '', message: '成本单不存在' },
    ]);
    expect(a.message).toBe('已审核 2 张，4 张未处理');
    state.O1 = 1;
    state.O2 = 1;
    const k = s.db.kysely;
    const o1 = await k.selectFrom('cost_orders').selectAll().where('id', '=', fx.id.O1!).executeTakeFirstOrThrow();
    expect(Number(o1.state)).toBe(CostOrderState.audited);
    expect(o1.audited_by).toBe(fx.users.demo20!.name);
    expect(o1.audited_at).toBeTruthy();
    const logs = (await call('cost-order-detail', { id: fx.id.O1 }, 'demo18')).r.logs;
    expect(logs.at(-1)).toMatchObject({ action: 'audit', message: '审核通过', userName: fx.users.demo20!.name });
    // The closed month's order did not move.
    expect(Number((await k.selectFrom('cost_orders').select('state').where('id', '=', fx.id.O6!).executeTakeFirstOrThrow()).state)).toBe(0);
    const op = await k.selectFrom('operation_logs').selectAll().where('description', 'like', '成本单审核通过%').executeTakeFirstOrThrow();
    expect(op.description).toContain('CB2040030001');
    await checkQueues();
  });

  it('an audited order is immutable: a second audit or an invalidate is refused', async () => {
    const again = await call('set-coststatus-audited', { ids: [fx.id.O1] }, 'admin');
    expect(again.r).toEqual({ done: 0, refused: [{ id: fx.id.O1, orderNo: 'CB2040030001', message: '成本单已审核，不能修改' }] });
    const inv = await call('set-coststatus-invalid', { ids: [fx.id.O1], reason: '改主意' }, 'demo17');
    expect(inv.r.refused[0].message).toBe('成本单已审核，不能修改');
    expect((await call('cost-order-detail', { id: fx.id.O1 }, 'admin')).r.can).toEqual({ edit: false, reprice: false, audit: false, invalidate: false });
    const logs = await s.db.kysely.selectFrom('cost_order_logs').select('action').where('order_id', '=', fx.id.O1!).execute();
    expect(logs.map((l) => l.action).sort()).toEqual(['audit', 'create']);
  });

  it('a closed month refuses invalidating too', async () => {
    const a = await call('set-coststatus-invalid', { ids: [fx.id.O6], reason: '测试' }, 'admin');
    expect(a.r.refused[0].message).toBe(`${fx.dept.A.name}2040年4月已结账，成本单不能修改`);
  });

  it('invalidates with a required reason, logged', async () => {
    for (const body of [{ ids: [fx.id.O9] }, { ids: [fx.id.O9], reason: '   ' }]) {
      const a = await call('set-coststatus-invalid', body, 'demo21');
      expect(a.status).toBe(400);
      expect(a.message).toContain('请填写作废原因');
    }
    expect((await call('set-coststatus-audited', { ids: [] }, 'demo21')).message).toContain('请选择成本单');
    const a = await call('set-coststatus-invalid', { ids: [fx.id.O9], reason: '项目暂停，本月无成本' }, 'demo21');
    expect(a.r).toEqual({ done: 1, refused: [] });
    expect(a.message).toBe('已作废 1 张成本单');
    state.O9 = 2;
    const d = (await call('cost-order-detail', { id: fx.id.O9 }, 'demo21')).r;
    expect(d).toMatchObject({ state: 2, invalidReason: '项目暂停，本月无成本', auditedBy: fx.users.demo21!.name });
    expect(d.logs.at(-1)).toMatchObject({ action: 'invalid', message: '作废，原因：项目暂停，本月无成本', userName: fx.users.demo21!.name });
    // An invalid order is final.
    expect((await call('set-coststatus-audited', { ids: [fx.id.O9] }, 'admin')).r.refused[0].message).toBe('成本单已作废，不能修改');
    // The ledger's totals leave it out now.
    const t = (await call('list', { monthFrom: '2040-05', monthTo: '2040-05' }, 'demo18')).r;
    expect(t.total).toBe(1);
    expect(t.totals).toEqual({ count: 0, amount: 0, tax: 0, total: 0 });
    await checkQueues();
  });

  it('two auditors auditing one order at once: it moves once, one is told it is already audited', async () => {
    const [x, y] = await Promise.all([call('set-coststatus-audited', { ids: [fx.id.O8] }, 'demo20'), call('set-coststatus-audited', { ids: [fx.id.O8] }, 'demo17')]);
    expect(x.r.done + y.r.done).toBe(1);
    const loser = x.r.done ? y : x;
    expect(loser.r.refused).toEqual([{ id: fx.id.O8, orderNo: 'CB2040030004', message: '成本单已审核，不能修改' }]);
    state.O8 = 1;
    const logs = await s.db.kysely.selectFrom('cost_order_logs').select(['action', 'user_name']).where('order_id', '=', fx.id.O8!).where('action', '=', 'audit').execute();
    expect(logs).toHaveLength(1);
    const winner = x.r.done ? 'demo20' : 'demo17';
    expect(logs[0]!.user_name).toBe(fx.users[winner]!.name);
    // An audit and an invalidate at once: one of them.
    const [au, inv] = await Promise.all([call('set-coststatus-audited', { ids: [fx.id.O7] }, 'demo21'), call('set-coststatus-invalid', { ids: [fx.id.O7], reason: '并发' }, 'demo20')]);
    expect(au.r.done + inv.r.done).toBe(1);
    state.O7 = au.r.done ? 1 : 2;
    expect((inv.r.done ? au : inv).r.refused[0].message).toBe(au.r.done ? '成本单已审核，不能修改' : '成本单已作废，不能修改');
    await checkQueues();
  });

  it('two moves of one order that both passed the checks: the guarded update lets one through', async () => {
    // What two auditors at once come to when both read the order awaiting audit before either wrote:
    // both go on to the update, and only its own guard (state = 0) can stop the second.
    const k = s.db.kysely;
    const o = { id: fx.id.O11!, dept_id: fx.dept.B.id, month: '2040-06' };
    const by = (u: string, roles: string[]) => ({ id: fx.users[u]!.id, name: fx.users[u]!.name, roles });
    const moved = await Promise.all([
      moveOne(k, o, CostOrderState.audited, by('demo21', ['21'])),
      moveOne(k, o, CostOrderState.invalid, by('demo20', ['20']), '并发作废'),
      moveOne(k, o, CostOrderState.audited, by('demo20', ['20'])),
    ]);
    expect(moved.filter(Boolean)).toHaveLength(1);
    const row = await k.selectFrom('cost_orders').select(['state', 'invalid_reason']).where('id', '=', o.id).executeTakeFirstOrThrow();
    state.O11 = Number(row.state);
    expect(state.O11).toBe(moved[1] ? 2 : 1);
    expect(row.invalid_reason).toBe(moved[1] ? '并发作废' : '');
    const logs = await k.selectFrom('cost_order_logs').select('action').where('order_id', '=', o.id).where('action', 'in', ['audit', 'invalid']).execute();
    expect(logs).toHaveLength(1);
    // And the call says why afterwards.
    const again = await call('set-coststatus-audited', { ids: [o.id] }, 'demo21');
    expect(again.r.refused[0].message).toBe(state.O11 === 1 ? '成本单已审核，不能修改' : '成本单已作废，不能修改');
    await checkQueues();
  });

  // A closing between the checks and the update: the same guard.
  it('a month closed between the checks and the update refuses the move', async () => {
    const k = s.db.kysely;
    await k.insertInto('cost_closings').values({ dept_id: fx.dept.C.id, month: '2040-03', closed_by: '测试', closed_at: new Date().toISOString() }).execute();
    try {
      expect(await moveOne(k, { id: fx.id.O3!, dept_id: fx.dept.C.id, month: '2040-03' }, CostOrderState.audited, { id: fx.users.admin!.id, name: 'admin', roles: ['admin'] })).toBe(false);
      expect(Number((await k.selectFrom('cost_orders').select('state').where('id', '=', fx.id.O3!).executeTakeFirstOrThrow()).state)).toBe(0);
    } finally {
      await k.deleteFrom('cost_closings').where('dept_id', '=', fx.dept.C.id).where('month', '=', '2040-03').execute();
    }
  });

  it('role 1 / admin audits any department; the queue and the badge follow', async () => {
    const before = await todo('admin');
    const a = await call('set-coststatus-audited', { ids: [fx.id.O3] }, 'admin');
    expect(a.r.done).toBe(1);
    state.O3 = 1;
    expect(await todo('admin')).toBe(before - 1);
    expect(await todo('demo22')).toBe(0);
    await checkQueues();
  });

  it('once the month is reopened its order may be audited', async () => {
    // O6 stayed in the queue of demo17, demo20 and admin while its month was closed (it still awaits audit).
    expect(expectedQueue('demo17')).toContain('O6');
    await s.db.kysely.deleteFrom('cost_closings').where('dept_id', '=', fx.dept.A.id).where('month', '=', '2040-04').execute();
    expect((await call('cost-order-detail', { id: fx.id.O6 }, 'demo17')).r).toMatchObject({ closed: false, can: { audit: true, invalidate: true, edit: true } });
    const a = await call('set-coststatus-audited', { ids: [fx.id.O6] }, 'demo17');
    expect(a.r).toEqual({ done: 1, refused: [] });
    state.O6 = 1;
    await checkQueues();
  });
});
