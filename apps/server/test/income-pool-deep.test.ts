/**
 * Issue 30, any page of the pool under 50 ms at a million invoices (migration 0053): a deep page by
 * amount incl. tax starts at its amount bucket (income_pool_amounts' count per bucket and kind), a deep
 * page in issue-date order at its day (income_pool_days, now counted from a covering index). The
 * answers must be the plain query's (the filter's SQL written out, ORDER BY the sort column and id,
 * LIMIT/OFFSET; sums over the invoices), on both engines, also with thousands of invoices of one amount
 * (ties ordered by id across a page's edge), negative amounts and pages at every bucket's edge; and the
 * bucket counts must equal a GROUP BY of the invoices after writes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_INCOME_KINDS } from '@zhyy/shared';
import { AMOUNT_KEY } from '../src/db/migrations/0053_income_pool_deep.js';
import { amountBuckets, bucketBounds } from '../src/modules/income/pool/amounts.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry } from './income-helpers.js';

let s: TestServer;
let t13: string;

beforeAll(async () => {
  s = await startTestServer();
  t13 = await s.login('demo13');
});
afterAll(() => s?.close());

const others = OTHER_INCOME_KINDS.map((k) => `'${k}'`).join(', ');
type Case = { url: string; body: Record<string, unknown>; where: string };

async function expectSame(c: Case, pageIndex: number, pageSize: number): Promise<number> {
  const sort = c.body.sort as { field: string; order: string } | undefined;
  const col = sort?.field === 'amountIncl' ? 'amount_incl' : 'issue_date';
  const dir = sort?.order === 'ascend' ? 'asc' : 'desc';
  const label = `${c.url} ${JSON.stringify(c.body)} page ${pageIndex} of ${pageSize}`;
  const a = await s.call(c.url, { ...c.body, pageIndex, pageSize }, t13);
  expect(a.code, `${label}: ${a.message}`).toBe(20000);
  const ids = await sql<{ id: string }>`select id from income_invoices where ${sql.raw(c.where)} order by ${sql.raw(col)} ${sql.raw(dir)}, id ${sql.raw(dir)} limit ${pageSize} offset ${(pageIndex - 1) * pageSize}`.execute(s.db.kysely);
  const t = (await sql<{ n: unknown; ai: unknown }>`select count(*) as n, coalesce(sum(amount_incl), 0) as ai from income_invoices where ${sql.raw(c.where)}`.execute(s.db.kysely)).rows[0]!;
  expect(a.r.total, label).toBe(Number(t.n));
  expect(a.r.totals.amountIncl, label).toBe(Number(t.ai));
  expect((a.r.items as Array<{ id: string }>).map((r) => r.id), label).toEqual(ids.rows.map((r) => r.id));
  return Number(t.n);
}

/** income_pool_amounts equals the invoices grouped by bucket and kind (zero rows aside). */
async function expectBucketsExact(): Promise<void> {
  const norm = (rows: Array<{ k: unknown; kind: string; n: unknown }>) => rows.filter((r) => Number(r.n) !== 0).map((r) => `${Number(r.k)}|${r.kind}|${Number(r.n)}`).sort();
  const summary = (await sql<{ k: unknown; kind: string; n: unknown }>`select amount_key as k, kind, n from income_pool_amounts`.execute(s.db.kysely)).rows;
  const grouped = (await sql<{ k: unknown; kind: string; n: unknown }>`select k, kind, count(*) as n from (select ${sql.raw(AMOUNT_KEY('amount_incl'))} as k, kind from income_invoices) x group by k, kind`.execute(s.db.kysely)).rows;
  expect(norm(summary)).toEqual(norm(grouped));
}

describe('income_pool_amounts (0053)', () => {
  it("a bucket's bounds hold exactly the amounts of its key, on this engine's SQL", async () => {
    const amounts = [0, 1, 9, 10, 11, 99, 100, 109, 110, 999, 1000, 5730, 5799, 5800, 99_999, 100_000, 123_456_789_012, -1, -10, -109, -5730, -100_000];
    const keys = (await sql<{ a: unknown; k: unknown }>`${sql.raw(amounts.map((a) => `select ${a} as a, ${AMOUNT_KEY(`cast(${a} as bigint)`)} as k`).join(' union all '))}`.execute(s.db.kysely)).rows;
    for (const r of keys) {
      const { lo, hi } = bucketBounds(Number(r.k));
      expect(lo <= Number(r.a) && Number(r.a) <= hi, `${r.a} in bucket ${r.k} [${lo}, ${hi}]`).toBe(true);
      // The neighbours just outside the bounds are in other buckets.
      const out = (await sql<{ k: unknown }>`select ${sql.raw(AMOUNT_KEY(`cast(${lo - 1} as bigint)`))} as k union all select ${sql.raw(AMOUNT_KEY(`cast(${hi + 1} as bigint)`))}`.execute(s.db.kysely)).rows;
      expect(out.map((o) => Number(o.k))).not.toContain(Number(r.k));
    }
  });

  it('equals a GROUP BY of the invoices after arrivals, amount and kind changes and a delete', async () => {
    await expectBucketsExact();
    const e = entry();
    const a = await s.call('/api/income/pool/save', e, t13);
    expect(a.code, a.message).toBe(20000);
    await expectBucketsExact();
    const id = (await s.db.kysely.selectFrom('income_invoices').select('id').where('digital_no', '=', e.digitalNo).executeTakeFirstOrThrow()).id;
    await s.db.kysely.updateTable('income_invoices').set({ amount_incl: -5730 }).where('id', '=', id).execute();
    await expectBucketsExact();
    await s.db.kysely.updateTable('income_invoices').set({ kind: '10' }).where('id', '=', id).execute();
    await expectBucketsExact();
    await s.db.kysely.deleteFrom('income_invoices').where('id', '=', id).execute();
    await expectBucketsExact();
  }, 60_000);
});

describe('deep pages by amount and by issue date: the plain query', () => {
  beforeAll(async () => {
    // A few thousand invoices: the test demo's pool three more times (new ids and identities), then
    // ties: 3,000 invoices of one amount (a page's edge falls inside them, ordered by id), some of
    // another amount in a different bucket, and a few negative amounts.
    const k = s.db.kysely;
    const cols = Object.keys(await k.selectFrom('income_invoices').selectAll().limit(1).executeTakeFirstOrThrow());
    const copied = (n: number) => cols.map((c) => (c === 'id' || c === 'ident' ? `${c} || '-c${n}'` : c)).join(', ');
    for (const n of [1, 2, 3]) await sql.raw(`insert into income_invoices (${cols.join(', ')}) select ${copied(n)} from income_invoices where id not like '%-c%'`).execute(k);
    const ids = (await k.selectFrom('income_invoices').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(6000);
    const set = async (chosen: string[], amount: number) => {
      for (let i = 0; i < chosen.length; i += 500) await k.updateTable('income_invoices').set({ amount_incl: amount }).where('id', 'in', chosen.slice(i, i + 500)).execute();
    };
    await set(ids.filter((_, i) => i % 5 === 0).slice(0, 3000), 1_000_000);
    await set(ids.filter((_, i) => i % 7 === 1).slice(0, 400), 1_090_000);
    await set(ids.filter((_, i) => i % 11 === 2).slice(0, 30), -2_000);
    await expectBucketsExact();
  }, 60_000);

  const cases: Case[] = [
    { url: '/api/income/pool/list', body: { sort: { field: 'amountIncl', order: 'descend' } }, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { sort: { field: 'amountIncl', order: 'ascend' } }, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { kind: '81', sort: { field: 'amountIncl', order: 'descend' } }, where: "kind = '81'" },
    { url: '/api/income/pool/other', body: { sort: { field: 'amountIncl', order: 'ascend' } }, where: `kind in (${others})` },
    { url: '/api/income/pool/list', body: {}, where: '1 = 1' },
    { url: '/api/income/pool/list', body: { kind: '81', sort: { field: 'issueDate', order: 'ascend' } }, where: "kind = '81'" },
  ];

  it('every kind of deep page: at 20 and 100 rows, the middle, the last and past the end', async () => {
    for (const c of cases) {
      const total = await expectSame(c, 1, 100);
      for (const size of [20, 100]) {
        const last = Math.ceil(total / size);
        for (const p of new Set([Math.ceil(1000 / size) + 1, Math.ceil(last / 3), Math.ceil(last / 2) + 1, last - 1, last, last + 1])) if (p >= 1) await expectSame(c, p, size);
      }
    }
  }, 120_000);

  it('the pages at the edges of every bucket of the pool by amount', async () => {
    const c = cases[0]!;
    const buckets = await amountBuckets(s.db.kysely, {}, 'all', 'desc');
    let before = 0;
    const pages = new Set<number>();
    // The page holding each bucket's first row, and the one before it, past the shallow offsets.
    for (const b of buckets) {
      if (before >= 1000) for (const p of [Math.floor(before / 20) + 1, Math.floor(before / 20)]) pages.add(p);
      before += b.n;
    }
    expect(pages.size).toBeGreaterThan(5);
    for (const p of pages) await expectSame(c, p, 20);
  }, 120_000);
});
