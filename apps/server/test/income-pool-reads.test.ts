/**
 * Issue 30, the pool at a million invoices: "seller name contains" matched among the distinct seller
 * names (income_pool_sellers, migration 0050), deep pages started from the day summary or from the
 * nearer end, the page, totals and export batches read off the request thread. The answers must be the
 * old ones: every page, total and export below is compared with the plain query (the filter's SQL
 * written out, ORDER BY the sort column and id, LIMIT/OFFSET; sums over the invoices), on both engines.
 * The seller summary must equal a GROUP BY of the invoices after writes. And on a SQLite file, while the
 * pool's read waits in the worker, another user is answered (ordering, not timing).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_INCOME_KINDS } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { closeFileServer, sqliteFileServer, type FileServer } from './file-server.js';
import { entry } from './income-helpers.js';

let s: TestServer;
let t13: string;

beforeAll(async () => {
  s = await startTestServer();
  t13 = await s.login('demo13');
});
afterAll(() => s?.close());

const SORT_COLUMNS: Record<string, string> = { issueDate: 'issue_date', amountIncl: 'amount_incl', sellerName: 'seller_name' };
const others = OTHER_INCOME_KINDS.map((k) => `'${k}'`).join(', ');
const like = (text: string) => `'%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`).replace(/'/g, "''")}%'`;

type Case = { url: string; body: Record<string, unknown>; where: string };

/** The plain query of a case: its rows' ids for a page, and its totals. */
async function plainPage(c: Case, pageIndex: number, pageSize: number): Promise<{ ids: string[]; totals: Record<string, number> }> {
  const sort = c.body.sort as { field: string; order: string } | undefined;
  const col = sort ? SORT_COLUMNS[sort.field]! : 'issue_date';
  const dir = sort?.order === 'ascend' ? 'asc' : 'desc';
  const ids = await sql<{ id: string }>`select id from income_invoices where ${sql.raw(c.where)} order by ${sql.raw(col)} ${sql.raw(dir)}, id ${sql.raw(dir)} limit ${pageSize} offset ${(pageIndex - 1) * pageSize}`.execute(s.db.kysely);
  const t = (
    await sql<{ n: unknown; ae: unknown; t: unknown; ai: unknown }>`select count(*) as n, coalesce(sum(amount_excl), 0) as ae, coalesce(sum(tax), 0) as t, coalesce(sum(amount_incl), 0) as ai
      from income_invoices where ${sql.raw(c.where)}`.execute(s.db.kysely)
  ).rows[0]!;
  return { ids: ids.rows.map((r) => r.id), totals: { count: Number(t.n), amountExcl: Number(t.ae), tax: Number(t.t), amountIncl: Number(t.ai) } };
}

async function expectSame(c: Case, pageIndex: number, pageSize = 100): Promise<number> {
  const a = await s.call(c.url, { ...c.body, pageIndex, pageSize }, t13);
  const label = `${c.url} ${JSON.stringify(c.body)} page ${pageIndex}`;
  expect(a.code, `${label}: ${a.message}`).toBe(20000);
  const want = await plainPage(c, pageIndex, pageSize);
  expect(a.r.totals, label).toEqual(want.totals);
  expect(a.r.total, label).toBe(want.totals.count);
  expect((a.r.items as Array<{ id: string }>).map((r) => r.id), label).toEqual(want.ids);
  return want.totals.count!;
}

let seller = '';
beforeAll(async () => {
  // A fragment of the name of the demo's commonest seller (several of its names may contain it).
  const top = await s.db.kysely.selectFrom('income_invoices').select(['seller_name', sql<number>`count(*)`.as('n')]).groupBy('seller_name').orderBy('n', 'desc').limit(1).executeTakeFirstOrThrow();
  seller = [...top.seller_name].slice(2, 4).join('');
});

function cases(): Case[] {
  const s1 = like(seller);
  return [
    { url: '/api/income/pool/list', body: {}, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { sort: { field: 'issueDate', order: 'ascend' } }, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { sort: { field: 'amountIncl', order: 'descend' } }, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { signState: 1, usage: 2 }, where: 'sign_state = 1 and usage = 2' },
    { url: '/api/income/pool/other', body: {}, where: `kind in (${others})` },
    { url: '/api/income/pool/list', body: { sellerName: seller }, where: `lower(seller_name) like ${s1} escape '\\'` },
    { url: '/api/income/pool/list', body: { sellerName: seller.toUpperCase(), kind: '81', signState: 1 }, where: `lower(seller_name) like ${s1} escape '\\' and kind = '81' and sign_state = 1` },
    { url: '/api/income/pool/list', body: { sellerName: seller, issueFrom: '2000-01-01', sort: { field: 'sellerName', order: 'ascend' } }, where: `lower(seller_name) like ${s1} escape '\\' and issue_date >= '2000-01-01'` },
    { url: '/api/income/pool/list', body: { sellerName: '有限' }, where: `lower(seller_name) like ${like('有限')} escape '\\'` },
    { url: '/api/income/pool/list', body: { sellerName: '%' }, where: `lower(seller_name) like ${like('%')} escape '\\'` },
    { url: '/api/income/pool/list', body: { sellerName: '没有这样的销方' }, where: '1 = 0' },
    { url: '/api/income/pool/other', body: { sellerName: seller }, where: `kind in (${others}) and lower(seller_name) like ${s1} escape '\\'` },
    { url: '/api/income/pool/abnormal', body: { sellerName: '公司' }, where: `(invoice_state <> 0 or red_pending = 1 or risk_level in ('02', '03') or buyer_mismatch = 1 or duplicate_of is not null or verify_state = 2) and lower(seller_name) like ${like('公司')} escape '\\'` },
  ];
}

describe('the same pages and totals as the plain query', () => {
  it('first, deep, last and past-the-end pages of every kind of filter and sort', async () => {
    let deepest = 0;
    for (const c of cases()) {
      const total = await expectSame(c, 1);
      const last = Math.max(1, Math.ceil(total / 100));
      // Past offset 1,000 a page is found from the day summary or from the nearer end (repo.ts).
      for (const p of new Set([2, 11, 12, Math.ceil(last / 2) + 1, last - 1, last, last + 1].filter((p) => p >= 1))) await expectSame(c, p);
      deepest = Math.max(deepest, total);
    }
    // The demo pool is large enough for the deep paths to run.
    expect(deepest).toBeGreaterThan(1500);
  }, 120_000);

  it('a 20-row page deep in the default order starts at the right row of its day', async () => {
    const c = cases()[0]!;
    const total = await expectSame(c, 1, 20);
    for (const p of [51, 52, 77, Math.ceil(total / 20) - 3, Math.ceil(total / 20)]) await expectSame(c, p, 20);
  }, 60_000);

  it('exports the same rows in the same order', async () => {
    const byAmount: Case = { ...cases()[5]!, body: { sellerName: seller, sort: { field: 'amountIncl', order: 'descend' } } };
    for (const c of [cases()[5]!, cases()[7]!, byAmount, cases()[11]!]) {
      const { res, ws } = await s.download(c.url.endsWith('/list') ? c.url.replace('/list', '/export') : `${c.url}-export`, c.body, t13);
      expect(res.statusCode).toBe(200);
      const want = await plainPage(c, 1, 100_000);
      const rows = await sql<{ id: string; n: string; d: string; k: string }>`select id, invoice_no as n, digital_no as d, kind as k from income_invoices where id in (${sql.join(want.ids.length ? want.ids : [''])})`.execute(s.db.kysely);
      const no = new Map(rows.rows.map((r) => [r.id, `${r.n}|${r.d}`]));
      const got: string[] = [];
      ws!.eachRow((row, i) => {
        if (i > 1) got.push(`${row.getCell(3).text}|${row.getCell(4).text}`);
      });
      expect(got.length).toBe(want.ids.length);
      expect(got).toEqual(want.ids.map((id) => no.get(id)));
    }
  }, 60_000);
});

describe('income_pool_sellers (0050)', () => {
  const key = 'seller_name, kind, invoice_state, sign_state, usage, buyer_mismatch';
  async function expectSummaryExact(): Promise<void> {
    const norm = (rows: Array<Record<string, unknown>>) =>
      rows
        .filter((r) => Number(r.n) !== 0 || Number(r.ae) !== 0 || Number(r.t) !== 0 || Number(r.ai) !== 0)
        .map((r) => [r.seller_name, r.kind, Number(r.invoice_state), Number(r.sign_state), Number(r.usage), Number(r.buyer_mismatch), Number(r.n), Number(r.ae), Number(r.t), Number(r.ai)].join('|'))
        .sort();
    const summary = (await sql<Record<string, unknown>>`select ${sql.raw(key)}, n, amount_excl as ae, tax as t, amount_incl as ai from income_pool_sellers`.execute(s.db.kysely)).rows;
    const grouped = (await sql<Record<string, unknown>>`select ${sql.raw(key)}, count(*) as n, sum(amount_excl) as ae, sum(tax) as t, sum(amount_incl) as ai from income_invoices group by ${sql.raw(key)}`.execute(s.db.kysely)).rows;
    expect(norm(summary)).toEqual(norm(grouped));
  }

  it('equals a GROUP BY of the invoices after an arrival, a change of seller name and amount, a state change and a delete; the search follows', async () => {
    await expectSummaryExact();
    const name = '甲乙丙新销方测试有限公司';
    const a = await s.call('/api/income/pool/save', entry({ sellerName: name }), t13);
    expect(a.code, a.message).toBe(20000);
    const c: Case = { url: '/api/income/pool/list', body: { sellerName: '丙新销方' }, where: `lower(seller_name) like ${like('丙新销方')} escape '\\'` };
    expect(await expectSame(c, 1)).toBe(1);
    await expectSummaryExact();
    const id = (await s.db.kysely.selectFrom('income_invoices').select('id').where('seller_name', '=', name).executeTakeFirstOrThrow()).id;
    await s.db.kysely.updateTable('income_invoices').set({ seller_name: `${name}二`, amount_incl: 20900, amount_excl: 20000 }).where('id', '=', id).execute();
    await expectSummaryExact();
    expect(await expectSame(c, 1)).toBe(1);
    expect(await expectSame({ url: c.url, body: { sellerName: '公司二' }, where: `lower(seller_name) like ${like('公司二')} escape '\\'` }, 1)).toBe(1);
    await s.db.kysely.updateTable('income_invoices').set({ sign_state: 1, usage: 2 }).where('id', '=', id).execute();
    await expectSummaryExact();
    await expectSame({ ...c, body: { ...c.body, signState: 1 }, where: `${c.where} and sign_state = 1` }, 1);
    await s.db.kysely.deleteFrom('income_invoices').where('id', '=', id).execute();
    await expectSummaryExact();
    // The name stays in the summary with zero rows and matches nothing.
    expect(await expectSame(c, 1)).toBe(0);
  }, 60_000);
});

describe.skipIf(process.env.TEST_DB === 'postgres')('SQLite file: the pool read off the request thread', () => {
  let f: FileServer;
  beforeAll(async () => {
    f = await sqliteFileServer('zhyy-pool-reads-');
  }, 120_000);
  afterAll(async () => {
    await closeFileServer(f);
  });

  it('answers another user while the pool list waits in the worker, then the list with the same answer', async () => {
    const { server } = f;
    const [a13, a1] = await Promise.all([server.login('demo13'), server.login('demo1')]);
    const body = { sellerName: '公司', pageIndex: 1, pageSize: 20 };
    const k = server.db.kysely;
    // The request thread's connection takes the file's lock for itself (exclusive locking mode, taken
    // by a write transaction): it keeps reading and writing, and any other connection — the read
    // worker's — waits (busy_timeout) until it lets go. No worker has read yet, so none holds the file.
    expect(server.db.reads!.started).toBe(0);
    await sql`pragma locking_mode = exclusive`.execute(k);
    await sql`begin exclusive`.execute(k);
    await sql`commit`.execute(k);
    const order: string[] = [];
    const heavy = server.call('/api/income/pool/list', body, a13).then((a) => (order.push('pool'), a));
    // Wait (by state, not time) until the list's read has gone to a worker: on the request thread it
    // would have been answered at once, this connection holding the lock, and no worker would start.
    for (let i = 0; i < 10_000 && server.db.reads!.started === 0 && !order.length; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    expect(server.db.reads!.started).toBe(1);
    const light = await server.call('/api/account/userinfo', {}, a1).then((a) => (order.push('userinfo'), a));
    expect(light.code, light.message).toBe(20000);
    // The pool's read is out in the worker, still waiting for the file.
    expect(order).toEqual(['userinfo']);
    await sql`pragma locking_mode = normal`.execute(k);
    await sql`select count(*) from app_meta`.execute(k);
    const a = await heavy;
    expect(a.code, a.message).toBe(20000);
    expect(order).toEqual(['userinfo', 'pool']);
    // The worker's answer is the plain query's on the same file.
    const want = await sql<{ id: string }>`select id from income_invoices where lower(seller_name) like ${'%公司%'} order by issue_date desc, id desc limit 20`.execute(k);
    expect((a.r.items as Array<{ id: string }>).map((r) => r.id)).toEqual(want.rows.map((r) => r.id));
    expect(a.r.total).toBeGreaterThan(20);
  }, 60_000);
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('PostgreSQL: the pool read does not hold the request thread', () => {
  it('answers another user while the pool list waits for the invoices, then the list with the same answer', async () => {
    const t1 = await s.login('demo1');
    const body = { sellerName: '公司', pageIndex: 1, pageSize: 20 };
    const k = s.db.kysely;
    // Another transaction holds the invoices (ACCESS EXCLUSIVE): the pool's read waits for it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = k.transaction().execute(async (trx) => {
      await sql`lock table income_invoices in access exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const order: string[] = [];
    const heavy = s.call('/api/income/pool/list', body, t13).then((a) => (order.push('pool'), a));
    // Wait (by state) until the list's query is queued behind the lock.
    const waiting = async () =>
      Number((await sql<{ n: unknown }>`select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'income_invoices' and not l.granted`.execute(k)).rows[0]!.n);
    for (let i = 0; i < 2000 && !(await waiting()) && !order.length; i++) await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    const light = await s.call('/api/account/userinfo', {}, t1).then((a) => (order.push('userinfo'), a));
    expect(light.code, light.message).toBe(20000);
    expect(order).toEqual(['userinfo']);
    release();
    await holder;
    const a = await heavy;
    expect(a.code, a.message).toBe(20000);
    expect(order).toEqual(['userinfo', 'pool']);
    const want = await sql<{ id: string }>`select id from income_invoices where lower(seller_name) like ${'%公司%'} order by issue_date desc, id desc limit 20`.execute(k);
    expect((a.r.items as Array<{ id: string }>).map((r) => r.id)).toEqual(want.rows.map((r) => r.id));
  }, 60_000);
});
