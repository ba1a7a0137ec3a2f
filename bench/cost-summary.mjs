#!/usr/bin/env node
/**
 * Benchmark of 月度成本汇总 at scale (issue 30). Load the data first (npm run build, then
 *   DATA_DIR=/tmp/big node apps/server/dist/seed/cli.js --cost-orders 100000
 * or with DATABASE_URL for PostgreSQL), then run on the same environment:
 *   DATA_DIR=/tmp/big node bench/cost-summary.mjs [runs=15]
 * Calls the real server's routes in process (app.inject, bench/lib/inprocess.mjs) as admin: the summary
 * (issue 30: a page of 50 department-months with the trend, composition and totals of all, read from the
 * summary tables of migration 0052) over the latest 12 months, over the 36 months before them (the large
 * mode's months; 36 is the most a query may span), one department's and one category's 36 months, one
 * project's, the drill-down of the largest department-month to its projects (a page of 20), and the
 * export of the 12 and the 36 months (every cell) — each timed against the anchor, 成本单台账's first page with no filter (the area's opening
 * list), in the same run (bench/lib/ratio.mjs): median and max in ms, and the ratio to the anchor
 * min / median / max. The sign-in check (userinfo) is timed the same way for scale. Asserts nothing.
 * SERVER_DIST as in bench/invoice-ledger.mjs.
 */
import { openBench } from './lib/inprocess.mjs';
import { exportSize, ratioTimer } from './lib/ratio.mjs';

const runs = Number(process.argv[2] ?? 15);
const { app, db, k, post, token, median } = await openBench({ login: 'admin', runs });
const count = async (t) => Number((await k.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const orders = await count('cost_orders');
const lines = await count('cost_order_lines');
const span = await k.selectFrom('cost_orders').select((eb) => [eb.fn.min('month').as('first'), eb.fn.max('month').as('last')]).executeTakeFirstOrThrow();
const shift = (m, n) => {
  const i = Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};
const y1 = { monthFrom: shift(span.last, -11), monthTo: span.last };
const y3 = { monthFrom: shift(span.last, -47), monthTo: shift(span.last, -12) };
const summary = (body) => async () => {
  const v = await post('/api/cost-order/summary', { ...body, pageSize: 50 }, token);
  return `${v.rows.length} of ${v.total} rows, ${v.totals.orderCount} orders, ${JSON.stringify(v).length} bytes`;
};
const drill = (body) => async () => {
  const v = await post('/api/cost-order/summary-projects', { ...body, pageSize: 20 }, token);
  return `${v.items.length} of ${v.total} projects, ${JSON.stringify(v).length} bytes`;
};
const top = await k.selectFrom('cost_orders').select(['dept_id', 'dept_name', (eb) => eb.fn.countAll().as('n')]).groupBy(['dept_id', 'dept_name']).orderBy('n', 'desc').limit(1).executeTakeFirstOrThrow();
const proj = await k.selectFrom('cost_orders').select(['project_id', 'project_code']).where('month', '>=', y3.monthFrom).where('month', '<=', y3.monthTo).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

const anchor = async () => (await post('/api/cost-order/list', { pageSize: 20 }, token)).total;
const { time, header, anchorMedian } = ratioTimer({ anchor, runs, median });
console.log(`database: ${db.dialect}, ${orders} cost orders (${span.first}…${span.last}), ${lines} lines; ${runs} runs after one warm-up, each after a run of the anchor (成本单台账, first page, no filter)`);
header('what it returned');
await time('anchor: 成本单台账 first page, no filter (rows in the list)', anchor);
await time('userinfo (the sign-in check)', async () => (await post('/api/account/userinfo', {}, token)).name);
await time(`汇总, latest 12 months (${y1.monthFrom}…${y1.monthTo})`, summary(y1));
await time(`汇总, 36 months (${y3.monthFrom}…${y3.monthTo})`, summary(y3));
await time(`汇总, one department (${top.dept_name}), 36 months`, summary({ ...y3, deptId: top.dept_id }));
await time('汇总, one category (人工), 36 months', summary({ ...y3, category: 'labour' }));
await time(`汇总, one project (${proj.project_code}), 36 months`, summary({ ...y3, projectId: proj.project_id }));
const big = (await post('/api/cost-order/summary', { ...y3, pageSize: 200 }, token)).rows.reduce((a, b) => (b.orderCount > a.orderCount ? b : a));
await time(`下钻, ${big.month} ${big.deptName} (${big.orderCount} orders), first 20 projects`, drill({ month: big.month, deptId: big.deptId }));
await time('export, latest 12 months', () => exportSize(app, '/api/cost-order/export-cost-summary', y1, token));
await time('export, 36 months', () => exportSize(app, '/api/cost-order/export-cost-summary', y3, token));
console.log(`anchor median over all runs: ${anchorMedian()} ms`);
await app.close();
await db.close();
