/**
 * "Buyer name contains" through the distinct buyer names (migration 0027, src/modules/invoice/ledger/search.ts):
 * the same invoices as the plain LIKE on both engines, for long and short searches, with the names
 * kept in step when invoices are added or renamed, and the same totals whether they are summed from
 * the matching invoices or as the day summary less the buyers that do not match.
 */
import { sql } from 'kysely';
import { InvoiceStatus, type LedgerFilter } from '@zhyy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFilters, ledgerBase } from '../src/modules/invoice/ledger/filters.js';
import { ledgerTotals } from '../src/modules/invoice/ledger/repo.js';
import { seedLarge } from '../src/seed/large.js';
import { contains } from '../src/platform/listing.js';
import { buyerNameShare, planBuyerName, type BuyerNamePlan } from '../src/modules/invoice/ledger/search.js';
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
const withIndex = async (text: string, plan?: BuyerNamePlan) =>
  (await applyFilters(ledgerBase(k()), { buyerName: text, buyerNamePlan: plan } as unknown as LedgerFilter, k()).select('i.id').orderBy('i.id').execute()).map((r) => r.id);
const plainLike = async (text: string) => (await ledgerBase(k()).where(contains(sql.ref('i.buyer_name'), text)).select('i.id').orderBy('i.id').execute()).map((r) => r.id);

describe('buyer name contains', () => {
  const searches = ['星河贸易', '星河', '星', 'acme', 'ACME WID', 'Co.', '100%', '%', '_店', '"引号"', '引号', '有限公司', 'no such buyer', 'a'];
  it.each(searches)('finds the same invoices as LIKE for %j', async (text) => {
    const expected = await plainLike(text);
    expect(await withIndex(text)).toEqual(expected);
    // Each way the repo may write it (search.ts planBuyerName): the same set.
    expect(await withIndex(text, await planBuyerName(k(), text))).toEqual(expected);
    expect(await withIndex(text, { mostly: true, names: null })).toEqual(expected);
    expect(await withIndex(text, { mostly: false, names: null })).toEqual(expected);
  });

  it('pages a search most buyers match in the same order as the plain LIKE', async () => {
    const { ledgerPage } = await import('../src/modules/invoice/ledger/repo.js');
    const page = await ledgerPage(k(), { buyerName: '有限公司', pageIndex: 2, pageSize: 20 } as never);
    const expected = await ledgerBase(k()).where(contains(sql.ref('i.buyer_name'), '有限公司')).select('i.id').orderBy('i.issue_date', 'desc').orderBy('i.id', 'desc').limit(20).offset(20).execute();
    expect(page.items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('finds what a JavaScript substring test finds, case-insensitively for ASCII', async () => {
    const rows = await ledgerBase(k()).select(['i.id', 'i.buyer_name']).orderBy('i.id').execute();
    for (const text of ['acme', 'ACME', '星河', '引号"科', '(shanghai)']) {
      const expected = rows.filter((r) => r.buyer_name.toLowerCase().includes(text.toLowerCase())).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(await withIndex(text)).toEqual(expected);
    }
  });

  it('gives the ledger totals of the same set, summed directly or as the summary less the others', async () => {
    const likeTotals = async (text: string, f: Partial<LedgerFilter> = {}) => {
      let q = ledgerBase(k()).where(contains(sql.ref('i.buyer_name'), text));
      if (f.issueFrom) q = q.where('i.issue_date', '>=', f.issueFrom);
      const rows = await q.select(['i.status', 'i.amount_excl', 'i.tax', 'i.amount_incl']).execute();
      const live = rows.filter((r) => r.status !== InvoiceStatus.cancelled);
      return { count: live.length, amountIncl: live.reduce((a, r) => a + Number(r.amount_incl), 0), voided: rows.length - live.length };
    };
    const share = await buyerNameShare(k(), '有限公司');
    // Most buyers match: the complement path (ledger/repo.ts) answers.
    expect(share.matching * 2).toBeGreaterThan(share.all);
    for (const [text, f] of [['有限公司', {}], ['有限公司', { issueFrom: '2025-01-01' }], ['星河', {}], ['acme', { issueFrom: '2020-01-01' }], ['no such buyer', {}]] as const) {
      const t = await ledgerTotals(k(), { buyerName: text, ...f } as LedgerFilter);
      const expected = await likeTotals(text, f);
      expect([text, t.count, t.amountIncl, t.voided.count]).toEqual([text, expected.count, expected.amountIncl, expected.voided]);
    }
  });

  it('keeps every buyer name of the invoices, added and renamed, and reads the invoices through the covering index', async () => {
    const id = (await k().selectFrom('invoices').select('id').where('issue_date', 'is not', null).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
    await k().updateTable('invoices').set({ buyer_name: '杭州新名称测试有限公司' }).where('id', '=', id).execute();
    const names = new Set((await sql<{ name: string }>`select name from invoice_buyer_names`.execute(k())).rows.map((r) => r.name));
    const used = await k().selectFrom('invoices').select('buyer_name').distinct().execute();
    for (const u of used) expect(names.has(u.buyer_name)).toBe(true);
    expect(await withIndex('新名称测试')).toEqual([id]);
    const text = sql`select count(*) from invoices i where i.buyer_name in (select n.name from invoice_buyer_names n where lower(n.name) like '%星河贸易%')`;
    if (s.dialect === 'postgres') {
      await sql`set enable_seqscan = off`.execute(k());
      const plan = await sql<{ 'QUERY PLAN': string }>`explain ${text}`.execute(k());
      await sql`reset enable_seqscan`.execute(k());
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/invoices_buyer_cover_idx/);
      return;
    }
    const plan = await sql<{ detail: string }>`explain query plan ${text}`.execute(k());
    expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/USING COVERING INDEX invoices_buyer_cover_idx/);
  });
});
