/**
 * A read worker (db/read-pool.ts): its own read-only connection to the application's SQLite file, or
 * its own small pool of PostgreSQL connections, answering the registered reads as messages come. The
 * worker thread's entry point, like main.ts the process's: it sits above the layers it loads (db/ and
 * the modules whose reads run here), so db/ itself imports no module.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { loadPg } from './db/pg.js';
import { runTask, type ReadTarget } from './db/read-pool.js';
import type { Database } from './db/schema.js';
import { StatementCache } from './db/statements.js';
// The modules whose reads may run here (they register them with offThread when loaded).
import './modules/invoice/ledger/repo.js';
import './modules/income/pool/repo.js';
import './modules/reimbursement/ledger/export-reads.js';
import './modules/cost/audit/export-reads.js';
import './modules/cost/summary/repo.js';

/** Connections of a PostgreSQL read worker: two exports may read at once. */
const PG_CONNECTIONS = 2;

function open(target: ReadTarget): Kysely<Database> {
  if ('pg' in target) {
    const { url, schema } = target.pg;
    const pool = new (loadPg().Pool)({ connectionString: url, max: PG_CONNECTIONS, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const sqlite = new BetterSqlite3(target.file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: new StatementCache(sqlite) }) });
}

const db = open(workerData as ReadTarget);

parentPort!.on('message', (m: { id: number; name: string; args: unknown[] }) => {
  runTask(m.name, db, m.args).then(
    (value) => parentPort!.postMessage({ id: m.id, ok: true, value }),
    (err: unknown) => parentPort!.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
