/**
 * A read worker (./read-pool.ts): its own read-only connection to the application's SQLite file,
 * answering the registered reads one message at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { runTask } from './read-pool.js';
import type { Database } from './schema.js';
import { StatementCache } from './statements.js';
// The modules whose reads may run here (they register them with offThread when loaded).
import '../modules/invoice/ledger/repo.js';

const { file } = workerData as { file: string };
const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new StatementCache(sqlite) }) });

parentPort!.on('message', (m: { id: number; name: string; args: unknown[] }) => {
  runTask(m.name, db, m.args).then(
    (value) => parentPort!.postMessage({ id: m.id, ok: true, value }),
    (err: unknown) => parentPort!.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
