/**
 * Seed once, clone per file (docs/testing.md): before an API project's files run, this builds the
 * two databases most test files start from — migrated only, and migrated with the test demo company
 * (TEST_DEMO) — once per run and engine. helpers.ts `startTestServer` then gives each file a private
 * copy of one of them instead of migrating and seeding its own:
 *   - SQLite: the database serialised to a file here; each file deserialises it into a new in-memory
 *     database (a few milliseconds instead of the ~0.7 s a migration and the seed take);
 *   - PostgreSQL: two template databases; each file gets `CREATE DATABASE … TEMPLATE …` of its own
 *     (about 0.5 s instead of ~2 s), dropped when the file closes its server.
 * Each file still owns its database, so isolation is what it was. `TEST_CLONE=0` turns cloning off
 * (every file migrates and seeds as before), for measuring the difference.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { seedDemo } from '../src/seed/index.js';
import { LocalStorage } from '../src/platform/storage/index.js';
import { TEST_DEMO } from './test-demo.js';

/** What the workers are told: where the seeded images are, per engine. */
export interface TestImages {
  engine: 'sqlite' | 'postgres';
  /** SQLite: serialised database files; PostgreSQL: template database names. */
  migrated: string;
  demo: string;
  /** The day the demo was seeded for (ISO); a file started after midnight still sees the same demo. */
  seededAt: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testImages: TestImages | null;
  }
}

const cleanups: Array<() => Promise<void>> = [];

export async function setup(project: TestProject): Promise<void> {
  const engine = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
  if (process.env.TEST_CLONE === '0') return void project.provide('testImages', null);
  const started = Date.now();
  const now = new Date();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zhyy-images-${engine}-`));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  // The demo's files (none at TEST_DEMO's volume: tenderScans false) would go to a folder of this run.
  const storage = new LocalStorage(path.join(dir, 'storage'));
  let images: TestImages;
  if (engine === 'sqlite') {
    const db = openDatabase({ sqlitePath: ':memory:' });
    await migrate(db);
    const migrated = path.join(dir, 'migrated.db');
    fs.writeFileSync(migrated, sqliteOf(db).serialize());
    await seedDemo(db, now, { storage, ...TEST_DEMO });
    const demo = path.join(dir, 'demo.db');
    fs.writeFileSync(demo, sqliteOf(db).serialize());
    await db.close();
    images = { engine, migrated, demo, seededAt: now.toISOString() };
  } else {
    const url = process.env.DATABASE_URL_TEST;
    if (!url) throw new Error('TEST_DB=postgres needs DATABASE_URL_TEST');
    const tag = crypto.randomBytes(4).toString('hex');
    const migrated = `zhyy_tpl_${tag}_migrated`;
    const demo = `zhyy_tpl_${tag}_demo`;
    await dropStaleTemplates(url);
    for (const name of [migrated, demo]) {
      await admin(url, `create database ${name}`);
      cleanups.push(() => admin(url, `drop database if exists ${name} with (force)`));
    }
    for (const [name, seed] of [[migrated, false], [demo, true]] as const) {
      const db = openDatabase({ databaseUrl: databaseUrlOf(url, name) });
      await migrate(db);
      if (seed) await seedDemo(db, now, { storage, ...TEST_DEMO });
      await db.close();
    }
    images = { engine, migrated, demo, seededAt: now.toISOString() };
  }
  project.provide('testImages', images);
  console.log(`[test images] ${engine}: migrated and seeded once in ${Date.now() - started} ms`);
}

export async function teardown(): Promise<void> {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  cleanups.length = 0;
}

function sqliteOf(db: Db): { serialize(): Buffer } {
  // The Kysely dialect wraps better-sqlite3 in the statement cache; the cache keeps the connection.
  if (!db.statements) throw new Error('SQLite test image: no connection to serialise');
  return db.statements.raw;
}

/** The same server URL with another database name. */
export function databaseUrlOf(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function admin(url: string, query: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

/**
 * Templates and clones a run killed before its teardown left behind (an hour old or more: a run on
 * another checkout of this machine may be using younger ones).
 */
async function dropStaleTemplates(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ datname: string }>(
      `select datname from pg_database d
        where (datname like 'zhyy_tpl_%' or datname like 'zhyy_t_%')
          and coalesce((pg_stat_file('base/' || d.oid || '/PG_VERSION', true)).modification, now()) < now() - interval '1 hour'`,
    );
    for (const r of rows) await c.query(`drop database if exists ${r.datname} with (force)`).catch(() => undefined);
  } catch {
    /* pg_stat_file needs superuser; without it, nothing is cleaned */
  } finally {
    await c.end();
  }
}
