/**
 * Starts one of the server's worker threads, however the server runs:
 * - the TypeScript sources under tsx (the tests, `npm run dev`): the worker loads them through tsx;
 * - tsc's module files (apps/server/dist, the benches): the worker's .js beside the other modules;
 * - the bundle (apps/server/bundle, `npm start`; apps/server/build.mjs): esbuild writes every entry
 *   point and every shared chunk into that one folder, each worker under its name below, so the code
 *   asking for a worker, wherever esbuild put it, finds the worker in its own folder.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Replaced by `true` in the bundle (esbuild's `define`); not declared anywhere else. */
declare const ZHYY_BUNDLE: boolean | undefined;
const BUNDLED = typeof ZHYY_BUNDLE !== 'undefined' && ZHYY_BUNDLE;

/** Each worker's name in the bundle -> its source under apps/server/src (build.mjs lists the same). */
export const WORKER_SOURCES = {
  'read-worker': 'read-worker',
  'xlsx-worker': 'platform/xlsx-worker',
  'recognition-worker': 'modules/income/intake/recognition/worker',
} as const;
export type WorkerName = keyof typeof WORKER_SOURCES;

/** Where the worker's file is: this module is src/platform/*.ts or dist/platform/*.js, or a chunk in the bundle's folder. */
export function workerUrl(name: WorkerName): URL {
  if (BUNDLED) return new URL(`./${name}.js`, import.meta.url);
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`../${WORKER_SOURCES[name]}${ext}`, import.meta.url);
}

export function startWorker(name: WorkerName, options: WorkerOptions): Worker {
  const url = workerUrl(name);
  return url.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(url.href)}); })`, { ...options, eval: true, execArgv: ['--conditions=source'] })
    : new Worker(url, options);
}
