/**
 * A server on a SQLite file (the test image copied, else migrated and seeded) for the tests of reads off the
 * request thread: on a file, unlike the in-memory clone, the long reads go to worker threads (db/read-pool.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate, openDatabase } from '../src/db/index.js';
import { seedDemo } from '../src/seed/index.js';
import { serverOf, TEST_DEMO, type TestServer } from './helpers.js';

export interface FileServer {
  server: TestServer;
  dir: string;
}

/** The server, in a fresh temporary folder named with `prefix`; `closeFileServer` ends it and removes the folder. */
export async function sqliteFileServer(prefix: string): Promise<FileServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'platform.db');
  const images = inject('testImages');
  if (images?.engine === 'sqlite') fs.copyFileSync(images.demo, file);
  const db = openDatabase({ sqlitePath: file });
  await migrate(db);
  if (!(images?.engine === 'sqlite')) await seedDemo(db, new Date(), TEST_DEMO);
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: path.join(os.tmpdir(), 'zhyy-no-web-client'), LOGIN_RATE_LIMIT: '1000' }, []);
  const app = await buildApp(config, db);
  return { server: serverOf(app, db, () => db.close()), dir };
}

export async function closeFileServer(f: FileServer | undefined): Promise<void> {
  await f?.server.close();
  if (f) fs.rmSync(f.dir, { recursive: true, force: true });
}
