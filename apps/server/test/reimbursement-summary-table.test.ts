/**
 * Issue 30, 部门月度报销汇总 from its summary tables (migration 0051: reimb_summary_cells and
 * reimb_summary_bills, kept by triggers). After every step of a sequence of real operations (push through
 * the API, 红字冲销, 撤销 after deleting the voucher, a push settled by the job, pushing again) and of
 * writes the API does not make today (a line of a pushed bill changed or removed, a bill moved to another
 * department or month, a pushed bill deleted), the tables equal the aggregation of the raw lines, computed
 * here in SQL. And the pivot and its drill-down answer exactly as the raw queries they replaced did, on the
 * demo data. SQLite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { ReimbState, type ReimbSummaryQuery } from '@zhyy/shared';
import type { Database } from '../src/db/schema.js';
import { accountingSimControl, createAccountingGateway } from '../src/integrations/accounting/index.js';
import * as m0051 from '../src/db/migrations/0051_reimb_summary_cells.js';
import { planVoucher } from '../src/modules/reimbursement/accounting/voucher.js';
import { assembleSummary } from '../src/modules/reimbursement/ledger/summary.js';
import type { TestServer } from './helpers.js';
import { accountingHelpers, makeBill, startAccountingServer } from './reimbursement-accounting-fixture.js';

let s: TestServer;
const tok: Record<string, string> = {};
const { call, bill } = accountingHelpers(() => s, tok);
const k = () => s.db.kysely;

beforeAll(async () => {
  s = await startAccountingServer(tok);
  tok.summary = tok.demo16!;
});
afterAll(() => s?.close());
afterEach(() => accountingSimControl.reset());

const sorted = (rows: string[]) => rows.sort();
/** The pushed lines grouped as the cells table keys them, straight from the lines. */
async function rawCells(db: Kysely<Database>) {
  const r = await sql<{ d: string; m: string; c: string; n: string; a: string | number; l: string | number }>`
    select coalesce(b.dept_id, '') as d, substr(b.voucher_date, 1, 7) as m, l.category_code as c, l.category_name as n,
      sum(coalesce(l.approved_amount, l.amount)) as a, count(*) as l
    from reimb_bills b join reimb_lines l on l.bill_id = b.id where b.reimb_state = 1
    group by coalesce(b.dept_id, ''), substr(b.voucher_date, 1, 7), l.category_code, l.category_name`.execute(db);
  return sorted(r.rows.map((x) => `${x.d}|${x.m}|${x.c}|${x.n}|${Number(x.a)}|${Number(x.l)}`));
}
async function rawBills(db: Kysely<Database>) {
  const r = await sql<{ d: string; m: string; n: string; b: string | number }>`
    select coalesce(dept_id, '') as d, substr(voucher_date, 1, 7) as m, dept_name as n, count(*) as b
    from reimb_bills where reimb_state = 1 group by coalesce(dept_id, ''), substr(voucher_date, 1, 7), dept_name`.execute(db);
  return sorted(r.rows.map((x) => `${x.d}|${x.m}|${x.n}|${Number(x.b)}`));
}
async function tableCells(db: Kysely<Database>) {
  const r = await db.selectFrom('reimb_summary_cells').selectAll().where('lines', '<>', 0).execute();
  return sorted(r.map((x) => `${x.dept_key}|${x.month}|${x.category_code}|${x.category_name}|${Number(x.amount)}|${Number(x.lines)}`));
}
async function tableBills(db: Kysely<Database>) {
  const r = await db.selectFrom('reimb_summary_bills').selectAll().where('bills', '<>', 0).execute();
  return sorted(r.map((x) => `${x.dept_key}|${x.month}|${x.dept_name}|${Number(x.bills)}`));
}
async function expectInStep(what: string) {
  expect(await tableCells(k()), `${what}: cells`).toEqual(await rawCells(k()));
  expect(await tableBills(k()), `${what}: bills`).toEqual(await rawBills(k()));
  // A key whose bills all left keeps zeros, never a stray amount.
  const stray = await k().selectFrom('reimb_summary_cells').select('dept_key').where('lines', '=', 0).where('amount', '<>', 0).execute();
  expect(stray, what).toEqual([]);
}

const summary = (path: string, body: unknown) => s.call(`/api/reimbursement/summary/${path}`, body, tok.summary);
const push = async (id: string) => {
  const a = await call('/push', { billIds: [id] });
  expect(a.r.results[0].ok, a.r.results[0].message).toBe(true);
};

describe('the summary tables follow every write', () => {
  it('are kept while the demo is seeded, and filled by the migration from the rows already there', async () => {
    expect((await tableCells(k())).length).toBeGreaterThan(0);
    await expectInStep('seeded demo');
    // The test image is migrated before it is seeded: take 0051 down and up again over the demo's bills.
    await m0051.down(k());
    await m0051.up(k());
    await expectInStep('backfill');
  });

  it('push, 红字冲销, 撤销 after deleting the voucher, a push settled by the job, pushing again', async () => {
    const a = await makeBill(s);
    const b = await makeBill(s, { lines: [{ category: 'T01', amount: 30_000 }, { category: 'T01', amount: 12_000, approved: 10_000 }, { category: 'T02', amount: 8_800 }] });
    const c = await makeBill(s, { deptId: null, lines: [{ category: 'T02', amount: 5_000 }] });
    // No department: the cost centre as 报销编辑 would set it.
    await k().updateTable('reimb_bills').set({ cost_centre_code: 'CC-IT', cost_centre_name: '信息中心' }).where('id', '=', c.id).execute();
    await expectInStep('approved bills (not counted)');
    await push(a.id);
    await expectInStep('push a');
    await push(b.id);
    await push(c.id);
    await expectInStep('push b, c');
    const v = await summary('view', { fromMonth: (await bill(a.id)).voucher_date.slice(0, 7), toMonth: (await bill(a.id)).voucher_date.slice(0, 7) });
    expect(v.r.rows.find((r: { deptId: string }) => r.deptId === '')?.total).toMatchObject({ amount: 5_000, lineCount: 1 });

    expect((await call('/revoke/add', { billId: a.id, reason: '报销金额有误', method: 'reverse' })).code).toBe(20000);
    expect((await bill(a.id)).reimb_state).toBe(ReimbState.unReimburse);
    await expectInStep('红字冲销 of a');
    expect((await call('/revoke/sim-delete-voucher', { billId: b.id })).code).toBe(20000);
    expect((await call('/revoke/add', { billId: b.id, reason: '重复报销' })).code).toBe(20000);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.unReimburse);
    await expectInStep('撤销 of b');
    await push(a.id);
    await expectInStep('a pushed again');

    // A push cut short after the voucher reached the accounting side: the settling job records it.
    const d = await makeBill(s, { lines: [{ category: 'T02', amount: 7_700 }] });
    await k().updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', d.id).execute();
    await expectInStep('报销中 (not counted)');
    const plan = await planVoucher(k(), await bill(d.id), '李会计');
    await createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 }).pushVoucher(plan.voucher!);
    await s.app.reimbPushSettleJob.settleDue();
    expect((await bill(d.id)).reimb_state).toBe(ReimbState.success);
    await expectInStep('push settled by the job');
  });

  it('lines of a pushed bill changed, moved or removed; the bill moved; the bill deleted', async () => {
    const e = await makeBill(s, { lines: [{ category: 'T01', amount: 1_000 }, { category: 'T02', amount: 2_000 }, { category: 'T02', amount: 3_000 }] });
    await push(e.id);
    const lines = await k().selectFrom('reimb_lines').select(['id', 'line_no']).where('bill_id', '=', e.id).orderBy('line_no').execute();
    await k().updateTable('reimb_lines').set({ approved_amount: 900 }).where('id', '=', lines[0]!.id).execute();
    await expectInStep('核定 of a pushed line');
    await k().updateTable('reimb_lines').set({ category_code: 'T01', category_name: '差旅费（旧名）' }).where('id', '=', lines[1]!.id).execute();
    await expectInStep('a line moved to another category and name');
    await k().deleteFrom('reimb_lines').where('id', '=', lines[2]!.id).execute();
    await expectInStep('a line removed');
    await k().updateTable('reimb_bills').set({ dept_id: null, dept_name: '旧部门' }).where('id', '=', e.id).execute();
    await expectInStep('the bill moved to no department');
    await k().updateTable('reimb_bills').set({ voucher_date: '2030-01-15' }).where('id', '=', e.id).execute();
    await expectInStep('the bill moved to another month');
    const f = await makeBill(s, { lines: [{ category: 'T02', amount: 4_000 }] });
    await push(f.id);
    await k().updateTable('reimb_lines').set({ bill_id: f.id }).where('bill_id', '=', e.id).where('line_no', '=', 1).execute();
    await expectInStep('a line moved to another pushed bill');
    await k().deleteFrom('reimb_bills').where('id', '=', e.id).execute();
    await expectInStep('a pushed bill deleted');
    await k().deleteFrom('reimb_bills').where('id', '=', f.id).execute();
    await expectInStep('another pushed bill deleted');
  });
});

type Scope = { fromMonth: string; toMonth: string; deptIds?: string[]; deptId?: string; month?: string; categoryCode?: string };
/** The raw reads the view made before 0051 (the pushed bills' lines grouped on every call), as they were. */
function oldScoped(s: Scope, join: boolean) {
  const from = s.month ?? s.fromMonth;
  const to = s.month ?? s.toMonth;
  let q = k().selectFrom('reimb_bills as b').where('b.reimb_state', '=', ReimbState.success).where('b.voucher_date', '>=', `${from}-01`).where('b.voucher_date', '<=', `${to}-32`);
  if (s.deptIds?.length) q = q.where('b.dept_id', 'in', s.deptIds);
  if (s.deptId !== undefined) q = s.deptId === '' ? q.where('b.dept_id', 'is', null) : q.where('b.dept_id', '=', s.deptId);
  const j = q.innerJoin('reimb_lines as l', 'l.bill_id', 'b.id');
  return { bills: q, lines: join && s.categoryCode ? j.where('l.category_code', '=', s.categoryCode) : j };
}
const monthOf = sql<string>`substr(b.voucher_date, 1, 7)`;
const approved = sql<number>`coalesce(l.approved_amount, l.amount)`;
async function oldView(q: ReimbSummaryQuery) {
  const o = oldScoped(q, false);
  const [cells, bills, depts, cats] = await Promise.all([
    o.lines.select(['b.dept_id', monthOf.as('month'), 'l.category_code', sql<string>`max(l.category_name)`.as('category_name'), sql<number>`coalesce(sum(${approved}), 0)`.as('amount'), sql<number>`count(*)`.as('lines')])
      .groupBy(['b.dept_id', monthOf, 'l.category_code']).orderBy('b.dept_id').orderBy(monthOf).orderBy('l.category_code').execute(),
    o.bills.select(['b.dept_id', monthOf.as('month'), sql<string>`max(b.dept_name)`.as('dept_name'), sql<number>`count(*)`.as('n')]).groupBy(['b.dept_id', monthOf]).orderBy('b.dept_id').orderBy(monthOf).execute(),
    k().selectFrom('departments').select(['id', 'name', 'sort']).execute(),
    k().selectFrom('reimb_categories').select(['code', 'name', 'sort']).execute(),
  ]);
  return assembleSummary(q, cells, bills, depts, cats);
}
async function oldBills(q: Scope & { pageSize: number }) {
  const { lines } = oldScoped(q, true);
  const [page, t] = await Promise.all([
    lines.select(['b.id', sql<number>`coalesce(sum(${approved}), 0)`.as('cell'), sql<number>`count(*)`.as('lines')])
      .groupBy(['b.id', 'b.voucher_date', 'b.bill_no']).orderBy('b.voucher_date', 'desc').orderBy('b.bill_no', 'desc').limit(q.pageSize).execute(),
    lines.select([sql<number>`count(distinct b.id)`.as('n'), sql<number>`coalesce(sum(${approved}), 0)`.as('cell'), sql<number>`count(*)`.as('lines')]).executeTakeFirst(),
  ]);
  return { ids: page.map((p) => `${p.id} ${Number(p.cell)} ${Number(p.lines)}`), totals: { count: Number(t?.n ?? 0), cellAmount: Number(t?.cell ?? 0), cellLines: Number(t?.lines ?? 0) } };
}

describe('the pivot and its drill-down answer as the raw queries did (demo data)', () => {
  const months = async () => {
    const r = await k().selectFrom('reimb_bills').select([sql<string>`min(voucher_date)`.as('lo'), sql<string>`max(voucher_date)`.as('hi')]).where('reimb_state', '=', 1).executeTakeFirstOrThrow();
    return { fromMonth: r.lo.slice(0, 7), toMonth: r.hi.slice(0, 7) };
  };

  it('the view, over every month with bills, one month, and chosen departments', async () => {
    const all = await months();
    const scopes: ReimbSummaryQuery[] = [all, { fromMonth: all.toMonth, toMonth: all.toMonth }];
    const v = await summary('view', all);
    expect(v.code, v.message).toBe(20000);
    expect(v.r.rows.length).toBeGreaterThan(1);
    expect(v.r.total.count).toBeGreaterThan(10);
    scopes.push({ ...all, deptIds: v.r.rows.filter((r: { deptId: string }) => r.deptId).slice(0, 2).map((r: { deptId: string }) => r.deptId) });
    for (const q of scopes) {
      const a = await summary('view', q);
      expect(a.code, a.message).toBe(20000);
      expect(a.r, JSON.stringify(q)).toEqual(JSON.parse(JSON.stringify(await oldView(q))));
    }
  });

  it('the drill-down: a department row, a month column, a category column, a cell', async () => {
    const all = await months();
    const v = (await summary('view', all)).r;
    const dept = v.rows[0].deptId as string;
    const cat = v.categories[0].code as string;
    const month = v.months[v.months.length - 1] as string;
    const scopes: Array<Scope & { pageSize: number }> = [
      { ...all, deptId: dept, pageSize: 20 },
      { ...all, month, pageSize: 20 },
      { ...all, categoryCode: cat, pageSize: 20 },
      { ...all, deptId: dept, categoryCode: cat, pageSize: 5 },
      { ...all, deptId: '', pageSize: 20 },
    ];
    for (const q of scopes) {
      const a = await summary('bills', q);
      expect(a.code, a.message).toBe(20000);
      const want = await oldBills(q);
      expect({ ids: a.r.items.map((i: { id: string; cellAmount: number; cellLines: number }) => `${i.id} ${i.cellAmount} ${i.cellLines}`), totals: a.r.totals }, JSON.stringify(q)).toEqual(want);
      expect(a.r.total).toBe(want.totals.count);
    }
  });
});
