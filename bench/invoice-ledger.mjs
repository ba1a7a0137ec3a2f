#!/usr/bin/env node
/**
 * Benchmark of the invoice ledger at scale. Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --invoices 1000000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/invoice-ledger.mjs [runs=15]
 * Prints the ledger's first page with and without filters, deep pages, the totals, and the Excel
 * export of 100,000 rows streamed over HTTP (time and peak RSS). Asserts nothing.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/dist/app.js';
import { loadConfig } from '../apps/server/dist/config.js';
import { migrate, openDatabase } from '../apps/server/dist/db/index.js';
import { ledgerTotals } from '../apps/server/dist/modules/invoice/ledger/repo.js';

const runs = Number(process.argv[2] ?? 15);
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', LOGIN_RATE_LIMIT: '100000' }, []);
const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'platform.db') });
await migrate(db);
const app = await buildApp(config, db);
await app.invoiceJob.stop();
const k = db.kysely;
const count = Number((await k.selectFrom('invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const post = async (url, body, token) => {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, payload: JSON.stringify(body) });
  const json = res.json();
  if (json.code !== 20000) throw new Error(`${url}: ${json.code} ${json.message}`);
  return json.r;
};
const token = (await post('/api/account/login', { name: 'demo5', password: 'demo123' })).token;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(label, fn) {
  await fn();
  const xs = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await fn();
    xs.push(performance.now() - t);
  }
  console.log(`| ${label} | ${median(xs).toFixed(1)} ms | ${Math.max(...xs).toFixed(1)} ms | ${last ?? ''} |`);
}
const list = (body) => async () => (await post('/api/invoice/list', { pageSize: 20, ...body }, token)).total;

const some = await k.selectFrom('invoices').select(['buyer_id', 'buyer_name', 'project_id', 'invoice_no', 'created_by_name']).where('order_no', '=', 'LG000000000000123457').executeTakeFirstOrThrow();
console.log(`database: ${db.dialect}, ${count} invoices; median and max of ${runs} runs after one warm-up`);
console.log('| call | median | max | rows in the filtered set |\n| --- | --- | --- | --- |');
await time('list, first page, no filter', list({}));
await time('list, first page, red invoices of 2025', list({ colour: 2, issueFrom: '2025-01-01', issueTo: '2025-12-31' }));
await time('list, first page, kind + status (paper cancelled)', list({ kind: 2, status: 3 }));
await time('list, first page, one buyer (picked)', list({ buyerId: some.buyer_id }));
await time('list, first page, buyer name contains', list({ buyerName: some.buyer_name.slice(0, 6) }));
await time('list, first page, one project, sorted by amount', list({ projectId: some.project_id, sort: { field: 'amountIncl', order: 'descend' } }));
await time('list, first page, invoice number', list({ number: some.invoice_no }));
await time('list, first page, amount range', list({ amountMin: 1_000_000_00, amountMax: 2_000_000_00 }));
await time('list, first page, creator + year', list({ creator: some.created_by_name, issueFrom: '2024-01-01', issueTo: '2024-12-31' }));
await time('list, page 1,000 (offset 20,000)', list({ pageIndex: 1000 }));
await time('list, page 25,000 (offset 500,000)', list({ pageIndex: Math.min(25000, Math.floor(count / 40)) }));
await time('list, last page', list({ pageIndex: Math.floor((count - 1) / 20) + 1 }));
await time('totals alone, no filter (day summary)', async () => (await ledgerTotals(k, {})).count);
await time('totals alone, 2024 blue 数电专票 (day summary)', async () => (await ledgerTotals(k, { issueFrom: '2024-01-01', issueTo: '2024-12-31', colour: 1, kind: 9 })).count);
await time('totals alone, buyer name contains (scan)', async () => (await ledgerTotals(k, { buyerName: some.buyer_name.slice(0, 6) })).count);

// The export of 100,000 rows: the newest days holding 100,000 invoices, streamed over HTTP and discarded.
const from = (await k.selectFrom('invoices').select('issue_date').where('issue_date', 'is not', null).orderBy('issue_date', 'desc').offset(99_999).limit(1).executeTakeFirstOrThrow()).issue_date;
const rows = (await ledgerTotals(k, { issueFrom: from })).count;
await app.listen({ port: 0, host: '127.0.0.1' });
const port = app.server.address().port;
global.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const t = performance.now();
const res = await fetch(`http://127.0.0.1:${port}/api/invoice/export`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': token }, body: JSON.stringify({ issueFrom: from }) });
let bytes = 0;
for await (const chunk of res.body) bytes += chunk.length;
const seconds = (performance.now() - t) / 1000;
clearInterval(sampler);
console.log(`\nexport: ${rows} rows (issue days from ${from}), ${(bytes / 1048576).toFixed(1)} MiB xlsx in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s); RSS ${(base / 1048576).toFixed(0)} MiB before, peak ${(peak / 1048576).toFixed(0)} MiB (+${((peak - base) / 1048576).toFixed(0)} MiB)`);
await app.close();
await db.close();
