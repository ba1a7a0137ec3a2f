/**
 * Issue 27 item 6, 一键报销 pushes cut short: a push killed mid-exchange (报销中 past its lease) is settled by
 * the push settling job, which asks the accounting side for the voucher by the bill number. Split from
 * reimbursement-accounting.test.ts (same server set-up: reimbursement-accounting-fixture.ts). SQLite and
 * PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IncomeUsage, ReimbState } from '@zhyy/shared';
import { AccountingError, accountingSimControl, createAccountingGateway } from '../src/integrations/accounting/index.js';
import { registerKnownIncoming } from '../src/integrations/tax/index.js';
import { pushBill } from '../src/modules/reimbursement/accounting/service.js';
import { PUSH_INTERRUPTED, PushSettleJob } from '../src/modules/reimbursement/accounting/settle.js';
import { planVoucher } from '../src/modules/reimbursement/accounting/voucher.js';
import { attachServer, type TestServer } from './helpers.js';
import { accountingHelpers, makeBill, startAccountingServer } from './reimbursement-accounting-fixture.js';

let s: TestServer;
const tok: Record<string, string> = {};
const { call, bill, vouchersOf, pushes, invoices, messagesOf, exchanges, period } = accountingHelpers(() => s, tok);

beforeAll(async () => {
  s = await startAccountingServer(tok);
});
afterAll(() => s?.close());
afterEach(() => accountingSimControl.reset());

describe('settling pushes cut short (issue 27 item 6)', () => {
  const past = () => new Date(Date.now() - 1000).toISOString();
  /** As a kill -9 leaves it: the bill 报销中 with its lease run out; `delivered` when the voucher reached the accounting side first. */
  async function crashed(delivered: boolean) {
    const b = await makeBill(s);
    await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: past() }).where('id', '=', b.id).execute();
    if (delivered) {
      const plan = await planVoucher(s.db.kysely, await bill(b.id), '李会计');
      await createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 }).pushVoucher(plan.voucher!);
    }
    return b;
  }
  const listed = async (id: string) => (await call('/apply/list', { pageSize: 500 })).r.items.some((x: { id: string }) => x.id === id);
  const job = () => s.app.reimbPushSettleJob;

  it('the voucher arrived before the crash: the job asks by the bill number and records 已报销 with that one voucher', async () => {
    await job().settleDue(); // whatever an earlier test left 报销中
    const b = await crashed(true);
    const held = (await vouchersOf(b.billNo))[0]!;
    expect(await listed(b.id)).toBe(false);
    expect((await call('/edit/detail', { billId: b.id })).r.editable).toBe(false);
    expect(await job().settleDue()).toEqual({ pushed: 1, failed: 0, unknown: 0 });
    const after = await bill(b.id);
    expect(after.reimb_state).toBe(ReimbState.success);
    expect(after.voucher_no).toBe(held.voucher_no);
    expect(after.voucher_period).toBe(held.period);
    expect(after.voucher_date).toBe((JSON.parse(held.body) as { date: string }).date);
    expect(after.push_claimed_until).toBeNull();
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
    expect(await exchanges(b.billNo, 'accountingVoucherState')).toBe(1);
    expect(await exchanges(b.billNo, 'accountingPushVoucher')).toBe(1);
    const ps = await pushes(b.id);
    expect(ps.map((p) => [p.ok, p.user_name])).toEqual([[1, '系统']]);
    for (const inv of await invoices(b.invoiceIds)) expect([inv.usage, inv.booking_state]).toEqual([IncomeUsage.closed, '02']);
    expect((await messagesOf(b.applicantId)).some((m) => m.title === `报销单 ${b.billNo} 已入账`)).toBe(true);
    // Settled once: the next round finds nothing, and a push by hand answers 已报销 with the same voucher.
    expect(await job().settleDue()).toEqual({ pushed: 0, failed: 0, unknown: 0 });
    const again = await call('/push', { billIds: [b.id] });
    expect(again.r.results[0].voucherNo).toBe(held.voucher_no);
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
  });

  it('the accounting side never got it: 报销失败 (推送中断), back in 一键报销 with 保存并推送 enabled; pushing again makes one voucher', async () => {
    await job().settleDue();
    const badge = async () => (await s.call('/api/invoice/billing-cancellation-count', {}, tok.demo12)).r.reimbursementApplyCount as number;
    const b = await crashed(false);
    const before = await badge();
    expect(await job().settleDue()).toEqual({ pushed: 0, failed: 1, unknown: 0 });
    expect(await badge()).toBe(before + 1);
    const row = (await call('/apply/list', { billNo: b.billNo })).r.items[0];
    expect([row.reimbState, row.pushMessage]).toEqual([ReimbState.failed, PUSH_INTERRUPTED]);
    const after = await bill(b.id);
    expect(after.reimb_state).toBe(ReimbState.failed);
    expect(after.push_message).toBe(PUSH_INTERRUPTED);
    expect(await vouchersOf(b.billNo)).toHaveLength(0);
    expect(await listed(b.id)).toBe(true);
    const detail = (await call('/edit/detail', { billId: b.id })).r;
    expect(detail.editable).toBe(true);
    expect(detail.history[0]).toMatchObject({ ok: false, userName: '系统', message: PUSH_INTERRUPTED });
    // The invoices are still the bill's (locked), not closed.
    for (const inv of await invoices(b.invoiceIds)) expect([inv.usage, inv.doc_no]).toEqual([IncomeUsage.locked, b.billNo]);
    const pushed = await call('/push', { billIds: [b.id] });
    expect(pushed.r.results[0].ok).toBe(true);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
  });

  it('the accounting side cannot be asked: the bill stays 报销中 for a later round, which settles it', async () => {
    await job().settleDue();
    const b = await crashed(true);
    const sim = createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 });
    const down = new PushSettleJob({
      db: s.db, log: s.app.log, oplog: s.app.oplog,
      accounting: () => ({ db: s.db.kysely, booking: null, accounting: async () => ({ ...sim, voucherState: async () => { throw new AccountingError('无法连接会计系统，请稍后重试', 'TRANSPORT', undefined, 502); } }) }),
    });
    expect(await down.settleDue()).toEqual({ pushed: 0, failed: 0, unknown: 1 });
    const held = await bill(b.id);
    expect(held.reimb_state).toBe(ReimbState.applying);
    // Its lease was renewed by the attempt: the next round waits for it to run out, then settles.
    expect(held.push_claimed_until! > new Date().toISOString()).toBe(true);
    expect(await job().settleDue()).toEqual({ pushed: 0, failed: 0, unknown: 0 });
    await s.db.kysely.updateTable('reimb_bills').set({ push_claimed_until: past() }).where('id', '=', b.id).execute();
    expect(await job().settleDue()).toEqual({ pushed: 1, failed: 0, unknown: 0 });
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
  });

  it('a push still within its lease is left alone', async () => {
    await job().settleDue();
    const b = await makeBill(s);
    await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', b.id).execute();
    expect(await job().settleDue()).toEqual({ pushed: 0, failed: 0, unknown: 0 });
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.applying);
    expect(await exchanges(b.billNo, 'accountingVoucherState')).toBe(0);
    await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.unReimburse, push_claimed_until: null }).where('id', '=', b.id).execute();
  });

  it('the booking flags (02) are queued with the bill\'s success: cut off before they are sent, the booking job sends them', async () => {
    const b = await makeBill(s);
    const deps = {
      db: s.db.kysely,
      accounting: async () => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 }),
      // As if the process died right after the bill's transaction: nothing is sent.
      booking: async () => {
        throw new Error('进程在发送入账标识前中断');
      },
    };
    const r = await pushBill(deps, b.id, { id: null, name: '李会计' });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('发票入账标识稍后重试');
    for (const inv of await invoices(b.invoiceIds)) expect(inv.booking_state).toBe('02');
    const queued = () => s.db.kysely.selectFrom('income_booking_deliveries').select(['status', 'state']).where('source_no', '=', b.billNo).execute();
    expect((await queued()).map((d) => [d.status, d.state])).toEqual(b.invoiceIds.map(() => ['pending', '02']));
    // The simulated tax service knows these invoices (not every demo pool invoice is registered there).
    const pool = await s.db.kysely.selectFrom('income_invoices').select(['digital_no', 'issue_date', 'tax']).where('id', 'in', b.invoiceIds).execute();
    await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, pool.map((p) => ({ key: p.digital_no, kind: '81', issueDate: p.issue_date, tax: Number(p.tax) })));
    await s.app.incomeBookingJob.tick();
    expect((await queued()).map((d) => d.status)).toEqual(b.invoiceIds.map(() => 'sent'));
  });

  it('two app servers settling at once settle each bill once, asking the accounting side once', async () => {
    await job().settleDue();
    const other = await attachServer(s);
    try {
      // Each server starts its settling job when ready (then stopped here: the test runs the rounds).
      expect(other.app.reimbPushSettleJob.started).toBe(true);
      await other.app.reimbPushSettleJob.stop();
      expect(other.app.reimbPushSettleJob.started).toBe(false);
      const a = await crashed(true);
      const b = await crashed(false);
      const [x, y] = await Promise.all([job().settleDue(), other.app.reimbPushSettleJob.settleDue()]);
      expect(x.pushed + y.pushed).toBe(1);
      expect(x.failed + y.failed).toBe(1);
      for (const n of [a.billNo, b.billNo]) expect(await exchanges(n, 'accountingVoucherState')).toBe(1);
      expect((await pushes(a.id)).filter((p) => p.ok === 1)).toHaveLength(1);
      expect((await pushes(b.id)).filter((p) => p.ok === 0)).toHaveLength(1);
      expect(await vouchersOf(a.billNo)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
