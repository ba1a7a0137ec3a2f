/**
 * "Buyer name contains" through the trigram index (migration 0013, src/modules/invoice/search.ts):
 * the same invoices as the plain LIKE on both engines, for long and short (1–2 character) searches,
 * with the index kept in step when names change.
 */
import { sql } from 'kysely';
import { ledgerRowCount, type LedgerFilter } from '@zhyy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFilters, ledgerBase } from '../src/modules/invoice/ledger/filters.js';
import { ledgerTotals } from '../src/modules/invoice/ledger/repo.js';
import { seedLarge } from '../src/seed/large.js';
import { contains } from '../src/platform/listing.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const NAMES = ['上海星河贸易有限公司', 'ACME Widgets (Shanghai) Co.', 'acme 100% 折扣_店', '北京"引号"科技', '星河'];

beforeAll(async () => {
  s = await startTestServer();
  await s.app.invoiceJob.stop();
  await seedLarge(s.db, { invoices: 600, batch: 600 });
  // A few names with mixed case, LIKE's special characters and a double quote (changed after the load: the index follows).
  const ids = await s.db.kysely.selectFrom('invoices').select('id').where('issue_date', 'is not', null).orderBy('id').limit(NAMES.length * 3).execute();
  for (const [k, { id }] of ids.entries()) await s.db.kysely.updateTable('invoices').set({ buyer_name: NAMES[k % NAMES.length]! }).where('id', '=', id).execute();
}, 120_000);
afterAll(() => s?.close());

const k = () => s.db.kysely;
const withIndex = async (text: string) => (await applyFilters(ledgerBase(k()), { buyerName: text } as LedgerFilter, k()).select('i.id').orderBy('i.id').execute()).map((r) => r.id);
const plainLike = async (text: string) => (await ledgerBase(k()).where(contains(sql.ref('i.buyer_name'), text)).select('i.id').orderBy('i.id').execute()).map((r) => r.id);

describe('buyer name contains', () => {
  const searches = ['星河贸易', '星河', '星', 'acme', 'ACME WID', 'Co.', '100%', '%', '_店', '"引号"', '引号', '有限公司', 'no such buyer', 'a'];
  it.each(searches)('finds the same invoices as LIKE for %j', async (text) => {
    const expected = await plainLike(text);
    expect(await withIndex(text)).toEqual(expected);
  });

  it('finds what a JavaScript substring test finds, case-insensitively for ASCII', async () => {
    const rows = await ledgerBase(k()).select(['i.id', 'i.buyer_name']).orderBy('i.id').execute();
    for (const text of ['acme', 'ACME', '星河', '引号"科', '(shanghai)']) {
      const expected = rows.filter((r) => r.buyer_name.toLowerCase().includes(text.toLowerCase())).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(await withIndex(text)).toEqual(expected);
    }
  });

  it('gives the ledger totals of the same set', async () => {
    const ids = await plainLike('有限公司');
    expect(ledgerRowCount(await ledgerTotals(k(), { buyerName: '有限公司' } as LedgerFilter))).toBe(ids.length);
  });

  it('has the index on this engine, and searches of 3 characters or more go through it', async () => {
    if (s.dialect === 'postgres') {
      const ix = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'invoices_buyer_trgm_idx'`.execute(k());
      expect(ix.rows[0]?.indexdef).toMatch(/gin_trgm_ops/);
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from invoices i where lower(i.buyer_name) like '%星河贸易%'`.execute(k());
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toMatch(/Seq Scan on invoices/);
      return;
    }
    // Emptying the FTS index hides every match of 3+ characters (so the index is what answers),
    // while 1–2 character searches still find them through LIKE; rebuilding brings them back.
    await sql`insert into invoices_buyer_fts(invoices_buyer_fts) values ('delete-all')`.execute(k());
    try {
      expect(await withIndex('星河贸易')).toEqual([]);
      expect((await withIndex('星河')).length).toBeGreaterThan(0);
    } finally {
      await sql`insert into invoices_buyer_fts(invoices_buyer_fts) values ('rebuild')`.execute(k());
    }
    expect(await withIndex('星河贸易')).toEqual(await plainLike('星河贸易'));
  });
});
