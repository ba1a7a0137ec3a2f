#!/usr/bin/env node
/**
 * The pool's deep pages, query against query (migration 0053), on a loaded database (see
 * bench/income-pool.mjs for loading it):
 *   DATA_DIR=/tmp/big node bench/income-pool-deep.mjs [runs=15]    (or with DATABASE_URL)
 * Each row times the new way (the built server's modules, on this thread) interleaved with the old way
 * as its anchor, so the ratio is new ÷ old in the same run, min / median / max:
 * - the middle page of the pool by amount: income_pool_amounts' buckets, then the page from its
 *   bucket's end of the amount index, against the page's ids read from the nearer end (offset ~N/2);
 * - where a deep page in issue-date order starts: the count per day from income_pool_days_count_idx and
 *   the totals beside it, against the one pass summing n and the amounts per day (SQLite before 0053;
 *   PostgreSQL ran the new shape before too, so its ratio shows the index alone).
 * Asserts nothing.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { load } from './lib/inprocess.mjs';
import { ratioTimer } from './lib/ratio.mjs';

const runs = Number(process.argv[2] ?? 15);
const { loadConfig } = await load('config.js');
const { migrate, openDatabase } = await load('db/index.js');
const { amountBuckets, bucketBounds } = await load('modules/income/pool/amounts.js');
const { summaryDays } = await load('modules/income/pool/summary.js');
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }, []);
const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'platform.db') });
await migrate(db);
const k = db.kysely;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const count = Number((await k.selectFrom('income_invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const mid = Math.floor(count / 2 / 20) * 20;
const pg = db.dialect === 'postgres';
console.log(`database: ${db.dialect}, ${count} incoming invoices; ${runs} runs after one warm-up; the anchor of each row is the old way`);

const idsOf = (rows) => rows.map((r) => r.id).join(',');
// By amount, descending, offset `mid`: old = from the nearer end (ascending, skipping count - mid - 20).
const oldAmount = async () => idsOf((await sql`select id from income_invoices order by amount_incl asc, id asc limit 20 offset ${count - mid - 20}`.execute(k)).rows.reverse());
const newAmount = async () => {
  const buckets = await amountBuckets(k, {}, 'all', 'desc');
  let before = 0;
  for (const b of buckets) {
    if (before + b.n > mid) return idsOf((await sql`select id from income_invoices where amount_incl <= ${bucketBounds(b.key).hi} order by amount_incl desc, id desc limit 20 offset ${mid - before}`.execute(k)).rows);
    before += b.n;
  }
  return '';
};
if ((await oldAmount()) !== (await newAmount())) throw new Error('the two ways give different pages');
const oldDays = async () => (await sql`select issue_date, sum(n) as n, sum(amount_excl) as ae, sum(tax) as t, sum(amount_incl) as ai from income_pool_days group by issue_date order by issue_date desc`.execute(k)).rows.length;
const newDays = async () => (await summaryDays(k, {}, 'all', 'desc')).days.length;

const plan = async (q) => (await sql.raw(`${pg ? 'explain' : 'explain query plan'} ${q}`).execute(k)).rows.map((r) => r['QUERY PLAN'] ?? r.detail).join(' / ');
console.log(`plan, count per day: ${await plan(`select issue_date, sum(${pg ? 'cast(n as integer)' : 'n'}) from income_pool_days group by issue_date order by issue_date desc`)}`);

const { time: timeAmount, header } = ratioTimer({ anchor: oldAmount, runs, median });
header('rows');
await timeAmount(`pool by amount, offset ${mid} (new ÷ old: nearer end)`, async () => (await newAmount(), count));
const { time: timeDays } = ratioTimer({ anchor: oldDays, runs, median });
await timeDays('count per issue day + totals (new ÷ old: one pass with the sums)', newDays);
await db.close();
