/**
 * Issue 13, 签收归档: archive numbers GD{yyyyMM}{seq} are gap-free per month. Many signings at once
 * (concurrent requests split over two app servers on one database; on PostgreSQL each with its own
 * connection pool, each signing in its own transaction), some failing at the
 * archive side (a note containing 测试失败), must give consecutive numbers with no gaps and no
 * duplicates: a number is taken only in the transaction that records a success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSignState } from '@zhyy/shared';
import { shanghaiMonth } from '../src/modules/income/signing/archive-no.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { entry, signDocs } from './income-helpers.js';

let s: TestServer;
/** A second app server on the same database (its own connection pool on PostgreSQL). */
let s2: TestServer;
let t13: string;
let t14: string;

beforeAll(async () => {
  s = await startTestServer();
  s2 = await attachServer(s);
  [t13, t14] = (await Promise.all(['demo13', 'demo14'].map((n) => s.login(n)))) as [string, string];
});
afterAll(async () => {
  await s2?.close();
  await s?.close();
});

async function fresh(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await s.call('/api/income/pool/save', entry(), t13);
    expect(a.code, a.message).toBe(20000);
    ids.push(a.r.id);
  }
  return ids;
}

describe('concurrent signing', () => {
  it('gives consecutive archive numbers with no gaps and no duplicates', async () => {
    const ids = await fresh(30);
    const month = shanghaiMonth();
    const counter = async () => Number((await s.db.kysely.selectFrom('income_archive_counters').select('seq').where('month', '=', month).executeTakeFirst())?.seq ?? NaN);
    // The first signing of the month sets the counter after what the pool holds (the demo seed's numbers).
    const first = await s.call('/api/income/entry/sign', { invoiceIds: [ids[0]], docType: 'project', docNo: (await signDocs(s)).project }, t14);
    const start = Number(first.r.outcomes[0].archiveNo.slice(8));
    expect(await counter()).toBe(start);
    const docs = await signDocs(s);
    const batches: Array<{ ids: string[]; fail: boolean }> = [];
    for (let i = 1; i < ids.length; i += 3) batches.push({ ids: ids.slice(i, i + 3), fail: batches.length % 3 === 1 });
    const answers = await Promise.all(
      batches.map((b, i) =>
        (i % 2 ? s2 : s).call('/api/income/entry/sign', b.fail ? { invoiceIds: b.ids, docType: 'other', note: `测试失败 ${i}` } : { invoiceIds: b.ids, docType: 'reimbursement', docNo: docs.reimbursement }, t14),
      ),
    );
    const outcomes = answers.flatMap((a, i) => {
      // A batch the archive side refused whole is a refusal, 30000 (issue 27 item 8); its outcomes beside it.
      expect(a.code, a.message).toBe(batches[i]!.fail ? 30000 : 20000);
      return a.r.outcomes as Array<{ signState: number; archiveNo: string }>;
    });
    const failed = batches.filter((b) => b.fail).flatMap((b) => b.ids).length;
    expect(failed).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.signState === IncomeSignState.failed)).toHaveLength(failed);
    const nos = outcomes.filter((o) => o.signState === IncomeSignState.signed).map((o) => o.archiveNo);
    expect(nos).toHaveLength(ids.length - 1 - failed);
    const seqs = nos.map((n) => Number(n.slice(8))).sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, i) => start + 1 + i));
    expect(await counter()).toBe(start + nos.length);
    // The database agrees: one invoice per number, each signing record with its invoice's number.
    const all = await s.db.kysely.selectFrom('income_signings').select(['archive_no', 'invoice_id']).where('archive_no', 'like', `GD${month}%`).execute();
    expect(new Set(all.map((r) => r.archive_no)).size).toBe(all.length);
    // This test's own records (the demo seed signed invoices this month too).
    const mine = new Set(ids);
    const rows = all.filter((r) => mine.has(r.invoice_id));
    expect(rows.length).toBe(nos.length + 1);
    expect(rows.map((r) => Number(r.archive_no.slice(8))).sort((a, b) => a - b)).toEqual([start, ...seqs]);
  });
});
