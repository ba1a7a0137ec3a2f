/**
 * Issue 32 item 3, revoking a reimbursement by a reversing voucher: "offer revocation by a red reversing
 * voucher (冲销凭证, same subjects, negative amounts, a reference to the original), which works also when the
 * original's period is closed; the bill returns to 未报销, its invoices' locks are released and their booking
 * flag revoked (06), and both vouchers appear in the bill's accounting history … a push and a reversal
 * together are idempotent." Permissions as for revoke (roles 1, 12, 16). SQLite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IncomeUsage, ReimbRevocationState, ReimbState } from '@zhyy/shared';
import { accountingSimControl, createAccountingGateway } from '../src/integrations/accounting/index.js';
import { REVERSE_INTERRUPTED, reversalIdOf, reversalRequest } from '../src/modules/reimbursement/accounting/reverse.js';
import { planVoucher } from '../src/modules/reimbursement/accounting/voucher.js';
import { newId } from '../src/platform/ids.js';
import type { TestServer } from './helpers.js';
import { accountingHelpers, makeBill, startAccountingServer } from './reimbursement-accounting-fixture.js';

let s: TestServer;
const tok: Record<string, string> = {};
const { call, bill, pushes, invoices, messagesOf, period } = accountingHelpers(() => s, tok);

beforeAll(async () => {
  s = await startAccountingServer(tok);
});
afterAll(() => s?.close());
afterEach(() => accountingSimControl.reset());

type SimRow = { id: string; voucher_no: string; period: string; body: string; reverses: string };
const sim = () => s.db.kysely.withTables<{ accountingsim_vouchers: SimRow }>();
const simVoucher = (id: string) => sim().selectFrom('accountingsim_vouchers').selectAll().where('id', '=', id).executeTakeFirst();
const reversalsOf = (originalId: string) => sim().selectFrom('accountingsim_vouchers').selectAll().where('reverses', '=', originalId).execute();
const gateway = () => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 });
const past = () => new Date(Date.now() - 1000).toISOString();
/** YYYYMM `back` months before this month (Beijing time). */
const monthsBack = (back: number) => {
  const p = period();
  const m = Number(p.slice(0, 4)) * 12 + Number(p.slice(4)) - 1 - back;
  return `${Math.floor(m / 12)}${String((m % 12) + 1).padStart(2, '0')}`;
};

async function pushed() {
  const b = await makeBill(s);
  const a = await call('/push', { billIds: [b.id] });
  expect(a.r.results[0].ok).toBe(true);
  return { ...b, voucherNo: a.r.results[0].voucherNo as string };
}

/** A bill whose voucher was pushed in `old` (YYYYMM), as it would have been that month: the push reached the side, the settling job recorded it. */
async function pushedIn(old: string) {
  const b = await makeBill(s);
  await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: past() }).where('id', '=', b.id).execute();
  accountingSimControl.openPeriod(old);
  const plan = await planVoucher(s.db.kysely, await bill(b.id), '李会计', new Date(`${old.slice(0, 4)}-${old.slice(4)}-15T04:00:00Z`));
  await gateway().pushVoucher(plan.voucher!);
  await s.app.reimbPushSettleJob.settleDue();
  const row = await bill(b.id);
  expect([row.reimb_state, row.voucher_period]).toEqual([ReimbState.success, old]);
  return { ...b, voucherNo: row.voucher_no, entries: plan.voucher!.entries };
}

describe('permissions (as for revoke)', () => {
  it('roles 1, 12, 16 may reverse; others get 权限不足', async () => {
    const b = await pushed();
    const denied = await call('/revoke/add', { billId: b.id, reason: '测试冲销', method: 'reverse' }, 'demo13');
    expect([denied.status, denied.message]).toEqual([403, '权限不足']);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    expect(await reversalsOf(b.billNo)).toHaveLength(0);
    const done = await call('/revoke/add', { billId: b.id, reason: '测试冲销', method: 'reverse' }, 'demo16');
    expect(done.code).toBe(20000);
    const bad = await call('/revoke/add', { billId: b.id, reason: '测试冲销', method: 'erase' });
    expect([bad.status, bad.message]).toEqual([400, expect.stringContaining('撤销方式不正确')]);
  });
});

describe('红字冲销', () => {
  it('reverses a voucher whose period is closed: red voucher in the current period, bill 未报销, invoices released with 06, both vouchers in the history', async () => {
    const old = monthsBack(2);
    const b = await pushedIn(old);
    accountingSimControl.closePeriod(old);
    // Deletion is not possible: the voucher is there and its month is closed.
    expect((await call('/revoke/add', { billId: b.id, reason: '报销金额有误' })).message).toBe(`凭证 ${b.voucherNo} 仍在会计系统中，请先在会计系统删除该凭证后再撤销`);
    expect((await call('/revoke/sim-delete-voucher', { billId: b.id })).message).toContain(`已结账，不能删除凭证 ${b.voucherNo}`);

    const a = await call('/revoke/add', { billId: b.id, reason: '报销金额有误', method: 'reverse' });
    expect(a.code).toBe(20000);
    expect(a.r).toMatchObject({ billNo: b.billNo, voucherNo: b.voucherNo, method: 'reverse', reversalPeriod: period() });
    expect(a.message).toBe(`已红字冲销报销单 ${b.billNo}：冲销凭证 ${period().slice(0, 4)}年${period().slice(4)}月 ${a.r.reversalVoucherNo} 冲销原凭证 ${old.slice(0, 4)}年${old.slice(4)}月 ${b.voucherNo}，报销单恢复为未报销`);

    // The accounting side: the original kept, one red voucher in the open period, same subjects, negative amounts, referring to it.
    const original = (await simVoucher(b.billNo))!;
    expect([original.voucher_no, original.period]).toEqual([b.voucherNo, old]);
    const reds = await reversalsOf(b.billNo);
    expect(reds).toHaveLength(1);
    expect([reds[0]!.id, reds[0]!.period, reds[0]!.voucher_no]).toEqual([`${b.billNo}-R`, period(), a.r.reversalVoucherNo]);
    const body = JSON.parse(reds[0]!.body) as { summary: string; reverses: { id: string; voucherNo: string; period: string }; entries: Array<{ dc: string; accountCode: string; amount: number }> };
    expect(body.reverses).toEqual({ id: b.billNo, voucherNo: b.voucherNo, period: old });
    expect(body.entries.map((e) => [e.dc, e.accountCode, e.amount])).toEqual(b.entries.map((e) => [e.dc, e.accountCode, -e.amount]));
    expect(body.summary).toContain(`注销 ${old.slice(0, 4)}-${old.slice(4)}-15 ${b.voucherNo} 号凭证`);

    const row = await bill(b.id);
    expect([row.reimb_state, row.voucher_id, row.voucher_no, row.voucher_period, row.pushed_at, row.reverse_claimed_until]).toEqual([ReimbState.unReimburse, '', '', '', null, null]);
    for (const i of await invoices(b.invoiceIds)) expect([i.usage, i.use_kind, i.doc_no, i.booking_state]).toEqual([IncomeUsage.locked, 'reimbursement', b.billNo, '06']);

    const detail = await call('/edit/detail', { billId: b.id });
    const history = (detail.r.history as Array<{ action: string; ok: boolean; voucherNo: string; message: string }>).filter((h) => h.ok);
    expect(history.map((h) => [h.action, h.voucherNo])).toEqual(expect.arrayContaining([['push', b.voucherNo], ['reverse', a.r.reversalVoucherNo]]));
    expect(history.find((h) => h.action === 'reverse')!.message).toContain(`冲销原凭证 ${old.slice(0, 4)}年${old.slice(4)}月 ${b.voucherNo}`);

    const recs = await call('/revoke/list', { billNo: b.billNo, method: 'reverse' });
    expect(recs.r.items.map((x: { state: number; method: string; voucherNo: string; reversalVoucherNo: string }) => [x.state, x.method, x.voucherNo, x.reversalVoucherNo])).toEqual([[ReimbRevocationState.done, 'reverse', b.voucherNo, a.r.reversalVoucherNo]]);
    const logs = await call('/synclog/list', { billNo: b.billNo, method: '红字冲销' });
    expect(logs.r.items.map((x: { typeName: string; status: number }) => [x.typeName, x.status])).toEqual([['红字冲销凭证', 0]]);
    expect((await messagesOf(b.applicantId)).some((m) => m.title === `报销单 ${b.billNo} 已红字冲销`)).toBe(true);

    // Pushed again: a new voucher under a new id (the original still holds the bill number), invoices used and booked again.
    const again = await call('/push', { billIds: [b.id] });
    expect(again.r.results[0].ok).toBe(true);
    expect((await bill(b.id)).voucher_id).toBe(`${b.billNo}-2`);
    expect((await simVoucher(`${b.billNo}-2`))!.voucher_no).toBe(again.r.results[0].voucherNo);
    for (const i of await invoices(b.invoiceIds)) expect([i.usage, i.booking_state]).toEqual([IncomeUsage.closed, '02']);
  });

  it('refused when the current period is closed: recorded, the bill stays 已报销, and may be reversed once the period is open', async () => {
    const b = await pushed();
    accountingSimControl.closePeriod(period());
    const a = await call('/revoke/add', { billId: b.id, reason: '重复报销', method: 'reverse' });
    expect(a.status).toBe(409);
    expect(a.message).toBe(`会计系统拒绝冲销：会计期间 ${period().slice(0, 4)}年${period().slice(4)}月 已结账，不能制单`);
    const row = await bill(b.id);
    expect([row.reimb_state, row.voucher_no, row.reverse_claimed_until]).toEqual([ReimbState.success, b.voucherNo, null]);
    expect((await pushes(b.id)).map((p) => [p.action, p.ok])).toEqual([['push', 1], ['reverse', 0]]);
    const recs = await call('/revoke/list', { billNo: b.billNo });
    expect(recs.r.items.map((x: { state: number; method: string }) => [x.state, x.method])).toEqual([[ReimbRevocationState.refused, 'reverse']]);
    accountingSimControl.openPeriod(period());
    expect((await call('/revoke/add', { billId: b.id, reason: '重复报销', method: 'reverse' })).code).toBe(20000);
    expect(await reversalsOf(b.billNo)).toHaveLength(1);
  });

  it('an unreachable accounting system: asked again by the reversal id, not received → recorded as refused, nothing booked', async () => {
    const b = await pushed();
    accountingSimControl.failNext(1);
    const a = await call('/revoke/add', { billId: b.id, reason: '重复报销', method: 'reverse' });
    expect(a.message).toBe('无法连接会计系统，请稍后重试');
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    expect(await reversalsOf(b.billNo)).toHaveLength(0);
  });
});

describe('idempotence', () => {
  it('two concurrent reversals make one reversing voucher and one record; a third is refused', async () => {
    const b = await pushed();
    const [x, y] = await Promise.all([call('/revoke/add', { billId: b.id, reason: '并发冲销一', method: 'reverse' }), call('/revoke/add', { billId: b.id, reason: '并发冲销二', method: 'reverse' }, 'demo1')]);
    expect([x.code, y.code].filter((c) => c === 20000)).toHaveLength(1);
    const loser = x.code === 20000 ? y : x;
    expect([`报销单 ${b.billNo} 正在红字冲销中，请稍后刷新查看结果`, '报销单当前为未报销，只有已报销的报销单可以撤销']).toContain(loser.message);
    expect(await reversalsOf(b.billNo)).toHaveLength(1);
    const recs = await s.db.kysely.selectFrom('reimb_revocations').select(['state']).where('bill_id', '=', b.id).execute();
    expect(recs.map((r) => r.state)).toEqual([ReimbRevocationState.done]);
    expect((await pushes(b.id)).map((p) => [p.action, p.ok])).toEqual([['push', 1], ['reverse', 1]]);
    expect((await call('/revoke/add', { billId: b.id, reason: '再次冲销', method: 'reverse' })).message).toBe('报销单当前为未报销，只有已报销的报销单可以撤销');
    expect(await reversalsOf(b.billNo)).toHaveLength(1);
  });

  /** As a kill -9 leaves it mid-exchange: the claim run out, the record 冲销中, the red voucher booked at the side when `delivered`. */
  async function crashed(delivered: boolean) {
    const b = await pushed();
    await s.db.kysely.updateTable('reimb_bills').set({ reverse_claimed_until: past() }).where('id', '=', b.id).execute();
    const row = await bill(b.id);
    await s.db.kysely
      .insertInto('reimb_revocations')
      .values({ id: newId(), bill_id: b.id, bill_no: b.billNo, voucher_no: b.voucherNo, voucher_period: row.voucher_period, reason: '中断的冲销', state: ReimbRevocationState.pending, message: '红字冲销中：等待会计系统应答', requested_by: null, requested_by_name: '李会计', created_at: new Date().toISOString(), method: 'reverse', reversal_voucher_no: '', reversal_period: '' })
      .execute();
    const red = delivered ? await gateway().reverseVoucher(reversalRequest(row, '李会计', '中断的冲销')) : null;
    return { ...b, red };
  }

  it('a reversal cut short after the side booked it: retried by hand it answers the same voucher, never a second', async () => {
    const b = await crashed(true);
    const a = await call('/revoke/add', { billId: b.id, reason: '重新冲销', method: 'reverse' });
    expect(a.code).toBe(20000);
    expect(a.r.reversalVoucherNo).toBe(b.red!.voucherNo);
    expect(await reversalsOf(b.billNo)).toHaveLength(1);
    const recs = await s.db.kysely.selectFrom('reimb_revocations').select(['state', 'reason']).where('bill_id', '=', b.id).execute();
    expect(recs).toEqual([{ state: ReimbRevocationState.done, reason: '中断的冲销' }]);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.unReimburse);
  });

  it('the settling job settles reversals cut short: booked → 已撤销 by 系统; not received → 冲销中断, the bill still 已报销', async () => {
    const job = s.app.reimbPushSettleJob;
    await job.settleReversals();
    const got = await crashed(true);
    const lost = await crashed(false);
    expect(await job.settleReversals()).toEqual({ reversed: 1, interrupted: 1, unknown: 0 });

    expect((await bill(got.id)).reimb_state).toBe(ReimbState.unReimburse);
    expect(await reversalsOf(got.billNo)).toHaveLength(1);
    for (const i of await invoices(got.invoiceIds)) expect([i.usage, i.booking_state]).toEqual([IncomeUsage.locked, '06']);
    expect((await pushes(got.id)).map((p) => [p.action, p.ok, p.voucher_no, p.user_name])).toEqual([['push', 1, got.voucherNo, expect.any(String)], ['reverse', 1, got.red!.voucherNo, '系统']]);

    const l = await bill(lost.id);
    expect([l.reimb_state, l.reverse_claimed_until]).toEqual([ReimbState.success, null]);
    const rec = await s.db.kysely.selectFrom('reimb_revocations').select(['state', 'message']).where('bill_id', '=', lost.id).executeTakeFirstOrThrow();
    expect(rec).toEqual({ state: ReimbRevocationState.refused, message: REVERSE_INTERRUPTED });
    expect(await reversalsOf(lost.billNo)).toHaveLength(0);
    // Settled once; reversed again by hand, one voucher under the same id.
    expect(await job.settleReversals()).toEqual({ reversed: 0, interrupted: 0, unknown: 0 });
    const again = await call('/revoke/add', { billId: lost.id, reason: '重新冲销', method: 'reverse' });
    expect(again.code).toBe(20000);
    expect((await reversalsOf(lost.billNo)).map((r) => r.id)).toEqual([reversalIdOf({ voucher_id: lost.billNo, bill_no: lost.billNo })]);
  });
});
