#!/usr/bin/env node
/**
 * Bytes on the wire of the web client (npm run build first; this script builds only the yardstick).
 * Starts the built server with a temp DATA_DIR and the demo company, and measures in headless Chromium
 * with a fresh cache the encoded (compressed) sizes of every response, as the browser receives them:
 *   - /login first load, and /dashboard first load signed in as demo1;
 *   - the extra bytes one page of each area adds after /dashboard (in-app navigation, warm cache);
 *   - the first load (fresh cache, signed in) of each area's landing page (issue 30);
 *   - a plain antd app (bench/plain-antd: a sign-in page, a list page with Layout, Menu, Table, Form,
 *     RangePicker, Modal, Drawer) built now with the same Vite/React/antd and served by the same
 *     installWebClient, and the ratios between the two;
 *   - /login time to usable: ms from navigation start until the page has a text field and a button
 *     (a MutationObserver installed before the page's own scripts), fresh cache, for /login and for the
 *     plain antd sign-in page alternately (RUNS pairs, default 7): min / median / max of each and of
 *     the ratio of each pair. Prints figures; asserts nothing.
 *   node bench/web-bundle.mjs            (Chromium: /usr/bin/chromium or CHROMIUM_PATH; RUNS=7)
 *   SERVER_MAIN=…/dist/main.js WEB_DIST=…/web/dist node bench/web-bundle.mjs   (another build, e.g. the commit before a change)
 *   START_TIMEOUT_S=600 …   (the server's first start seeds the demo company: minutes on a loaded machine; default 120)
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import { installWebClient } from '../apps/server/dist/platform/http.js';
import { freePort, root, startServer, stopServer, tempDir } from './lib/server.mjs';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const AREAS = [
  ['workflow (待办列表)', '/flow/todolist'],
  ['invoice ledger (发票台账)', '/invoice/invoiceaccount/invoice-list'],
  ['system (用户列表)', '/system/userlist'],
];

/** Each area's landing page (the first page of its menu, or the group's redirect), first load signed in. */
const LANDINGS = [
  ['workflow (我的待办)', '/flow/todolist'],
  ['invoice (发票台账)', '/invoice/invoiceaccount/invoice-list'],
  ['income (进项发票登记)', '/invoice-entry/list'],
  ['reimbursement (我的报销)', '/reimbursement/my-reimbursement-list'],
  ['cost (成本单台账)', '/cost-management/account'],
  ['tender (合同管理)', '/tender/contract/list'],
  ['system (用户管理)', '/system/userlist'],
];
const RUNS = Number(process.env.RUNS ?? 7);

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const mmm = (xs, digits = 0) => {
  const s = xs.slice().sort((a, b) => a - b);
  return `${s[0].toFixed(digits)} / ${s[Math.floor(s.length / 2)].toFixed(digits)} / ${s[s.length - 1].toFixed(digits)}`;
};

/** Records when the page first has a text field and a button (performance.now(), from navigation start). */
const USABLE = () => {
  window.__usable = null;
  const check = () => {
    if (window.__usable !== null) return;
    if (document.querySelector('input') && document.querySelector('button')) {
      window.__usable = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
};

/** ms to usable of one fresh visit. */
async function timeToUsable(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  await context.addInitScript(USABLE);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__usable !== null, null, { timeout: 60_000 });
  const ms = await page.evaluate(() => window.__usable);
  await context.close();
  return ms;
}

/** Counts encoded bytes (headers + body as received) of every response of a page, through CDP. */
async function meter(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const inflight = new Set();
  let entries = [];
  let lastActivity = Date.now();
  let acceptEncoding = '';
  cdp.on('Network.requestWillBeSent', (e) => {
    urls.set(e.requestId, e.request.url);
    inflight.add(e.requestId);
    lastActivity = Date.now();
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    acceptEncoding ||= e.headers['Accept-Encoding'] ?? e.headers['accept-encoding'] ?? '';
  });
  cdp.on('Network.loadingFinished', (e) => {
    inflight.delete(e.requestId);
    lastActivity = Date.now();
    entries.push({ url: urls.get(e.requestId) ?? '', bytes: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    inflight.delete(e.requestId);
    lastActivity = Date.now();
  });
  return {
    /** Waits until no request has been running for `quietMs`. */
    async idle(quietMs = 1500, maxMs = 60_000) {
      const until = Date.now() + maxMs;
      while (Date.now() < until && (inflight.size > 0 || Date.now() - lastActivity < quietMs)) await new Promise((r) => setTimeout(r, 100));
    },
    /** The bytes since the last take: static files apart from API answers. */
    take() {
      const taken = entries;
      entries = [];
      const isStatic = (u) => !new URL(u).pathname.startsWith('/api/');
      const sum = (xs) => xs.reduce((a, x) => a + x.bytes, 0);
      const files = taken.filter((x) => isStatic(x.url));
      return { files: sum(files), api: sum(taken) - sum(files), total: sum(taken), count: files.length, list: files };
    },
    acceptEncoding: () => acceptEncoding,
    /** Counts the quiet period from now (a navigation's requests start a little after it). */
    touch() {
      lastActivity = Date.now();
    },
  };
}

/** In-app navigation (no reload), as a menu click does: React Router follows popstate. */
async function navigateInApp(page, to) {
  await page.evaluate((url) => {
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: window.history.length }, '', url);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, to);
}

async function measureApp(browser, baseURL) {
  const out = {};
  const opts = { baseURL, viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' };

  let context = await browser.newContext(opts);
  let page = await context.newPage();
  let m = await meter(context, page);
  await page.goto('/login');
  await page.getByLabel('用户名').waitFor();
  await m.idle();
  out.login = m.take();
  out.acceptEncoding = m.acceptEncoding();
  await page.getByLabel('用户名').fill('demo1');
  await page.getByLabel('密码', { exact: true }).fill('demo123');
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  const storageState = await context.storageState();
  await context.close();

  // Signed in, fresh cache.
  context = await browser.newContext({ ...opts, storageState });
  page = await context.newPage();
  m = await meter(context, page);
  await page.goto('/dashboard');
  await m.idle();
  out.dashboard = m.take();
  out.areas = [];
  for (const [name, url] of AREAS) {
    m.touch();
    await navigateInApp(page, url);
    await page.waitForURL((u) => u.pathname === url);
    await m.idle(2500);
    out.areas.push({ name, url, ...m.take() });
  }
  await context.close();
  // Each area's landing page as the first page opened (fresh cache, signed in).
  out.landings = [];
  for (const [name, url] of LANDINGS) {
    context = await browser.newContext({ ...opts, storageState });
    page = await context.newPage();
    m = await meter(context, page);
    await page.goto(url);
    await m.idle(2500);
    out.landings.push({ name, url, ...m.take() });
    await context.close();
  }
  return out;
}

async function measurePlain(browser, baseURL) {
  const out = {};
  for (const name of ['login', 'list']) {
    const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const m = await meter(context, page);
    await page.goto(name === 'login' ? '/' : `/${name}.html`);
    await page.locator('.ant-btn').first().waitFor();
    await m.idle();
    out[name] = m.take();
    await context.close();
  }
  return out;
}

async function buildPlain(outDir) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'bench/plain-antd/vite.config.ts'), build: { outDir }, logLevel: 'warn' });
}

const dataDir = tempDir('zhyy-webbench-');
const plainDir = path.join(dataDir, 'plain-antd');
let server;
let plainApp;
let browser;
try {
  console.log('building the plain antd yardstick ...');
  await buildPlain(plainDir);
  plainApp = Fastify({ logger: false });
  plainApp.decorate('buildId', 'plain');
  await installWebClient(plainApp, { webDist: plainDir });
  const plainURL = await plainApp.listen({ port: await freePort(), host: '127.0.0.1' });

  server = await startServer({ dataDir: path.join(dataDir, 'data'), ...(process.env.SERVER_MAIN ? { main: path.resolve(process.env.SERVER_MAIN) } : {}) });
  browser = await chromium.launch({ executablePath, args, headless: true });
  const app = await measureApp(browser, server.baseURL);
  const plain = await measurePlain(browser, plainURL);
  const usable = { app: [], plain: [], ratio: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternating which goes first.
    const order = i % 2 ? ['plain', 'app'] : ['app', 'plain'];
    const got = {};
    for (const which of order) got[which] = await timeToUsable(browser, which === 'app' ? `${server.baseURL}/login` : `${plainURL}/`);
    usable.app.push(got.app);
    usable.plain.push(got.plain);
    usable.ratio.push(got.app / got.plain);
  }

  const row = (label, x, yard) =>
    console.log(`${label.padEnd(34)} ${kib(x.files).padStart(9)} in ${String(x.count).padStart(2)} files${yard ? `  = ${(x.files / yard.files).toFixed(2)} x plain antd (${kib(yard.files)})` : ''}   (+ API ${kib(x.api)})`);
  console.log(`\nAccept-Encoding sent by Chromium: ${app.acceptEncoding}`);
  console.log('static files on the wire (encoded bytes incl. headers), fresh cache:');
  row('/login first load', app.login, plain.login);
  row('/dashboard first load (demo1)', app.dashboard, plain.list);
  console.log('each area after /dashboard (in-app, warm cache):');
  for (const a of app.areas) row(`  + ${a.name}`, a);
  console.log("each area's landing page, first load (fresh cache, signed in):");
  for (const a of app.landings) row(`  ${a.name}`, a, plain.list);
  console.log(`/login time to usable, ${RUNS} fresh visits each, alternating, min / median / max:`);
  console.log(`  /login                ${mmm(usable.app)} ms`);
  console.log(`  plain antd sign-in    ${mmm(usable.plain)} ms`);
  console.log(`  ratio, each pair      ${mmm(usable.ratio, 2)}`);
  console.log('plain antd yardstick:');
  row('  sign-in page', plain.login);
  row('  list page', plain.list);
  if (process.env.VERBOSE) {
    for (const [name, x] of [['login', app.login], ['dashboard', app.dashboard], ...app.areas.map((a) => [a.url, a]), ...app.landings.map((a) => [`first load ${a.url}`, a])]) {
      console.log(`\n${name}:`);
      for (const f of x.list.sort((a, b) => b.bytes - a.bytes)) console.log(`  ${kib(f.bytes).padStart(8)}  ${new URL(f.url).pathname}`);
    }
  }
} finally {
  await browser?.close();
  if (server) await stopServer(server.child);
  await plainApp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
