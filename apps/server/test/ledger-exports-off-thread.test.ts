/**
 * Issue 30, Excel exports at scale: 报销台账's and 成本单台账's exports read their count and their rows
 * in keyset batches off the request thread (export-reads.ts, platform/keyset.ts), as the pool's and the
 * outgoing ledger's do. The batches must give the list's rows in the list's order whatever the sort
 * (ties, rows without an approval or audit time last in both directions), on both engines. And on a
 * SQLite file, while an export's reads wait in the worker, another user is answered (ordering, not timing).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBatches } from '../src/modules/cost/audit/export-reads.js';
import { ledgerBatches, ledgerLineBatches } from '../src/modules/reimbursement/ledger/export-reads.js';
import { CostOrderFilter, ReimbLedgerExportQuery } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { closeFileServer, sqliteFileServer, type FileServer } from './file-server.js';

type Sort = { field: string; order: 'ascend' | 'descend' } | undefined;

/** Every row id of a list, page by page (500 a page), in the list's order. */
async function listIds(s: TestServer, url: string, body: Record<string, unknown>, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const a = await s.call(url, { ...body, pageIndex: page, pageSize: 500 }, token);
    expect(a.code, a.message).toBe(20000);
    ids.push(...(a.r.items as Array<{ id: string }>).map((r) => r.id));
    if (ids.length >= a.r.total || !a.r.items.length) return ids;
  }
}

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}

describe('the export batches give the list, in its order', () => {
  let s: TestServer;
  let t1: string;
  beforeAll(async () => {
    s = await startTestServer();
    t1 = await s.login('demo1');
  });
  afterAll(() => s?.close());

  const reimbSorts: Sort[] = [
    undefined,
    { field: 'approvedAt', order: 'ascend' },
    { field: 'approvedAt', order: 'descend' },
    { field: 'amount', order: 'ascend' },
    { field: 'applicantName', order: 'descend' },
    { field: 'voucherDate', order: 'descend' },
  ];
  it('报销台账: every sort, in batches of 7 bills; the lines export follows the bills', async () => {
    for (const sort of reimbSorts) {
      const body = sort ? { sort } : {};
      const f = ReimbLedgerExportQuery.parse(body);
      const want = await listIds(s, '/api/reimbursement/ledger/list', body, t1);
      expect(want.length, JSON.stringify(sort)).toBeGreaterThan(14);
      expect((await all(ledgerBatches(s.db.kysely, f, 7))).map((r) => r.id), JSON.stringify(sort)).toEqual(want);
      const lines = await all(ledgerLineBatches(s.db.kysely, f, 7));
      expect([...new Set(lines.map((l) => l.bill.id))], JSON.stringify(sort)).toEqual(want.filter((id) => lines.some((l) => l.bill.id === id)));
    }
    // A bill without approval time is among them (the nulls-last key).
    const pending = await s.db.kysely.selectFrom('reimb_bills').select('id').where('approved_at', 'is', null).where('flow_state', '<>', 0).executeTakeFirst();
    expect(pending).toBeDefined();
    const lineCount = Number((await s.db.kysely.selectFrom('reimb_lines as l').innerJoin('reimb_bills as b', 'b.id', 'l.bill_id').select(sql<number>`count(*)`.as('n')).where('b.flow_state', '<>', 0).executeTakeFirstOrThrow()).n);
    expect((await all(ledgerLineBatches(s.db.kysely, ReimbLedgerExportQuery.parse({}), 7))).length).toBe(lineCount);
  }, 120_000);

  const costSorts: Sort[] = [
    undefined,
    { field: 'total', order: 'descend' },
    { field: 'auditedAt', order: 'ascend' },
    { field: 'auditedAt', order: 'descend' },
    { field: 'state', order: 'ascend' },
    { field: 'orderNo', order: 'ascend' },
    { field: 'deptName', order: 'descend' },
  ];
  it('成本单台账: every sort, in batches of 7 orders', async () => {
    for (const sort of costSorts) {
      const body = sort ? { sort } : {};
      const f = CostOrderFilter.parse(body);
      const want = await listIds(s, '/api/cost-order/list', body, t1);
      expect(want.length, JSON.stringify(sort)).toBeGreaterThan(14);
      expect((await all(orderBatches(s.db.kysely, f, 7))).map((r) => r.id), JSON.stringify(sort)).toEqual(want);
    }
  }, 120_000);
});

describe.skipIf(process.env.TEST_DB === 'postgres')('SQLite file: the ledgers\' exports read off the request thread', () => {
  let f: FileServer;
  beforeAll(async () => {
    f = await sqliteFileServer('zhyy-ledger-exports-');
  }, 120_000);
  afterAll(async () => {
    await closeFileServer(f);
  });

  /**
   * The request thread's connection takes the file's lock for itself (exclusive locking mode, taken by a
   * write transaction): it keeps reading and writing, and any other connection — the read worker's —
   * waits (busy_timeout) until `release` lets go. A read on the request thread would be answered at once.
   * No worker may hold the file meanwhile: those of a previous case are stopped (the next read starts one).
   */
  async function holdFile(): Promise<() => Promise<void>> {
    const k = f.server.db.kysely;
    await f.server.db.reads!.close();
    expect(f.server.db.reads!.started).toBe(0);
    await sql`pragma locking_mode = exclusive`.execute(k);
    await sql`begin exclusive`.execute(k);
    await sql`commit`.execute(k);
    return async () => {
      await sql`pragma locking_mode = normal`.execute(k);
      await sql`select count(*) from app_meta`.execute(k);
    };
  }
  const settle = async (until: () => boolean) => {
    for (let i = 0; i < 10_000 && !until(); i++) await new Promise((r) => setImmediate(r));
  };

  it('answers another user while 报销台账\'s export waits in the worker, then the whole export', async () => {
    const { server } = f;
    const [t12, t1] = await Promise.all([server.login('demo12'), server.login('demo1')]);
    const want = Number((await sql<{ n: unknown }>`select count(*) as n from reimb_bills where flow_state <> 0`.execute(server.db.kysely)).rows[0]!.n);
    const release = await holdFile();
    const order: string[] = [];
    const heavy = server.download('/api/reimbursement/ledger/export', {}, t12).then((a) => (order.push('export'), a));
    // Wait (by state, not time) until the export's first read has gone to a worker.
    await settle(() => server.db.reads!.started > 0 || order.length > 0);
    expect(order).toEqual([]);
    expect(server.db.reads!.started).toBeGreaterThan(0);
    const light = await server.call('/api/account/userinfo', {}, t1).then((a) => (order.push('userinfo'), a));
    expect(light.code, light.message).toBe(20000);
    expect(order).toEqual(['userinfo']);
    await release();
    const { res, ws } = await heavy;
    expect(res.statusCode).toBe(200);
    expect(order).toEqual(['userinfo', 'export']);
    // The header, every bill, the 合计 row.
    expect(ws!.rowCount).toBe(want + 2);
  }, 60_000);

  it('answers another user while a batch of 成本单台账 and of 报销台账 waits in the worker', async () => {
    const { server } = f;
    const t1 = await server.login('demo1');
    for (const batches of [orderBatches(server.db.kysely, CostOrderFilter.parse({}), 50), ledgerBatches(server.db.kysely, ReimbLedgerExportQuery.parse({}), 50)]) {
      const release = await holdFile();
      const order: string[] = [];
      const first = batches[Symbol.asyncIterator]().next().then((b) => (order.push('batch'), b));
      // The batch's read has gone to a worker (started at once): on the request thread it would be answered at once.
      expect(server.db.reads!.started).toBe(1);
      const light = await server.call('/api/account/userinfo', {}, t1).then((a) => (order.push('userinfo'), a));
      expect(light.code, light.message).toBe(20000);
      expect(order).toEqual(['userinfo']);
      await release();
      const b = await first;
      expect(order).toEqual(['userinfo', 'batch']);
      expect(b.value!.length).toBe(50);
    }
  }, 60_000);
});
