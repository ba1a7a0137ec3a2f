#!/usr/bin/env node
/**
 * `npm start` (prestart), `npm run seed`, `backup`, `restore`: build the shared package, the server
 * and the web client only when their sources changed since their last build. Each build leaves a
 * stamp in its dist folder (dist/.build-stamp: a SHA-256 over the paths and contents of its inputs);
 * a target is rebuilt when the stamp is missing or differs, or its output entry is gone. The server
 * and the client count the shared sources (and package-lock.json) among their inputs, so a change
 * there rebuilds them too. Test files are not inputs.
 *
 *   node scripts/build-if-stale.mjs            # all three, in order
 *   node scripts/build-if-stale.mjs shared server
 *   node scripts/build-if-stale.mjs --force    # build regardless (same as npm run build)
 *   npm run build -- --no-check                # npm test: emit shared and server without type-checking again
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STAMP = '.build-stamp';

const COMMON = ['package-lock.json', 'tsconfig.base.json'];
const SHARED = ['packages/shared/src', 'packages/shared/package.json', 'packages/shared/tsconfig.build.json'];

/** The workspaces in build order: inputs (files or folders, relative to the root), dist folder, the file a build must leave there and any other (relative to the root). */
export const TARGETS = [
  { key: 'shared', workspace: '@zhyy/shared', inputs: [...COMMON, ...SHARED], dist: 'packages/shared/dist', entry: 'index.js' },
  {
    key: 'server',
    workspace: '@zhyy/server',
    inputs: [...COMMON, ...SHARED, 'apps/server/src', 'apps/server/package.json', 'apps/server/tsconfig.build.json', 'apps/server/build.mjs'],
    dist: 'apps/server/dist',
    entry: 'main.js',
    // apps/server/build.mjs also bundles the server there (what npm start runs).
    outputs: ['apps/server/bundle/main.js'],
  },
  {
    key: 'web',
    workspace: '@zhyy/web',
    inputs: [...COMMON, ...SHARED, 'apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/package.json', 'apps/web/tsconfig.json', 'apps/web/vite.config.ts', 'apps/web/vite-compress.ts', 'apps/web/vite-preload.ts', 'apps/web/vite-chunk-guard.ts'],
    dist: 'apps/web/dist',
    entry: 'index.html',
  },
];

const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

/** Every input file under `rel` (a file or a folder), sorted, as root-relative paths with forward slashes. */
function files(root, rel) {
  const abs = path.join(root, rel);
  let st;
  try {
    st = fs.statSync(abs);
  } catch {
    return [];
  }
  if (st.isFile()) return [rel];
  const out = [];
  for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...files(root, child));
    else if (e.isFile() && !isTest(e.name)) out.push(child);
  }
  return out.sort();
}

/** SHA-256 over the paths and contents of a target's inputs: the same sources give the same value, whatever their mtimes. */
export function fingerprint(root, inputs) {
  const h = crypto.createHash('sha256');
  for (const rel of [...new Set(inputs.flatMap((i) => files(root, i)))].sort()) {
    h.update(`${rel}\0`);
    h.update(fs.readFileSync(path.join(root, rel)));
    h.update('\0');
  }
  return h.digest('hex');
}

/** Whether a target needs a build, and why. */
export function staleness(root, target) {
  const hash = fingerprint(root, target.inputs);
  const dist = path.join(root, target.dist);
  if (!fs.existsSync(path.join(dist, target.entry)) || (target.outputs ?? []).some((o) => !fs.existsSync(path.join(root, o)))) return { stale: true, reason: 'not built yet', hash };
  let stamp = '';
  try {
    stamp = fs.readFileSync(path.join(dist, STAMP), 'utf8').trim();
  } catch {
    return { stale: true, reason: 'no build stamp', hash };
  }
  return stamp === hash ? { stale: false, reason: 'up to date', hash } : { stale: true, reason: 'sources changed', hash };
}

export function writeStamp(root, target, hash) {
  fs.writeFileSync(path.join(root, target.dist, STAMP), `${hash}\n`);
}

/**
 * `--no-check` (npm test, right after its own type checks of the same sources): the shared package and
 * the server are emitted with tsc's --noCheck, so the suite type-checks them once, not twice.
 */
const noCheck = process.argv.includes('--no-check');
const TSC_TARGETS = new Set(['shared', 'server']);
const npmBuild = (root, target) =>
  spawnSync('npm', ['run', 'build', '-w', target.workspace, ...(noCheck && TSC_TARGETS.has(target.key) ? ['--', '--noCheck'] : [])], { cwd: root, stdio: 'inherit' }).status === 0;

/**
 * Builds the stale targets in order (all of them with `force`); `run(root, target)` builds one and
 * answers whether it succeeded. Stops at the first failure; a stamp is written only after a success.
 */
export function buildIfStale({ root, targets = TARGETS, force = false, run = npmBuild, log = console.log }) {
  const built = [];
  for (const target of targets) {
    const s = staleness(root, target);
    if (!force && !s.stale) {
      log(`${target.workspace}: up to date, not rebuilt`);
      continue;
    }
    log(`${target.workspace}: ${force ? 'build forced' : s.reason}, building`);
    if (!run(root, target)) return { ok: false, built, failed: target.key };
    // The hash taken before the build: a source edited meanwhile makes the next start build again.
    writeStamp(root, target, s.hash);
    built.push(target.key);
  }
  return { ok: true, built };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const keys = args.filter((a) => !a.startsWith('--'));
  const unknown = keys.filter((k) => !TARGETS.some((t) => t.key === k));
  if (unknown.length) {
    console.error(`unknown target ${unknown.join(', ')} (known: ${TARGETS.map((t) => t.key).join(', ')})`);
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const targets = keys.length ? TARGETS.filter((t) => keys.includes(t.key)) : TARGETS;
  const res = buildIfStale({ root, targets, force });
  if (!res.ok) {
    console.error(`build of ${res.failed} failed`);
    process.exit(1);
  }
}
