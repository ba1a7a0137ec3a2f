/**
 * Issue 14, the abnormal worklist on the server: /api/income/abnormal/… — cases raised per (invoice,
 * flag) with an owner and an age, the demo's open cases of every kind, the badge counting invoices with
 * an open case, 确认无误 / 更正 / 驳回, 进项转出 "producing one voucher even when the request is repeated"
 * (same key, another key, at once), a gateway failure left pending and pushed by the retry job, a push cut
 * short by a crash settled by the job asking the accounting side first (issue 27 item 6), and the
 * permissions (roles 1, 13; 14 and 16 权限不足).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeAbnormalFlag } from '@zhyy/shared';
import { accountingSimControl, ACCOUNTING_SIM_DOWN, createAccountingGateway } from '../src/integrations/accounting/index.js';
import { transferVoucher } from '../src/modules/income/abnormal/transfer.js';
import { registerKnownIncoming } from '../src/integrations/tax/index.js';
import { raiseCases } from '../src/modules/income/abnormal/raise.js';
import { tickRefusal } from '../src/modules/income/deduction/rules.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, nextDigital } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
const A = '/api/income/abnormal';
const ZERO = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  s = await startTestServer();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
});
afterAll(() => s?.close());

let serial = 0;
/** A pool invoice (tax 9.00) with `facts` set on it afterwards, and its cases raised. */
async function invoice(facts: Record<string, unknown>, over: Record<string, unknown> = {}): Promise<{ id: string; no: string }> {
  const no = nextDigital();
  const excl = 20000 + ++serial;
  const a = await s.call('/api/income/pool/save', entry({ digitalNo: no, amountExcl: excl, tax: 900, amountIncl: excl + 900, lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: (excl / 100).toFixed(2), amount: excl, taxRate: '0.09', tax: 900 }], ...over }), t13);
  expect(a.code, a.message).toBe(20000);
  if (Object.keys(facts).length) await s.db.kysely.updateTable('income_invoices').set(facts).where('id', '=', a.r.id).execute();
  await raiseCases(s.db.kysely, a.r.id);
  return { id: a.r.id, no };
}
const deducted = { verify_state: 1, risk_level: '02', vat_usage: 1, tick_state: 1, effective_tax: 900, tick_period: '202611' };
const caseOf = async (invoiceId: string, flag: string) => (await s.db.kysely.selectFrom('income_abnormal_cases').selectAll().where('invoice_id', '=', invoiceId).where('flag', '=', flag).executeTakeFirstOrThrow());
const count = async () => (await s.call('/api/income/pool/abnormal-count', {}, t13)).r.abnormalInvoicePoolCount as number;
const vouchersOf = (id: string) => s.db.kysely.withTables<{ accountingsim_vouchers: { id: string; voucher_no: string } }>().selectFrom('accountingsim_vouchers').selectAll().where('id', '=', id).execute();

describe('cases', () => {
  it('the demo holds open cases of every kind, each with an owner and an age; the badge counts their invoices', async () => {
    const l = await s.call(`${A}/list`, { state: 'open', pageSize: 500 }, t13);
    expect(l.code, l.message).toBe(20000);
    expect(new Set(l.r.items.map((c: { flag: string }) => c.flag))).toEqual(new Set(IncomeAbnormalFlag.values));
    expect(l.r.items.every((c: { ownerName: string; ageDays: number }) => c.ownerName !== '' && c.ageDays >= 0)).toBe(true);
    expect(l.r.items.some((c: { ageDays: number }) => c.ageDays > 3)).toBe(true);
    // A deducted 异常凭证 ready for 进项转出, and a signed invoice whose signing was flagged.
    expect(l.r.items.some((c: { flag: string; tickState: number; vatUsage: number }) => c.flag === 'abnormalVoucher' && c.tickState === 1 && c.vatUsage === 1)).toBe(true);
    expect(l.r.items.some((c: { docFlagged: string }) => c.docFlagged.startsWith('签收单') || c.docFlagged.startsWith('报销单'))).toBe(true);
    const invoices = new Set(l.r.items.map((c: { invoiceId: string }) => c.invoiceId));
    expect(await count()).toBe(invoices.size);
    expect((await s.call('/api/invoice/billing-cancellation-count', {}, t13)).r.abnormalInvoicePoolCount).toBe(invoices.size);
  });

  it('raising is idempotent (one case per invoice and flag); an arriving invoice for another buyer raises its case', async () => {
    const x = await invoice({}, { buyerName: '别的公司有限公司' });
    expect(await raiseCases(s.db.kysely, x.id)).toBe(0);
    await Promise.all([raiseCases(s.db.kysely, x.id), raiseCases(s.db.kysely, x.id)]);
    const cases = await s.db.kysely.selectFrom('income_abnormal_cases').selectAll().where('invoice_id', '=', x.id).execute();
    expect(cases.map((c) => c.flag)).toEqual(['buyerNotOurs']);
    expect(cases[0]!.owner_id).not.toBeNull();
    const h = await s.call(`${A}/history`, { invoiceId: x.id }, t13);
    expect(h.r.map((c: { flag: string; state: string }) => [c.flag, c.state])).toEqual([['buyerNotOurs', 'open']]);
  });

  it('filters by flag, state, owner and age; pages', async () => {
    const l = await s.call(`${A}/list`, { flag: 'duplicate', state: 'open', pageSize: 2 }, t13);
    expect(l.r.items.length).toBeLessThanOrEqual(2);
    expect(l.r.items.every((c: { flag: string }) => c.flag === 'duplicate')).toBe(true);
    const old = await s.call(`${A}/list`, { ageMin: 5, pageSize: 500 }, t13);
    expect(old.r.items.every((c: { ageDays: number }) => c.ageDays >= 5)).toBe(true);
    const young = await s.call(`${A}/list`, { ageMax: 0, pageSize: 500 }, t13);
    expect(young.r.items.every((c: { ageDays: number }) => c.ageDays === 0)).toBe(true);
    const owner = l.r.items[0]?.ownerId;
    if (owner) expect((await s.call(`${A}/list`, { ownerId: owner, pageSize: 500 }, t13)).r.items.every((c: { ownerId: string }) => c.ownerId === owner)).toBe(true);
    expect((await s.call(`${A}/list`, { flag: 'nope' }, t13)).message).toBe('参数错误：异常类型不正确');
  });

  it('exports the filtered cases', async () => {
    const { res, ws } = await s.download(`${A}/export`, { state: 'open' }, t13);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).values).toContain('异常类型');
    expect(ws!.rowCount - 1).toBe((await s.call(`${A}/list`, { state: 'open', pageSize: 1 }, t13)).r.total);
  });
});

describe('review actions', () => {
  it('驳回 needs a note of 2–200 characters; a resolved case is not handled again and leaves the count', async () => {
    const x = await invoice({ verify_state: 2 });
    const c = await caseOf(x.id, 'verifyMismatch');
    const before = await count();
    expect((await s.call(`${A}/reject`, { caseId: c.id, note: '短' }, t13)).message).toBe('参数错误：说明须为2至200个字符');
    expect((await s.call(`${A}/reject`, { caseId: c.id, note: 'x'.repeat(201) }, t13)).message).toBe('参数错误：说明须为2至200个字符');
    const r = await s.call(`${A}/reject`, { caseId: c.id, note: '供应商发票有误，已退回重开' }, t13);
    expect([r.code, r.message]).toEqual([20000, '已驳回']);
    expect(await count()).toBe(before - 1);
    const logs = await s.db.kysely.selectFrom('operation_logs').select(['description', 'login_name']).where('description', '=', '异常处理：已驳回').execute();
    expect(logs.map((l) => l.login_name)).toContain('demo13');
    expect((await s.call(`${A}/confirm`, { caseId: c.id }, t13)).message).toBe('该异常已处理');
    const after = await caseOf(x.id, 'verifyMismatch');
    expect([after.state, after.action, after.note, after.resolved_by_name]).toEqual(['resolved', 'reject', '供应商发票有误，已退回重开', expect.any(String)]);
  });

  it('更正 changes the field with a note (a corrected buyer is checked again); 确认无误 resolves', async () => {
    const x = await invoice({}, { buyerName: '别的公司有限公司' });
    const c = await caseOf(x.id, 'buyerNotOurs');
    expect((await s.call(`${A}/correct`, { caseId: c.id, field: 'buyerName', value: '别的公司有限公司', note: '核对无误' }, t13)).message).toBe('购方名称与原值相同，无需更正');
    const ours = (await s.db.kysely.selectFrom('invoice_settings').select('seller_name').executeTakeFirstOrThrow()).seller_name;
    const r = await s.call(`${A}/correct`, { caseId: c.id, field: 'buyerName', value: ours, note: '录入时购方名称填错' }, t13);
    expect([r.code, r.message]).toEqual([20000, '已更正购方名称']);
    const inv = await s.db.kysely.selectFrom('income_invoices').select(['buyer_name', 'buyer_mismatch']).where('id', '=', x.id).executeTakeFirstOrThrow();
    expect([inv.buyer_name, Number(inv.buyer_mismatch)]).toEqual([ours, 0]);
    const y = await invoice({ verify_state: 2 });
    expect((await s.call(`${A}/confirm`, { caseId: (await caseOf(y.id, 'verifyMismatch')).id, note: '已人工核对' }, t1)).message).toBe('已确认无误');
  });

  it('refuses actions that do not fit the flag', async () => {
    const x = await invoice(deducted);
    const c = await caseOf(x.id, 'abnormalVoucher');
    expect((await s.call(`${A}/reject`, { caseId: c.id, note: '不是我们的' }, t13)).message).toBe('异常凭证的发票不能驳回');
    expect((await s.call(`${A}/confirm`, { caseId: c.id }, t13)).message).toBe('该发票已勾选抵扣，请进项转出');
    expect((await s.call(`${A}/untick`, { caseId: c.id }, t13)).message).toBe('异常凭证的发票请进项转出');
    const v = await invoice({ invoice_state: 2 });
    expect((await s.call(`${A}/untick`, { caseId: (await caseOf(v.id, 'voided')).id }, t13)).message).toBe('该发票未勾选，无需撤销');
    expect((await s.call(`${A}/confirm`, { caseId: ZERO }, t13)).message).toBe('异常记录不存在');
  });

  it('撤销勾选 of a ticked invoice that became 作废: the ticking service undoes it and the case resolves', async () => {
    const p = (await s.call('/api/income/deduction/period', {}, t13)).r as { windowTo: string };
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const day = new Date(Date.parse(`${p.windowTo < today ? p.windowTo : today}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    const x = await invoice({ verify_state: 1 }, { issueDate: day });
    await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key: x.no, kind: '81', issueDate: day, tax: 900 }]);
    const t = await s.call('/api/income/deduction/tick', { vatUsage: 1, items: [{ id: x.id, effectiveTax: 900 }] }, t13);
    expect(t.r.done, t.message).toBe(true);
    await s.db.kysely.updateTable('income_invoices').set({ invoice_state: 2 }).where('id', '=', x.id).execute();
    await raiseCases(s.db.kysely, x.id);
    const c = await caseOf(x.id, 'voided');
    expect((await s.call(`${A}/confirm`, { caseId: c.id }, t13)).message).toBe('该发票已勾选，请撤销勾选或进项转出');
    const u = await s.call(`${A}/untick`, { caseId: c.id }, t13);
    expect([u.code, u.message]).toEqual([20000, '已撤销勾选']);
    const inv = await s.db.kysely.selectFrom('income_invoices').select(['tick_state', 'vat_usage']).where('id', '=', x.id).executeTakeFirstOrThrow();
    expect([Number(inv.tick_state), Number(inv.vat_usage)]).toEqual([0, 0]);
    const done = await caseOf(x.id, 'voided');
    expect([done.state, done.action]).toEqual(['resolved', 'untick']);
  });

  it('ticking refuses 失控 and 异常凭证 for deduction', () => {
    const row = { kind: '81', issue_date: '2026-11-01', tax: 900, invoice_state: 0, red_pending: 0, risk_level: '01', verify_state: 1, buyer_mismatch: 0, duplicate_of: null, booking_state: '01', vat_usage: 0, tick_state: 0, tick_period: '' };
    const p = { period: '202611', windowFrom: '2026-01-01', windowTo: '2026-12-31', tickBookedOnly: false };
    expect(tickRefusal({ ...row, invoice_state: 1 }, 1, 900, p)).toBe('该发票失控，不能勾选');
    expect(tickRefusal({ ...row, risk_level: '02' }, 1, 900, p)).toBe('异常凭证不能勾选抵扣');
  });
});

describe('进项转出', () => {
  it('checks the invoice is ticked for deduction and 0 < amount ≤ effective tax', async () => {
    const n = await invoice({ verify_state: 1, risk_level: '02' });
    expect((await s.call(`${A}/transfer-out`, { caseId: (await caseOf(n.id, 'abnormalVoucher')).id, reason: 1 }, t13)).message).toBe('该发票未勾选抵扣，不能进项转出');
    const x = await invoice(deducted);
    const c = await caseOf(x.id, 'abnormalVoucher');
    expect((await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 10 }, t13)).message).toBe('参数错误：请选择转出原因');
    expect((await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 1, amount: 0 }, t13)).message).toBe('转出税额须大于0且不超过有效税额9.00元');
    expect((await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 1, amount: 901 }, t13)).message).toBe('转出税额须大于0且不超过有效税额9.00元');
    // Issue 31 #8: the limit is written as every figure is (10,182.88, not 10182.88).
    const big = await invoice({ ...deducted, tax: 1_018_288, effective_tax: 1_018_288 });
    expect((await s.call(`${A}/transfer-out`, { caseId: (await caseOf(big.id, 'abnormalVoucher')).id, reason: 1, amount: 1_018_289 }, t13)).message).toBe('转出税额须大于0且不超过有效税额10,182.88元');
    const v = await invoice({ verify_state: 2 });
    expect((await s.call(`${A}/transfer-out`, { caseId: (await caseOf(v.id, 'verifyMismatch')).id, reason: 1 }, t13)).message).toBe('查验不一致的发票不能进项转出');
  });

  it('produces one voucher even when the request is repeated (same key, another key, at once)', async () => {
    const x = await invoice(deducted);
    const c = await caseOf(x.id, 'abnormalVoucher');
    const before = await count();
    const body = { caseId: c.id, reason: 3, amount: 600, idempotencyKey: `k-${x.no}` };
    const answers = await Promise.all([
      s.call(`${A}/transfer-out`, body, t13),
      s.call(`${A}/transfer-out`, body, t13),
      s.call(`${A}/transfer-out`, { ...body, idempotencyKey: `k2-${x.no}` }, t1),
      s.call(`${A}/transfer-out`, { caseId: c.id, reason: 3, amount: 600 }, t13),
    ]);
    for (const a of answers) expect(a.code, a.message).toBe(20000);
    const records = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('invoice_id', '=', x.id).execute();
    expect(records).toHaveLength(1);
    const t = records[0]!;
    expect([t.state, Number(t.amount), Number(t.reason)]).toEqual(['pushed', 600, 3]);
    expect(t.voucher_no).toMatch(/^记-\d{4}$/);
    expect(await vouchersOf(t.id)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.r.transferOut.voucherNo))).toEqual(new Set([t.voucher_no]));
    expect(answers.filter((a) => a.message === `进项转出成功，凭证号 ${t.voucher_no}`)).toHaveLength(1);
    expect(answers.filter((a) => a.message === `该发票已进项转出，凭证号 ${t.voucher_no}`)).toHaveLength(3);
    // The voucher: 借 待处理财产损溢 (非正常损失), 贷 进项税额转出, 6.00 each.
    const sim = await s.db.kysely.withTables<{ accountingsim_vouchers: { id: string; body: string } }>().selectFrom('accountingsim_vouchers').select('body').where('id', '=', t.id).executeTakeFirstOrThrow();
    const v = JSON.parse(sim.body);
    expect(v.entries.map((e: { dc: string; accountName: string; amount: number }) => [e.dc, e.accountName, e.amount])).toEqual([
      ['debit', '待处理财产损溢', 600],
      ['credit', '应交税费—应交增值税（进项税额转出）', 600],
    ]);
    expect((await caseOf(x.id, 'abnormalVoucher')).state).toBe('resolved');
    expect(await count()).toBe(before - 1);
    const again = await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 1 }, t13);
    expect(again.message).toBe(`该发票已进项转出，凭证号 ${t.voucher_no}`);
    expect(await vouchersOf(t.id)).toHaveLength(1);
  });

  it('two app servers on one database, asked at once for the same invoice: one record, one voucher', async () => {
    const other = await startTestServer({ sameDatabaseAs: s });
    try {
      const x = await invoice(deducted);
      const c = await caseOf(x.id, 'abnormalVoucher');
      const t = await other.login('demo13');
      const answers = await Promise.all([s.call(`${A}/transfer-out`, { caseId: c.id, reason: 6 }, t13), other.call(`${A}/transfer-out`, { caseId: c.id, reason: 6 }, t)]);
      for (const a of answers) expect(a.code, a.message).toBe(20000);
      const records = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('invoice_id', '=', x.id).execute();
      expect(records).toHaveLength(1);
      expect(await vouchersOf(records[0]!.id)).toHaveLength(1);
      expect(answers.map((a) => a.r.transferOut.voucherNo)).toEqual([records[0]!.voucher_no, records[0]!.voucher_no]);
    } finally {
      await other.close();
    }
  });

  it('a gateway failure leaves the record pending; the retry job pushes it and resolves the case', async () => {
    const x = await invoice({ ...deducted, risk_level: '01', invoice_state: 1 });
    const c = await caseOf(x.id, 'lostControl');
    accountingSimControl.failNext(1);
    const a = await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 1 }, t13);
    expect(a.code, a.message).toBe(20000);
    expect(a.message).toBe(`进项转出已记录，凭证尚未推送到会计系统（${ACCOUNTING_SIM_DOWN}），系统将自动重试`);
    const t = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('invoice_id', '=', x.id).executeTakeFirstOrThrow();
    expect([t.state, Number(t.attempts), Number(t.amount)]).toEqual(['pending', 1, 900]);
    expect((await caseOf(x.id, 'lostControl')).state).toBe('open');
    await s.db.kysely.updateTable('income_transfer_outs').set({ next_try_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', t.id).execute();
    expect(await s.app.incomeAbnormalJob.tick()).toBe(true);
    const after = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
    expect(after.state).toBe('pushed');
    expect(await vouchersOf(t.id)).toHaveLength(1);
    const done = await caseOf(x.id, 'lostControl');
    expect([done.state, done.action]).toEqual(['resolved', 'transferOut']);
  });

  /** The exchanges of a record at the accounting side, by method (the sync log indexes them by the record's id). */
  const exchanges = async (id: string, type: string) =>
    (await s.db.kysely.selectFrom('sync_logs as l').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'l.id').select('l.id').where('f.ref', '=', id).where('l.type', '=', type).execute()).length;
  /** A record as a crash mid-push leaves it: pending, never answered; `delivered` when the voucher reached the accounting side. */
  async function cut(delivered: boolean) {
    const x = await invoice(deducted);
    const c = await caseOf(x.id, 'abnormalVoucher');
    accountingSimControl.failNext(1);
    expect((await s.call(`${A}/transfer-out`, { caseId: c.id, reason: 1 }, t13)).code).toBe(20000);
    const t = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('invoice_id', '=', x.id).executeTakeFirstOrThrow();
    await s.db.kysely.updateTable('income_transfer_outs').set({ attempts: 0, last_error: '', next_try_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', t.id).execute();
    if (delivered) {
      const inv = await s.db.kysely.selectFrom('income_invoices').selectAll().where('id', '=', x.id).executeTakeFirstOrThrow();
      await createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 }).pushVoucher(transferVoucher(t, inv, 'abnormalVoucher'));
    }
    return { x, t };
  }

  it('a push cut short after the voucher arrived: the job asks by the record id and records that voucher without pushing again', async () => {
    const { x, t } = await cut(true);
    const held = (await vouchersOf(t.id))[0]!;
    const pushesBefore = await exchanges(t.id, 'accountingPushVoucher');
    expect(await s.app.incomeAbnormalJob.tick()).toBe(true);
    const after = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
    expect([after.state, after.voucher_no]).toEqual(['pushed', held.voucher_no]);
    expect(await vouchersOf(t.id)).toHaveLength(1);
    expect(await exchanges(t.id, 'accountingVoucherState')).toBe(1);
    expect(await exchanges(t.id, 'accountingPushVoucher')).toBe(pushesBefore);
    expect((await caseOf(x.id, 'abnormalVoucher')).state).toBe('resolved');
  });

  it('a push cut short before the voucher arrived: the job finds none and pushes it: one voucher', async () => {
    const { x, t } = await cut(false);
    expect(await vouchersOf(t.id)).toHaveLength(0);
    expect(await s.app.incomeAbnormalJob.tick()).toBe(true);
    const after = await s.db.kysely.selectFrom('income_transfer_outs').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
    expect(after.state).toBe('pushed');
    expect(await vouchersOf(t.id)).toHaveLength(1);
    expect((await caseOf(x.id, 'abnormalVoucher')).state).toBe('resolved');
  });
});

describe('permissions', () => {
  const calls: Array<[string, unknown]> = [
    [`${A}/list`, {}],
    [`${A}/export`, {}],
    [`${A}/history`, { invoiceId: ZERO }],
    [`${A}/confirm`, { caseId: ZERO }],
    [`${A}/correct`, { caseId: ZERO, field: 'remark', value: 'x', note: '说明说明' }],
    [`${A}/reject`, { caseId: ZERO, note: '说明说明' }],
    [`${A}/untick`, { caseId: ZERO }],
    [`${A}/transfer-out`, { caseId: ZERO, reason: 1 }],
  ];
  it.each(calls)('%s: roles 14 and 16 get 权限不足; 1 and 13 reach it', async (url, body) => {
    for (const t of [t14, t16]) expect((await s.call(url, body, t)).message).toBe('权限不足');
    for (const t of [t1, t13]) expect((await s.call(url, body, t)).message).not.toBe('权限不足');
  });
});
