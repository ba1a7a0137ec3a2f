/**
 * Issue 32 item 5, a closed cost month can be proven unchanged: a close stores the digest of the
 * department-month's orders, lines and used price rows (the canonical serialisation of docs/cost.md,
 * recomputed here independently), 月度成本汇总's close-check recomputes it (已核验 / 已变更 with the orders
 * that differ), a direct change to a closed month's line or used price breaks it, reopening needs a reason,
 * and closing again lists what changed since the previous close with the amounts. Roles: close-check is
 * 月度成本汇总's (1, 16–19, admin); 20–22 get 权限不足. The fixtures are this file's own.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineAmount, lineTax, Messages, OperationLogType } from '@zhyy/shared';
import { newId } from '../src/platform/ids.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';
import { clearCostTables } from './cost-audit-fixture.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const now = new Date().toISOString();
const DEPT = newId();
const MONTH = '2025-03';
const PROJECTS = [newId(), newId(), newId()];
const PRICE_L = newId();
const PRICE_M = newId();

const call = (path: string, body: unknown, who = 'demo17') => s.call(path, body, tokens[who]);
const ok = async (path: string, body: unknown, who = 'demo17') => {
  const a = await call(path, body, who);
  expect(a.code, a.message).toBe(20000);
  return a;
};
const check = async (who = 'demo18') => ((await ok('/api/cost-order/close-check', { month: MONTH }, who)).r as any[]).find((c) => c.deptId === DEPT);
const closingRow = (a: { r?: unknown }) => (a.r as any[]).find((c) => c.deptId === DEPT);

let seq = 0;
/** An audited order of DEPT and MONTH with lines priced like the service prices them, inserted directly. */
async function order(project: number, lines: Array<{ price: 'L' | 'M'; quantity: string }>, state = 1) {
  const id = newId();
  const n = ++seq;
  const priced = lines.map((l, i) => {
    const p = l.price === 'L' ? { id: PRICE_L, code: 'DG-L01', unit: '工日', price: '300.5', rate: '0.03', category: 'labour' } : { id: PRICE_M, code: 'DG-M01', unit: '吨', price: '4000.25', rate: '0.13', category: 'material' };
    const amount = lineAmount(l.quantity, p.price);
    return {
      id: newId(), order_id: id, line_no: i + 1, price_id: p.id, item_code: p.code, item_name: p.code, category: p.category, spec: '', unit: p.unit, quantity: l.quantity,
      unit_price: p.price, tax_rate: p.rate, amount, tax: lineTax(amount, p.rate), price_from: '2025-01-01', price_to: null, remark: '',
    };
  });
  await db().insertInto('cost_orders').values({
    id, order_no: `CB2025039${String(n).padStart(3, '0')}`, month: MONTH, dept_id: DEPT, dept_name: '摘要测试部', project_id: PROJECTS[project]!, project_code: `XM-DG${project}`, project_name: `摘要项目${project}`,
    source: 'entry', state, invalid_reason: state === 2 ? '测试作废' : '', amount: priced.reduce((x, l) => x + l.amount, 0), tax: priced.reduce((x, l) => x + l.tax, 0), line_count: priced.length,
    remark: '', pms_ref: '', audited_by: '测试', audited_at: now, created_by_id: null, created_by: '测试', created_at: now, updated_at: now,
  }).execute();
  await db().insertInto('cost_order_lines').values(priced).execute();
  return { id, orderNo: `CB2025039${String(n).padStart(3, '0')}`, amount: priced.reduce((x, l) => x + l.amount, 0), tax: priced.reduce((x, l) => x + l.tax, 0) };
}

/** The digest of docs/cost.md "Closing digests", computed here from the rows without the server's code. */
async function expectedDigest(): Promise<string> {
  const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
  const orders = (await db().selectFrom('cost_orders').selectAll().where('dept_id', '=', DEPT).where('month', '=', MONTH).execute()).sort((a, b) => (a.id < b.id ? -1 : 1));
  const parts: Array<[string, string]> = [];
  for (const o of orders) {
    const lines = await db().selectFrom('cost_order_lines').selectAll().where('order_id', '=', o.id).orderBy('line_no').execute();
    const used = [...new Set(lines.map((l) => l.price_id!))].sort();
    const prices = await db().selectFrom('cost_prices').selectAll().where('id', 'in', used).execute();
    const text = JSON.stringify([
      'order', o.id, o.order_no, o.month, o.dept_id, o.project_id, o.source, Number(o.state), Number(o.amount), Number(o.tax), Number(o.line_count),
      lines.map((l) => ['line', l.id, Number(l.line_no), l.item_code, l.category, l.spec, l.unit, l.quantity, l.unit_price, l.tax_rate, Number(l.amount), Number(l.tax), l.price_id, l.price_from, l.price_to]),
      used.map((id) => prices.find((p) => p.id === id)!).map((p) => ['price', p.id, p.item_code, p.spec, p.unit, p.unit_price, p.tax_rate]),
    ]);
    parts.push([o.id, sha(text)]);
  }
  return sha(JSON.stringify(['zhyy-cost-close', 1, DEPT, MONTH, parts]));
}

let O1: Awaited<ReturnType<typeof order>>;
let O2: Awaited<ReturnType<typeof order>>;
let O3: Awaited<ReturnType<typeof order>>;

beforeAll(async () => {
  s = await startTestServer();
  await clearCostTables(s);
  for (const n of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[n] = await s.login(n);
  await db().insertInto('departments').values({ id: DEPT, parent_id: null, name: '摘要测试部', sort: 995, manager_id: null, created_at: now, updated_at: now }).execute();
  await db().insertInto('projects').values(PROJECTS.map((id, i) => ({ id, code: `XM-DG${i}`, name: `摘要项目${i}`, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }))).execute();
  await db().insertInto('cost_prices').values([
    { id: PRICE_L, item_code: 'DG-L01', item_name: '技工', category: 'labour', spec: '', unit: '工日', unit_price: '300.5', tax_rate: '0.03', valid_from: '2025-01-01', valid_to: null, updated_by: '测试', created_at: now, updated_at: now },
    { id: PRICE_M, item_code: 'DG-M01', item_name: '钢材', category: 'material', spec: '', unit: '吨', unit_price: '4000.25', tax_rate: '0.13', valid_from: '2025-01-01', valid_to: null, updated_by: '测试', created_at: now, updated_at: now },
  ]).execute();
  O1 = await order(0, [{ price: 'L', quantity: '10' }, { price: 'M', quantity: '1.5' }]);
  O2 = await order(1, [{ price: 'L', quantity: '2.25' }]);
  O3 = await order(2, [{ price: 'M', quantity: '0.5' }], 2);
});
afterAll(() => s?.close());

describe('closing digests', () => {
  it('close-check is 月度成本汇总’s: roles 1, 16–19 and admin; 20, 21, 22 get 权限不足', async () => {
    for (const who of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19']) expect(await ok('/api/cost-order/close-check', { month: MONTH }, who)).toMatchObject({ r: [] });
    for (const who of ['demo20', 'demo21', 'demo22']) {
      const a = await call('/api/cost-order/close-check', { month: MONTH }, who);
      expect(a.status, who).toBe(403);
      expect(a.message).toBe(Messages.forbidden);
    }
    expect((await s.call('/api/cost-order/close-check', { month: MONTH })).status).toBe(401);
    const bad = await call('/api/cost-order/close-check', { month: '2025-3' });
    expect([bad.status, bad.message]).toEqual([400, '参数错误：月份格式须为YYYY-MM']);
  });

  it('a close stores the documented digest and the orders’ figures; the check finds it holds', async () => {
    const a = await ok('/api/cost-setting/close', { deptId: DEPT, month: MONTH });
    const row = closingRow(a);
    expect(row).toMatchObject({ closed: true, changes: null });
    expect(row.digest).toBe(await expectedDigest());
    const snaps = await db().selectFrom('cost_closing_snapshots').selectAll().where('dept_id', '=', DEPT).execute();
    expect(snaps).toHaveLength(1);
    // The totals are those of the orders in force (O3 is invalid); the figures keep every order.
    expect([Number(snaps[0]!.order_count), Number(snaps[0]!.amount), Number(snaps[0]!.tax)]).toEqual([2, O1.amount + O2.amount, O1.tax + O2.tax]);
    expect(JSON.parse(snaps[0]!.orders).map((o: any) => [o.orderNo, o.state, o.amount, o.tax]).sort()).toEqual(
      [[O1.orderNo, 1, O1.amount, O1.tax], [O2.orderNo, 1, O2.amount, O2.tax], [O3.orderNo, 2, O3.amount, O3.tax]].sort(),
    );
    const c = await check();
    const demo17 = await db().selectFrom('users').select('name').where('login_name', '=', 'demo17').executeTakeFirstOrThrow();
    expect(c).toMatchObject({ deptName: '摘要测试部', month: MONTH, closedBy: demo17.name, holds: true, differences: null });
    expect(c.digest).toBe(row.digest);
    expect(c.actual).toBe(row.digest);
    // The summary lists the range's closed department-months (without checking them).
    const sum = (await ok('/api/cost-order/summary', { monthFrom: '2025-01', monthTo: '2025-06' }, 'demo16')).r;
    expect(sum.closed).toEqual([{ month: MONTH, deptId: DEPT, deptName: '摘要测试部', closedBy: c.closedBy, closedAt: c.closedAt }]);
    expect((await ok('/api/cost-order/summary', { monthFrom: '2025-04', monthTo: '2025-06' }, 'demo16')).r.closed).toEqual([]);
    // A name correction on a used price (allowed by the price list) does not touch the digest.
    await db().updateTable('cost_prices').set({ item_name: '高级技工' }).where('id', '=', PRICE_L).execute();
    expect((await check()).holds).toBe(true);
  });

  it('a direct change to a closed month’s line, or to a used price row, breaks the digest; undone, it holds again', async () => {
    const line = await db().selectFrom('cost_order_lines').selectAll().where('order_id', '=', O2.id).executeTakeFirstOrThrow();
    await db().updateTable('cost_order_lines').set({ quantity: '3', amount: Number(line.amount) + 16875 }).where('id', '=', line.id).execute();
    let c = await check('demo19');
    expect(c.holds).toBe(false);
    expect(c.actual).not.toBe(c.digest);
    // The order's own figures (its amount column) did not move: the change is in its lines.
    expect(c.differences).toMatchObject({ added: [], removed: [] });
    expect(c.differences.changed).toHaveLength(1);
    expect(c.differences.changed[0]).toMatchObject({ before: { orderNo: O2.orderNo, amount: O2.amount }, after: { orderNo: O2.orderNo, amount: O2.amount }, what: ['明细内容或所用价格变化（金额未变）'] });
    // Also the order's amount: named with both amounts in 元.
    await db().updateTable('cost_orders').set({ amount: O2.amount + 16875 }).where('id', '=', O2.id).execute();
    c = await check();
    expect(c.differences.changed[0].what).toEqual([`不含税金额 ${(O2.amount / 100).toFixed(2)} → ${((O2.amount + 16875) / 100).toFixed(2)} 元`]);
    expect(c.differences.before.amount).toBe(O1.amount + O2.amount);
    expect(c.differences.after.amount).toBe(O1.amount + O2.amount + 16875);
    await db().updateTable('cost_orders').set({ amount: O2.amount }).where('id', '=', O2.id).execute();
    await db().updateTable('cost_order_lines').set({ quantity: line.quantity, amount: Number(line.amount) }).where('id', '=', line.id).execute();
    expect((await check()).holds).toBe(true);
    // The unit price of a used price row (the price list refuses it; a direct write does not).
    await db().updateTable('cost_prices').set({ unit_price: '4100' }).where('id', '=', PRICE_M).execute();
    c = await check();
    expect(c.holds).toBe(false);
    expect(c.differences.changed.map((x: any) => x.after.orderNo).sort()).toEqual([O1.orderNo, O3.orderNo].sort());
    await db().updateTable('cost_prices').set({ unit_price: '4000.25' }).where('id', '=', PRICE_M).execute();
    expect((await check()).holds).toBe(true);
    // Another department's month is not reported: the check is per department.
    expect(((await ok('/api/cost-order/close-check', { month: MONTH, deptId: newId() }, 'demo1')).r as any[])).toEqual([]);
  });

  it('reopening needs a reason (refused in Chinese) and records it', async () => {
    for (const reason of [undefined, '', '   ']) {
      const a = await call('/api/cost-setting/reopen', { deptId: DEPT, month: MONTH, ...(reason === undefined ? {} : { reason }) });
      expect([a.status, a.code]).toEqual([400, 30000]);
      expect(a.message).toMatch(/请填写反结账原因/);
    }
    expect(closingRow(await ok('/api/cost-setting/closings', { month: MONTH })).closed).toBe(true);
    const a = await ok('/api/cost-setting/reopen', { deptId: DEPT, month: MONTH, reason: '补录漏推的成本单' });
    expect(closingRow(a)).toMatchObject({ closed: false, digest: null, changes: null });
    const log = await db().selectFrom('cost_closing_logs').select(['action', 'reason']).where('dept_id', '=', DEPT).orderBy('created_at').execute();
    expect(log).toEqual([{ action: 'close', reason: '' }, { action: 'reopen', reason: '补录漏推的成本单' }]);
    // A reopened month is not checked (nothing to prove), and its snapshot is kept for the next close.
    expect(await check()).toBeUndefined();
    expect(await db().selectFrom('cost_closing_snapshots').select('id').where('dept_id', '=', DEPT).execute()).toHaveLength(1);
  });

  it('closing again lists the orders added, removed and changed since the previous close, with the amounts', async () => {
    // Added through the application: entered into the reopened month and audited.
    const saved = (await ok('/api/cost-order/save', { month: MONTH, deptId: DEPT, projectId: PROJECTS[2], lines: [{ itemCode: 'DG-L01', unit: '工日', quantity: '4' }] })).r;
    await ok('/api/cost-order/set-coststatus-audited', { ids: [saved.id] }, 'demo1');
    const added = await db().selectFrom('cost_orders').selectAll().where('id', '=', saved.id).executeTakeFirstOrThrow();
    expect(Number(added.amount)).toBe(lineAmount('4', '300.5'));
    // Changed: an audited order's line (only a direct write can change it; the application refuses).
    const line = await db().selectFrom('cost_order_lines').selectAll().where('order_id', '=', O1.id).where('line_no', '=', 2).executeTakeFirstOrThrow();
    const newAmount = lineAmount('2', '4000.25');
    const newTax = lineTax(newAmount, '0.13');
    await db().updateTable('cost_order_lines').set({ quantity: '2', amount: newAmount, tax: newTax }).where('id', '=', line.id).execute();
    const o1Amount = O1.amount - Number(line.amount) + newAmount;
    const o1Tax = O1.tax - Number(line.tax) + newTax;
    await db().updateTable('cost_orders').set({ amount: o1Amount, tax: o1Tax }).where('id', '=', O1.id).execute();
    // Removed: O3 (invalid) deleted with its lines.
    await db().deleteFrom('cost_order_lines').where('order_id', '=', O3.id).execute();
    await db().deleteFrom('cost_orders').where('id', '=', O3.id).execute();

    const a = await ok('/api/cost-setting/close', { deptId: DEPT, month: MONTH }, 'demo1');
    const row = closingRow(a);
    expect(row.digest).toBe(await expectedDigest());
    const ch = row.changes;
    expect(ch.added).toEqual([expect.objectContaining({ orderId: saved.id, orderNo: saved.orderNo, state: 1, amount: Number(added.amount), tax: Number(added.tax), lineCount: 1 })]);
    expect(ch.removed).toEqual([expect.objectContaining({ orderId: O3.id, orderNo: O3.orderNo, state: 2, amount: O3.amount, tax: O3.tax })]);
    expect(ch.changed).toHaveLength(1);
    expect(ch.changed[0]).toMatchObject({ before: { orderNo: O1.orderNo, amount: O1.amount, tax: O1.tax }, after: { orderNo: O1.orderNo, amount: o1Amount, tax: o1Tax } });
    expect(ch.changed[0].what).toEqual([
      `不含税金额 ${(O1.amount / 100).toFixed(2)} → ${(o1Amount / 100).toFixed(2)} 元`,
      `税额 ${(O1.tax / 100).toFixed(2)} → ${(o1Tax / 100).toFixed(2)} 元`,
    ]);
    expect(ch.before).toEqual({ orders: 2, amount: O1.amount + O2.amount, tax: O1.tax + O2.tax });
    expect(ch.after).toEqual({ orders: 3, amount: o1Amount + O2.amount + Number(added.amount), tax: o1Tax + O2.tax + Number(added.tax) });
    const op = await db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', '成本月结：摘要测试部%').orderBy('created_at').execute();
    expect(op.at(-1)).toEqual({ type: OperationLogType.edit, login_name: 'demo1', description: '成本月结：摘要测试部 2025年3月 结账（成本单 3 张，与上次结账相比：新增 1 张、移除 1 张、变化 1 张）' });
    // The new close holds, and the closings keep showing what that close found.
    expect(await check()).toMatchObject({ holds: true, closedBy: row.closedBy });
    expect(closingRow(await ok('/api/cost-setting/closings', { month: MONTH })).changes).toEqual(ch);

    // Reopened and closed again without a change: an empty difference, said so in the log.
    await ok('/api/cost-setting/reopen', { deptId: DEPT, month: MONTH, reason: '复核' });
    const again = closingRow(await ok('/api/cost-setting/close', { deptId: DEPT, month: MONTH }));
    expect(again.digest).toBe(row.digest);
    expect(again.changes).toMatchObject({ added: [], removed: [], changed: [], before: ch.after, after: ch.after });
    const last = await db().selectFrom('operation_logs').select('description').where('description', 'like', '成本月结：摘要测试部%').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(last.description).toBe('成本月结：摘要测试部 2025年3月 结账（成本单 3 张，与上次结账相比无变化）');
    expect(await db().selectFrom('cost_closing_snapshots').select('id').where('dept_id', '=', DEPT).execute()).toHaveLength(3);
  });

  it('a month closed before digests were kept is reported as without a digest, not as changed', async () => {
    const other = newId();
    await db().insertInto('departments').values({ id: other, parent_id: null, name: '旧结账部', sort: 996, manager_id: null, created_at: now, updated_at: now }).execute();
    await db().insertInto('cost_closings').values({ dept_id: other, month: MONTH, closed_by: '测试', closed_at: now }).execute();
    const c = ((await ok('/api/cost-order/close-check', { month: MONTH, deptId: other })).r as any[])[0];
    expect(c).toMatchObject({ deptName: '旧结账部', digest: null, holds: null, differences: null });
    expect(c.actual).toMatch(/^[0-9a-f]{64}$/);
  });
});
