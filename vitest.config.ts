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

export default defineConfig({
  test: {
    projects: [
      { resolve, test: { name: 'shared', include: ['packages/shared/test/**/*.test.ts'] } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] } },
      {
        resolve,
        test: {
          name: 'api-sqlite',
          include: ['apps/server/test/**/*.test.ts'],
          env: { TEST_DB: 'sqlite' },
          // A guard against a hang, not a speed assertion: the heaviest API tests (a 100,000-row export,
          // a backup while writing) take 4 s on a quiet machine and over 20 s on a loaded 2-core one.
          testTimeout: 60000,
          hookTimeout: 60000,
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
                testTimeout: 60000,
                hookTimeout: 60000,
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
