/**
 * Cold start (issue 30): starting the server loads none of the packages that are slow to load and needed
 * only by some calls (platform/heavy.ts LAZY_PACKAGES: ExcelJS, pdf-lib, fontkit, subset-font, the AWS
 * SDK, archiver, saxes, the image codecs…). A child process (cold-start-child.ts) starts src/main.ts as
 * `npm start` does, on an empty database of this run's engine (the first start's administrator), and
 * lists every module resolved until the first answer; a static import of one of those packages anywhere
 * on the way from main.ts or buildApp() makes this fail, naming the package and the module that imported it.
 * The same for the bundle `npm start` runs (apps/server/build.mjs, made afresh from the sources into a
 * folder of this run): it too loads none of them at start, and no module of the packages it bundles.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LAZY_PACKAGES } from '../src/platform/heavy.js';
import { WORKER_SOURCES } from '../src/platform/worker-thread.js';
import { admin, databaseUrlOf } from './global-setup.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const usePg = process.env.TEST_DB === 'postgres';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-cold-imports-'));
const pgNames: string[] = [];
// Under apps/server, so the bundle's external packages resolve from its node_modules.
const bundleDir = path.join(root, 'apps/server', `.cold-start-bundle-${crypto.randomBytes(4).toString('hex')}`);

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(bundleDir, { recursive: true, force: true });
  for (const name of pgNames) await admin(process.env.DATABASE_URL_TEST!, `drop database if exists ${name} with (force)`);
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/** The package a module path belongs to (its last node_modules segment), or null for the app's own files. */
function packageOf(file: string): string | null {
  const m = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return m ? m[1]! : null;
}

const fileOf = (u: string) => (u.startsWith('file:') ? fileURLToPath(u) : u);

/** Starts src/main.ts, or `serverMain` (a bundle's main.js), on an empty database and traces what it loads. */
async function startAndTrace(serverMain?: string): Promise<{ atStart: Map<string, string>; later: Set<string>; sources: string[] }> {
  const run = crypto.randomBytes(4).toString('hex');
  const trace = path.join(work, `trace-${run}.txt`);
  let databaseUrl = '';
  if (usePg) {
    const pgName = `zhyy_cold_${run}`;
    pgNames.push(pgName);
    await admin(process.env.DATABASE_URL_TEST!, `create database ${pgName}`);
    databaseUrl = databaseUrlOf(process.env.DATABASE_URL_TEST!, pgName);
  }
  const env = {
    ...process.env,
    LOAD_TRACE: trace,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, `data-${run}`),
    SERVER_MAIN: serverMain ?? '',
    DATABASE_URL: databaseUrl,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(work, 'no-web-client'),
    STORAGE_DRIVER: 'local',
  };
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx/esm', path.join(here, 'cold-start-child.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, output).toBe(0);
  const [before, after = ''] = fs.readFileSync(trace, 'utf8').split('--- answered ---\n');
  // Each package loaded, with the first module that imported it (a line: the module, then its importer;
  // require's cache lists CommonJS modules alone).
  const packages = (text: string) => {
    const found = new Map<string, string>();
    for (const line of text.split('\n')) {
      const [file = '', importer = ''] = line.split(' ').map(fileOf);
      const p = packageOf(file);
      if (p && !found.has(p)) found.set(p, path.relative(root, importer));
    }
    return found;
  };
  const atStart = packages(before!);
  const src = path.join(root, 'apps/server/src') + path.sep;
  const sources = [...new Set(before!.split('\n').map((line) => fileOf(line.split(' ')[0] ?? '')).filter((f) => f.startsWith(src)))];
  return { atStart, later: new Set([...packages(after).keys()].filter((p) => !atStart.has(p))), sources };
}

// A child process starting the server (and, for the bundle, esbuild first): more than the default 60 s
// on a loaded machine. A limit, not a measurement.
const CHILD_LIMIT_MS = 240_000;

describe('cold start', () => {
  it('loads none of the slow packages before the first answer; they load at first use', async () => {
    const { atStart, later } = await startAndTrace();
    // The trace sees the server's own packages.
    expect([...atStart.keys()]).toContain('fastify');
    expect([...atStart.keys()]).toContain('kysely');
    expect(LAZY_PACKAGES.filter((p) => atStart.has(p)).map((p) => `${p} (imported by ${atStart.get(p) || 'a CommonJS module'})`)).toEqual([]);
    // And it would see one of them: ExcelJS loaded through platform/heavy.ts after the answer.
    expect([...later]).toContain('exceljs');
  }, CHILD_LIMIT_MS);

  it('the bundle too; it loads none of the packages it bundles, nor a source file', async () => {
    const built = spawnSync(process.execPath, [path.join(root, 'apps/server/build.mjs'), `--bundle-only=${bundleDir}`], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    // Every worker platform/worker-thread.ts starts is an entry point of the bundle, where it looks for it.
    expect(Object.keys(WORKER_SOURCES).filter((name) => !fs.existsSync(path.join(bundleDir, `${name}.js`)))).toEqual([]);
    const { atStart, later, sources } = await startAndTrace(path.join(bundleDir, 'main.js'));
    expect(sources).toEqual([]);
    expect([...atStart.keys()]).toContain('fastify');
    expect(LAZY_PACKAGES.filter((p) => atStart.has(p)).map((p) => `${p} (imported by ${atStart.get(p) || 'a CommonJS module'})`)).toEqual([]);
    expect(['kysely', 'zod', '@zhyy/shared', 'fastify-type-provider-zod'].filter((p) => atStart.has(p))).toEqual([]);
    expect([...later]).toContain('exceljs');
  }, CHILD_LIMIT_MS);
});
