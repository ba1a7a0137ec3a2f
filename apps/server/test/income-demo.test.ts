/**
 * Issue 13, "Demo data and scale": the demo company's incoming invoices at full volume — twelve months,
 * about 1,800 a month, with lines; the mix of a construction company (9 %, 13 %, 6 %, 3 %, tickets,
 * tolls); signed and archived ones with archive numbers GD{yyyyMM}{seq} consistent with the signing
 * records and the monthly counters (gap-free), some waiting, a handful abnormal. Other test servers draw
 * the same pool at 3 a day (helpers.ts TEST_DEMO); this file seeds it once at 60 a day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeAbnormalFlag, IncomeSignState, IncomeUsage } from '@zhyy/shared';
import { shanghaiMonth } from '../src/modules/income/signing/archive-no.js';
import { INCOME_DEMO_DAYS, INCOME_DEMO_PER_DAY } from '../src/seed/income.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let t13: string;
let t14: string;
beforeAll(async () => {
  s = await startTestServer({ demoOptions: { incomePerDay: INCOME_DEMO_PER_DAY, reimbPerMonth: 0 } });
  await s.app.incomeJob.stop();
  [t13, t14] = [await s.login('demo13'), await s.login('demo14')];
});
afterAll(() => s?.close());

const k = () => s.db.kysely;
const rows = () => k().selectFrom('income_invoices').select(['id', 'kind', 'issue_date', 'sign_state', 'archive_no', 'usage', 'use_kind', 'doc_no', 'invoice_state', 'buyer_mismatch']).execute();

describe('the demo pool at full volume', () => {
  it('holds twelve months at about 1,800 a month, with lines that add up to each face', async () => {
    const all = await rows();
    expect(all.length).toBe(INCOME_DEMO_DAYS * INCOME_DEMO_PER_DAY);
    const byMonth = new Map<string, number>();
    for (const r of all) byMonth.set(r.issue_date.slice(0, 7), (byMonth.get(r.issue_date.slice(0, 7)) ?? 0) + 1);
    // Every calendar month wholly inside the window (the first and last are partial).
    const full = [...byMonth.keys()].sort().slice(1, -1);
    expect(full.length).toBeGreaterThanOrEqual(10);
    for (const m of full) expect(byMonth.get(m)!, m).toBeGreaterThanOrEqual(1_600);
    for (const m of full) expect(byMonth.get(m)!, m).toBeLessThanOrEqual(1_900);
    const bad = await k().selectFrom('income_invoices as p').leftJoin('income_invoice_lines as l', 'l.invoice_id', 'p.id')
      .select(['p.id']).groupBy(['p.id', 'p.amount_excl', 'p.tax'])
      .having((eb) => eb.or([eb(eb.fn.coalesce(eb.fn.sum('l.amount'), eb.lit(0)), '<>', eb.ref('p.amount_excl')), eb(eb.fn.coalesce(eb.fn.sum('l.tax'), eb.lit(0)), '<>', eb.ref('p.tax'))]))
      .execute();
    expect(bad).toEqual([]);
  });

  it('has the mix: construction 9 %, materials 13 %, design 6 %, simplified 3 %, rail, air and road tickets, tolls', async () => {
    const rates = await k().selectFrom('income_invoice_lines').select(['tax_rate']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('tax_rate').execute();
    const n = Object.fromEntries(rates.map((r) => [r.tax_rate, Number(r.n)]));
    for (const rate of ['0.09', '0.13', '0.06', '0.03']) expect(n[rate], rate).toBeGreaterThan(1_000);
    const kinds = new Map<string, number>();
    for (const r of await rows()) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    for (const kind of ['81', '01', '82', 'rail', 'air', 'road', '14']) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(200);
    for (const kind of ['customs', 'withholding']) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(50);
  });

  it('numbers the signed ones GD{month}{seq} gap-free per month, as the signing records and the counters say', async () => {
    const signed = (await rows()).filter((r) => r.sign_state === IncomeSignState.signed);
    expect(signed.length).toBeGreaterThan(10_000);
    const signings = await k().selectFrom('income_signings').selectAll().where('state', '=', 'signed').execute();
    expect(signings.length).toBe(signed.length);
    const byInvoice = new Map(signings.map((g) => [g.invoice_id, g]));
    const seqs = new Map<string, number[]>();
    // Differences collected and compared once (an expect per row would cost seconds).
    const wrong: string[] = [];
    for (const r of signed) {
      const g = byInvoice.get(r.id);
      const m = /^GD(\d{6})(\d{4,})$/.exec(r.archive_no);
      if (!g || !m) {
        wrong.push(`${r.id}: ${g ? 'archive number' : 'no signing record'} ${r.archive_no}`);
        continue;
      }
      if (g.archive_no !== r.archive_no || g.doc_no !== r.doc_no) wrong.push(`${r.id}: record ${g.archive_no} ${g.doc_no} ≠ ${r.archive_no} ${r.doc_no}`);
      if (m[1] !== shanghaiMonth(new Date(g.finished_at!))) wrong.push(`${r.id}: ${r.archive_no} signed ${g.finished_at}`);
      // The signing's lock: closed for a contract, held otherwise.
      if (r.use_kind !== 'sign' || r.usage !== (g.doc_type === 'contract' ? IncomeUsage.closed : IncomeUsage.locked)) wrong.push(`${r.id}: use ${r.use_kind} ${r.usage}`);
      (seqs.get(m[1]!) ?? seqs.set(m[1]!, []).get(m[1]!)!).push(Number(m[2]));
    }
    expect(wrong).toEqual([]);
    const counters = new Map((await k().selectFrom('income_archive_counters').selectAll().execute()).map((c) => [c.month, Number(c.seq)]));
    expect([...counters.keys()].sort()).toEqual([...seqs.keys()].sort());
    for (const [month, list] of seqs) {
      list.sort((a, b) => a - b);
      expect(list, month).toEqual(Array.from({ length: list.length }, (_, i) => i + 1));
      expect(counters.get(month), month).toBe(list.length);
    }
    const locks = await k().selectFrom('income_locks').select(['invoice_id', 'doc_no', 'state']).where('active', '=', 1).where('use_kind', '=', 'sign').execute();
    expect(locks.length).toBe(signed.length);
  });

  it('leaves some waiting (the list and badge agree), some failed at the archive side, and a handful abnormal', async () => {
    const all = await rows();
    const waiting = all.filter((r) => [IncomeSignState.unsigned, IncomeSignState.failed].includes(r.sign_state as 0) && r.usage === IncomeUsage.available && ![2, 3, 8].includes(r.invoice_state) && r.buyer_mismatch === 0);
    expect(waiting.length).toBeGreaterThan(1_000);
    expect(waiting.some((r) => r.sign_state === IncomeSignState.failed)).toBe(true);
    expect((await s.call('/api/income/entry/sign-count', {}, t14)).r.invoiceEntrySignCount).toBe(waiting.length);
    expect((await s.call('/api/income/entry/list', { pageSize: 1 }, t14)).r.total).toBe(waiting.length);
    const abnormal = await s.call('/api/income/pool/abnormal', { pageSize: 500 }, t13);
    expect(abnormal.r.total).toBeGreaterThanOrEqual(30);
    expect(abnormal.r.total).toBeLessThan(100);
    expect(new Set(abnormal.r.items.flatMap((i: { abnormalFlags: string[] }) => i.abnormalFlags))).toEqual(new Set(IncomeAbnormalFlag.values));
  });

  it('a signing now continues the month\'s sequence after the seeded numbers', async () => {
    const month = shanghaiMonth();
    const before = await k().selectFrom('income_archive_counters').select('seq').where('month', '=', month).executeTakeFirst();
    const one = (await s.call('/api/income/entry/list', { pageSize: 1 }, t14)).r.items[0];
    // A real project of the demo (this seed draws no reimbursement bills: reimbPerMonth 0).
    const project = await k().selectFrom('projects').select('code').where('is_temp', '=', 0).orderBy('code').executeTakeFirstOrThrow();
    const a = await s.call('/api/income/entry/sign', { invoiceIds: [one.id], docType: 'project', docNo: project.code }, t14);
    expect(a.code, a.message).toBe(20000);
    expect(a.r.outcomes[0].archiveNo).toBe(`GD${month}${String(Number(before?.seq ?? 0) + 1).padStart(4, '0')}`);
  });
});
