/**
 * Starts the built server (apps/server/bundle/main.js, what `npm start` runs) on a free port with a fresh data directory, so it
 * loads the demo company. The global setup starts the one every browser test shares; a test that needs
 * the server otherwise configured (the tax simulator's clock) starts one of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface E2eServer {
  baseURL: string;
  /** The server's DATA_DIR (its SQLite database is platform.db there). */
  dataDir: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  // The first start seeds the whole demo company (about 30 s on a quiet 2-core machine, more under load).
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within 60 s:\n${log()}`);
}

/** Starts a server with the demo company; `env` is added to (or overrides) the usual settings. */
export async function startServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const main = path.join(root, 'apps/server/bundle/main.js');
  if (!fs.existsSync(main)) throw new Error('apps/server/bundle/main.js is missing: run `npm run build` first');
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-e2e-'));
  // Serve a copy of the web build, so a rebuild while the tests run cannot pull files away under them.
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(path.join(root, 'apps/web/dist'), webDist, { recursive: true });
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: webDist, DEMO: '1', LOG_LEVEL: 'warn', DATABASE_URL: '', LOGIN_RATE_LIMIT: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitFor(`${baseURL}/version.json`, child, () => output);
  return {
    baseURL,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}
