/**
 * Migration 0052's triggers on PostgreSQL: two transactions writing the same department-month do not
 * deadlock on the summary rows. Without the gate (the department-month's '*' row of cost_summary_months,
 * locked first by every trigger) this sequence deadlocked: a clerk's transaction adds a line of a new
 * category to order P1 (a line's trigger locks the month's '*' row, then its category's row), the audit
 * queue's 作废 of order P2 in the same department-month locks P2's category rows and waits for '*', and
 * the clerk's next line, of one of P2's categories, waits for that category's row: PostgreSQL aborted
 * one with 40P01. With the gate the 作废 waits before it locks anything, the clerk's transaction ends,
 * then the 作废 runs; both commit and the tables equal the raw aggregation. By ordering (pg_locks), not timing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/platform/ids.js';
import { expectSummaryTablesExact } from './cost-summary-exact.js';
import { startTestServer, type TestServer } from './helpers.js';

describe.skipIf(process.env.TEST_DB !== 'postgres')('PostgreSQL: the cost summary triggers queue per department-month', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 120_000);
  afterAll(() => s?.close());

  it('a line added and a 作废 in the same department-month both commit, in turn', async () => {
    const k = s.db.kysely;
    // Two orders in force in one department-month; P2 has lines.
    const pair = await sql<{ p1: string; p2: string }>`select a.id as p1, b.id as p2 from cost_orders a inner join cost_orders b
      on b.month = a.month and b.dept_id = a.dept_id and b.id <> a.id and b.state <> 2
      where a.state <> 2 and exists (select 1 from cost_order_lines l where l.order_id = b.id) order by a.month desc, a.id, b.id limit 1`.execute(k);
    expect(pair.rows.length).toBe(1);
    const { p1, p2 } = pair.rows[0]!;
    const cat = (await k.selectFrom('cost_order_lines').select('category').where('order_id', '=', p2).orderBy('line_no').executeTakeFirstOrThrow()).category;
    const line = (category: string, no: number) => ({
      id: newId(), order_id: p1, line_no: 900 + no, price_id: null, item_code: `T${no}`, item_name: '测试项', category, spec: '', unit: '项',
      quantity: '1', unit_price: '10.00', tax_rate: '0.06', amount: 1000, tax: 60, price_from: '2000-01-01', price_to: null, remark: '',
    });
    let auditPid = 0;
    const waiting = async () =>
      auditPid > 0 && Number((await sql<{ n: unknown }>`select count(*) as n from pg_stat_activity where pid = ${auditPid} and wait_event_type = 'Lock'`.execute(k)).rows[0]!.n) > 0;

    let firstLine!: () => void;
    const lineAdded = new Promise<void>((r) => (firstLine = r));
    let goOn!: () => void;
    const proceed = new Promise<void>((r) => (goOn = r));
    const clerk = k.transaction().execute(async (trx) => {
      await trx.insertInto('cost_order_lines').values(line('测试类别（不在P2中）', 1)).execute();
      firstLine();
      await proceed;
      await trx.insertInto('cost_order_lines').values(line(cat, 2)).execute();
      return 'clerk';
    });
    await lineAdded;
    const order: string[] = [];
    const audit = k.transaction().execute(async (trx) => {
      auditPid = Number((await sql<{ pid: unknown }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid);
      await trx.updateTable('cost_orders').set({ state: 2 }).where('id', '=', p2).execute();
      order.push('作废');
    });
    // The 作废 waits for the clerk's transaction (a lock not granted) before the clerk goes on.
    for (let i = 0; i < 2000 && !(await waiting()) && !order.length; i++) await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    goOn();
    await expect(clerk).resolves.toBe('clerk');
    order.push('clerk');
    await expect(audit).resolves.toBeUndefined();
    expect(order).toEqual(['clerk', '作废']);
    expect(await expectSummaryTablesExact(k)).toBeGreaterThan(0);
  }, 60_000);
});
