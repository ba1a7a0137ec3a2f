#!/usr/bin/env node
/**
 * `npm test`: every test, in order, exiting non-zero on any failure.
 *   1. type check (shared, server, web, e2e: four compilers side by side)
 *   2. unit and API tests (Vitest projects: shared, api-sqlite, api-postgres when DATABASE_URL_TEST is set, web)
 *   3. build (shared, server, web client)
 *   4. browser tests in headless Chromium against the built server with its demo company, once at
 *      1366×768; the tests whose result depends on the size visit the other sizes themselves
 * Ends with a table of each stage's seconds and one line "N passed, N failed" (docs/testing.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// Each failed test by file and name, printed again at the very end: CI keeps only the tail of the output.
const failedTests = [];

/** Seconds each stage took, printed at the end. */
const stages = [];
const started = Date.now();
function timed(stage, fn) {
  const t0 = Date.now();
  const out = fn();
  const done = () => stages.push([stage, (Date.now() - t0) / 1000]);
  if (out instanceof Promise) return out.finally(done);
  done();
  return out;
}

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  if (!ok) failures.push(title);
  return ok;
}

/**
 * Like run, but the output is also kept (its last 4 MB), so that errors reported outside any test
 * (Vitest's "Unhandled Errors", a failing global set-up or teardown) can be repeated at the end.
 */
function runKept(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['inherit', 'pipe', 'pipe'] });
    let kept = '';
    const keep = (d, to) => {
      to.write(d);
      kept = (kept + d).slice(-4_000_000);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => keep(d, process.stdout));
    child.stderr.on('data', (d) => keep(d, process.stderr));
    child.on('close', (code) => {
      const ok = code === 0;
      if (!ok) failures.push(title);
      resolve({ ok, output: kept });
    });
  });
}

/** Vitest's reports of errors outside tests, without colours, a few lines each. */
function errorsOutsideTests(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = plain.split('\n');
  const found = [];
  lines.forEach((line, i) => {
    if (/Unhandled (Error|Rejection)|Error: .*(globalSetup|teardown)|failed to (load|start)|Test Files .*failed|Errors +\d+ error/i.test(line)) {
      found.push(lines.slice(i, i + 12).join('\n'));
    }
  });
  return found.slice(0, 6);
}

/** Several commands side by side (each single-threaded, like tsc); their output is printed whole, one after another. */
async function runTogether(jobs) {
  const results = await Promise.all(
    jobs.map(
      ({ title, cmd, args }) =>
        new Promise((resolve) => {
          const child = spawn(cmd, args, { cwd: root, env: process.env });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('close', (code) => resolve({ title, cmd, args, code, out }));
        }),
    ),
  );
  for (const r of results) {
    console.log(`\n=== ${r.title}: ${r.cmd} ${r.args.join(' ')}${r.code === 0 ? ' (ok)' : ''}`);
    if (r.out.trim()) console.log(r.out.trimEnd());
    if (r.code !== 0) failures.push(r.title);
  }
}

function firstLine(messages) {
  const text = (messages ?? []).filter(Boolean).join('\n');
  return text.split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '(no message)';
}

async function vitest(title, args, env = {}) {
  const out = path.join(tmp, `${title.replace(/\W+/g, '-')}.json`);
  const { ok, output } = await runKept(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
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
    if (!ok && r.numFailedTests === 0) {
      // Nothing failed inside a test, yet Vitest exited non-zero: an error outside the tests.
      totals.failed += 1;
      const errors = errorsOutsideTests(output);
      failedTests.push(`${title} · an error outside the tests (exit code non-zero, no failed test)${errors.length ? `\n${errors.map((e) => e.replace(/^/gm, '    ')).join('\n    ⋯\n')}` : ''}`);
    }
    if (r.numTotalTests === 0) {
      console.error(`${title}: no test ran`);
      failures.push(`${title} (no tests)`);
    }
  } catch {
    totals.failed += 1;
    const errors = errorsOutsideTests(output);
    failedTests.push(`${title} · no report written${errors.length ? `\n${errors.map((e) => e.replace(/^/gm, '    ')).join('\n    ⋯\n')}` : ''}`);
  }
  return ok;
}

if (process.env.DATABASE_URL_TEST) console.log(`API tests run on SQLite and on PostgreSQL (${process.env.DATABASE_URL_TEST.replace(/\/\/[^@]*@/, '//')})`);
else console.log('API tests run on SQLite (set DATABASE_URL_TEST=postgres://... to run them on PostgreSQL too)');

await timed('type checks', () =>
  runTogether([
    { title: 'type check shared', cmd: 'npx', args: ['tsc', '-p', 'packages/shared', '--noEmit'] },
    { title: 'type check server', cmd: 'npx', args: ['tsc', '-p', 'apps/server', '--noEmit'] },
    { title: 'type check web', cmd: 'npx', args: ['tsc', '-p', 'apps/web', '--noEmit'] },
    { title: 'type check e2e', cmd: 'npx', args: ['tsc', '-p', 'e2e', '--noEmit'] },
    { title: 'dependency check', cmd: 'npm', args: ['run', '--silent', 'depcheck'] },
  ]),
);
await timed('unit and API tests', () => vitest('unit and API tests', []));
// The sources were type-checked in the first stage: the build emits them without checking again.
const built = timed('build', () => run('build', 'npm', ['run', 'build', '--', '--no-check']));
if (built) {
  // Once, at 1366×768 (browser.ts DEFAULT_VIEWPORT): layout.e2e.ts, invoice-formats.e2e.ts and the
  // shell's menus visit 1440×900 (and the shell its mobile width) themselves.
  await timed('browser tests', () => vitest('browser tests', ['-c', 'e2e/vitest.config.ts']));
} else failures.push('browser tests (not run: the build failed)');

console.log('\nSeconds by stage:');
for (const [stage, secs] of [...stages, ['whole run', (Date.now() - started) / 1000]]) console.log(`  ${stage.padEnd(20)} ${secs.toFixed(0).padStart(6)}`);
console.log('');
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}\n`);
if (failures.length) console.log(`Failed stages: ${failures.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failures.length || totals.failed ? 1 : 0);
