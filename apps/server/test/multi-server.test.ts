/**
 * Two app servers on one database (docs/architecture.md "Several app servers"): sessions are shared,
 * the invoicing job runs on the lease holder only, a crashed holder's lease is taken over, and a
 * simultaneous first start fills the database once. On PostgreSQL each server has its own pool (the
 * first-start race fails there without the lock: duplicate key). On SQLite the first-start test uses a
 * file with one connection per server, in one process — better-sqlite3 runs each statement
 * synchronously, so the starts rarely interleave and the test mainly shows the lock waits correctly;
 * the other tests share the in-memory database (the job lease is per job instance, so two jobs still
 * compete for it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceStatus } from '@zhyy/shared';
import { buildApp } from '../src/app.js';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { INVOICE_JOB_LEASE } from '../src/modules/invoice/job.js';
import { LeasedJob, LeaseLost, Leases } from '../src/platform/leases.js';
import { verifyPassword } from '../src/platform/passwords.js';
import { isoAfter, isoBefore } from '../src/platform/time.js';
import { prepareFirstStart, type FirstStart } from '../src/seed/index.js';
import { attachServer, TEST_DEMO, type TestServer } from './helpers.js';
import { newRequest, startInvoiceServer } from './invoice-helpers.js';

const S = InvoiceStatus;
const QUERY = 'nuonuo.OpeMplatform.queryInvoiceResult';
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startInvoiceServer();
  b = await attachServer(a);
  await b.app.invoiceJob.stop();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('sessions', () => {
  it('a session made on server A is accepted on B; logout and forced sign-out on A are seen on B', async () => {
    const t = await a.login('demo14');
    expect((await b.call('/api/useronline/heartBeat', {}, t)).code).toBe(20000);
    expect((await a.call('/api/account/logout', {}, t)).code).toBe(20000);
    expect((await b.call('/api/useronline/heartBeat', {}, t)).code).toBe(50008);

    const t2 = await b.login('demo14');
    const demo1 = await a.login('demo1');
    expect((await b.call('/api/useronline/heartBeat', {}, t2)).code).toBe(20000);
    const row = (await a.call('/api/useronline/list', { keyword: 'demo14' }, demo1)).r.items[0];
    expect((await a.call('/api/useronline/force-logout', { sessionId: row.sessionId }, demo1)).code).toBe(20000);
    expect((await b.call('/api/useronline/heartBeat', {}, t2)).code).toBe(50008);
  });
});

/** How many (query exchange, invoice) pairs the sync log holds for these invoices. */
async function queryRows(s: TestServer, ids: string[]): Promise<number> {
  const inv = await s.db.kysely.selectFrom('invoices').select(['order_no', 'serial_no']).where('id', 'in', ids).execute();
  const refs = inv.flatMap((i) => [i.order_no, i.serial_no].filter((x): x is string => !!x));
  const row = await s.db.kysely
    .selectFrom('sync_log_refs as r')
    .innerJoin('sync_logs as l', 'l.id', 'r.sync_log_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('l.type', '=', QUERY)
    .where('r.ref', 'in', refs)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Issues `n` requests, then polls them round by round with the given servers' jobs ticking at once; the query rows per round must equal the invoices due. */
async function pollRounds(servers: TestServer[], n: number, buyerName: string): Promise<{ due: number; queried: number }> {
  const t5 = await a.login('demo5');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await newRequest(a, t5, buyerName));
  expect((await a.call('/api/invoice/request-billing', { ids }, t5)).r.succeeded).toBe(n);
  let due = 0;
  let queried = 0;
  for (let round = 0; round < 8; round++) {
    const open = await a.db.kysely.updateTable('invoices').set({ next_poll_at: new Date(0).toISOString() }).where('id', 'in', ids).where('status', 'in', [S.creating, S.signing]).executeTakeFirst();
    const dueNow = Number(open.numUpdatedRows);
    if (!dueNow) break;
    const before = await queryRows(a, ids);
    await Promise.all(servers.map((s) => s.app.invoiceJob.tick()));
    const asked = (await queryRows(a, ids)) - before;
    expect({ round, asked }).toEqual({ round, asked: dueNow });
    due += dueNow;
    queried += asked;
  }
  const done = await a.db.kysely.selectFrom('invoices').select('status').where('id', 'in', ids).execute();
  expect(done.every((d) => d.status === S.created)).toBe(true);
  return { due, queried };
}

describe('the invoicing job', () => {
  it('each due invoice is asked about once per due poll with both servers ticking, as with one server', async () => {
    // The rounds are driven here: stop the jobs' own timers, whose round could start before the invoices
    // are made due and then be the one a tick() below joins (ticks never overlap).
    await a.app.invoiceJob.stop();
    await b.app.invoiceJob.stop();
    const two = await pollRounds([a, b], 5, '江苏长江路桥建设有限公司');
    // B may hold the lease from its last tick: as a server leaving does, stop releases it for A alone.
    await b.app.invoiceJob.stop();
    const one = await pollRounds([a], 5, '无锡新城发展集团有限公司');
    console.info(`query rows with two servers: ${two.queried} (due polls ${two.due}); one server: ${one.queried} (due polls ${one.due})`);
    expect(two.queried).toBe(two.due);
    expect(one.queried).toBe(one.due);
  });

  it('respects a live lease of another server, takes over a crashed (expired) one, and frees it on stop', async () => {
    const leases = new Leases(a.db);
    const t5 = await a.login('demo5');
    const id = await newRequest(a, t5, '上海同济工程咨询有限公司');
    await a.call('/api/invoice/request-billing', { ids: [id] }, t5);
    await a.app.invoiceJob.stop();
    await b.app.invoiceJob.stop();
    await a.db.kysely.insertInto('job_leases').values({ name: INVOICE_JOB_LEASE, holder: 'crashed-server', acquired_at: isoBefore(120_000), expires_at: isoAfter(60_000) }).execute();
    // Due again each time (and still 开票中, though the instant simulator finishes it at the first poll).
    const due = () => a.db.kysely.updateTable('invoices').set({ status: S.creating, next_poll_at: new Date(0).toISOString() }).where('id', '=', id).execute();
    await due();
    const before = await queryRows(a, [id]);
    expect(await a.app.invoiceJob.tick()).toBe(false);
    expect(await b.app.invoiceJob.tick()).toBe(false);
    expect(await queryRows(a, [id])).toBe(before);

    // The holder crashed: its lease runs out and A takes the job over; B keeps off while A holds it.
    await a.db.kysely.updateTable('job_leases').set({ expires_at: isoBefore(1000) }).where('name', '=', INVOICE_JOB_LEASE).execute();
    expect(await a.app.invoiceJob.tick()).toBe(true);
    expect((await leases.current(INVOICE_JOB_LEASE))?.holder).toBe(a.app.invoiceJob.holder);
    expect(await queryRows(a, [id])).toBe(before + 1);
    await due();
    expect(await b.app.invoiceJob.tick()).toBe(false);
    expect(await queryRows(a, [id])).toBe(before + 1);

    // A stops (a clean shutdown): the lease is released and B takes over at once.
    await a.app.invoiceJob.stop();
    expect(await leases.current(INVOICE_JOB_LEASE)).toBeUndefined();
    await due();
    expect(await b.app.invoiceJob.tick()).toBe(true);
    expect(await queryRows(a, [id])).toBe(before + 2);
    await b.app.invoiceJob.stop();
  });

  it('a round whose lease was lost stops at its next step, even when the lease row is free again', async () => {
    const steps: string[] = [];
    const quiet = { ...a.app.log, warn: () => undefined } as unknown as typeof a.app.log;
    // Taken by another server in the middle of the round.
    const taken = new LeasedJob({ db: a.db, log: quiet, name: 'test-taken', intervalMs: 1000, ttlMs: 60_000, round: async (lease) => {
      steps.push('taken:1');
      await a.db.kysely.updateTable('job_leases').set({ holder: 'other', expires_at: isoAfter(60_000) }).where('name', '=', 'test-taken').execute();
      await lease.check().catch((e: unknown) => { steps.push(e instanceof LeaseLost ? 'taken:lost' : 'taken:?'); throw e; });
      steps.push('taken:2');
    } });
    expect(await taken.tick()).toBe(true);
    // Expired during a long step (another server may have run and released it meanwhile): not renewed.
    const expired = new LeasedJob({ db: a.db, log: quiet, name: 'test-expired', intervalMs: 1000, ttlMs: 1, round: async (lease) => {
      steps.push('expired:1');
      await new Promise((r) => setTimeout(r, 20));
      await a.db.kysely.deleteFrom('job_leases').where('name', '=', 'test-expired').execute();
      await lease.check().catch((e: unknown) => { steps.push(e instanceof LeaseLost ? 'expired:lost' : 'expired:?'); throw e; });
      steps.push('expired:2');
    } });
    expect(await expired.tick()).toBe(true);
    expect(steps).toEqual(['taken:1', 'taken:lost', 'expired:1', 'expired:lost']);
  });
});

/** An empty database that several "servers" open, each with its own connection(s). */
async function emptyDatabase(): Promise<{ open(): Db; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL_TEST;
  if (process.env.TEST_DB === 'postgres') {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = async (q: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(q);
      await c.end();
    };
    await admin(`create schema ${schema}`);
    return { open: () => openDatabase({ databaseUrl: url, pgSchema: schema }), drop: () => admin(`drop schema ${schema} cascade`) };
  }
  const file = path.join(os.tmpdir(), `zhyy-multi-${crypto.randomBytes(6).toString('hex')}.db`);
  return { open: () => openDatabase({ sqlitePath: file }), drop: async () => ['', '-wal', '-shm'].forEach((x) => fs.rmSync(file + x, { force: true })) };
}

/** What main.ts does before listening: open, migrate, first start, build the app. */
async function startLikeMain(open: () => Db, demo: boolean): Promise<{ db: Db; first: FirstStart; close(): Promise<void> }> {
  const db = open();
  await migrate(db);
  // The test demo's volume: what is checked is that one server of three loads it, not how much it is.
  const first = await prepareFirstStart(db, { demo, volumes: TEST_DEMO });
  const app = await buildApp(a.app.appConfig, db);
  return { db, first, close: async () => (await app.close(), await db.close()) };
}

describe('a simultaneous first start', () => {
  it('with demo data: every server starts, the demo company is loaded once', async () => {
    const empty = await emptyDatabase();
    try {
      const servers = await Promise.all([startLikeMain(empty.open, true), startLikeMain(empty.open, true), startLikeMain(empty.open, true)]);
      try {
        const kinds = servers.map((s) => s.first.kind).sort();
        expect(kinds).toEqual(['demo', 'none', 'none']);
        const loaded = servers.find((s) => s.first.kind === 'demo')!.first as { users: number };
        const k = servers[0]!.db.kysely;
        const users = Number((await k.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        console.info(`first start with demo data, three servers: ${kinds.join(', ')}; users ${users} (one seed: ${loaded.users})`);
        expect(users).toBe(loaded.users);
        expect(await k.selectFrom('app_meta').select('key').where('key', '=', 'demo').execute()).toHaveLength(1);
      } finally {
        for (const s of servers) await s.close();
      }
    } finally {
      await empty.drop();
    }
  }, 120_000);

  it('without demo data: exactly one administrator, and only one server has a password to show', async () => {
    const empty = await emptyDatabase();
    try {
      const servers = await Promise.all([startLikeMain(empty.open, false), startLikeMain(empty.open, false), startLikeMain(empty.open, false)]);
      try {
        const passwords = servers.flatMap((s) => (s.first.kind === 'admin' ? [s.first.password] : []));
        expect(servers.map((s) => s.first.kind).sort()).toEqual(['admin', 'none', 'none']);
        expect(passwords).toHaveLength(1);
        const users = await servers[1]!.db.kysely.selectFrom('users').select('login_name').execute();
        expect(users).toEqual([{ login_name: 'admin' }]);
        const ok = await servers[2]!.db.kysely.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
        expect(await verifyPassword(ok.password_hash, passwords[0]!)).toBe(true);
      } finally {
        for (const s of servers) await s.close();
      }
    } finally {
      await empty.drop();
    }
  }, 60_000);
});
