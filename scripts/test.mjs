#!/usr/bin/env node
/**
 * `npm test`: every test, in order, exiting non-zero on any failure.
 *   1. type check (shared, server, web, e2e)
 *   2. unit and API tests (Vitest projects: shared, api-sqlite, api-postgres when DATABASE_URL_TEST is set, web)
 *   3. build (shared, server, web client)
 *   4. browser tests in headless Chromium against the built server with its demo company, at 1440×900
 *      and again at 1366×768
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
// Each failed test by file and name, printed again at the very end: CI keeps only the tail of the output.
const failedTests = [];

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  if (!ok) failures.push(title);
  return ok;
}

function firstLine(messages) {
  const text = (messages ?? []).filter(Boolean).join('\n');
  return text.split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '(no message)';
}

function vitest(title, args, env = {}) {
  const out = path.join(tmp, `${title.replace(/\W+/g, '-')}.json`);
  const ok = run(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  try {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      const where = path.relative(root, file.name);
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed') failedTests.push(`${title} · ${where} › ${t.fullName}\n    ${firstLine(t.failureMessages)}`);
      }
      // A file that failed to load has no assertions, only its message.
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failedTests.push(`${title} · ${where}\n    ${firstLine([file.message])}`);
      }
    }
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
if (built) {
  vitest('browser tests', ['-c', 'e2e/vitest.config.ts']);
  // Again on a 1366×768 laptop screen (issue 12). layout.e2e.ts and invoice-formats.e2e.ts already
  // visit both sizes themselves, so this pass leaves them out.
  const sizeAware = ['layout', 'invoice-formats'].flatMap((f) => ['--exclude', `**/${f}.e2e.ts`]);
  vitest('browser tests at 1366×768', ['-c', 'e2e/vitest.config.ts', ...sizeAware], { E2E_VIEWPORT: '1366x768' });
} else failures.push('browser tests (not run: the build failed)');

console.log('');
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}\n`);
if (failures.length) console.log(`Failed stages: ${failures.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failures.length || totals.failed ? 1 : 0);
