#!/usr/bin/env node
/**
 * The server's build (`npm run build -w @zhyy/server`, scripts/build-if-stale.mjs):
 * 1. tsc -p tsconfig.build.json -> dist/: one .js per source module (the benches import single modules
 *    from it). Arguments are passed on to tsc (`--noCheck` from `npm run build -- --no-check`).
 * 2. esbuild -> bundle/: what `npm start`, `npm run seed`, backup and restore run (issue 30, cold start).
 *    The server's own code, the shared package, Kysely, zod and the zod type provider are bundled, so
 *    Node's ESM loader reads a few files instead of about 840 modules; every other package stays an
 *    ordinary import from node_modules (native addons, the heavy lazy ones, Fastify and its plugins).
 *    `splitting` keeps each dynamic import() a chunk of its own, loaded when first used. Every entry
 *    point and chunk lands in bundle/ itself (no subfolders): config.ts finds the web client at
 *    ../../web/dist from there as from dist/, and platform/worker-thread.ts finds the workers by the
 *    names below.
 *   node build.mjs [tsc options]        node build.mjs --bundle-only=DIR
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Bundle entry name -> source. The workers' names are platform/worker-thread.ts's WORKER_SOURCES. */
export const ENTRIES = {
  main: 'src/main.ts',
  'seed-cli': 'src/seed/cli.ts',
  'backup-cli': 'src/backup/cli.ts',
  'read-worker': 'src/read-worker.ts',
  'xlsx-worker': 'src/platform/xlsx-worker.ts',
  'recognition-worker': 'src/modules/income/intake/recognition/worker.ts',
};

/** Packages bundled in (pure ES modules, many files each); any other package is left external. */
export const BUNDLED_PACKAGES = new Set(['@zhyy/shared', 'kysely', 'zod', 'fastify-type-provider-zod']);

const packageName = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** Leaves every bare import outside BUNDLED_PACKAGES to Node at run time. */
const externals = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED_PACKAGES.has(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function bundle(outdir = path.join(here, 'bundle')) {
  const result = await esbuild.build({
    absWorkingDir: here,
    entryPoints: ENTRIES,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: 'tsconfig.build.json',
    // The shared package from its sources (its exports' `source` condition, as tsx and Vitest read it), so the
    // bundle does not wait for packages/shared/dist: the cold-start test bundles a fresh checkout before any build.
    conditions: ['source'],
    // platform/worker-thread.ts: the workers are beside the chunk that starts them.
    define: { ZHYY_BUNDLE: 'true' },
    plugins: [externals],
    // Class and function names stay as written (error names, logs) although modules share one scope.
    keepNames: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  // Files of an earlier build go after this one is written (not before: a server already running keeps
  // finding every chunk whose contents did not change).
  const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.resolve(here, f)));
  for (const name of fs.readdirSync(outdir)) if (!written.has(path.join(outdir, name))) fs.rmSync(path.join(outdir, name), { recursive: true, force: true });
  // A CommonJS module bundled into ES modules cannot require() an external package (esbuild's __require throws).
  for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
    if (fs.readFileSync(path.join(here, file), 'utf8').includes('__require(')) throw new Error(`${file}: a bundled module uses require(); leave its package external`);
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `--bundle-only=DIR` (test/cold-start-imports.test.ts): only the bundle, into DIR (under apps/server, so its packages resolve).
  const only = process.argv.find((a) => a.startsWith('--bundle-only='));
  if (only) {
    await bundle(path.resolve(only.slice('--bundle-only='.length)));
    process.exit(0);
  }
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', ...process.argv.slice(2)], { cwd: here, stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  await bundle();
}
