#!/usr/bin/env node
/**
 * Benchmark of 部门月度报销汇总 at scale (issue 30). Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --bills 100000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/reimb-summary.mjs [runs=15]
 * Calls the real server's routes in process (app.inject, bench/lib/inprocess.mjs) as admin: the pivot
 * over the latest 12 months and over 24 (the most a query may span), one department's 24 months, the
 * bills behind a department's row (first page), the export by month and by category — each timed
 * against the anchor, 报销台账's first page with no filter (the area's opening list), in the same run
 * (bench/lib/ratio.mjs): median and max in ms, and the ratio to the anchor min / median / max. The
 * sign-in check (userinfo) is timed the same way for scale. Asserts nothing. SERVER_DIST as in
 * bench/invoice-ledger.mjs.
 */
import { openBench } from './lib/inprocess.mjs';
import { exportSize, ratioTimer } from './lib/ratio.mjs';

const runs = Number(process.argv[2] ?? 15);
const { app, db, k, post, token, median } = await openBench({ login: 'admin', runs });
const count = async (t) => Number((await k.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const bills = await count('reimb_bills');
const lines = await count('reimb_lines');
const pushed = Number((await k.selectFrom('reimb_bills').select((eb) => eb.fn.countAll().as('n')).where('reimb_state', '=', 1).executeTakeFirstOrThrow()).n);
const last = (await k.selectFrom('reimb_bills').select((eb) => eb.fn.max('voucher_date').as('d')).where('reimb_state', '=', 1).executeTakeFirstOrThrow()).d.slice(0, 7);
const shift = (m, n) => {
  const i = Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};
const y1 = { fromMonth: shift(last, -11), toMonth: last };
const y2 = { fromMonth: shift(last, -23), toMonth: last };
const view = (body) => async () => {
  const v = await post('/api/reimbursement/summary/view', body, token);
  return `${v.rows.length} departments × ${v.months.length} months, ${v.total.count} bills`;
};
const biggest = (await post('/api/reimbursement/summary/view', y2, token)).rows.sort((a, b) => b.total.count - a.total.count)[0];

const anchor = async () => (await post('/api/reimbursement/ledger/list', { pageSize: 20 }, token)).total;
const { time, header, anchorMedian } = ratioTimer({ anchor, runs, median });
console.log(`database: ${db.dialect}, ${bills} bills (${pushed} pushed), ${lines} lines; ${runs} runs after one warm-up, each after a run of the anchor (报销台账, first page, no filter)`);
header('what it returned');
await time('anchor: 报销台账 first page, no filter (rows in the list)', anchor);
await time('userinfo (the sign-in check)', async () => (await post('/api/account/userinfo', {}, token)).name);
await time(`汇总 view, latest 12 months (${y1.fromMonth}…${y1.toMonth})`, view(y1));
await time(`汇总 view, 24 months (${y2.fromMonth}…${y2.toMonth})`, view(y2));
await time(`汇总 view, one department (${biggest.deptName}), 24 months`, view({ ...y2, deptIds: [biggest.deptId] }));
await time('穿透: the bills behind that department\'s row, first page', async () => (await post('/api/reimbursement/summary/bills', { ...y2, deptId: biggest.deptId, pageSize: 20 }, token)).total);
await time('export, 24 months by month', () => exportSize(app, '/api/reimbursement/summary/export', { ...y2, by: 'month' }, token));
await time('export, 24 months by category', () => exportSize(app, '/api/reimbursement/summary/export', { ...y2, by: 'category' }, token));
console.log(`anchor median over all runs: ${anchorMedian()} ms`);
await app.close();
await db.close();
