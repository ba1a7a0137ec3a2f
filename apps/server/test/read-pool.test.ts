/**
 * Long reads in worker threads (src/db/read-pool.ts) on a SQLite file: the same totals, pages and
 * export rows as the same code run on the request thread; in-memory databases keep them in place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerExportQuery, LedgerFilter, LedgerQuery } from '@zhyy/shared';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { runTask } from '../src/db/read-pool.js';
import { ledgerBatches, ledgerPage } from '../src/modules/invoice/ledger/repo.js';
import { directTotals } from '../src/modules/invoice/ledger/summary.js';
import { seedDemo } from '../src/seed/index.js';
import { startTestServer, TEST_DEMO } from './helpers.js';
import { seedLarge } from '../src/seed/large.js';

const sqlite = process.env.TEST_DB !== 'postgres';
let db: Db;
let dir: string;

beforeAll(async () => {
  if (!sqlite) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-readpool-'));
  db = openDatabase({ sqlitePath: path.join(dir, 'platform.db') });
  await migrate(db);
  await seedDemo(db, new Date(), TEST_DEMO);
  await seedLarge(db, { invoices: 1500, batch: 1500 });
}, 120_000);
afterAll(async () => {
  await db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The export's row ids, every batch read on this thread (the task itself, not through the pool). */
async function exportIdsInPlace(db: Db, f: LedgerExportQuery): Promise<string[]> {
  const ids: string[] = [];
  let after = null;
  for (;;) {
    const { rows, last } = (await runTask('ledger.exportBatch', db.kysely, [f, after, 100])) as { rows: { id: string }[]; last: unknown };
    ids.push(...rows.map((r) => r.id));
    if (rows.length < 100) return ids;
    after = last;
  }
}

const filters: LedgerFilter[] = [
  {} as LedgerFilter,
  { buyerName: '有限公司' } as LedgerFilter,
  { buyerName: '公司' } as LedgerFilter,
  { amountMin: 100_000, amountMax: 5_000_000, issueFrom: '2024-01-01' } as LedgerFilter,
];

describe.skipIf(!sqlite)('reads off the request thread', () => {
  it('answers the same totals in a worker as on the request thread', async () => {
    for (const f of filters) {
      const inPlace = await runTask('ledger.directTotals', db.kysely, [f]);
      expect(await directTotals(db.kysely, f)).toEqual(inPlace);
    }
    expect(db.reads!.started).toBeGreaterThan(0);
  });

  it('answers the same page, and the same export rows in the same order', async () => {
    const q = { buyerName: '有限公司', pageIndex: 2, pageSize: 20, sort: { field: 'amountIncl', order: 'descend' } } as LedgerQuery;
    const page = await ledgerPage(db.kysely, q);
    expect(page.items.length).toBe(20);
    expect(page).toEqual(await runTask('ledger.page', db.kysely, [q]));
    const f = { buyerName: '公司', sort: { field: 'issueDate', order: 'ascend' } } as LedgerExportQuery;
    const viaWorker: string[] = [];
    for await (const b of ledgerBatches(db.kysely, f, 100)) viaWorker.push(...b.map((r) => r.id));
    const inPlace = await exportIdsInPlace(db, f);
    expect(viaWorker.length).toBeGreaterThan(300);
    expect(viaWorker).toEqual(inPlace);
    expect(new Set(viaWorker).size).toBe(viaWorker.length);
  });

  it('reports a failing read as an error, and keeps in-memory databases in place', async () => {
    await expect(runTask('no.such.task', db.kysely, [])).rejects.toThrow('no task');
    const mem = openDatabase({ sqlitePath: ':memory:' });
    expect(mem.reads).toBeUndefined();
    await mem.close();
  });
});

describe.skipIf(sqlite)('PostgreSQL: an export read in a worker with its own connections', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
    await seedLarge(server.db, { invoices: 600, batch: 600 });
  }, 120_000);
  afterAll(() => server?.close());

  it('keeps pages in place, and reads the export rows in a worker, the same and in the same order', async () => {
    const db = server.db;
    await ledgerPage(db.kysely, { pageIndex: 1, pageSize: 20 } as LedgerQuery);
    expect(db.reads!.started).toBe(0);
    const f = { sort: { field: 'amountIncl', order: 'descend' } } as LedgerExportQuery;
    const viaWorker: string[] = [];
    for await (const b of ledgerBatches(db.kysely, f, 100)) viaWorker.push(...b.map((r) => r.id));
    expect(db.reads!.started).toBe(1);
    const inPlace = await exportIdsInPlace(db, f);
    expect(viaWorker.length).toBeGreaterThan(500);
    expect(viaWorker).toEqual(inPlace);
  });
});
