/**
 * Issue 30, migration 0052: the summary tables of 月度成本汇总 (cost_summary_cells, cost_summary_months) stay
 * equal to the raw aggregation of the orders in force (computed here in SQL, cost-summary-exact.ts) after
 * every kind of write the application makes, through its API: create, edit (lines changed, moved to another
 * department and project), re-price, copy last month, import, the project-management sync, audit,
 * invalidate and a corrected order; and after an order is deleted (tests do). The demo's orders, filled by
 * the migration's backfill, are in the comparison from the start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers.js';
import { body, dept, entryHelpers, line, price0, proj, rg, startEntryServer, xlsx } from './cost-order-entry-fixture.js';
import { expectSummaryTablesExact } from './cost-summary-exact.js';

let s: TestServer;
const tok: Record<string, string> = {};
const { k, save } = entryHelpers(() => s, tok);
const call = (path: string, b: unknown, who = 'admin') => s.call(`/api/cost-order/${path}`, b, tok[who]);

beforeAll(async () => {
  s = await startEntryServer(tok);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the summary tables after real writes', () => {
  it('equal the raw aggregation from the start (the backfill of the demo orders)', async () => {
    expect(await expectSummaryTablesExact(k())).toBeGreaterThan(0);
  });

  it('after create, edit, move and re-price', async () => {
    const a = await save(body('2026-09', dept.a, proj.p1, [rg('10'), line('ZT-JX01', '2', '', '台班'), line('ZT-FW01', '100', '', '项')]));
    const b = await save(body('2026-09', dept.a, proj.p2, [rg('1')]));
    expect([a.code, b.code]).toEqual([20000, 20000]);
    await expectSummaryTablesExact(k());
    // An edit that drops a category and adds another, and one that moves the order to another department and project.
    expect((await save({ ...body('2026-09', dept.a, proj.p1, [rg('12'), line('ZT-FLT', '3', '', '个')]), id: a.r.id }, 'demo17')).code).toBe(20000);
    await expectSummaryTablesExact(k());
    expect((await save({ ...body('2026-09', dept.b, proj.p3, [rg('12'), line('ZT-FLT', '3', '', '个')]), id: a.r.id })).code).toBe(20000);
    await expectSummaryTablesExact(k());
    // Re-pricing changes the lines' amounts in place.
    await k().updateTable('cost_prices').set({ unit_price: '400' }).where('id', '=', price0.rgNew).execute();
    try {
      const r = await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo16);
      expect(r.r.changed).toBe(1);
    } finally {
      await k().updateTable('cost_prices').set({ unit_price: '380' }).where('id', '=', price0.rgNew).execute();
    }
    await expectSummaryTablesExact(k());
  });

  it('after copy last month, import and the project-management sync', async () => {
    expect((await save(body('2026-10', dept.b, proj.p4, [rg('2'), line('ZT-JX01', '1', '', '台班')]))).code).toBe(20000);
    expect((await call('copy-last-month', { month: '2026-11', deptId: dept.b, projectId: proj.p4 }, 'demo16')).code).toBe(20000);
    const file = await xlsx([
      ['2026-11', '成本测试一部', 'CT-005', 'ZT-RG01', '高级', '工日', '2', ''],
      ['2026-11', '成本测试一部', 'CT-005', 'ZT-FW01', '', '项', '7', ''],
      ['2026-11', '成本测试二部', 'CT-006', 'ZT-FLT', '', '个', '4', ''],
    ]);
    expect((await call('import', { file }, 'demo16')).code).toBe(20000);
    const sync = await call('pms-sync', { month: '2026-12' }, 'demo16');
    expect(sync.status).toBeLessThan(500);
    await expectSummaryTablesExact(k());
  });

  it('after audit, invalidate and a corrected order in the same slot', async () => {
    const live = await k().selectFrom('cost_orders').select(['id', 'month', 'dept_id', 'project_id']).where('dept_id', 'in', [dept.a, dept.b]).where('state', '=', 0).orderBy('order_no').execute();
    expect(live.length).toBeGreaterThanOrEqual(4);
    expect((await call('set-coststatus-audited', { ids: [live[0]!.id, live[1]!.id] })).code).toBe(20000);
    await expectSummaryTablesExact(k());
    const gone = live[2]!;
    expect((await call('set-coststatus-invalid', { ids: [gone.id, live[0]!.id], reason: '测试作废' })).code).toBe(20000);
    await expectSummaryTablesExact(k());
    // A new order in the slot the invalid one left.
    expect((await save(body(gone.month, gone.dept_id, gone.project_id, [line('ZT-JX01', '5', '', '台班')]))).code).toBe(20000);
    await expectSummaryTablesExact(k());
  });

  it('after an order is deleted (its lines cascade) and after lines are changed directly', async () => {
    const o = await k().selectFrom('cost_orders').select('id').where('dept_id', '=', dept.b).where('state', '<>', 2).orderBy('order_no').executeTakeFirstOrThrow();
    await k().deleteFrom('cost_orders').where('id', '=', o.id).execute();
    await expectSummaryTablesExact(k());
    const l = await k().selectFrom('cost_order_lines as l').innerJoin('cost_orders as o', 'o.id', 'l.order_id').select(['l.id', 'l.order_id']).where('o.dept_id', '=', dept.a).where('o.state', '<>', 2).executeTakeFirstOrThrow();
    await k().updateTable('cost_order_lines').set({ category: 'vehicle', amount: 12345, tax: 678 }).where('id', '=', l.id).execute();
    await expectSummaryTablesExact(k());
    await k().deleteFrom('cost_order_lines').where('order_id', '=', l.order_id).execute();
    await expectSummaryTablesExact(k());
  });
});
