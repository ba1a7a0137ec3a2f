/**
 * Long reads off the request thread (SQLite). better-sqlite3 runs a query on the thread that calls
 * it, and the server has one: a report scanning a million invoices held every other request (sign-
 * ins, badges) until it finished. A read registered with offThread() runs, for the application's
 * own database, in a small pool of worker threads, each with its own read-only connection to the
 * same file (WAL lets readers run beside the writer). On PostgreSQL the driver never blocks the
 * thread, but it decodes every row on it: a read registered with `{ postgres: true }` (an export's
 * batches) runs in a worker with its own connections there, the others in place. Everywhere else a
 * read runs in place: ':memory:' databases (not shareable across threads), a transaction (it must see
 * its own writes) and the worker itself.
 *
 * A task must only read, take and return plain data (structured clone), and be registered by a
 * module that ../read-worker.ts (the worker's entry point, beside main.ts) imports.
 */
import type { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { startWorker } from '../platform/worker-thread.js';
import type { Database } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Task = (db: Kysely<Database>, ...args: any[]) => Promise<unknown>;
const tasks = new Map<string, Task>();
const pools = new WeakMap<Kysely<Database>, ReadPool>();

/** Where a pool's workers read: the SQLite file, or the PostgreSQL database (and schema). */
export type ReadTarget = { file: string } | { pg: { url: string; schema?: string } };

/**
 * Registers a read under a unique name; the returned function runs it off the thread when it can.
 * `postgres`: off the thread on PostgreSQL too (reads of many rows, where decoding them is the cost).
 */
export function offThread<A extends unknown[], R>(name: string, fn: (db: Kysely<Database>, ...args: A) => Promise<R>, opts: { postgres?: boolean } = {}): (db: Kysely<Database>, ...args: A) => Promise<R> {
  if (tasks.has(name)) throw new Error(`offThread: ${name} registered twice`);
  tasks.set(name, fn as Task);
  return (db, ...args) => {
    const pool = pools.get(db);
    return pool && (pool.sqlite || opts.postgres) ? (pool.run(name, args) as Promise<R>) : fn(db, ...args);
  };
}

/** Runs a registered task in this thread (the worker's side). */
export function runTask(name: string, db: Kysely<Database>, args: unknown[]): Promise<unknown> {
  const task = tasks.get(name);
  if (!task) return Promise.reject(new Error(`offThread: no task ${name}`));
  return task(db, ...args);
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * A read worker's heap limits. Its live data is one page or batch of rows, but V8 let its heap grow
 * with the garbage of a long export's batches (+60 MiB of RSS during a 100,000-row export, issue 11);
 * with a limit it collects instead. The young generation is what every worker holds from its start.
 */
export const READ_WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

class ReadWorker {
  private readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  private next = 1;
  dead = false;

  constructor(target: ReadTarget) {
    // ../read-worker.ts, located in the sources, tsc's build and the bundle alike (platform/worker-thread.ts).
    this.worker = startWorker('read-worker', { workerData: target, resourceLimits: READ_WORKER_LIMITS });
    this.worker.unref();
    this.worker.on('message', (m: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
    });
    const fail = (err: Error) => {
      this.dead = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`read worker exited (${code})`)));
  }

  run(name: string, args: unknown[]): Promise<unknown> {
    const id = this.next++;
    // Keep the process alive while a read is out.
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, name, args });
    });
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }
}

export class ReadPool {
  private workers: ReadWorker[] = [];
  readonly sqlite: boolean;

  constructor(
    private readonly target: ReadTarget,
    private readonly size = 2,
  ) {
    this.sqlite = 'file' in target;
  }

  /** Starts the workers on first use; each read goes to the worker with the fewest reads out. */
  run(name: string, args: unknown[]): Promise<unknown> {
    this.workers = this.workers.filter((w) => !w.dead);
    if (this.workers.length < this.size && this.workers.every((w) => w.pending.size > 0)) this.workers.push(new ReadWorker(this.target));
    const w = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    return w.run(name, args);
  }

  get started(): number {
    return this.workers.filter((w) => !w.dead).length;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers = [];
  }
}

/** Sends this Kysely instance's registered reads to the pool. */
export function attachReadPool(db: Kysely<Database>, pool: ReadPool): void {
  pools.set(db, pool);
}
