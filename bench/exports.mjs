#!/usr/bin/env node
/**
 * The Excel exports of the pool, 报销台账 and 成本单台账 against ExcelJS alone (issue 30: "≤ ×1.3
 * everywhere, as the ledger achieves"). Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big npx tsx --conditions=source apps/server/src/seed/cli.ts --incoming 200000 --bills 100000 --cost-orders 100000
 * or with DATABASE_URL for PostgreSQL), then on the same environment:
 *   DATA_DIR=/tmp/big node bench/exports.mjs [runs=3] [poolRows=100000]
 * Each export is the product's own, streamed over HTTP from the built server in process (as
 * bench/invoice-ledger.mjs) and read to the end as demo1: the pool's newest days holding `poolRows`
 * invoices, every bill of 报销台账 and every cost order of 成本单台账 (no filter, the lists' own
 * order). Its anchor is ExcelJS's streaming writer alone (no shared strings, styles, the same header
 * row, widths and bold font as platform/xlsx-worker.ts) writing the same cells — the product's own
 * columns applied to the same rows beforehand, the 合计 row included — into a sink. The two run
 * interleaved (bench/lib/ratio.mjs: anchor, export, anchor, export … after one warm-up of each), and
 * each export prints its median and max and its ratio to the anchor run just before it, min / median /
 * max. Asserts nothing.
 */
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { load, openBench } from './lib/inprocess.mjs';
import { ratioTimer } from './lib/ratio.mjs';

const runs = Number(process.argv[2] ?? 3);
const poolRows = Number(process.argv[3] ?? 100_000);
const { app, db, k, token, median } = await openBench({ login: 'demo1', runs });
const { neutralise } = await load('platform/xlsx.js');
const { POOL_COLUMNS } = await load('modules/income/pool/export.js');
const { poolBatches, poolTotalsPlanned } = await load('modules/income/pool/repo.js');
const { BILL_COLUMNS } = await load('modules/reimbursement/ledger/routes.js');
const reimb = await load('modules/reimbursement/ledger/export-reads.js');
const { ORDER_COLUMNS } = await load('modules/cost/audit/routes.js');
const cost = await load('modules/cost/audit/export-reads.js');

await app.listen({ port: 0, host: '127.0.0.1' });
const port = app.server.address().port;

/** The product's export over HTTP, read to the end; its size. */
async function exportOnce(url, body) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': token }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

/** ExcelJS alone writing `cells` (as platform/xlsx-worker.ts sets up its sheet) into a sink. */
async function excelOnce(columns, cells) {
  const through = new PassThrough();
  through.pipe(new Writable({ write: (_c, _e, cb) => cb() }));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: through, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet('s');
  ws.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const row of cells) ws.addRow(row).commit();
  ws.commit();
  await wb.commit();
}

/** The cells of every row (and one more for the 合计 row the ledgers add), as the export takes them. */
async function cellsOf(columns, batches, extra) {
  const cells = [];
  for await (const b of batches) for (const r of b) cells.push(columns.map((c) => neutralise(c.value(r))));
  for (let i = 0; i < extra; i++) cells.push(cells[0]);
  return cells;
}

// The pool: the newest issue days holding `poolRows` invoices.
const poolFrom = (await k.selectFrom('income_invoices').select('issue_date').orderBy('issue_date', 'desc').offset(poolRows - 1).limit(1).executeTakeFirstOrThrow()).issue_date;
const poolPlan = await poolTotalsPlanned(k, { issueFrom: poolFrom }, 'all');
const cases = [
  { label: `进项票池, issue days from ${poolFrom}`, url: '/api/income/pool/export', body: { issueFrom: poolFrom }, columns: POOL_COLUMNS, batches: () => poolBatches(k, poolPlan.filter, 'all'), extra: 0 },
  { label: '报销台账, every bill', url: '/api/reimbursement/ledger/export', body: {}, columns: BILL_COLUMNS, batches: () => reimb.ledgerBatches(k, {}), extra: 1 },
  { label: '成本单台账, every order', url: '/api/cost-order/export', body: {}, columns: ORDER_COLUMNS, batches: () => cost.orderBatches(k, {}), extra: 1 },
];

console.log(`database: ${db.dialect}; ${runs} runs of each export after one warm-up, each after a run of its anchor (ExcelJS alone on the same cells)`);
const anchors = [];
for (const c of cases) {
  const cells = await cellsOf(c.columns, c.batches(), c.extra);
  const { time, header, anchorMedian } = ratioTimer({ anchor: () => excelOnce(c.columns, cells), runs, median });
  header('rows, file');
  await time(`${c.label}: export over HTTP`, async () => `${cells.length} rows, ${await exportOnce(c.url, c.body)}`);
  anchors.push(`${c.label}: ExcelJS alone ${anchorMedian()} ms (median)`);
  console.log(anchors[anchors.length - 1]);
}
await app.close();
await db.close();
