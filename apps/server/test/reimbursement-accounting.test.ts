/**
 * Issue 15, 报销入账: "一键报销 lists the approved bills not yet in the accounting system (0 未报销, 2 报销失败);
 * a push moves 0 or 2 → -1 报销中 → 1 已报销 (voucher number kept) or 2 报销失败 (reason kept, retry allowed).
 * The bill number is the voucher's identity: a repeated or concurrent push never makes a second voucher.
 * Revoking needs the voucher deleted in the accounting system first." Roles 1, 12, 16 push; the sync log
 * is for 1 and 12 (16 gets 权限不足). Runs on SQLite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IncomeUsage, REIMB_SYNC_METHODS, ReimbRevocationState, ReimbState, SyncSystem } from '@zhyy/shared';
import { accountingSimControl } from '../src/integrations/accounting/index.js';
import { attachServer, type TestServer } from './helpers.js';
import { accountingHelpers, makeBill, startAccountingServer } from './reimbursement-accounting-fixture.js';

let s: TestServer;
const tok: Record<string, string> = {};
const P = '/api/reimbursement/accounting';
const { call, bill, vouchersOf, pushes, invoices, messagesOf, exchanges, period } = accountingHelpers(() => s, tok);

beforeAll(async () => {
  s = await startAccountingServer(tok);
});
afterAll(() => s?.close());
afterEach(() => accountingSimControl.reset());

describe('permissions', () => {
  it('roles 1, 12, 16 open 一键报销 and 报销撤销; others get 权限不足', async () => {
    for (const u of ['demo1', 'demo12', 'demo16']) {
      expect((await call('/apply/list', {}, u)).code).toBe(20000);
      expect((await call('/revoke/list', {}, u)).code).toBe(20000);
    }
    const a = await call('/apply/list', {}, 'demo13');
    expect(a.status).toBe(403);
    expect(a.message).toBe('权限不足');
    expect((await call('/push', { billIds: [crypto.randomUUID()] }, 'demo13')).message).toBe('权限不足');
    expect((await call('/revoke/add', { billId: crypto.randomUUID(), reason: '测试撤销' }, 'demo13')).message).toBe('权限不足');
  });
  it('the sync log is for roles 1 and 12; role 16 gets 权限不足', async () => {
    expect((await call('/synclog/list', {}, 'demo1')).code).toBe(20000);
    expect((await call('/synclog/list', {}, 'demo12')).code).toBe(20000);
    const a = await call('/synclog/list', {}, 'demo16');
    expect(a.status).toBe(403);
    expect(a.message).toBe('权限不足');
    expect((await call('/revoke/sim-delete-voucher', { billId: crypto.randomUUID() }, 'demo16')).message).toBe('权限不足');
  });
});

describe('一键报销 list', () => {
  it('lists approved bills in 0 and 2 only, with totals and filters', async () => {
    const a = await makeBill(s);
    const b = await makeBill(s, { reimbState: ReimbState.failed, lines: [{ category: 'T02', amount: 10_000 }] });
    const c = await makeBill(s, { reimbState: ReimbState.success, lines: [{ category: 'T02', amount: 10_000 }] });
    const d = await makeBill(s, { reimbState: ReimbState.applying, lines: [{ category: 'T02', amount: 10_000 }] });
    const all = await call('/apply/list', { pageSize: 500 });
    const ids = all.r.items.map((x: { id: string }) => x.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(c.id);
    expect(ids).not.toContain(d.id);
    const one = await call('/apply/list', { billNo: a.billNo });
    expect(one.r.total).toBe(1);
    // 545.00 + 200.00 claimed; 545.00 + 180.00 approved; 45.00 deductible.
    expect(one.r.totals).toEqual({ amount: 74_500, approvedAmount: 72_500, deductibleTax: 4_500 });
    const failed = await call('/apply/list', { state: 2, pageSize: 500 });
    expect(failed.r.items.every((x: { reimbState: number }) => x.reimbState === 2)).toBe(true);
    expect((await call('/apply/list', { state: 1 })).message).toContain('状态不正确');
  });
});

describe('push', () => {
  it('makes the voucher (借 subjects net of deductible tax, 借 进项税额, 贷 其他应付款, cost centre), closes and books the invoices, tells the applicant', async () => {
    const b = await makeBill(s);
    const a = await call('/push', { billIds: [b.id] });
    expect(a.code).toBe(20000);
    expect(a.r.done).toBe(1);
    const r = a.r.results[0];
    expect(r.ok).toBe(true);
    expect(r.voucherNo).toMatch(/^记-\d{4}$/);
    expect(a.message).toContain(`凭证号 ${r.voucherNo}`);
    const row = await bill(b.id);
    expect(row.reimb_state).toBe(ReimbState.success);
    expect(row.voucher_no).toBe(r.voucherNo);
    expect(row.voucher_period).toBe(period());
    expect(row.voucher_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row.pushed_by).toBe((await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo12').executeTakeFirstOrThrow()).name);
    expect(row.pushed_at).not.toBeNull();
    const [v] = await vouchersOf(b.billNo);
    const body = JSON.parse(v!.body);
    expect(body.entries.map((e: { dc: string; accountCode: string; amount: number }) => [e.dc, e.accountCode, e.amount])).toEqual([
      ['debit', '660201', 50_000],
      ['debit', '660202', 18_000],
      ['debit', '22210101', 4_500],
      ['credit', '224101', 72_500],
    ]);
    expect(body.entries[0].costCentre).toEqual({ code: 'CC-IT', name: '信息中心' });
    expect(body.summary).toContain('CC-IT');
    expect(body.sourceType).toBe('reimbursement');
    const inv = await invoices(b.invoiceIds);
    expect(inv.every((i) => i.usage === IncomeUsage.closed && i.doc_no === b.billNo)).toBe(true);
    expect(inv.every((i) => i.booking_state === '02')).toBe(true);
    const h = await pushes(b.id);
    expect(h.map((x) => [x.action, x.ok])).toEqual([['push', 1]]);
    expect((await messagesOf(b.applicantId)).some((m) => m.title === `报销单 ${b.billNo} 已入账`)).toBe(true);
    const logs = await call('/synclog/list', { billNo: b.billNo });
    expect(logs.r.items.map((x: { type: string }) => x.type)).toContain('accountingPushVoucher');
    const detail = await call('/synclog/detail', { id: logs.r.items[0].id });
    expect(detail.r.request).toContain(b.billNo);
  });

  it('报销同步日志 (issue 31 #9): only this area\'s exchanges, Chinese method names, bill numbers never ids', async () => {
    const b = await makeBill(s);
    expect((await call('/push', { billIds: [b.id] })).r.results[0].ok).toBe(true);
    // Exchanges of the same system that are not 报销's: 签收's archive and 进项转出's voucher.
    await s.app.synclog.track({ system: SyncSystem.accounting, type: 'incomeArchive', request: {}, refs: ['26322000000099990001', 'QS-0001'] }, async () => ({}));
    await s.app.synclog.track({ system: SyncSystem.accounting, type: 'accountingPushVoucher', request: {}, refs: [crypto.randomUUID(), '26322000000099990002'] }, async () => ({}));
    const all = await call('/synclog/list', { pageSize: 500 });
    expect(all.r.total).toBeGreaterThan(0);
    for (const x of all.r.items as Array<{ type: string; typeName: string; refs: string[] }>) {
      expect(Object.keys(REIMB_SYNC_METHODS)).toContain(x.type);
      expect(x.typeName).toBe(REIMB_SYNC_METHODS[x.type]);
      for (const ref of x.refs) expect(ref).toMatch(/^(BX\d{10,}|\d{4}年\d{2}月|连接测试)$/);
    }
    const mine = await call('/synclog/list', { billNo: b.billNo });
    expect(mine.r.items.map((x: { typeName: string }) => x.typeName)).toContain('推送凭证');
    expect(mine.r.items.find((x: { type: string }) => x.type === 'accountingPushVoucher').refs).toEqual([b.billNo]);
    // The method filter takes the Chinese name (and still the code).
    const pushesOnly = await call('/synclog/list', { method: '推送', pageSize: 500 });
    expect(pushesOnly.r.total).toBeGreaterThan(0);
    expect(new Set(pushesOnly.r.items.map((x: { type: string }) => x.type))).toEqual(new Set(['accountingPushVoucher']));
    expect((await call('/synclog/list', { method: 'accountingPush', pageSize: 1 })).r.total).toBe(pushesOnly.r.total);
    expect((await call('/synclog/list', { method: '签收' })).r.total).toBe(0);
    const d = await call('/synclog/detail', { id: mine.r.items[0].id });
    expect(d.r.typeName).toBe(REIMB_SYNC_METHODS[d.r.type]);
  });

  it('a repeated push answers the same voucher and makes no second one', async () => {
    const b = await makeBill(s);
    const first = await call('/push', { billIds: [b.id] });
    const again = await call('/push', { billIds: [b.id] });
    expect(again.r.results[0].ok).toBe(true);
    expect(again.r.results[0].voucherNo).toBe(first.r.results[0].voucherNo);
    expect(again.message).toContain('已报销');
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
    expect((await pushes(b.id)).length).toBe(1);
  });

  it('a refusal keeps the reason (2 报销失败), tells the applicant, and the push may be repeated', async () => {
    const b = await makeBill(s);
    accountingSimControl.failNext(1);
    const a = await call('/push', { billIds: [b.id] });
    expect(a.r.results[0].ok).toBe(false);
    expect(a.r.results[0].message).toBe('推送失败：无法连接会计系统，请稍后重试');
    let row = await bill(b.id);
    expect(row.reimb_state).toBe(ReimbState.failed);
    expect(row.push_message).toBe('无法连接会计系统，请稍后重试');
    expect((await invoices(b.invoiceIds)).every((i) => i.usage === IncomeUsage.locked)).toBe(true);
    expect((await messagesOf(b.applicantId)).some((m) => m.title === `报销单 ${b.billNo} 入账失败`)).toBe(true);
    const retry = await call('/push', { billIds: [b.id] });
    expect(retry.r.results[0].ok).toBe(true);
    row = await bill(b.id);
    expect(row.reimb_state).toBe(ReimbState.success);
    expect(row.push_message).toBe('');
    expect((await pushes(b.id)).map((x) => x.ok)).toEqual([0, 1]);
  });

  it('the accounting side refuses on request (摘要 containing 测试失败)', async () => {
    const b = await makeBill(s);
    const d = (await call('/edit/detail', { billId: b.id })).r;
    await call('/edit/save', { billId: b.id, costCentreCode: 'CC-IT', costCentreName: '信息中心', summary: '测试失败 的报销', lines: d.lines.map((l: { id: string; categorySubjectCode: string; categorySubjectName: string }) => ({ id: l.id, subjectCode: l.categorySubjectCode, subjectName: l.categorySubjectName })) });
    const a = await call('/push', { billIds: [b.id] });
    expect(a.r.results[0].message).toBe('推送失败：会计系统拒绝凭证：科目未启用（模拟失败）');
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.failed);
  });

  it('refuses in a closed accounting month, naming it', async () => {
    const b = await makeBill(s);
    accountingSimControl.closePeriod(period());
    const a = await call('/push', { billIds: [b.id] });
    expect(a.r.results[0].message).toContain(`会计期间 ${period().slice(0, 4)}年${period().slice(4)}月 已结账`);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.failed);
    accountingSimControl.openPeriod(period());
    expect((await call('/push', { billIds: [b.id] })).r.results[0].ok).toBe(true);
  });

  it('a missing mapping is refused before anything is sent, naming what is missing; fixed on the edit page the bill goes', async () => {
    const b = await makeBill(s, { deptId: null, lines: [{ category: 'T03', amount: 30_000, invoice: true }] });
    const a = await call('/push', { billIds: [b.id] });
    const msg = a.r.results[0].message as string;
    expect(msg).toContain('费用类别"业务招待费"未设置会计科目');
    expect(msg).toContain('部门"未指定"未设置成本中心');
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.failed);
    const logs = await call('/synclog/list', { billNo: b.billNo });
    expect(logs.r.total).toBe(0);
    const d = (await call('/edit/detail', { billId: b.id })).r;
    expect(d.editable).toBe(true);
    expect(d.problem).toContain('业务招待费');
    const saved = await call('/edit/save', { billId: b.id, costCentreCode: 'CC-01', costCentreName: '综合管理部', summary: '', lines: [{ id: d.lines[0].id, subjectCode: '660203', subjectName: '管理费用—业务招待费' }] });
    expect(saved.code).toBe(20000);
    expect(saved.r.problem).toBe('');
    expect(saved.r.voucher.map((e: { accountCode: string }) => e.accountCode)).toEqual(['660203', '224101']);
    const ok = await call('/push', { billIds: [b.id] });
    expect(ok.r.results[0].ok).toBe(true);
    const [v] = await vouchersOf(b.billNo);
    expect(JSON.parse(v!.body).entries[0].costCentre).toEqual({ code: 'CC-01', name: '综合管理部' });
  });

  it('edit: only 0 or 2 bills; the fields are checked', async () => {
    const b = await makeBill(s, { reimbState: ReimbState.success });
    const d = (await call('/edit/detail', { billId: b.id })).r;
    expect(d.editable).toBe(false);
    const a = await call('/edit/save', { billId: b.id, costCentreCode: 'X', costCentreName: 'Y', summary: '', lines: d.lines.map((l: { id: string }) => ({ id: l.id, subjectCode: '1', subjectName: '2' })) });
    expect(a.message).toBe('报销单当前为已报销，只有未报销或报销失败的报销单可以编辑');
    const bad = await call('/edit/save', { billId: b.id, costCentreCode: '', costCentreName: 'Y', summary: '', lines: [] });
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('成本中心编码');
  });

  it('a stale 报销中 (a push that never finished) is taken again after asking the accounting side: still one voucher', async () => {
    const b = await makeBill(s);
    const first = await call('/push', { billIds: [b.id] });
    // As if the server died after the voucher arrived but before the bill was updated.
    await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: new Date(Date.now() - 1000).toISOString(), voucher_no: '', voucher_period: '' }).where('id', '=', b.id).execute();
    const fresh = await makeBill(s);
    await s.db.kysely.updateTable('reimb_bills').set({ reimb_state: ReimbState.applying, push_claimed_until: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', fresh.id).execute();
    expect((await call('/push', { billIds: [fresh.id] })).r.results[0].message).toBe(`报销单 ${fresh.billNo} 正在报销中，请稍后刷新查看结果`);
    const again = await call('/push', { billIds: [b.id] });
    expect(again.r.results[0].ok).toBe(true);
    expect(again.r.results[0].voucherNo).toBe(first.r.results[0].voucherNo);
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
    const types = (await call('/synclog/list', { billNo: b.billNo })).r.items.map((x: { type: string }) => x.type);
    expect(types.filter((t: string) => t === 'accountingVoucherState')).toHaveLength(1);
    expect(types.filter((t: string) => t === 'accountingPushVoucher')).toHaveLength(1);
  });

  /** The simulator answers after 50 ms during the concurrency tests, so the pushes overlap at the accounting side. */
  const slowly = async <T>(f: () => Promise<T>): Promise<T> => {
    process.env.ACCOUNTING_SIM_DELAY_MS = '50';
    try {
      return await f();
    } finally {
      delete process.env.ACCOUNTING_SIM_DELAY_MS;
    }
  };

  it('twenty concurrent pushes of one bill make one voucher', async () => {
    const b = await makeBill(s);
    const answers = await slowly(() => Promise.all(Array.from({ length: 20 }, (_, i) => call('/push', { billIds: [b.id] }, i % 2 ? 'demo12' : 'demo1'))));
    // A push that did it (or found it done) answers 20000; one turned away (正在报销中) is a refusal, 30000 (issue 27 item 8).
    expect(answers.every((a) => (a.code === 20000 && a.r.results[0].ok) || (a.code === 30000 && !a.r.results[0].ok && a.message === a.r.results[0].message))).toBe(true);
    expect(answers.some((a) => a.code === 20000)).toBe(true);
    expect(await vouchersOf(b.billNo)).toHaveLength(1);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    expect((await pushes(b.id)).filter((p) => p.ok === 1)).toHaveLength(1);
    const okNos = new Set(answers.filter((a) => a.r.results[0].ok).map((a) => a.r.results[0].voucherNo));
    expect(okNos.size).toBe(1);
    // The claim lets one push through to the accounting system; the others answer 正在报销中 or 已报销.
    expect(await exchanges(b.billNo, 'accountingPushVoucher')).toBe(1);
  });

  it('twenty concurrent pushes over two app servers make one voucher', async () => {
    const other = await attachServer(s);
    try {
      const t2 = await other.login('demo12');
      const b = await makeBill(s);
      const answers = await slowly(() => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other.call(`${P}/push`, { billIds: [b.id] }, t2) : call('/push', { billIds: [b.id] })))));
      expect(answers.every((a) => (a.code === 20000 && a.r.results[0].ok) || (a.code === 30000 && !a.r.results[0].ok))).toBe(true);
      expect(answers.some((a) => a.code === 20000)).toBe(true);
      expect(await vouchersOf(b.billNo)).toHaveLength(1);
      expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
      expect((await pushes(b.id)).filter((p) => p.ok === 1)).toHaveLength(1);
      expect(await exchanges(b.billNo, 'accountingPushVoucher')).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('a bill not approved is not pushed; the body is checked', async () => {
    const b = await makeBill(s);
    await s.db.kysely.updateTable('reimb_bills').set({ flow_state: 1, reimb_state: null }).where('id', '=', b.id).execute();
    // A refused push is 30000 with its message, never 20000 (issue 27 item 8); the per-bill answer beside it.
    const one = await call('/push', { billIds: [b.id] });
    expect(one.code).toBe(30000);
    expect(one.message).toBe('报销单尚未审批通过，不能推送');
    expect(one.r).toMatchObject({ done: 0, failed: 1 });
    expect(one.r.results[0].message).toBe('报销单尚未审批通过，不能推送');
    // Two bills, neither pushed: 30000 naming each bill and its reason.
    const c = await makeBill(s);
    await s.db.kysely.updateTable('reimb_bills').set({ flow_state: 1, reimb_state: null }).where('id', '=', c.id).execute();
    const two = await call('/push', { billIds: [b.id, c.id] });
    expect(two.code).toBe(30000);
    expect(two.message).toBe(`2 张报销单均未推送：${b.billNo} 报销单尚未审批通过，不能推送；${c.billNo} 报销单尚未审批通过，不能推送`);
    expect(two.r.results.map((x: { ok: boolean }) => x.ok)).toEqual([false, false]);
    const empty = await call('/push', { billIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.message).toContain('请选择报销单');
  });

  it('the badge 一键报销 counts bills in 0 or 2 for those who may open the page', async () => {
    const n = async (who: string) => (await s.call('/api/invoice/billing-cancellation-count', {}, tok[who])).r.reimbursementApplyCount as number;
    const before = await n('demo12');
    await makeBill(s);
    expect(await n('demo12')).toBe(before + 1);
    expect(await n('demo16')).toBe(before + 1);
    expect(await n('demo13')).toBe(0);
  });
});

describe('revoke', () => {
  async function pushed() {
    const b = await makeBill(s);
    const a = await call('/push', { billIds: [b.id] });
    return { ...b, voucherNo: a.r.results[0].voucherNo as string };
  }

  it('refused while the voucher is still in the accounting system; after the accountant deletes it the bill returns to 0', async () => {
    const b = await pushed();
    const picker = await call('/revoke/pushed', { keyword: b.billNo }, 'demo16');
    expect(picker.r.items.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const refused = await call('/revoke/add', { billId: b.id, reason: '报销金额有误' });
    expect(refused.code).not.toBe(20000);
    expect(refused.message).toBe(`凭证 ${b.voucherNo} 仍在会计系统中，请先在会计系统删除该凭证后再撤销`);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    const del = await call('/revoke/sim-delete-voucher', { billId: b.id });
    expect(del.r.deleted).toBe(true);
    expect(del.message).toBe(`模拟会计系统：已删除凭证 ${b.voucherNo}`);
    const done = await call('/revoke/add', { billId: b.id, reason: '报销金额有误' }, 'demo16');
    expect(done.code).toBe(20000);
    const row = await bill(b.id);
    expect(row.reimb_state).toBe(ReimbState.unReimburse);
    expect([row.voucher_no, row.voucher_period, row.voucher_date, row.pushed_at]).toEqual(['', '', '', null]);
    const inv = await invoices(b.invoiceIds);
    expect(inv.every((i) => i.usage === IncomeUsage.locked && i.use_kind === 'reimbursement' && i.doc_no === b.billNo)).toBe(true);
    expect(inv.every((i) => i.booking_state === '06')).toBe(true);
    const recs = await call('/revoke/list', { billNo: b.billNo });
    expect(recs.r.items.map((x: { state: number }) => x.state).sort()).toEqual([ReimbRevocationState.done, ReimbRevocationState.refused]);
    expect(recs.r.items.find((x: { state: number }) => x.state === 2).message).toContain('仍在会计系统中');
    expect((await pushes(b.id)).map((x) => [x.action, x.ok])).toEqual([['push', 1], ['revoke', 0], ['revoke', 1]]);
    // Back in 一键报销; pushed again it gets a new voucher.
    expect((await call('/apply/list', { billNo: b.billNo })).r.total).toBe(1);
    const again = await call('/push', { billIds: [b.id] });
    expect(again.r.results[0].ok).toBe(true);
    expect(again.r.results[0].voucherNo).not.toBe(b.voucherNo);
    expect((await invoices(b.invoiceIds)).every((i) => i.usage === IncomeUsage.closed && i.booking_state === '02')).toBe(true);
  });

  it('refused when the voucher period is closed, naming the period', async () => {
    const b = await pushed();
    await call('/revoke/sim-delete-voucher', { billId: b.id });
    accountingSimControl.closePeriod(period());
    const a = await call('/revoke/add', { billId: b.id, reason: '重复报销' });
    expect(a.message).toBe(`会计期间 ${period().slice(0, 4)}年${period().slice(4)}月 已结账，不能撤销该期间的报销凭证`);
    expect((await bill(b.id)).reimb_state).toBe(ReimbState.success);
    const types = (await call('/synclog/list', { billNo: period(), method: 'Period' })).r.items.map((x: { type: string }) => x.type);
    expect(types).toContain('accountingPeriodState');
    // Filtered by the bill: its voucher look-ups, the period look-up and the simulated deletion.
    const mine = (await call('/synclog/list', { billNo: b.billNo })).r.items.map((x: { type: string; userName: string }) => `${x.type}:${x.userName}`);
    const who = (await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo12').executeTakeFirstOrThrow()).name;
    expect(mine).toEqual(expect.arrayContaining([`accountingPeriodState:${who}`, `accountingSimDeleteVoucher:${who}`, `accountingVoucherState:${who}`, `accountingPushVoucher:${who}`]));
  });

  it('the accountant cannot delete a voucher in a closed period', async () => {
    const b = await pushed();
    accountingSimControl.closePeriod(period());
    const a = await call('/revoke/sim-delete-voucher', { billId: b.id });
    expect(a.message).toContain(`不能删除凭证 ${b.voucherNo}`);
  });

  it('only 已报销 bills; the reason is 2–200 characters', async () => {
    const b = await makeBill(s);
    expect((await call('/revoke/add', { billId: b.id, reason: '重复报销' })).message).toBe('报销单当前为未报销，只有已报销的报销单可以撤销');
    const short = await call('/revoke/add', { billId: b.id, reason: '短' });
    expect(short.status).toBe(400);
    expect(short.message).toContain('撤销原因至少2个字');
    expect((await call('/revoke/add', { billId: b.id, reason: 'x'.repeat(201) })).message).toContain('撤销原因不能超过200个字');
  });

  it('two revocations at once: one succeeds', async () => {
    const b = await pushed();
    await call('/revoke/sim-delete-voucher', { billId: b.id });
    const [x, y] = await Promise.all([call('/revoke/add', { billId: b.id, reason: '并发撤销一' }), call('/revoke/add', { billId: b.id, reason: '并发撤销二' }, 'demo1')]);
    expect([x.code, y.code].filter((c) => c === 20000)).toHaveLength(1);
    expect((await s.db.kysely.selectFrom('reimb_revocations').select('id').where('bill_id', '=', b.id).where('state', '=', 1).execute()).length).toBe(1);
  });

  it('exports the revocation records', async () => {
    const { res, ws } = await s.download(`${P}/revoke/export`, { state: 1 }, tok.demo12!);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('报销单号');
    expect(ws!.rowCount).toBeGreaterThan(1);
    const forbidden = await s.call(`${P}/revoke/export`, {}, tok.demo13);
    expect(forbidden.message).toBe('权限不足');
  });

  it('every exchange is one accounting sync log row', async () => {
    const b = await pushed();
    const rows = await s.db.kysely.selectFrom('sync_logs as l').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'l.id').select(['l.system', 'l.type', 'l.status']).where('f.ref', '=', b.billNo).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ system: SyncSystem.accounting, type: 'accountingPushVoucher', status: 0 });
  });
});
