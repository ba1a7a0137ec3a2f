#!/usr/bin/env node
/**
 * Cold start of the built server (npm run build first): ms from spawning `node apps/server/dist/main.js`
 * to the first 200 of /version.json, and the CPU time the server used until then. The first run creates the database and loads the demo company
 * (reported apart); the next runs start on that database. Prints figures; asserts nothing.
 *   node bench/cold-start.mjs [runs=5]
 */
import fs from 'node:fs';
import { startServer, stopServer, tempDir } from './lib/server.mjs';

const runs = Number(process.argv[2] ?? 5);
const dataDir = tempDir('zhyy-cold-');
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const first = await startServer({ dataDir });
  await stopServer(first.child);
  console.log(`first start (migrate + demo company): ${first.ms.toFixed(0)} ms`);
  const times = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const s = await startServer({ dataDir });
    times.push(s.ms);
    cpu.push(s.cpuMs ?? NaN);
    await stopServer(s.child);
  }
  console.log(`cold start to first 200 of /version.json: median ${median(times).toFixed(0)} ms over ${runs} (${times.map((t) => t.toFixed(0)).join(', ')})`);
  // CPU time is less sensitive than wall time to other processes sharing the machine.
  console.log(`CPU time of the server until then: median ${median(cpu).toFixed(0)} ms`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
