/**
 * A fresh server per test file: SQLite in memory, or (TEST_DB=postgres) a fresh PostgreSQL schema
 * in DATABASE_URL_TEST, migrated and loaded with the demo company.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type RouteModule } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { seedDemo, type DemoOptions } from '../src/seed/index.js';
import { createStorage } from '../src/platform/storage/index.js';

export const DEMO_PASSWORD = 'demo123';
/**
 * Test servers seed the whole demo company with its incoming-invoice pool drawn at 3 a day (1,080
 * invoices over the same twelve months) instead of 60 (21,600): the full pool costs seconds per file on
 * PostgreSQL; income-demo.test.ts seeds it at full volume once on each database. Reimbursement bills
 * likewise: 10 a month instead of 700 (reimbursement-demo.test.ts checks a larger volume), and cost
 * orders 12 a month instead of 180 (cost-demo.test.ts checks a larger volume).
 */
export const TEST_DEMO = { incomePerDay: 3, reimbPerMonth: 10, costPerMonth: 12, tenderFrames: 3, tenderPeople: 0, tenderExports: 0, tenderScans: false } as const;

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
  DATA_DIR: path.join(os.tmpdir(), 'zhyy-test'),
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
  let schema: string | undefined;
  if (usePg) {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
  }
  const db = openDatabase(usePg ? { databaseUrl: url, pgSchema: schema } : { sqlitePath: ':memory:' });
  await migrate(db);
  const config: Config = loadConfig({ ...testEnv, ...opts.env }, []);
  if (opts.demo !== false) await seedDemo(db, new Date(), { storage: createStorage(config), ...(opts.demoOptions ?? TEST_DEMO) });
  const app = await buildApp(config, db, { extraModules: opts.extraModules });
  return serverOf(app, db, async () => {
    await db.close();
    if (usePg && schema) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    }
  });
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
  const db = own ? openDatabase({ databaseUrl: process.env.DATABASE_URL_TEST, pgSchema: s.db.schema }) : s.db;
  const app = await buildApp(Object.keys(env).length ? loadConfig({ ...testEnv, ...env }, []) : s.app.appConfig, db, { extraModules });
  return serverOf(app, db, async () => {
    if (own) await db.close();
  });
}
