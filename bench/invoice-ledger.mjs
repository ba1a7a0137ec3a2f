#!/usr/bin/env node
/**
 * Benchmark of the invoice ledger at scale. Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --invoices 1000000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/invoice-ledger.mjs [runs=15]
 * Prints the ledger's first page with and without filters, deep pages, the totals, and the Excel
 * export of 100,000 rows streamed over HTTP (time and peak RSS, and the ratio to a plain ExcelJS
 * streaming writer writing the same rows), and how a buyer-name search by one user slows 50 others
 * polling meanwhile (ratio of their p50/p99 to the same polling alone). Asserts nothing.
 * SERVER_DIST=apps/server/dist-old runs an older build for a before/after; EXPORT_ONLY=1 runs only the export.
 */
import { performance } from 'node:perf_hooks';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { load, openBench } from './lib/inprocess.mjs';

const runs = Number(process.argv[2] ?? 15);
const { ledgerTotals, ledgerBatches } = await load('modules/invoice/ledger/repo.js');
const { app, db, k, post, token, time } = await openBench({ login: 'demo5', runs });
const count = Number((await k.selectFrom('invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const list = (body) => async () => (await post('/api/invoice/list', { pageSize: 20, ...body }, token)).total;

const some = await k.selectFrom('invoices').select(['buyer_id', 'buyer_name', 'project_id', 'invoice_no', 'created_by_name']).where('order_no', '=', 'LG000000000000123457').executeTakeFirstOrThrow();
// EXPORT_ONLY=1 runs the export alone (a quicker before/after of it).
if (!process.env.EXPORT_ONLY) {
console.log(`database: ${db.dialect}, ${count} invoices; median and max of ${runs} runs after one warm-up`);
console.log('| call | median | max | rows in the filtered set |\n| --- | --- | --- | --- |');
await time('list, first page, no filter', list({}));
await time('list, first page, red invoices of 2025', list({ colour: 2, issueFrom: '2025-01-01', issueTo: '2025-12-31' }));
await time('list, first page, kind + status (paper cancelled)', list({ kind: 2, status: 3 }));
await time('list, first page, one buyer (picked)', list({ buyerId: some.buyer_id }));
await time('list, first page, buyer name contains', list({ buyerName: some.buyer_name.slice(0, 6) }));
await time('list, first page, buyer name contains "有限公司" (most buyers)', list({ buyerName: '有限公司' }));
await time('list, first page, buyer name contains 2 characters', list({ buyerName: some.buyer_name.slice(0, 2) }));
await time('list, first page, one project, sorted by amount', list({ projectId: some.project_id, sort: { field: 'amountIncl', order: 'descend' } }));
await time('list, first page, invoice number', list({ number: some.invoice_no }));
await time('list, first page, amount range', list({ amountMin: 1_000_000_00, amountMax: 2_000_000_00 }));
await time('list, first page, creator + year', list({ creator: some.created_by_name, issueFrom: '2024-01-01', issueTo: '2024-12-31' }));
await time('list, page 1,000 (offset 20,000)', list({ pageIndex: 1000 }));
await time('list, page 25,000 (offset 500,000)', list({ pageIndex: Math.min(25000, Math.floor(count / 40)) }));
await time('list, last page', list({ pageIndex: Math.floor((count - 1) / 20) + 1 }));
await time('totals alone, no filter (day summary)', async () => (await ledgerTotals(k, {})).count);
await time('totals alone, 2024 blue 数电专票 (day summary)', async () => (await ledgerTotals(k, { issueFrom: '2024-01-01', issueTo: '2024-12-31', colour: 1, kind: 9 })).count);
await time('totals alone, buyer name contains', async () => (await ledgerTotals(k, { buyerName: some.buyer_name.slice(0, 6) })).count);

// One user searching by buyer name while 50 others poll (userinfo + badge counts), against the same polling alone.
// Signed in one after another: an account takes at most 5 password checks at once (the sixth is locked out).
const pollers = [];
for (let i = 0; i < 50; i++) pollers.push((await post('/api/account/login', { name: 'demo5', password: 'demo123' })).token);
async function polling(ms, during) {
  const times = [];
  let stop = false;
  const loops = pollers.map(async (tk) => {
    while (!stop) {
      const t0 = performance.now();
      await post('/api/invoice/billing-cancellation-count', {}, tk);
      times.push(performance.now() - t0);
    }
  });
  let searches = 0;
  const searcher = during ? (async () => { while (!stop) { await during(); searches++; } })() : null;
  await new Promise((r) => setTimeout(r, ms));
  stop = true;
  await Promise.all([...loops, searcher]);
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], n: times.length, searches };
}
const word = some.buyer_name.slice(0, 6);
for (const [label, text] of [[`"${word}"`, word], ['"有限公司" (most invoices)', '有限公司'], ['2 characters', some.buyer_name.slice(0, 2)]]) {
  const alone = await polling(3000);
  const busy = await polling(3000, () => post('/api/invoice/list', { pageSize: 20, buyerName: text }, token));
  console.log(`50 users polling while one searches buyer name contains ${label}: p50 ${alone.p50.toFixed(1)} → ${busy.p50.toFixed(1)} ms (×${(busy.p50 / alone.p50).toFixed(1)}), p99 ${alone.p99.toFixed(1)} → ${busy.p99.toFixed(1)} ms (×${(busy.p99 / alone.p99).toFixed(1)}); ${busy.searches} searches in 3 s`);
}

}

// The export of 100,000 rows: the newest days holding 100,000 invoices, streamed over HTTP and discarded.
const from = (await k.selectFrom('invoices').select('issue_date').where('issue_date', 'is not', null).orderBy('issue_date', 'desc').offset(99_999).limit(1).executeTakeFirstOrThrow()).issue_date;
const fromTotals = await ledgerTotals(k, { issueFrom: from });
const rows = fromTotals.count + fromTotals.voided.count;
await app.listen({ port: 0, host: '127.0.0.1' });
const port = app.server.address().port;
global.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
let heapPeak = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  heapPeak = Math.max(heapPeak, m.heapTotal + m.external);
}, 20);
const t = performance.now();
const cpu0 = process.cpuUsage();
const res = await fetch(`http://127.0.0.1:${port}/api/invoice/export`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': token }, body: JSON.stringify({ issueFrom: from }) });
let bytes = 0;
for await (const chunk of res.body) bytes += chunk.length;
const seconds = (performance.now() - t) / 1000;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
console.log(`\nexport: ${rows} rows (issue days from ${from}), ${(bytes / 1048576).toFixed(1)} MiB xlsx in ${seconds.toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s on all threads (${Math.round(rows / seconds)} rows/s); RSS ${(base / 1048576).toFixed(0)} MiB before, peak ${(peak / 1048576).toFixed(0)} MiB (+${((peak - base) / 1048576).toFixed(0)} MiB; this thread's heap and external memory at most ${(heapPeak / 1048576).toFixed(0)} MiB)`);

// The same rows, read beforehand, written by ExcelJS's streaming writer alone (same columns' count, no database).
const all = [];
for await (const b of ledgerBatches(k, { issueFrom: from })) all.push(...b);
const t2 = performance.now();
const cpu2 = process.cpuUsage();
const sink = new Writable({ write: (_c, _e, cb) => cb() });
const through = new PassThrough();
through.pipe(sink);
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: through, useSharedStrings: false, useStyles: true });
const ws = wb.addWorksheet('s');
for (const r of all) ws.addRow([r.issueDate, r.kind, r.colour, r.status, r.source, r.invoiceCode, r.invoiceNo, r.digitalNo, r.orderNo, r.buyerName, r.buyerTaxNo, r.projectName, r.contractName, r.amountExcl / 100, r.tax / 100, r.amountIncl / 100, r.blueInvoiceNo, r.createdByName]).commit();
ws.commit();
await wb.commit();
const plain = (performance.now() - t2) / 1000;
const plainCpu = process.cpuUsage(cpu2);
console.log(`ExcelJS alone on the same ${all.length} rows: ${plain.toFixed(1)} s (CPU ${((plainCpu.user + plainCpu.system) / 1e6).toFixed(1)} s); the export takes ×${(seconds / plain).toFixed(2)} of it`);
await app.close();
await db.close();
