/**
 * A prepared-statement cache for SQLite. Kysely's SQLite driver calls `prepare(sql)` for every
 * query; compiling the same SQL again and again was 13.5 % of the CPU under the badge-polling load
 * (docs/performance.md). This wraps a better-sqlite3 database so `prepare` returns the statement
 * compiled the last time for the same text (least recently used dropped past `size`).
 *
 * Correctness: SQLite re-compiles a cached statement by itself when the schema changed under it
 * (sqlite3_prepare_v2), so a cached SELECT * sees a new column. Schema statements (CREATE, DROP,
 * ALTER, ...) and PRAGMAs are never cached, and a schema statement clears the cache, so nothing
 * compiled against an older schema is kept longer than needed. A statement still
 * busy (an unfinished iterate) is not handed out twice: a fresh one is prepared instead.
 */
import type { Database as BetterDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Schema changes: never cached, and they empty the cache. */
const DDL = /^\s*(create|drop|alter|reindex|vacuum|attach|detach)\b/i;
const PRAGMA = /^\s*pragma\b/i;

export class StatementCache implements SqliteDatabase {
  private readonly cache = new Map<string, Statement>();
  /** Statements compiled (cache misses and uncached kinds) and served from the cache, for tests and the bench. */
  readonly stats = { prepared: 0, reused: 0 };

  constructor(
    readonly raw: BetterDatabase,
    private readonly size = 500,
  ) {}

  prepare(sql: string): Statement {
    // The cache first: a statement found there is never DDL or a PRAGMA (those are never cached), so the
    // common case costs one Map lookup and no pattern test.
    const hit = this.cache.get(sql);
    if (!hit) {
      const pragma = PRAGMA.test(sql);
      if (pragma || DDL.test(sql)) {
        if (!pragma) this.cache.clear();
        this.stats.prepared++;
        return this.raw.prepare(sql);
      }
    }
    if (hit && !hit.busy) {
      // Most recently used goes to the end of the Map's order.
      this.cache.delete(sql);
      this.cache.set(sql, hit);
      this.stats.reused++;
      return hit;
    }
    this.stats.prepared++;
    const stmt = this.raw.prepare(sql);
    if (hit) return stmt; // the cached one is busy: use this one once, keep the cached one
    this.cache.set(sql, stmt);
    if (this.cache.size > this.size) this.cache.delete(this.cache.keys().next().value!);
    return stmt;
  }

  get cached(): number {
    return this.cache.size;
  }

  close(): void {
    this.cache.clear();
    this.raw.close();
  }
}
