/**
 * The in-process server the query benches share (bench/invoice-ledger.mjs, bench/income-pool.mjs): the
 * built server (SERVER_DIST, default apps/server/dist) on DATA_DIR or DATABASE_URL, migrated, its
 * background jobs stopped, routes called through app.inject as one signed-in demo user, and a timer
 * that prints a Markdown row of the median and max of `runs` runs after one warm-up.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..', process.env.SERVER_DIST ?? 'apps/server/dist');
/** Imports a module of the built server by its path under dist. */
export const load = (p) => import(pathToFileURL(path.join(dist, p)).href);

export async function openBench({ login, runs }) {
  const { buildApp } = await load('app.js');
  const { loadConfig } = await load('config.js');
  const { migrate, openDatabase } = await load('db/index.js');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', LOGIN_RATE_LIMIT: '100000' }, []);
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'platform.db') });
  await migrate(db);
  const app = await buildApp(config, db);
  await app.invoiceJob.stop();
  await app.incomeJob.stop();
  const post = async (url, body, token) => {
    const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, payload: JSON.stringify(body) });
    const json = res.json();
    if (json.code !== 20000) throw new Error(`${url}: ${json.code} ${json.message}`);
    return json.r;
  };
  const token = (await post('/api/account/login', { name: login, password: 'demo123' })).token;
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
  return { app, db, k: db.kysely, post, token, median, time };
}
