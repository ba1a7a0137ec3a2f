/**
 * Starts the server every browser test shares (./server.ts); the tests talk to it through
 * inject('baseURL').
 */
import type { TestProject } from 'vitest/node';
import { startServer, type E2eServer } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's DATA_DIR (its SQLite database is platform.db there). */
    dataDir: string;
  }
}

let server: E2eServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startServer();
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', server.dataDir);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
