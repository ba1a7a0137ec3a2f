/**
 * Issue 15, the demo reimbursements (seed/reimbursement.ts): twelve months of bills (here 100 a month
 * instead of the full 700, the same generator), 2–6 lines each, the state mix (pushed with vouchers,
 * waiting for 一键报销, failed with a message, revoked back to 0, in approval as real FY01 instances),
 * the sums, every line's pool invoice locked or closed for its bill, and the accounting simulator
 * knowing every pushed voucher.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState, IncomeUsage, REIMB_BILL_NO, ReimbFlowState, ReimbState } from '@zhyy/shared';
import { AccountingSimulator } from '../src/integrations/accounting/simulator.js';
import { voucherProblem, type Voucher } from '../src/integrations/accounting/types.js';
import { startTestServer, type TestServer } from './helpers.js';

const PER_MONTH = 100;
let s: TestServer;
const k = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { incomePerDay: 3, reimbPerMonth: PER_MONTH } });
}, 300_000);
afterAll(() => s?.close());

const bills = async () => (await k().selectFrom('reimb_bills').selectAll().execute()).map((b) => ({ ...b, amount: Number(b.amount), approved_amount: Number(b.approved_amount), tax: Number(b.tax), deductible_tax: Number(b.deductible_tax) }));
const lines = async () => (await k().selectFrom('reimb_lines').selectAll().execute()).map((l) => ({ ...l, amount: Number(l.amount), tax: Number(l.tax), deductible_tax: Number(l.deductible_tax), approved_amount: l.approved_amount === null ? null : Number(l.approved_amount) }));
const halfUp = (amount: number, rate: string) => Math.floor((amount * Number(rate)) / (1 + Number(rate)) + 0.5 + 1e-9);

describe('the demo reimbursements', () => {
  it('hold twelve months at the given volume, 2–6 lines a generated bill, numbered BX{yyyyMM}{seq} with the counters', async () => {
    const all = await bills();
    const generated = all.filter((b) => !b.work_id || b.flow_state === ReimbFlowState.approving);
    expect(generated.length).toBeGreaterThanOrEqual(PER_MONTH * 12);
    const byMonth = new Map<string, number>();
    for (const b of all) byMonth.set(b.bill_no.slice(2, 8), (byMonth.get(b.bill_no.slice(2, 8)) ?? 0) + 1);
    const full = [...byMonth.keys()].sort().slice(1, -1);
    expect(full.length).toBeGreaterThanOrEqual(10);
    for (const m of full) expect(byMonth.get(m)!, m).toBeGreaterThan(PER_MONTH * 0.8);
    for (const m of full) expect(byMonth.get(m)!, m).toBeLessThan(PER_MONTH * 1.3);
    for (const b of all) expect(b.bill_no).toMatch(REIMB_BILL_NO);
    expect(new Set(all.map((b) => b.bill_no)).size).toBe(all.length);
    const counters = await k().selectFrom('reimb_counters').selectAll().execute();
    for (const [m, n] of byMonth) expect(counters.find((c) => c.month === m)?.seq, m).toBe(n);
    const ls = await lines();
    const count = new Map<string, number>();
    for (const l of ls) count.set(l.bill_id, (count.get(l.bill_id) ?? 0) + 1);
    for (const b of all.filter((x) => !x.work_id)) expect(count.get(b.id), b.bill_no).toBeGreaterThanOrEqual(2);
    for (const b of all) expect(count.get(b.id), b.bill_no).toBeLessThanOrEqual(6);
    for (const b of all) expect(b.line_count).toBe(count.get(b.id));
    const codes = new Set(ls.map((l) => l.category_name));
    for (const c of ['差旅-交通', '差旅-住宿', '差旅-补助', '市内交通', '业务招待', '办公', '通讯', '车辆']) expect(codes.has(c), c).toBe(true);
  });

  it('has the state mix: mostly pushed, some waiting for 一键报销, a few failed with a message, a few revoked back to 0', async () => {
    const all = await bills();
    const approved = all.filter((b) => b.flow_state === ReimbFlowState.approved);
    const by = (st: number) => approved.filter((b) => b.reimb_state === st);
    expect(by(ReimbState.success).length / approved.length).toBeGreaterThan(0.8);
    expect(by(ReimbState.unReimburse).length).toBeGreaterThanOrEqual(3);
    expect(by(ReimbState.failed).length).toBeGreaterThanOrEqual(2);
    for (const b of by(ReimbState.failed)) expect(b.push_message).toMatch(/会计系统|无法连接/);
    for (const b of all.filter((x) => x.flow_state !== ReimbFlowState.approved)) expect(b.reimb_state).toBeNull();
    const revs = await k().selectFrom('reimb_revocations').selectAll().execute();
    const done = revs.filter((r) => r.state === 1);
    expect(done.length).toBeGreaterThanOrEqual(2);
    for (const r of done) {
      const b = all.find((x) => x.id === r.bill_id)!;
      expect(b.reimb_state).toBe(ReimbState.unReimburse);
      expect(b.voucher_no).toBe('');
      expect(r.voucher_no).toMatch(/^记-\d{4}$/);
    }
    // Pushes: one success row per pushed bill.
    const pushes = await k().selectFrom('reimb_pushes').selectAll().where('action', '=', 'push').where('ok', '=', 1).execute();
    const pushedIds = new Set(pushes.map((p) => p.bill_id));
    for (const b of by(ReimbState.success)) expect(pushedIds.has(b.id), b.bill_no).toBe(true);
  });

  it('bills in approval are real FY01 instances for their bill; every FY01 instance belongs to a bill', async () => {
    const all = await bills();
    const approving = all.filter((b) => b.flow_state === ReimbFlowState.approving);
    expect(approving.length).toBeGreaterThanOrEqual(3);
    const inst = await k().withTables<{ wf_instances: { work_id: number; flow_no: string; record_type: string | null; record_id: string | null; state: number } }>().selectFrom('wf_instances').selectAll().where('flow_no', '=', 'FY01').execute();
    const byWork = new Map(inst.map((i) => [Number(i.work_id), i]));
    for (const b of approving) {
      const i = byWork.get(Number(b.work_id));
      expect(i, b.bill_no).toBeDefined();
      expect(i).toMatchObject({ record_type: 'reimbursement', record_id: b.id, state: FlowState.running });
    }
    const ids = new Set(all.map((b) => b.id));
    for (const i of inst.filter((x) => x.state !== FlowState.deleted)) {
      expect(i.record_type).toBe('reimbursement');
      expect(ids.has(i.record_id!)).toBe(true);
    }
  });

  it('keeps the sums: bill = Σ lines; line tax = amount × rate / (1 + rate) half up; 核定 never above the claim', async () => {
    const ls = await lines();
    const by = new Map<string, typeof ls>();
    for (const l of ls) by.set(l.bill_id, [...(by.get(l.bill_id) ?? []), l]);
    for (const l of ls) {
      expect(l.tax, l.id).toBe(halfUp(l.amount, l.tax_rate));
      if (l.approved_amount !== null) expect(l.approved_amount).toBeLessThanOrEqual(l.amount);
    }
    for (const b of await bills()) {
      const m = by.get(b.id)!;
      expect(b.amount, b.bill_no).toBe(m.reduce((a, l) => a + l.amount, 0));
      expect(b.approved_amount, b.bill_no).toBe(m.reduce((a, l) => a + (l.approved_amount ?? l.amount), 0));
      expect(b.tax, b.bill_no).toBe(m.reduce((a, l) => a + l.tax, 0));
      expect(b.deductible_tax, b.bill_no).toBe(m.reduce((a, l) => a + l.deductible_tax, 0));
    }
    expect(ls.some((l) => l.deductible_tax > 0)).toBe(true);
    expect(ls.some((l) => l.approved_amount !== null && l.approved_amount < l.amount)).toBe(true);
  });

  it('backs every line but the allowance by a pool invoice of the company, locked for an unpushed bill and closed for a pushed one', async () => {
    const all = new Map((await bills()).map((b) => [b.id, b]));
    const ls = await lines();
    const invoices = new Map((await k().selectFrom('income_invoices').selectAll().where('use_kind', '=', 'reimbursement').execute()).map((i) => [i.id, i]));
    const locks = new Map((await k().selectFrom('income_locks').selectAll().where('use_kind', '=', 'reimbursement').where('active', '=', 1).execute()).map((l) => [l.invoice_id, l]));
    const transport = new Set((await k().selectFrom('income_transport').select('invoice_id').execute()).map((t) => t.invoice_id));
    const seen = new Set<string>();
    for (const l of ls) {
      if (l.category_code === '0103') {
        expect(l.invoice_id).toBeNull();
        continue;
      }
      expect(l.invoice_id, `${l.category_name} ${l.id}`).not.toBeNull();
      expect(seen.has(l.invoice_id!)).toBe(false);
      seen.add(l.invoice_id!);
      const b = all.get(l.bill_id)!;
      const inv = invoices.get(l.invoice_id!)!;
      expect(inv, l.id).toBeDefined();
      const pushed = b.reimb_state === ReimbState.success;
      expect(inv).toMatchObject({ doc_no: b.bill_no, usage: pushed ? IncomeUsage.closed : IncomeUsage.locked, buyer_name: '华建工程技术服务有限公司' });
      expect(Number(inv.amount_incl)).toBe(l.amount);
      expect(inv.booking_state).toBe(pushed ? '02' : '01');
      if (pushed) expect(inv.booked_at).not.toBeNull();
      expect(locks.get(inv.id)).toMatchObject({ doc_no: b.bill_no, state: pushed ? 'closed' : 'locked' });
      if (['rail', 'air', 'road'].includes(inv.kind)) expect(transport.has(inv.id)).toBe(true);
    }
  });

  it('makes its 数电专票 known to the simulated tax service, so 抵扣勾选 ticks one still waiting', async () => {
    const special = await k().selectFrom('income_invoices').select(['id', 'digital_no', 'tick_state', 'tick_period', 'issue_date']).where('use_kind', '=', 'reimbursement').where('kind', '=', '81').execute();
    expect(special.length).toBeGreaterThan(0);
    const known = new Set((await k().withTables<{ taxsim_income_known: { invoice_key: string } }>().selectFrom('taxsim_income_known').select('invoice_key').execute()).map((r) => r.invoice_key));
    for (const inv of special) expect(known.has(inv.digital_no), inv.digital_no).toBe(true);
    // Past periods mostly ticked already, like the rest of the pool.
    expect(special.filter((i) => i.tick_state === 1).length).toBeGreaterThan(special.length / 2);

    const t13 = await s.login('demo13');
    // The newest one not ticked that the ticking page offers (in the current period's window, no 疑点).
    let candidate: { id: string } | undefined;
    for (const inv of special.filter((i) => i.tick_state === 0).sort((a, b) => b.issue_date.localeCompare(a.issue_date))) {
      const found = await s.call('/api/income/deduction/list', { number: inv.digital_no }, t13);
      expect(found.code, found.message).toBe(20000);
      candidate = (found.r.items as Array<{ id: string; needsConfirm: boolean }>).find((r) => r.id === inv.id && !r.needsConfirm);
      if (candidate) break;
    }
    expect(candidate, 'a reimbursement 数电专票 waiting in the current period').toBeDefined();
    const ticked = await s.call('/api/income/deduction/tick', { items: [{ id: candidate!.id }], vatUsage: 1 }, t13);
    expect(ticked.code, ticked.message).toBe(20000);
    const after = await k().selectFrom('income_invoices').select(['tick_state', 'vat_usage']).where('id', '=', candidate!.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ tick_state: 1, vat_usage: 1 });
  });

  it('numbers the vouchers 记-NNNN per month, and the accounting simulator knows every pushed one', async () => {
    const pushed = (await bills()).filter((b) => b.reimb_state === ReimbState.success);
    expect(pushed.length).toBeGreaterThan(PER_MONTH * 8);
    const sim = new AccountingSimulator(s.db);
    const keys = new Set<string>();
    for (const b of pushed) {
      expect(b.voucher_no).toMatch(/^记-\d{4}$/);
      expect(b.voucher_period).toBe(b.voucher_date.slice(0, 7).replace('-', ''));
      const key = `${b.voucher_period} ${b.voucher_no}`;
      expect(keys.has(key)).toBe(false);
      keys.add(key);
    }
    // Every one through the simulator itself (a sample of 50 keeps it quick), every one in its table.
    for (const b of pushed.slice(0, 50)) expect(await sim.voucherState(b.voucher_id)).toEqual({ status: 'posted', voucherNo: b.voucher_no, period: b.voucher_period, date: b.voucher_date });
    const rows = new Map((await k().withTables<{ accountingsim_vouchers: { id: string; period: string; voucher_no: string; body: string } }>().selectFrom('accountingsim_vouchers').selectAll().execute()).map((r) => [r.id, r]));
    for (const b of pushed) {
      const r = rows.get(b.voucher_id);
      expect(r, b.bill_no).toMatchObject({ period: b.voucher_period, voucher_no: b.voucher_no });
      const v = JSON.parse(r!.body) as Voucher;
      expect(voucherProblem(v)).toBe('');
      expect(v.entries.filter((e) => e.dc === 'credit').reduce((a, e) => a + e.amount, 0)).toBe(b.approved_amount);
    }
    // The counters continue after each month's last number.
    const counters = await k().withTables<{ accountingsim_counters: { period: string; seq: number } }>().selectFrom('accountingsim_counters').selectAll().execute();
    for (const b of pushed) expect(Number(counters.find((c) => c.period === b.voucher_period)?.seq)).toBeGreaterThanOrEqual(Number(b.voucher_no.slice(2)));
  });

  it('gives every department a cost centre and every person a payee profile; bills carry their department\'s centre', async () => {
    const depts = await k().selectFrom('departments').select('id').execute();
    const centres = new Map((await k().selectFrom('reimb_cost_centres').selectAll().execute()).map((c) => [c.dept_id, c]));
    for (const d of depts) expect(centres.has(d.id)).toBe(true);
    for (const b of await bills()) expect(b.cost_centre_code).toBe(centres.get(b.dept_id!)?.centre_code);
    const profiles = await k().selectFrom('reimb_profiles').selectAll().execute();
    expect(profiles.length).toBeGreaterThan(40);
    for (const p of profiles) expect(p.payee_account).toMatch(/^\d{19}$/);
  });
});
