#!/usr/bin/env node
/**
 * Benchmark of the incoming-invoice pool (进项票池) at scale. Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --incoming 1000000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/income-pool.mjs [runs=15]
 * Calls the real server's routes in process (app.inject, as bench/invoice-ledger.mjs does) as demo13:
 * the list's first page with no filter, filtered pages (seller + date range + kind, a number, the
 * waiting-to-sign state, a name search), deep pages, the totals of a filtered set, the other and
 * abnormal lists and the abnormal count, and the waiting-to-sign list and badge. Prints a table of the
 * median and max of each after one warm-up. Asserts nothing. SERVER_DIST as in bench/invoice-ledger.mjs.
 */
import { load, openBench } from './lib/inprocess.mjs';

const runs = Number(process.argv[2] ?? 15);
const { app, db, k, post, token, time } = await openBench({ login: 'demo13', runs });
const count = Number((await k.selectFrom('income_invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const list = (url, body) => async () => (await post(url, { pageSize: 20, ...body }, token)).total;
const pool = (body) => list('/api/income/pool/list', body);

// A materials supplier's invoices of one quarter on 数电专票, and a row to search by.
const some = await k.selectFrom('income_invoices').select(['seller_tax_no', 'seller_name', 'digital_no', 'issue_date']).where('kind', '=', '81').where('seller_name', 'like', '%建材%').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
const to = some.issue_date;
const from = new Date(Date.parse(to) - 90 * 86_400_000).toISOString().slice(0, 10);
const yearFrom = new Date(Date.parse(to) - 365 * 86_400_000).toISOString().slice(0, 10);

console.log(`database: ${db.dialect}, ${count} incoming invoices; median and max of ${runs} runs after one warm-up`);
console.log('| call | median | max | rows in the filtered set |\n| --- | --- | --- | --- |');
await time('pool list, first page, no filter', pool({}));
await time('pool list, first page, seller + 90 days + kind 81', pool({ sellerTaxNo: some.seller_tax_no, issueFrom: from, issueTo: to, kind: '81' }));
await time('pool list, first page, 90 days + kind 81, by amount', pool({ issueFrom: from, issueTo: to, kind: '81', sort: { field: 'amountIncl', order: 'descend' } }));
await time('pool list, first page, one 数电 number', pool({ number: some.digital_no }));
await time('pool list, first page, unsigned + unused, one year', pool({ signState: 0, usage: 0, issueFrom: yearFrom, issueTo: to }));
await time('pool list, first page, seller name contains', pool({ sellerName: some.seller_name.slice(2, 6) }));
await time('pool list, page 1,000 (offset 20,000)', pool({ pageIndex: 1000 }));
await time('pool list, page 25,000 (offset 500,000)', pool({ pageIndex: Math.min(25000, Math.floor(count / 40)) }));
await time('pool list, last page', pool({ pageIndex: Math.floor((count - 1) / 20) + 1 }));
await time('totals of a filtered set: one seller, one year (pageSize 1)', list('/api/income/pool/list', { sellerTaxNo: some.seller_tax_no, issueFrom: yearFrom, issueTo: to, pageSize: 1 }));
await time('other list (tickets, tolls …), first page', list('/api/income/pool/other', {}));
await time('abnormal list, first page', list('/api/income/pool/abnormal', {}));
await time('abnormal count (badge)', async () => (await post('/api/income/pool/abnormal-count', {}, token)).abnormalInvoicePoolCount);
await time('waiting to be signed, first page', list('/api/income/entry/list', {}));
await time('badges (billing-cancellation-count)', async () => (await post('/api/invoice/billing-cancellation-count', {}, token)).invoiceEntrySignCount);
await app.close();
await db.close();
