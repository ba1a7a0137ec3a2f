/** The SQLite prepared-statement cache (src/db/statements.ts): reuse, schema changes, busy statements, LRU. */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.js';

describe.skipIf(process.env.TEST_DB === 'postgres')('SQLite statement cache', () => {
  it('reuses the statement compiled for the same SQL and answers with the current parameters', async () => {
    const db = openDatabase({ sqlitePath: ':memory:' });
    const k = db.kysely as any;
    await sql`create table t (id integer primary key, name text)`.execute(k);
    for (let i = 1; i <= 5; i++) await k.insertInto('t').values({ id: i, name: `n${i}` }).execute();
    const before = { ...db.statements!.stats };
    const names = [];
    for (let i = 1; i <= 5; i++) names.push((await k.selectFrom('t').select('name').where('id', '=', i).executeTakeFirst()).name);
    expect(names).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(db.statements!.stats.prepared - before.prepared).toBe(1);
    expect(db.statements!.stats.reused - before.reused).toBe(4);
    await db.close();
  });

  it('sees a schema change: a cached SELECT * returns a column added after it was compiled', async () => {
    const db = openDatabase({ sqlitePath: ':memory:' });
    const k = db.kysely as any;
    await sql`create table t (id integer primary key)`.execute(k);
    await k.insertInto('t').values({ id: 1 }).execute();
    expect(await k.selectFrom('t').selectAll().execute()).toEqual([{ id: 1 }]);
    expect(db.statements!.cached).toBeGreaterThan(0);
    await sql`alter table t add column extra text default 'x'`.execute(k);
    // The schema statement emptied the cache; the same query is compiled against the new schema.
    expect(db.statements!.cached).toBe(0);
    expect(await k.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, extra: 'x' }]);
    // And a statement compiled before a change made on another connection is re-compiled by SQLite itself.
    await sql`drop table t`.execute(k);
    await sql`create table t (id integer primary key, a text)`.execute(k);
    await k.insertInto('t').values({ id: 2, a: 'y' }).execute();
    expect(await k.selectFrom('t').selectAll().execute()).toEqual([{ id: 2, a: 'y' }]);
    db.statements!.raw.exec('alter table t add column b text');
    expect(await k.selectFrom('t').selectAll().execute()).toEqual([{ id: 2, a: 'y', b: null }]);
    await db.close();
  });

  it('prepares a second statement while the cached one is still iterating, and drops the least recently used', async () => {
    const db = openDatabase({ sqlitePath: ':memory:' });
    const cache = db.statements!;
    cache.raw.exec('create table t (id integer primary key); insert into t values (1), (2), (3)');
    const q = 'select id from t order by id';
    const outer = cache.prepare(q).iterate([]) as IterableIterator<{ id: number }>;
    expect(outer.next().value).toEqual({ id: 1 });
    const inner = cache.prepare(q);
    expect(inner.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...outer]).toEqual([{ id: 2 }, { id: 3 }]);
    const small = new (cache.constructor as any)(cache.raw, 2);
    small.prepare('select 1');
    small.prepare('select 2');
    small.prepare('select 1'); // now the most recent
    small.prepare('select 3'); // drops 'select 2'
    const prepared = small.stats.prepared;
    small.prepare('select 1');
    expect(small.stats.prepared).toBe(prepared);
    small.prepare('select 2');
    expect(small.stats.prepared).toBe(prepared + 1);
    await db.close();
  });
});
