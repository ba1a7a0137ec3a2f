#!/usr/bin/env node
/**
 * `npm test`: every test, in order, exiting non-zero on any failure.
 *   1. type check (shared, server, web, e2e)
 *   2. unit and API tests (Vitest projects: shared, api-sqlite, api-postgres when DATABASE_URL_TEST is set, web)
 *   3. build (shared, server, web client)
 *   4. browser tests in headless Chromium against the built server with its demo company
 * Ends with one line "N passed, N failed".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  if (!ok) failures.push(title);
  return ok;
}

function vitest(title, args) {
  const out = path.join(tmp, `${title.replace(/\W+/g, '-')}.json`);
  const ok = run(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  try {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (!ok && r.numFailedTests === 0) totals.failed += 1; // a suite that failed to load
    if (r.numTotalTests === 0) {
      console.error(`${title}: no test ran`);
      failures.push(`${title} (no tests)`);
    }
  } catch {
    totals.failed += 1;
  }
  return ok;
}

if (process.env.DATABASE_URL_TEST) console.log(`API tests run on SQLite and on PostgreSQL (${process.env.DATABASE_URL_TEST.replace(/\/\/[^@]*@/, '//')})`);
else console.log('API tests run on SQLite (set DATABASE_URL_TEST=postgres://... to run them on PostgreSQL too)');

run('type check', 'npx', ['tsc', '-p', 'packages/shared', '--noEmit']);
run('type check server', 'npx', ['tsc', '-p', 'apps/server', '--noEmit']);
run('type check web', 'npx', ['tsc', '-p', 'apps/web', '--noEmit']);
run('type check e2e', 'npx', ['tsc', '-p', 'e2e', '--noEmit']);
vitest('unit and API tests', []);
const built = run('build', 'npm', ['run', 'build']);
if (built) vitest('browser tests', ['-c', 'e2e/vitest.config.ts']);
else failures.push('browser tests (not run: the build failed)');

console.log('');
if (failures.length) console.log(`Failed stages: ${failures.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failures.length || totals.failed ? 1 : 0);
