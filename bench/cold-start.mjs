#!/usr/bin/env node
/**
 * Cold start of the built server (npm run build first): ms from spawning `node apps/server/bundle/main.js`
 * to the first 200 of /version.json, and the CPU time the server used until then. The first run creates
 * the database and loads the demo company (reported apart); the next runs start on that database.
 * The anchor is a Fastify hello world (bench/lib/hello-server.mjs) started the same way, alternately with
 * the server in the same run, so both see the same load on a shared machine: min / median / max of
 * each, and of the ratio server ÷ hello world of each pair. Prints figures; asserts nothing.
 *   node bench/cold-start.mjs [runs=5]           DEMO=0 node bench/cold-start.mjs (the first start without the demo company)
 *   SERVER_MAIN=/elsewhere/apps/server/dist/main.js node bench/cold-start.mjs   (another build: tsc's module files, the commit before a change)
 */
import fs from 'node:fs';
import path from 'node:path';
import { root, startServer, stopServer, tempDir } from './lib/server.mjs';

const runs = Number(process.argv[2] ?? 5);
const dataDir = tempDir('zhyy-cold-');
const hello = path.join(root, 'bench/lib/hello-server.mjs');
const serverMain = process.env.SERVER_MAIN ? path.resolve(process.env.SERVER_MAIN) : undefined;
// DEMO=0: the first start makes only the administrator instead of the demo company (quicker on a loaded machine).
const env = process.env.DEMO === '0' ? { DEMO: '0' } : {};
const server = { dataDir, env, ...(serverMain ? { main: serverMain } : {}) };
const sorted = (xs) => xs.slice().sort((a, b) => a - b);
const mmm = (xs, digits = 0) => {
  const s = sorted(xs);
  return `${s[0].toFixed(digits)} / ${s[Math.floor(s.length / 2)].toFixed(digits)} / ${s[s.length - 1].toFixed(digits)}`;
};

try {
  const first = await startServer(server);
  await stopServer(first.child);
  console.log(`first start (migrate + ${env.DEMO === '0' ? 'administrator' : 'demo company'}): ${first.ms.toFixed(0)} ms`);
  const app = { ms: [], cpu: [] };
  const anchor = { ms: [], cpu: [] };
  const ratio = { ms: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    // Alternating which starts first, so neither always follows the other's exit.
    const order = i % 2 ? ['hello', 'app'] : ['app', 'hello'];
    const got = {};
    for (const which of order) {
      const s = await startServer(which === 'app' ? server : { dataDir, main: hello });
      got[which] = s;
      await stopServer(s.child);
    }
    app.ms.push(got.app.ms);
    app.cpu.push(got.app.cpuMs ?? NaN);
    anchor.ms.push(got.hello.ms);
    anchor.cpu.push(got.hello.cpuMs ?? NaN);
    ratio.ms.push(got.app.ms / got.hello.ms);
    ratio.cpu.push((got.app.cpuMs ?? NaN) / (got.hello.cpuMs ?? NaN));
  }
  console.log(`${runs} runs, min / median / max:`);
  console.log(`  server, ms to first 200 of /version.json: ${mmm(app.ms)}   (${app.ms.map((t) => t.toFixed(0)).join(', ')})`);
  console.log(`  Fastify hello world, same:                 ${mmm(anchor.ms)}`);
  console.log(`  ratio server / hello world, each pair:    ${mmm(ratio.ms, 2)}`);
  // CPU time is less sensitive than wall time to other processes sharing the machine.
  console.log(`  server CPU time until then, ms:            ${mmm(app.cpu)}`);
  console.log(`  hello world CPU time, ms:                  ${mmm(anchor.cpu)}`);
  console.log(`  CPU ratio, each pair:                      ${mmm(ratio.cpu, 2)}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
