/**
 * Issue 13, "Demo data and scale": the pool's totals come from income_pool_days (migration 0024) when the
 * filter uses only its dimensions, and must equal the invoices' own count and sums after every kind of
 * write: the seed's bulk insert, arrivals (manual entry), merges, tax state changes (applyTaxState),
 * 查验-free direct changes of an amount, locks, signing, revocation, a delete, and concurrent arrivals.
 * Compared two ways: the list's totals (pool, 其他, waiting list, badge) against a direct SQL sum, and the
 * whole summary table against a GROUP BY of the invoices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { IncomeInvoiceState, IncomeRiskLevel, IncomeSignState, IncomeUsage, OTHER_INCOME_KINDS } from '@zhyy/shared';
import { applyTaxState } from '../src/modules/income/intake/collect.js';
import { lock } from '../src/modules/income/identity/locks.js';
import { summaryAnswers } from '../src/modules/income/pool/summary.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, shanghaiDay, signDocs } from './income-helpers.js';

let s: TestServer;
let t13: string;
let t14: string;

beforeAll(async () => {
  s = await startTestServer();
  [t13, t14] = (await Promise.all(['demo13', 'demo14'].map((n) => s.login(n)))) as [string, string];
});
afterAll(() => s?.close());

type Totals = { count: number; amountExcl: number; tax: number; amountIncl: number };

/** The invoices' own count and sums under a raw SQL condition (independent of filters.ts and summary.ts). */
async function direct(where: string): Promise<Totals> {
  const r = (
    await sql<{ n: unknown; ae: unknown; t: unknown; ai: unknown }>`select count(*) as n, coalesce(sum(amount_excl), 0) as ae, coalesce(sum(tax), 0) as t, coalesce(sum(amount_incl), 0) as ai
      from income_invoices where ${sql.raw(where)}`.execute(s.db.kysely)
  ).rows[0]!;
  return { count: Number(r.n), amountExcl: Number(r.ae), tax: Number(r.t), amountIncl: Number(r.ai) };
}

const from = shanghaiDay(-60);
const to = shanghaiDay(0);
const others = OTHER_INCOME_KINDS.map((k) => `'${k}'`).join(', ');
const WAITING = `sign_state in (0, 2) and usage = 0 and invoice_state not in (2, 3, 8) and buyer_mismatch = 0`;
/** [route, body, the same set in SQL]: each body uses only summarised filters. */
const CASES: Array<[string, Record<string, unknown>, string]> = [
  ['/api/income/pool/list', {}, '1 = 1'],
  ['/api/income/pool/list', { issueFrom: from, issueTo: to }, `issue_date >= '${from}' and issue_date <= '${to}'`],
  ['/api/income/pool/list', { kind: '81', issueFrom: from }, `kind = '81' and issue_date >= '${from}'`],
  ['/api/income/pool/list', { signState: 0, usage: 0, issueTo: to }, `sign_state = 0 and usage = 0 and issue_date <= '${to}'`],
  ['/api/income/pool/list', { invoiceState: IncomeInvoiceState.voided }, 'invoice_state = 2'],
  ['/api/income/pool/list', { signState: IncomeSignState.signed, sort: { field: 'amountIncl', order: 'descend' }, pageIndex: 2 }, 'sign_state = 1'],
  ['/api/income/pool/other', {}, `kind in (${others})`],
  ['/api/income/pool/other', { issueFrom: from }, `kind in (${others}) and issue_date >= '${from}'`],
  ['/api/income/entry/list', {}, WAITING],
  ['/api/income/entry/list', { kind: '81', issueFrom: from }, `${WAITING} and kind = '81' and issue_date >= '${from}'`],
];

async function expectExact(): Promise<void> {
  for (const [url, body, where] of CASES) {
    const r = await s.call(url, { pageSize: 1, ...body }, url.includes('/entry/') ? t14 : t13);
    expect(r.code, `${url} ${JSON.stringify(body)}: ${r.message}`).toBe(20000);
    const want = await direct(where);
    expect(r.r.totals, `${url} ${JSON.stringify(body)}`).toEqual(want);
    expect(r.r.total).toBe(want.count);
  }
  const badge = await s.call('/api/income/entry/sign-count', {}, t14);
  expect(badge.r).toEqual(expect.objectContaining({ invoiceEntrySignCount: (await direct(WAITING)).count }));
  // The whole summary against a GROUP BY of the invoices (keys left at zero by moves are dropped).
  const key = 'issue_date, kind, invoice_state, sign_state, usage, buyer_mismatch';
  const norm = (rows: Array<Record<string, unknown>>) =>
    rows
      .filter((r) => Number(r.n) !== 0 || Number(r.ae) !== 0 || Number(r.t) !== 0 || Number(r.ai) !== 0)
      .map((r) => [r.issue_date, r.kind, Number(r.invoice_state), Number(r.sign_state), Number(r.usage), Number(r.buyer_mismatch), Number(r.n), Number(r.ae), Number(r.t), Number(r.ai)].join('|'))
      .sort();
  const summary = (await sql<Record<string, unknown>>`select ${sql.raw(key)}, n, amount_excl as ae, tax as t, amount_incl as ai from income_pool_days`.execute(s.db.kysely)).rows;
  const grouped = (await sql<Record<string, unknown>>`select ${sql.raw(key)}, count(*) as n, sum(amount_excl) as ae, sum(tax) as t, sum(amount_incl) as ai from income_invoices group by ${sql.raw(key)}`.execute(s.db.kysely)).rows;
  expect(norm(summary)).toEqual(norm(grouped));
}

const save = async (over: Record<string, unknown> = {}) => {
  const a = await s.call('/api/income/pool/save', entry(over), t13);
  expect(a.code, a.message).toBe(20000);
  return a.r as { id: string; outcome: string };
};

describe('the pool summary (income_pool_days) stays exact', () => {
  it('answers only the filters of its dimensions', () => {
    expect(summaryAnswers({ kind: '81', issueFrom: '2026-01-01', signState: 0, usage: 0, invoiceState: 0, pageIndex: 3, pageSize: 20 } as never, 'all')).toBe(true);
    expect(summaryAnswers({ sellerTaxNo: 'X' } as never, 'all')).toBe(false);
    expect(summaryAnswers({ amountMin: 0 } as never, 'all')).toBe(false);
    expect(summaryAnswers({ verifyState: 1 } as never, 'other')).toBe(false);
    expect(summaryAnswers({ number: '', sellerName: undefined } as never, 'waiting')).toBe(true);
    expect(summaryAnswers({} as never, 'abnormal')).toBe(false);
  });

  it('after the seed', async () => {
    expect(Number((await sql<{ n: unknown }>`select count(*) as n from income_pool_days`.execute(s.db.kysely)).rows[0]!.n)).toBeGreaterThan(0);
    await expectExact();
  });

  it('after arrivals, a merge and an arrival of an 其他 kind', async () => {
    const body = entry({ issueDate: shanghaiDay(-3), amountExcl: 12345, tax: 1111, amountIncl: 13456, lines: [] });
    const first = await s.call('/api/income/pool/save', body, t13);
    expect(first.r.outcome).toBe('created');
    const again = await s.call('/api/income/pool/save', body, t13);
    expect(again.r.outcome).toBe('merged');
    await save({ issueDate: shanghaiDay(-5) });
    await expectExact();
  });

  it('after tax state changes, an amount change, locks, signing, a revocation and a delete', async () => {
    const a = await save({ issueDate: shanghaiDay(-7) });
    const b = await save({ issueDate: shanghaiDay(-8) });
    const c = await save({ issueDate: shanghaiDay(-9) });
    const d = await save({ issueDate: shanghaiDay(-11) });
    const e = await save({ issueDate: shanghaiDay(-12) });
    await s.db.kysely.transaction().execute((trx) => applyTaxState(trx, a.id, { state: IncomeInvoiceState.voided, risk: IncomeRiskLevel.normal }, '测试'));
    await s.db.kysely.transaction().execute((trx) => applyTaxState(trx, b.id, { state: IncomeInvoiceState.normal, risk: IncomeRiskLevel.abnormalVoucher }, '测试'));
    await expectExact();
    // A change of the face (issue day and amounts) moves the row between keys.
    await s.db.kysely.updateTable('income_invoices').set({ issue_date: shanghaiDay(-40), amount_excl: 20000, tax: 1800, amount_incl: 21800 }).where('id', '=', b.id).execute();
    await s.db.kysely.transaction().execute((trx) => lock(c.id, { kind: 'reimbursement', docNo: 'BX-SUM-1' }, trx));
    await expectExact();
    const signed = await s.call('/api/income/entry/sign', { invoiceIds: [d.id], docType: 'contract', docNo: (await signDocs(s)).contract }, t14);
    expect(signed.code, signed.message).toBe(20000);
    const row = await s.db.kysely.selectFrom('income_invoices').select(['sign_state', 'usage']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.sign_state).toBe(IncomeSignState.signed);
    expect(row.usage).not.toBe(IncomeUsage.available);
    await expectExact();
    const byClaim = await s.call('/api/income/entry/sign', { invoiceIds: [e.id], docType: 'reimbursement', docNo: (await signDocs(s)).reimbursement }, t14);
    expect(byClaim.code, byClaim.message).toBe(20000);
    await expectExact();
    const revoked = await s.call('/api/income/entry/revoke/add', { invoiceId: e.id, reason: '汇总测试撤销' }, t14);
    expect(revoked.code, revoked.message).toBe(20000);
    await expectExact();
    await s.db.kysely.transaction().execute(async (trx) => {
      for (const t of ['income_events', 'income_files', 'income_invoice_lines', 'income_locks']) await trx.deleteFrom(t as 'income_events').where('invoice_id', '=', a.id).execute();
      await trx.deleteFrom('income_invoices').where('id', '=', a.id).execute();
    });
    await expectExact();
  });

  it('after concurrent arrivals and signings of the same day and kind (one summary key)', async () => {
    const day = shanghaiDay(-2);
    const made = await Promise.all(Array.from({ length: 12 }, () => save({ issueDate: day })));
    const { contract } = await signDocs(s);
    await Promise.all(made.slice(0, 6).map((m) => s.call('/api/income/entry/sign', { invoiceIds: [m.id], docType: 'contract', docNo: contract }, t14)));
    await expectExact();
  });
});
