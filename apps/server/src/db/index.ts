/** One Kysely instance per dialect: SQLite (better-sqlite3, WAL, foreign keys) or PostgreSQL (pg). */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index.js';
import { loadPg } from './pg.js';
import { attachReadPool, ReadPool } from './read-pool.js';
import { StatementCache } from './statements.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema worked in, when not the default one. */
  schema?: string;
  /** SQLite: the database file (':memory:' for an in-memory one). */
  file?: string;
  /** SQLite: the prepared-statement cache (./statements.ts). */
  statements?: StatementCache;
  /** The worker threads that run long reads (./read-pool.ts): SQLite in a file, and PostgreSQL's exports. */
  reads?: ReadPool;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... ; when absent, SQLite at sqlitePath. */
  databaseUrl?: string;
  sqlitePath?: string;
  /**
   * SQLite: open an in-memory copy of this serialised database instead of sqlitePath (the test
   * suite's seeded image, apps/server/test/global-setup.ts).
   */
  sqliteImage?: Buffer;
  /** PostgreSQL schema to work in (tests use a fresh one per file). */
  pgSchema?: string;
}

export function openDatabase(opts: OpenOptions): Db {
  if (opts.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Exports read in a worker with its own connections, so that decoding their rows does not hold
    // the request thread (read-pool.ts).
    const reads = new ReadPool({ pg: { url: opts.databaseUrl, ...(opts.pgSchema ? { schema: opts.pgSchema } : {}) } }, 1);
    attachReadPool(kysely, reads);
    const close = async () => {
      await reads.close();
      await kysely.destroy();
    };
    return { kysely, dialect: 'postgres', schema: opts.pgSchema, reads, close };
  }
  const file = opts.sqliteImage ? ':memory:' : (opts.sqlitePath ?? ':memory:');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(opts.sqliteImage ?? file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Kysely prepares each query anew: the cache hands back the statement compiled for the same SQL.
  const statements = new StatementCache(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  // Long reads (offThread) go to worker threads with their own connections; not for ':memory:'.
  const reads = file === ':memory:' ? undefined : new ReadPool({ file });
  if (reads) attachReadPool(kysely, reads);
  const close = async () => {
    await reads?.close();
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', file, statements, reads, close };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date; throws with the failing migration's name. Safe with several servers
 * starting at once: on PostgreSQL Kysely's migrator holds an advisory lock; on SQLite (where its lock
 * is a no-op) the whole run is one write transaction taken up front (`exclusive`), so a second process
 * waits and then finds nothing left to do.
 */
export async function migrate(db: Db): Promise<string[]> {
  const run = (k: Kysely<Database>, inOwnTransaction: boolean) =>
    // With several schemas in one database, Kysely must be told where its own tables live.
    new Migrator({ db: k, provider, disableTransactions: inOwnTransaction, ...(db.schema ? { migrationTableSchema: db.schema } : {}) }).migrateToLatest();
  let outcome: MigrationResultSet | undefined;
  if (db.dialect === 'sqlite') {
    await exclusive(db, 'migrate', async (k) => {
      outcome = await run(k, true);
      if (outcome.error) throw outcome.error; // rolls the run back
    }).catch((error: unknown) => void (outcome = { error, results: outcome?.results }));
  } else outcome = await run(db.kysely, false);
  const { error, results } = outcome!;
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` in a transaction that no other server runs at the same time for the same key: on
 * PostgreSQL under `pg_advisory_xact_lock` (per key and schema), on SQLite as `BEGIN IMMEDIATE`
 * (the database's one write lock, taken up front). A second caller waits, then sees what the first
 * committed. Nothing inside may open its own transaction.
 */
export async function exclusive<T>(db: Db, key: string, fn: (k: Kysely<Database>) => Promise<T>, waitMs = 10 * 60_000): Promise<T> {
  if (db.dialect === 'postgres') {
    return db.kysely.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`zhyy:${db.schema ?? 'public'}:${key}`}))`.execute(trx);
      return fn(trx);
    });
  }
  return db.kysely.connection().execute(async (k) => {
    // Waiting is done here, not in SQLite's busy handler: that one sleeps synchronously and would
    // hold up this process's other connection (the holder, in tests) for its whole timeout.
    await sql`pragma busy_timeout = 0`.execute(k);
    try {
      for (const deadline = Date.now() + waitMs; ; ) {
        try {
          await sql`begin immediate`.execute(k);
          break;
        } catch (err) {
          if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY') || Date.now() > deadline) throw err;
          await sleep(25);
        }
      }
    } finally {
      await sql`pragma busy_timeout = 5000`.execute(k);
    }
    try {
      const out = await fn(k);
      await sql`commit`.execute(k);
      return out;
    } catch (err) {
      await sql`rollback`.execute(k);
      throw err;
    }
  });
}

export type { Database } from './schema.js';
