/**
 * Issue 30, 月度成本汇总 does not hold other users (at 102k orders a 36-month summary took 4.9 s on the request
 * thread and other users' p99 went to 4.1 s). The summary, its drill-down and the export's batches are read
 * off the request thread (db/read-pool.ts): on a SQLite file, while a 36-month summary waits in the worker,
 * another user's userinfo is answered first; on PostgreSQL, while the summary waits for its table (locked by
 * another transaction), likewise. By ordering, not timing; the summary's answer is then the normal one.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftMonth } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { closeFileServer, sqliteFileServer, type FileServer } from './file-server.js';

/** 36 months ending with the demo's latest cost month. */
async function range(s: TestServer) {
  const last = (await s.db.kysely.selectFrom('cost_orders').select((eb) => eb.fn.max('month').as('m')).executeTakeFirstOrThrow()).m as string;
  return { monthFrom: shiftMonth(last, -35), monthTo: last };
}

/** The same query on the request thread's connection (the expected answer). */
async function expected(s: TestServer, body: { monthFrom: string; monthTo: string }) {
  const r = await sql<{ n: unknown }>`select count(distinct o.id) as n from cost_orders o inner join cost_order_lines l on l.order_id = o.id
    where o.state <> 2 and o.month >= ${body.monthFrom} and o.month <= ${body.monthTo}`.execute(s.db.kysely);
  return Number(r.rows[0]!.n);
}

describe.skipIf(process.env.TEST_DB === 'postgres')('SQLite file: the cost summary off the request thread', () => {
  let f: FileServer;
  beforeAll(async () => {
    f = await sqliteFileServer('zhyy-cost-summary-reads-');
  }, 120_000);
  afterAll(async () => {
    await closeFileServer(f);
  });

  it('answers another user while a 36-month summary waits in the worker, then the summary', async () => {
    const { server } = f;
    const [a18, a1] = await Promise.all([server.login('demo18'), server.login('demo1')]);
    const body = { ...(await range(server)), pageSize: 20 };
    const want = await expected(server, body);
    expect(want).toBeGreaterThan(0);
    const k = server.db.kysely;
    // The request thread's connection takes the file's lock for itself (exclusive locking mode, taken by
    // a write transaction): any other connection — the read worker's — waits until it lets go.
    expect(server.db.reads!.started).toBe(0);
    await sql`pragma locking_mode = exclusive`.execute(k);
    await sql`begin exclusive`.execute(k);
    await sql`commit`.execute(k);
    const order: string[] = [];
    const heavy = server.call('/api/cost-order/summary', body, a18).then((a) => (order.push('summary'), a));
    // Wait (by state, not time) until the summary's read has gone to a worker: on the request thread it
    // would have been answered at once (this connection holds the lock), and no worker would start.
    for (let i = 0; i < 10_000 && server.db.reads!.started === 0 && !order.length; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    expect(server.db.reads!.started).toBe(1);
    const light = await server.call('/api/account/userinfo', {}, a1).then((a) => (order.push('userinfo'), a));
    expect(light.code, light.message).toBe(20000);
    expect(order).toEqual(['userinfo']);
    await sql`pragma locking_mode = normal`.execute(k);
    await sql`select count(*) from app_meta`.execute(k);
    const a = await heavy;
    expect(a.code, a.message).toBe(20000);
    expect(order).toEqual(['userinfo', 'summary']);
    expect(a.r.totals.orderCount).toBe(want);
    expect(a.r.rows.length).toBe(Math.min(20, a.r.total));
  }, 60_000);
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('PostgreSQL: the cost summary does not hold the request thread', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 120_000);
  afterAll(() => s?.close());

  it('answers another user while a 36-month summary waits for its table, then the summary', async () => {
    const [t18, t1] = await Promise.all([s.login('demo18'), s.login('demo1')]);
    const body = { ...(await range(s)), pageSize: 20 };
    const want = await expected(s, body);
    const k = s.db.kysely;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = k.transaction().execute(async (trx) => {
      await sql`lock table cost_summary_months in access exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const order: string[] = [];
    const heavy = s.call('/api/cost-order/summary', body, t18).then((a) => (order.push('summary'), a));
    const waiting = async () =>
      Number((await sql<{ n: unknown }>`select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'cost_summary_months' and not l.granted`.execute(k)).rows[0]!.n);
    for (let i = 0; i < 2000 && !(await waiting()) && !order.length; i++) await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    const light = await s.call('/api/account/userinfo', {}, t1).then((a) => (order.push('userinfo'), a));
    expect(light.code, light.message).toBe(20000);
    expect(order).toEqual(['userinfo']);
    release();
    await holder;
    const a = await heavy;
    expect(a.code, a.message).toBe(20000);
    expect(order).toEqual(['userinfo', 'summary']);
    expect(a.r.totals.orderCount).toBe(want);
  }, 60_000);
});
