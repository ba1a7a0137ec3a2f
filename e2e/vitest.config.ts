/** Browser tests: headless Chromium (Debian's /usr/bin/chromium) against the built server with its demo company. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: path.dirname(fileURLToPath(import.meta.url)),
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60000,
    hookTimeout: 60000,
    // expect.poll waits up to 10 s (the default 1 s is shorter than a page chunk's first load on a busy
    // 2-core machine); a poll still fails the moment its deadline passes without the expected state.
    expect: { poll: { timeout: 10000, interval: 100 } },
    // One browser page at a time: the machine has 2 cores, and the server is shared.
    fileParallelism: false,
  },
});
