#!/usr/bin/env node
/**
 * Benchmark of the incoming-invoice pool (进项票池) at scale. Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --incoming 1000000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/income-pool.mjs [runs=15] [pollRounds=3]
 * Calls the real server's routes in process (app.inject, as bench/invoice-ledger.mjs does) as demo13:
 * the list's first page with no filter, filtered pages (seller + date range + kind, a number, the
 * waiting-to-sign state, a name search), deep pages, the totals of a filtered set, the other and
 * abnormal lists and the abnormal count, and the waiting-to-sign list and badge.
 *
 * Each figure is timed interleaved with the anchor — the pool's first page with no filter, the
 * screen's opening call — run by run (anchor, figure, anchor, figure …), and printed as its median and
 * max in ms and its ratio to the anchor of the same run: min / median / max over the runs, so noise
 * on a shared machine shows in the anchor too. Then 50 users polling (the badge counts) while one
 * user reads the pool (a seller-name search, page 25,000, the last page, a seller export in turn),
 * against the same polling alone, `pollRounds` rounds interleaved: the ratio of their p50 and p99,
 * min / median / max over the rounds. Asserts nothing. SERVER_DIST as in bench/invoice-ledger.mjs.
 */
import { performance } from 'node:perf_hooks';
import { load, openBench } from './lib/inprocess.mjs';
import { ratioTimer } from './lib/ratio.mjs';

const runs = Number(process.argv[2] ?? 15);
const pollRounds = Number(process.argv[3] ?? 3);
const { app, db, k, post, token, median } = await openBench({ login: 'demo13', runs });
const count = Number((await k.selectFrom('income_invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const list = (url, body) => async () => (await post(url, { pageSize: 20, ...body }, token)).total;
const pool = (body) => list('/api/income/pool/list', body);

// A materials supplier's invoices of one quarter on 数电专票, and a row to search by.
const some = await k.selectFrom('income_invoices').select(['seller_tax_no', 'seller_name', 'digital_no', 'issue_date']).where('kind', '=', '81').where('seller_name', 'like', '%建材%').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
const to = some.issue_date;
const from = new Date(Date.parse(to) - 90 * 86_400_000).toISOString().slice(0, 10);
const yearFrom = new Date(Date.parse(to) - 365 * 86_400_000).toISOString().slice(0, 10);

const anchor = pool({});
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const { time } = ratioTimer({ anchor, runs, median });

console.log(`database: ${db.dialect}, ${count} incoming invoices; ${runs} runs after one warm-up, each after a run of the anchor (pool list, first page, no filter)`);
console.log('| call | median | max | ÷ anchor min / median / max | rows in the filtered set |\n| --- | --- | --- | --- | --- |');
await time('pool list, first page, no filter', pool({}));
await time('pool list, first page, seller + 90 days + kind 81', pool({ sellerTaxNo: some.seller_tax_no, issueFrom: from, issueTo: to, kind: '81' }));
await time('pool list, first page, 90 days + kind 81, by amount', pool({ issueFrom: from, issueTo: to, kind: '81', sort: { field: 'amountIncl', order: 'descend' } }));
await time('pool list, first page, one 数电 number', pool({ number: some.digital_no }));
await time('pool list, first page, unsigned + unused, one year', pool({ signState: 0, usage: 0, issueFrom: yearFrom, issueTo: to }));
await time('pool list, first page, seller name contains', pool({ sellerName: some.seller_name.slice(2, 6) }));
await time('pool list, first page, seller name contains + 90 days', pool({ sellerName: some.seller_name.slice(2, 6), issueFrom: from, issueTo: to }));
await time('pool list, first page, seller name contains "有限公司" (most sellers)', pool({ sellerName: '有限公司' }));
await time('pool list, seller name contains, its last page', async () => {
  const n = (await post('/api/income/pool/list', { pageSize: 1, sellerName: some.seller_name.slice(2, 6) }, token)).total;
  return (await post('/api/income/pool/list', { pageSize: 20, pageIndex: Math.floor((n - 1) / 20) + 1, sellerName: some.seller_name.slice(2, 6) }, token)).total;
});
await time('pool list, page 1,000 (offset 20,000)', pool({ pageIndex: 1000 }));
await time('pool list, page 25,000 (offset 500,000)', pool({ pageIndex: Math.min(25000, Math.floor(count / 40)) }));
await time('pool list, last page', pool({ pageIndex: Math.floor((count - 1) / 20) + 1 }));
await time('pool list, page 25,000 by amount', pool({ pageIndex: Math.min(25000, Math.floor(count / 40)), sort: { field: 'amountIncl', order: 'descend' } }));
await time('pool list, last page by amount', pool({ pageIndex: Math.floor((count - 1) / 20) + 1, sort: { field: 'amountIncl', order: 'descend' } }));
await time('other list, page 10,000', list('/api/income/pool/other', { pageIndex: 10000 }));
await time('pool list, page 25,000 by amount ascending', pool({ pageIndex: Math.min(25000, Math.floor(count / 40)), sort: { field: 'amountIncl', order: 'ascend' } }));
await time('other list, page 5,000 by amount', list('/api/income/pool/other', { pageIndex: Math.min(5000, Math.floor(count / 80)), sort: { field: 'amountIncl', order: 'descend' } }));
await time('totals of a filtered set: one seller, one year (pageSize 1)', list('/api/income/pool/list', { sellerTaxNo: some.seller_tax_no, issueFrom: yearFrom, issueTo: to, pageSize: 1 }));
await time('other list (tickets, tolls …), first page', list('/api/income/pool/other', {}));
await time('abnormal list, first page', list('/api/income/pool/abnormal', {}));
await time('abnormal count (badge)', async () => (await post('/api/income/pool/abnormal-count', {}, token)).abnormalInvoicePoolCount);
await time('waiting to be signed, first page', list('/api/income/entry/list', {}));
await time('badges (billing-cancellation-count)', async () => (await post('/api/invoice/billing-cancellation-count', {}, token)).invoiceEntrySignCount);

// 50 users polling the badges while one reads the pool, against the same polling alone, interleaved.
// Signed in one after another: an account takes at most 5 password checks at once.
const pollers = [];
for (let i = 0; i < 50; i++) pollers.push((await post('/api/account/login', { name: 'demo13', password: 'demo123' })).token);
const seller = some.seller_name.slice(2, 6);
const lastPage = Math.floor((count - 1) / 20) + 1;
const reads = [
  () => post('/api/income/pool/list', { pageSize: 20, sellerName: seller }, token),
  () => post('/api/income/pool/list', { pageSize: 20, pageIndex: Math.min(25000, Math.floor(count / 40)) }, token),
  () => post('/api/income/pool/list', { pageSize: 20, pageIndex: lastPage }, token),
  () => post('/api/income/pool/list', { pageSize: 20, sellerName: '有限公司', sort: { field: 'amountIncl', order: 'descend' }, pageIndex: 2000 }, token),
  async () => {
    const res = await app.inject({ method: 'POST', url: '/api/income/pool/export', headers: { 'content-type': 'application/json', 'x-token': token }, payload: JSON.stringify({ sellerName: seller, issueFrom: from, issueTo: to }) });
    if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode}`);
  },
];
async function polling(ms, busy) {
  const times = [];
  let stop = false;
  const loops = pollers.map(async (tk) => {
    while (!stop) {
      const t0 = performance.now();
      await post('/api/invoice/billing-cancellation-count', {}, tk);
      times.push(performance.now() - t0);
    }
  });
  let n = 0;
  const reader = busy ? (async () => { while (!stop) await reads[n++ % reads.length](); })() : null;
  await new Promise((r) => setTimeout(r, ms));
  stop = true;
  await Promise.all([...loops, reader]);
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], n: times.length, reads: n };
}
await polling(2000, false);
const r50 = [];
const r99 = [];
console.log(`\n50 users polling (billing-cancellation-count) while one reads the pool (seller search, page 25,000, last page, a deep page of "有限公司" by amount, a seller export: in turn), against polling alone; 3 s each, ${pollRounds} rounds interleaved`);
console.log('| round | alone p50 / p99 | while reading p50 / p99 | ×p50 | ×p99 | pool reads |\n| --- | --- | --- | --- | --- | --- |');
for (let i = 1; i <= pollRounds; i++) {
  const alone = await polling(3000, false);
  const busy = await polling(3000, true);
  r50.push(busy.p50 / alone.p50);
  r99.push(busy.p99 / alone.p99);
  console.log(`| ${i} | ${f1(alone.p50)} / ${f1(alone.p99)} ms | ${f1(busy.p50)} / ${f1(busy.p99)} ms | ×${f2(busy.p50 / alone.p50)} | ×${f2(busy.p99 / alone.p99)} | ${busy.reads} |`);
}
console.log(`p50 ratio min / median / max: ×${f2(Math.min(...r50))} / ${f2(median(r50))} / ${f2(Math.max(...r50))}; p99 ratio: ×${f2(Math.min(...r99))} / ${f2(median(r99))} / ${f2(Math.max(...r99))}`);
await app.close();
await db.close();
