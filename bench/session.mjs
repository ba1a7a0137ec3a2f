#!/usr/bin/env node
/**
 * Benchmark of the platform's hot path: resolving X-Token on every call, and sign-in (argon2id).
 * Runs the built server in-process (npm run build first) on a fresh SQLite database, or on
 * PostgreSQL with DATABASE_URL. Prints figures; asserts nothing.
 *   node bench/session.mjs [calls=3000]
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/dist/app.js';
import { loadConfig } from '../apps/server/dist/config.js';
import { migrate, openDatabase } from '../apps/server/dist/db/index.js';
import { seedDemo } from '../apps/server/dist/seed/index.js';

const calls = Number(process.argv[2] ?? 3000);
const dir = path.join(os.tmpdir(), `zhyy-bench-${process.pid}`);
const db = openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { sqlitePath: path.join(dir, 'platform.db') });
await migrate(db);
await seedDemo(db);
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', LOGIN_RATE_LIMIT: '100000' }, []), db);

const post = (url, body, token) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, payload: JSON.stringify(body) });

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const loginTimes = [];
let token = '';
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  const res = await post('/api/account/login', { name: 'demo5', password: 'demo123' });
  loginTimes.push(performance.now() - t);
  token = res.json().r.token;
}

const times = [];
const started = performance.now();
for (let i = 0; i < calls; i++) {
  const t = performance.now();
  const res = await post('/api/account/userinfo', {}, token);
  if (res.statusCode !== 200) throw new Error(`userinfo failed: ${res.body}`);
  times.push(performance.now() - t);
}
const elapsed = (performance.now() - started) / 1000;

console.log(`database: ${db.dialect}`);
console.log(`sign-in (argon2id 19 MiB, t=2): median ${pct(loginTimes, 50).toFixed(1)} ms, p95 ${pct(loginTimes, 95).toFixed(1)} ms over ${loginTimes.length}`);
console.log(`userinfo (token -> session -> roles): ${calls} calls, ${(calls / elapsed).toFixed(0)} calls/s sequential, median ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`);
await app.close();
await db.close();
