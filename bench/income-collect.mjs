#!/usr/bin/env node
/**
 * Benchmark of 采集 (collection from the tax digital account) at a year's volume, issue 30. On a built
 * server (npm run build) and a demo database (DATA_DIR=/tmp/x node apps/server/dist/seed/cli.js, or with
 * DATABASE_URL for PostgreSQL), run on the same environment:
 *   DATA_DIR=/tmp/x node bench/income-collect.mjs [rounds=2] [months=12] [users=5] [yearsBack=2]
 * The server listens on a real port (a stall of its event loop shows on sockets, which app.inject would
 * not show). Each round, interleaved: `users` other users call /api/account/userinfo back to back over HTTP
 * for a few seconds alone (the anchor), then again while demo13 collects a window of `months` months (a
 * different past year each round, so every round creates its invoices anew) through /collect and
 * /collect-progress. Printed per round: the collection's wall time and count, the users' p50 / p99 / max
 * alone and while it runs, and their ratios; then the ratios' min / median / max over the rounds.
 * Asserts nothing. SERVER_DIST as in bench/invoice-ledger.mjs.
 */
import { performance } from 'node:perf_hooks';
import { openBench } from './lib/inprocess.mjs';

const rounds = Number(process.argv[2] ?? 2);
const months = Number(process.argv[3] ?? 12);
const users = Number(process.argv[4] ?? 5);
/** How many years back round 1's year is (round i: one more year back): a fresh window when run again on the same data. */
const back = Number(process.argv[5] ?? 2);
const ALONE_MS = 4000;
const { app, db, post, token, median } = await openBench({ login: 'demo13', runs: rounds });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${app.server.address().port}`;
const others = [];
// Demo users of other roles (the demo has no demo2 nor demo10).
for (const name of ['demo1', 'demo3', 'demo4', 'demo5', 'demo6', 'demo7', 'demo8', 'demo9'].slice(0, users)) others.push((await post('/api/account/login', { name, password: 'demo123' })).token);

async function http(url, body, tk) {
  const res = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': tk }, body: JSON.stringify(body) });
  const json = await res.json();
  if (json.code !== 20000) throw new Error(`${url}: ${json.code} ${json.message}`);
  return json.r;
}

/** Every user calls userinfo back to back until `done()`; the latencies in ms. */
async function poll(done) {
  const xs = [];
  await Promise.all(
    others.map(async (tk) => {
      while (!done()) {
        const t = performance.now();
        await http('/api/account/userinfo', {}, tk);
        xs.push(performance.now() - t);
      }
    }),
  );
  return xs;
}

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const pad = (n) => String(n).padStart(2, '0');

/** The window of round i: `months` months ending with December of the year i + 2 years back. */
function windowOf(i) {
  const year = new Date().getUTCFullYear() - back - i;
  const fromMonth = 12 - months + 1;
  const last = new Date(Date.UTC(year, 12, 0)).getUTCDate();
  return { from: `${year}-${pad(fromMonth)}-01`, to: `${year}-12-${pad(last)}` };
}

console.log(`${db.dialect}, ${users} users polling userinfo, ${months}-month windows, load average ${(await import('node:os')).loadavg().map(f2).join(' ')}\n`);
console.log('| round | window | invoices | collection | alone p50 / p99 / max | while collecting p50 / p99 / max | p50 × | p99 × |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
const r50 = [];
const r99 = [];
const walls = [];
for (let i = 0; i < rounds; i++) {
  const until = performance.now() + ALONE_MS;
  const alone = await poll(() => performance.now() > until);
  const w = windowOf(i);
  // The event loop's longest gap while it runs (a timer every 20 ms): how long the server answered nobody.
  // The timer and the users start before the collection is asked for (its own answer may be held too).
  let gap = 0;
  let tick = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - tick);
    tick = now;
  }, 20);
  let finished = false;
  const polling = poll(() => finished);
  const t0 = performance.now();
  const task = await http('/api/income/pool/collect', w, token);
  const answeredMs = performance.now() - t0;
  let last = task;
  const watch = (async () => {
    while (!finished) {
      await new Promise((r) => setTimeout(r, 300));
      last = await http('/api/income/pool/collect-progress', { taskId: task.taskId }, token);
      if (last.finished) finished = true;
    }
  })();
  const during = await polling;
  clearInterval(timer);
  await watch;
  const wall = performance.now() - t0;
  if (last.state !== 'done') throw new Error(`collection ended ${last.stateLabel}: ${last.message}`);
  walls.push(wall);
  const a50 = pct(alone, 50);
  const a99 = pct(alone, 99);
  const d50 = pct(during, 50);
  const d99 = pct(during, 99);
  r50.push(d50 / a50);
  r99.push(d99 / a99);
  console.log(`| ${i + 1} | ${w.from} – ${w.to} | ${last.total} (new ${last.created}) | ${f1(wall / 1000)} s (started in ${f1(answeredMs)} ms) | ${f1(a50)} / ${f1(a99)} / ${f1(Math.max(...alone))} ms | ${f1(d50)} / ${f1(d99)} / ${f1(Math.max(...during))} ms (${during.length} calls; loop stalled up to ${f1(gap)} ms) | ×${f2(d50 / a50)} | ×${f2(d99 / a99)} |`);
}
const mmm = (xs) => `×${f2(Math.min(...xs))} / ${f2(median(xs))} / ${f2(Math.max(...xs))}`;
console.log(`\ncollection wall median ${f1(median(walls) / 1000)} s; others' p50 while collecting ÷ alone min / median / max ${mmm(r50)}; p99 ${mmm(r99)}`);
await app.close();
await db.close();
