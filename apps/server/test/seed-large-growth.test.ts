/**
 * Issue 30: the seed CLI's growth flags --bills N, --cost-orders N and --contracts N (seed/largeReimbursement.ts,
 * seed/largeCost.ts, seed/largeContracts.ts) on a tiny N, on a private copy of the test demo: they add exactly N valid rows in
 * batches (sums equal to the lines', states and departments as the data description says), resume
 * without adding twice, and the rows reach 部门月度报销汇总 and 月度成本汇总 by exactly their figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReimbFlowState, ReimbState, shiftMonth, type CostSummary, type ReimbSummaryView } from '@zhyy/shared';
import { largeBill, largeBillId, largeReimbContext, seedLargeBills } from '../src/seed/largeReimbursement.js';
import { largeCostContext, largeOrderId, seedLargeCostOrders } from '../src/seed/largeCost.js';
import { largeContract, largeContractId, largeContractStaff, seedLargeContracts } from '../src/seed/largeContracts.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

const N = 60;

describe('--bills N', () => {
  it('adds N bills with their lines in batches, sums equal to the lines; a second run adds none; the summary grows by the pushed ones', async () => {
    const k = s.db.kysely;
    const range = { fromMonth: '2024-12', toMonth: '2026-11' };
    const before = (await s.call('/api/reimbursement/summary/view', range, admin)).r as ReimbSummaryView;
    expect(await seedLargeBills(s.db, { bills: N, batch: 25 })).toBe(N);
    expect(await seedLargeBills(s.db, { bills: N, batch: 25 })).toBe(0);

    const bills = await k.selectFrom('reimb_bills').selectAll().where('bill_no', 'like', 'BXL%').orderBy('bill_no').execute();
    expect(bills).toHaveLength(N);
    expect(bills[0]!.id).toBe(largeBillId(0));
    const lines = await k.selectFrom('reimb_lines').selectAll().where('bill_id', 'in', bills.map((b) => b.id)).execute();
    const users = new Map((await k.selectFrom('users').select(['id', 'dept_id']).execute()).map((u) => [u.id, u.dept_id]));
    const categories = new Set((await k.selectFrom('reimb_categories').select('code').execute()).map((c) => c.code));
    for (const b of bills) {
      const own = lines.filter((l) => l.bill_id === b.id);
      expect(own.length).toBe(Number(b.line_count));
      expect(own.map((l) => Number(l.line_no)).sort()).toEqual(own.map((_, j) => j + 1));
      expect(Number(b.amount)).toBe(own.reduce((x, l) => x + Number(l.amount), 0));
      for (const l of own) {
        expect(categories.has(l.category_code)).toBe(true);
        if (l.approved_amount !== null) expect(Number(l.approved_amount)).toBeLessThan(Number(l.amount));
      }
      expect(b.dept_id).toBe(users.get(b.applicant_id));
      if (b.flow_state === ReimbFlowState.draft) {
        expect(b.reimb_state).toBeNull();
        expect(b.voucher_date).toBe('');
      } else {
        expect(b.flow_state).toBe(ReimbFlowState.approved);
        expect(Number(b.approved_amount)).toBe(own.reduce((x, l) => x + Number(l.approved_amount ?? l.amount), 0));
        expect(b.voucher_date !== '').toBe(b.reimb_state === ReimbState.success);
      }
    }
    expect(bills.filter((b) => b.reimb_state === ReimbState.success).length).toBeGreaterThan(N / 2);

    // The summary of the range grows by the pushed bills whose voucher falls in it, drawn again independently.
    const ctx = await largeReimbContext(s.db);
    const expected = Array.from({ length: N }, (_, i) => largeBill(i, ctx).bill)
      .filter((b) => b.reimb_state === ReimbState.success && b.voucher_date >= `${range.fromMonth}-01` && b.voucher_date <= `${range.toMonth}-31`);
    expect(expected.length).toBeGreaterThan(0);
    const after = (await s.call('/api/reimbursement/summary/view', range, admin)).r as ReimbSummaryView;
    expect(after.total.count - before.total.count).toBe(expected.length);
    expect(after.total.amount - before.total.amount).toBe(expected.reduce((x, b) => x + b.approved_amount, 0));
  });
});

describe('--cost-orders N', () => {
  it('adds N orders with their lines in the months before the demo, one per month × department × project; a second run adds none; the summary shows the ones in force', async () => {
    const k = s.db.kysely;
    expect(await seedLargeCostOrders(s.db, { orders: N, batch: 25 })).toBe(N);
    expect(await seedLargeCostOrders(s.db, { orders: N, batch: 25 })).toBe(0);
    const ctx = await largeCostContext(s.db);
    const orders = await k.selectFrom('cost_orders').selectAll().where('id', '>=', largeOrderId(0)).where('id', '<=', largeOrderId(N - 1)).execute();
    expect(orders).toHaveLength(N);
    const demoFirst = shiftMonth(ctx.months[ctx.months.length - 1]!, 1);
    const lines = await k.selectFrom('cost_order_lines').selectAll().where('order_id', 'in', orders.map((o) => o.id)).execute();
    expect(new Set(orders.map((o) => `${o.month}|${o.dept_id}|${o.project_id}`)).size).toBe(N);
    expect(new Set(orders.map((o) => o.order_no)).size).toBe(N);
    const projects = new Set((await k.selectFrom('projects').select('id').execute()).map((p) => p.id));
    for (const o of orders) {
      expect(o.month < demoFirst).toBe(true);
      expect(projects.has(o.project_id)).toBe(true);
      const own = lines.filter((l) => l.order_id === o.id);
      expect(own.length).toBe(Number(o.line_count));
      expect(Number(o.amount)).toBe(own.reduce((x, l) => x + Number(l.amount), 0));
      expect(Number(o.tax)).toBe(own.reduce((x, l) => x + Number(l.tax), 0));
    }
    // 月度成本汇总 of the large months: exactly the orders in force (已作废 left out).
    const range = { monthFrom: ctx.months[0]!, monthTo: ctx.months[ctx.months.length - 1]! };
    const a = await s.call('/api/cost-order/summary', range, admin);
    expect(a.code, a.message).toBe(20000);
    const sum = a.r as CostSummary;
    const live = orders.filter((o) => o.state !== 2);
    expect(live.length).toBeGreaterThan(0);
    expect(sum.totals.orderCount).toBe(live.length);
    expect(sum.totals.amount).toBe(live.reduce((x, o) => x + Number(o.amount), 0));
    expect(sum.totals.tax).toBe(live.reduce((x, o) => x + Number(o.tax), 0));
  });
});

describe('--contracts N', () => {
  it('adds N contracts and their projects in batches (frames with their orders, single contracts); a second run adds none; the contract list shows them', async () => {
    const k = s.db.kysely;
    const list = async () => (await s.call('/api/tender/contract/list', { pageIndex: 1, pageSize: 5, keyword: 'TB-L-' }, admin)).r as { total: number };
    expect((await list()).total).toBe(0);
    // 37 in batches of 12: batch edges inside a project's five and inside a frame's ten.
    expect(await seedLargeContracts(s.db, { contracts: 37, batch: 12 })).toBe(37);
    expect(await seedLargeContracts(s.db, { contracts: 37, batch: 12 })).toBe(0);
    expect(await seedLargeContracts(s.db, { contracts: N, batch: 12 })).toBe(N - 37);
    const rows = await k.selectFrom('contracts').selectAll().where('code', 'like', 'TB-L-%').orderBy('code').execute();
    expect(rows).toHaveLength(N);
    const byId = new Map(rows.map((c) => [c.id, c]));
    const projects = new Map((await k.selectFrom('projects').selectAll().where('code', 'like', 'TB-L-XM-%').execute()).map((p) => [p.id, p]));
    expect(projects.size).toBe(N / 5);
    const staff = await largeContractStaff(s.db);
    for (let i = 0; i < N; i++) {
      const c = byId.get(largeContractId(i))!;
      expect(c).toMatchObject({ ...largeContract(i, staff), amount: expect.anything() });
      expect(Number(c.amount)).toBeGreaterThan(0);
      expect(projects.has(c.project_id!)).toBe(true);
      expect(c.contract_type).toBe(i % 10 === 0 ? 1 : i % 10 <= 4 ? 3 : 2);
      if (c.contract_type === 3) {
        const frame = byId.get(c.parent_id!)!;
        expect(frame.contract_type).toBe(1);
        expect([frame.customer, frame.project_id]).toEqual([c.customer, c.project_id]);
        expect(c.signed_on! >= frame.signed_on!).toBe(true);
      } else expect(c.parent_id).toBeNull();
      if (c.accepted_on) expect(c.accepted_on > c.signed_on!).toBe(true);
    }
    expect([...projects.values()].every((p) => p.manager_registered === 0 && staff.includes(p.manager_id!))).toBe(true);
    expect((await list()).total).toBe(N);
  });
});
