/**
 * One Vitest run for every unit and API test. The PostgreSQL project runs the same API suite again
 * when DATABASE_URL_TEST is set (CI sets it when a server answers on 127.0.0.1:5432).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pg = process.env.DATABASE_URL_TEST;
// Tests import the shared package's TypeScript sources. An alias, not the `source` export condition:
// replacing Vite's condition list would resolve dependencies such as zod to their CommonJS builds,
// a second instance beside the ESM one that Fastify's plugins load.
const here = path.dirname(fileURLToPath(import.meta.url));
const resolve = { alias: { '@zhyy/shared': path.join(here, 'packages/shared/src/index.ts') } };

// The API projects share a worker process between files (isolate: false): each file still gets its own
// database and server (helpers.ts), and the server's modules are loaded once per worker instead of once
// per file, which was a quarter of the run's time. Spies are restored after every test so none leaks
// into the next file. docs/testing.md has the figures.
const api = { isolate: false, restoreMocks: true, globalSetup: ['apps/server/test/global-setup.ts'] };

/**
 * A web file runs in a child process of its own, which lives on for a moment after the file's jsdom
 * environment is gone. React work queued before (a setImmediate of its scheduler) that runs in that moment
 * meets no `window` and throws "window is not defined": an unhandled error that fails the run although every
 * test passed (stops 33 and 34, about one run in three). testSetup.ts lets the file's pending work finish
 * first; this drops only what is left of that one kind (a ReferenceError for window or document thrown
 * inside react-dom, which in a browser cannot happen) and prints it, so it stays visible. Any other
 * unhandled error still fails the run. docs/testing.md "Errors after a web file".
 */
function afterTeardownOnly(error: { name?: string; message?: string; stack?: string }): boolean | void {
  const afterTeardown =
    error.name === 'ReferenceError' && /^(window|document) is not defined$/.test(error.message ?? '') && /react-dom/.test(error.stack ?? '');
  if (!afterTeardown) return;
  console.warn(`[web] React work after a file's environment was closed, not counted as a failure: ${error.message}`);
  return false;
}

export default defineConfig({
  test: {
    onUnhandledError: afterTeardownOnly,
    // Two workers on the 2-core machine: a file waiting on PostgreSQL or a worker thread leaves the
    // other core to the next file (docs/testing.md).
    maxWorkers: 2,
    projects: [
      { resolve, test: { name: 'shared', include: ['packages/shared/test/**/*.test.ts'] } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] } },
      {
        resolve,
        test: {
          name: 'api-sqlite',
          include: ['apps/server/test/**/*.test.ts'],
          env: { TEST_DB: 'sqlite' },
          ...api,
          // A guard against a hang, not a speed assertion: the heaviest API tests (a 100,000-row export,
          // a backup while writing) take 4 s on a quiet machine and over 20 s on a loaded 2-core one; the
          // files that seed the demo at full volume (income-demo: 21,600 invoices) take longer in their
          // beforeAll while another file runs beside them.
          testTimeout: 60000,
          hookTimeout: 180000,
        },
      },
      ...(pg
        ? [
            {
              resolve,
              test: {
                name: 'api-postgres',
                include: ['apps/server/test/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
                ...api,
                testTimeout: 60000,
                hookTimeout: 180000,
              },
            },
          ]
        : []),
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testSetup.ts'],
          // Rendering antd in jsdom while the API projects run beside it on 2 cores can take more than
          // Vitest's default 5 s; the limit guards against a hang, it is not a speed assertion.
          testTimeout: 30000,
        },
      },
    ],
  },
});
