#!/usr/bin/env node
/**
 * Load test of the badge polling (issue 11): N signed-in users, each calling /api/miswf/workflow/todo,
 * /api/invoice/billing-cancellation-count and /api/useronline/heartBeat once a second (3 calls/s
 * each, random phase), against the built server (npm run build first) in a child process, and the
 * same load against a hello-world Fastify in the same run, interleaved, so noise on a shared
 * machine shows in the baseline too. Loopback only; bounded in time and in requests out.
 *   node bench/poll-load.mjs [users=200] [seconds=10] [rounds=2]
 * SQLite: a fresh file with the demo company, or $DATA_DIR/platform.db when DATA_DIR is set (e.g.
 * a seeded million). PostgreSQL: DATABASE_URL (a fresh schema, dropped at the end).
 * SERVER_DIST=apps/server/dist-old runs an older build for a before/after. CPU_PROF=dir writes a CPU
 * profile of the server child there (open it in Chrome DevTools). Asserts nothing.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const here = path.dirname(new URL(import.meta.url).pathname);
const dist = path.resolve(here, '..', process.env.SERVER_DIST ?? 'apps/server/dist');
const MAX_OUT = 5000; // requests in flight at most; beyond, a call counts as dropped

if (process.argv[2] === '--serve') await serve(process.argv[3], Number(process.argv[4]));
else await main();

async function serve(kind, users) {
  const send = (m) => process.send(m);
  if (kind === 'hello') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    app.post('/*', async () => ({ code: 20000, r: { n: 0 } }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    send({ port: app.server.address().port, tokens: Array.from({ length: users }, (_, i) => `t${i}`) });
    return;
  }
  const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
  const [{ buildApp }, { loadConfig }, { migrate, openDatabase }, { seedDemo }] = await Promise.all([load('app.js'), load('config.js'), load('db/index.js'), load('seed/index.js')]);
  const url = process.env.DATABASE_URL;
  let schema;
  if (url) {
    const { default: pg } = await import('pg');
    schema = `poll_${process.pid}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
  }
  const file = process.env.DATA_DIR ? path.join(process.env.DATA_DIR, 'platform.db') : path.join(os.tmpdir(), `zhyy-poll-${process.pid}`, 'platform.db');
  const db = openDatabase(url ? { databaseUrl: url, pgSchema: schema } : { sqlitePath: file });
  await migrate(db);
  const count = Number((await db.kysely.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (count === 0) {
    await seedDemo(db);
    // A server is not measured in the minute after a bulk load: let autovacuum's work (visibility map,
    // statistics of the fresh tables) be done first, as it is on a database that has been running.
    if (url) {
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const { rows } = await c.query('select tablename from pg_tables where schemaname = $1', [schema]);
      for (const r of rows) await c.query(`vacuum analyze ${schema}."${r.tablename}"`);
      await c.end();
    }
  }
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: path.dirname(file) }, []), db);
  await app.invoiceJob?.stop?.();
  const people = await db.kysely.selectFrom('users').select('id').where('login_name', 'like', 'demo%').where('status', '=', 1).execute();
  const tokens = [];
  for (let i = 0; i < users; i++) tokens.push((await app.sessions.create(people[i % people.length].id, '127.0.0.1', 'poll-load')).token);
  const invoices = Number((await db.kysely.selectFrom('invoices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  await app.listen({ port: 0, host: '127.0.0.1' });
  send({ port: app.server.address().port, tokens, invoices, dialect: db.dialect });
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    await app.close();
    if (schema) await db.kysely.schema.dropSchema(schema).cascade().execute();
    await db.close();
    process.exit(0);
  });
}

function start(kind, users) {
  const prof = kind === 'app' && process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
  const child = fork(new URL(import.meta.url).pathname, ['--serve', kind, String(users)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...prof] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ ...m, child }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
}

async function run(target, users, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const calls = ['/api/miswf/workflow/todo', '/api/invoice/billing-cancellation-count', '/api/useronline/heartBeat'];
  const times = [];
  let errors = 0;
  let dropped = 0;
  let out = 0;
  const post = (p, token) =>
    new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: target.port, path: p, method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-token': token } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on("end", () => {
          const good = res.statusCode === 200 && body.includes('"code":20000');
          if (!good && !errors) console.error(`${p}: ${res.statusCode} ${body.slice(0, 200)}`);
          resolve(good);
        });
      });
      req.on('error', () => resolve(false));
      req.end('{}');
    });
  const end = performance.now() + seconds * 1000;
  const timers = [];
  const pending = new Set();
  // Open loop: every user fires its three calls once a second, whatever the answers take; latency
  // counts from the moment a call was due (a server that falls behind shows as queueing).
  target.tokens.slice(0, users).forEach((token) => {
    const tick = () => {
      const due = performance.now();
      if (due >= end) return;
      for (const c of calls) {
        if (out >= MAX_OUT) {
          dropped++;
          continue;
        }
        out++;
        const p = post(c, token).then((okay) => {
          out--;
          if (okay) times.push(performance.now() - due);
          else errors++;
        });
        pending.add(p);
        p.finally(() => pending.delete(p));
      }
      timers.push(setTimeout(tick, 1000));
    };
    timers.push(setTimeout(tick, Math.random() * 1000));
  });
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  // The answers still out: at most 30 s more.
  await Promise.race([Promise.all([...pending]), new Promise((r) => setTimeout(r, 30_000))]);
  const elapsed = (performance.now() - t0) / 1000;
  timers.forEach(clearTimeout);
  agent.destroy();
  times.sort((a, b) => a - b);
  const pct = (q) => (times.length ? times[Math.min(times.length - 1, Math.floor(q * times.length))] : NaN);
  return { n: times.length, rps: times.length / elapsed, p50: pct(0.5), p99: pct(0.99), max: times[times.length - 1] ?? NaN, errors, dropped, late: out };
}

async function main() {
  const users = Number(process.argv[2] ?? 200);
  const seconds = Number(process.argv[3] ?? 10);
  const rounds = Number(process.argv[4] ?? 2);
  const [hello, app] = [await start('hello', users), await start('app', users)];
  console.log(`poll-load: ${users} users × 3 calls/s for ${seconds} s, ${rounds} rounds interleaved after a 5 s warm-up each; server ${path.relative(process.cwd(), dist)} on ${app.dialect} (${app.invoices} invoices); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  console.log('| target | round | answered | req/s | p50 ms | p99 ms | max ms | errors | dropped | p99 ÷ hello p99 | req/s ÷ hello |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
  // Warm-up, not reported: JIT, the statement cache, the first presence writes of 200 fresh sessions.
  await run(hello, users, 5);
  await run(app, users, 5);
  for (let round = 1; round <= rounds; round++) {
    const h = await run(hello, users, seconds);
    console.log(`| hello-world Fastify | ${round} | ${h.n} | ${h.rps.toFixed(0)} | ${f(h.p50)} | ${f(h.p99)} | ${f(h.max)} | ${h.errors} | ${h.dropped} | 1 | 1 |`);
    const a = await run(app, users, seconds);
    console.log(`| server (${app.dialect}) | ${round} | ${a.n} | ${a.rps.toFixed(0)} | ${f(a.p50)} | ${f(a.p99)} | ${f(a.max)} | ${a.errors} | ${a.dropped} | ${(a.p99 / h.p99).toFixed(1)} | ${(a.rps / h.rps).toFixed(2)} |`);
  }
  hello.child.kill();
  app.child.send('stop');
  await new Promise((r) => app.child.once('exit', r));
}
