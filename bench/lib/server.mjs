/** Starts the built server (apps/server/bundle/main.js, what `npm start` runs) on a free port with a temp DATA_DIR and the demo company. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverMain = path.join(root, 'apps/server/bundle/main.js');

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; null elsewhere). */
export function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Spawns the server (or `main`, another script) and resolves { child, baseURL, ms } once `probe` answers 200 (ms from spawn). */
export async function startServer({ dataDir, port, probe = '/version.json', env = {}, main = serverMain }) {
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  port ??= await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'warn', DATABASE_URL: '', LOGIN_RATE_LIMIT: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  // START_TIMEOUT_S: a first start creates and seeds the database, which takes minutes on a loaded machine.
  const timeoutS = Number(process.env.START_TIMEOUT_S ?? 120);
  const until = Date.now() + timeoutS * 1000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(baseURL + probe);
      if (res.status === 200) return { child, baseURL, ms: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not answer ${probe} within ${timeoutS} s (START_TIMEOUT_S):\n${output}`);
}

export async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
