/**
 * A fresh server per test file: SQLite in memory, or (TEST_DB=postgres) a PostgreSQL database of its
 * own, migrated and loaded with the demo company. The usual start (the test demo, or migrated only)
 * is a copy of the database global-setup.ts built once for the run; other demo volumes seed their own.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import ExcelJS from 'exceljs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type RouteModule } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { seedDemo, type DemoOptions } from '../src/seed/index.js';
import { createStorage } from '../src/platform/storage/index.js';
import { admin, databaseUrlOf } from './global-setup.js';
import { TEST_DEMO } from './test-demo.js';

export const DEMO_PASSWORD = 'demo123';
export { TEST_DEMO } from './test-demo.js';

export interface Answer {
  status: number;
  code: number;
  message?: string;
  r?: any;
  headers: Record<string, string | string[] | number | undefined>;
  raw: string;
}

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  dialect: 'sqlite' | 'postgres';
  /** POST a JSON body to a path, with X-Token when a token is given. */
  call(url: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<Answer>;
  /** Signs in and returns the token (throws when refused). */
  login(name: string, password?: string): Promise<string>;
  /** POSTs an export call and reads the answer back as a workbook (its first sheet; none unless 200). */
  download(url: string, body: unknown, token: string): Promise<{ res: LightMyRequestResponse; ws: ExcelJS.Worksheet | undefined }>;
  close(): Promise<void>;
}

const testEnv = {
  // One folder for every server of a file (and its second servers): files running side by side keep apart.
  DATA_DIR: path.join(os.tmpdir(), `zhyy-test-${process.pid}-${crypto.randomBytes(4).toString('hex')}`),
  LOG_LEVEL: 'silent',
  WEB_DIST: path.join(os.tmpdir(), 'zhyy-no-web-client'),
  LOGIN_RATE_LIMIT: '1000',
};

export interface TestServerOptions {
  demo?: boolean;
  /** The demo's options (default TEST_DEMO: the incoming pool at 3 a day). */
  demoOptions?: DemoOptions;
  env?: Record<string, string>;
  extraModules?: RouteModule[];
  /**
   * A second app server on the database of an open one (attachServer: its PostgreSQL schema through a
   * pool of its own; on SQLite the same in-memory database). Closing it leaves the database to its first server.
   */
  sameDatabaseAs?: TestServer;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  if (opts.sameDatabaseAs) return attachServer(opts.sameDatabaseAs, opts.env ?? {}, opts.extraModules);
  const usePg = process.env.TEST_DB === 'postgres';
  const url = process.env.DATABASE_URL_TEST;
  if (usePg && !url) throw new Error('TEST_DB=postgres needs DATABASE_URL_TEST');
  const config: Config = loadConfig({ ...testEnv, ...opts.env }, []);
  const clone = await cloneOf(opts, usePg);
  if (clone) {
    const app = await buildApp(config, clone.db, { extraModules: opts.extraModules });
    return serverOf(app, clone.db, clone.drop);
  }
  let schema: string | undefined;
  if (usePg) {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    await admin(url!, `create schema ${schema}`);
  }
  const db = openDatabase(usePg ? { databaseUrl: url, pgSchema: schema } : { sqlitePath: ':memory:' });
  await migrate(db);
  if (opts.demo !== false) await seedDemo(db, new Date(), { storage: createStorage(config), ...(opts.demoOptions ?? TEST_DEMO) });
  opened.set(db, { databaseUrl: url, pgSchema: schema });
  const app = await buildApp(config, db, { extraModules: opts.extraModules });
  return serverOf(app, db, async () => {
    await db.close();
    if (usePg && schema) await admin(url!, `drop schema ${schema} cascade`);
  });
}

/** How each PostgreSQL test database was opened, for a second server on it (attachServer). */
const opened = new WeakMap<Db, { databaseUrl?: string; pgSchema?: string }>();

/**
 * A private copy of the run's seeded database (global-setup.ts) when the file starts from the usual
 * one: the test demo (no demoOptions) or migrated only (demo: false).
 */
async function cloneOf(opts: TestServerOptions, usePg: boolean): Promise<{ db: Db; drop(): Promise<void> } | undefined> {
  const images = inject('testImages');
  if (!images || images.engine !== (usePg ? 'postgres' : 'sqlite')) return undefined;
  if (opts.demo !== false && opts.demoOptions) return undefined;
  const source = opts.demo === false ? images.migrated : images.demo;
  if (!usePg) {
    const db = openDatabase({ sqliteImage: fs.readFileSync(source) });
    return { db, drop: () => db.close() };
  }
  const url = process.env.DATABASE_URL_TEST!;
  const name = `zhyy_t_${crypto.randomBytes(6).toString('hex')}`;
  await admin(url, `create database ${name} template ${source}`);
  const databaseUrl = databaseUrlOf(url, name);
  const db = openDatabase({ databaseUrl });
  opened.set(db, { databaseUrl });
  return {
    db,
    drop: async () => {
      await db.close();
      await dropDatabase(url, name);
    },
  };
}

/**
 * Drops a file's database once its connections are gone. Not WITH (FORCE) at once: a pool's clients can
 * still be ending when its end() resolves, and a connection the server terminates emits an error on its
 * client that nobody listens to any more (an unhandled error that fails the run). FORCE only as a last resort.
 */
async function dropDatabase(url: string, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      return await admin(url, `drop database if exists ${name}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err; // 55006: being accessed by other users
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await admin(url, `drop database if exists ${name} with (force)`);
}

/** A TestServer around an app; `closeDb` runs after the app has closed. */
export function serverOf(app: FastifyInstance, db: Db, closeDb: () => Promise<void>): TestServer {
  const call: TestServer['call'] = async (u, body, token, headers = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: u,
      headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}), ...headers },
      payload: body === undefined ? '' : JSON.stringify(body),
    });
    let json: any = {};
    try {
      json = res.json();
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, code: json.code, message: json.message, r: json.r, headers: res.headers, raw: res.body };
  };

  return {
    app,
    db,
    dialect: db.dialect,
    call,
    async login(name, password = DEMO_PASSWORD) {
      const a = await call('/api/account/login', { name, password });
      if (a.code !== 20000) throw new Error(`login ${name} refused: ${a.code} ${a.message}`);
      return a.r.token as string;
    },
    async download(u, body, token) {
      const res = await app.inject({ method: 'POST', url: u, headers: { 'content-type': 'application/json', 'x-token': token }, payload: JSON.stringify(body) });
      const wb = new ExcelJS.Workbook();
      if (res.statusCode === 200) await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return { res, ws: wb.worksheets[0] };
    },
    async close() {
      await app.close();
      await closeDb();
    },
  };
}

/**
 * Another app server on the same database as `s` (two servers on one database): on PostgreSQL with its
 * own connection pool on s's schema; on SQLite in memory (one connection per database) it shares s's.
 * Its job runs like s's; close() closes only this server.
 */
export async function attachServer(s: TestServer, env: Record<string, string> = {}, extraModules?: RouteModule[]): Promise<TestServer> {
  const own = s.db.dialect === 'postgres';
  const db = own ? openDatabase(opened.get(s.db) ?? { databaseUrl: process.env.DATABASE_URL_TEST, pgSchema: s.db.schema }) : s.db;
  const app = await buildApp(Object.keys(env).length ? loadConfig({ ...testEnv, ...env }, []) : s.app.appConfig, db, { extraModules });
  return serverOf(app, db, async () => {
    if (own) await db.close();
  });
}
