/**
 * Issue 13, 发票签收: invoice-entry/list (waiting to be signed, badge invoiceEntrySignCount), detail/:id,
 * sign/list (签收归档: one or many against a reimbursement, a contract, a project, or 其他 with a note;
 * archive number GD{yyyyMM}{seq}; sign state applying → signed, or failed with the reason; the archive
 * side through an interface with a simulator), revoke/list and revoke/add ("withdraw a signing with a
 * reason (the archive number is never reused); refused once the invoice is booked"), dept/sign,
 * project/apportionment and project/change ("sums within 0.01 元 … move an allocation with a reason,
 * recorded with who and when"). "API tests for every call and permission (role 14 signs but gets 权限不足
 * on the pool; role 16 reads; role 13 all) … revoke rules".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSignState, IncomeUsage, SyncSystem } from '@zhyy/shared';
import { ARCHIVE_SIM_REFUSAL } from '../src/integrations/archive/index.js';
import { lock } from '../src/modules/income/identity/locks.js';
import { shanghaiMonth } from '../src/modules/income/signing/archive-no.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, signDocs } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
let D: Awaited<ReturnType<typeof signDocs>>;

beforeAll(async () => {
  s = await startTestServer();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
  D = await signDocs(s);
});
afterAll(() => s?.close());

async function fresh(over: Record<string, unknown> = {}): Promise<string> {
  const a = await s.call('/api/income/pool/save', entry(over), t13);
  expect(a.code, a.message).toBe(20000);
  return a.r.id;
}
const inv = (id: string) => s.db.kysely.selectFrom('income_invoices').select(['sign_state', 'archive_no', 'usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow();
const sign = (invoiceIds: string[], doc: Record<string, unknown>, t = t14) => s.call('/api/income/entry/sign', { invoiceIds, ...doc }, t);
const ZERO = '00000000-0000-4000-8000-000000000000';
const ARCHIVE = /^GD\d{6}\d{4,}$/;
const seqOf = (no: string) => Number(no.slice(8));

describe('permissions (role 14 signs but gets 权限不足 on the pool; role 16 reads; role 13 all)', () => {
  const READS: Array<[string, Record<string, unknown>]> = [
    ['/api/income/entry/list', {}],
    ['/api/income/entry/sign-count', {}],
    ['/api/income/entry/detail', { id: ZERO }],
    ['/api/income/entry/signings', {}],
    ['/api/income/entry/revoke/list', {}],
    ['/api/income/entry/revoke/signed', {}],
    ['/api/income/entry/dept/list', {}],
    ['/api/income/entry/project/allocations', { invoiceId: ZERO }],
    ['/api/income/entry/project/changes', {}],
    ['/api/income/entry/project/targets', { keyword: '项目' }],
    ['/api/income/entry/depts', {}],
  ];
  const WRITES: Array<[string, Record<string, unknown>]> = [
    ['/api/income/entry/sign', { invoiceIds: [ZERO], docType: 'contract', docNo: 'HT-PERM' }],
    ['/api/income/entry/revoke/add', { invoiceId: ZERO, reason: '权限测试' }],
    ['/api/income/entry/dept/sign', { invoiceIds: [ZERO], docType: 'contract', docNo: 'HT-PERM' }],
    ['/api/income/entry/project/set', { invoiceId: ZERO, items: [{ projectId: ZERO, amountExcl: 1, tax: 0, amountIncl: 1 }], reason: '权限测试' }],
    ['/api/income/entry/project/move', { allocationId: ZERO, toProjectId: ZERO, amountIncl: 1, reason: '权限测试' }],
  ];
  it.each(READS)('%s: roles 1, 13, 14, 16 read', async (url, body) => {
    for (const t of [t1, t13, t14, t16]) {
      const a = await s.call(url, body, t);
      expect(a.status, url).not.toBe(403);
      expect(a.status).toBeLessThan(500);
    }
    expect((await s.call(url, body)).code).toBe(50008);
  });
  it.each(WRITES)('%s: roles 1, 13, 14 change; 16 gets 权限不足', async (url, body) => {
    for (const t of [t1, t13, t14]) {
      const a = await s.call(url, body, t);
      expect(a.status, `${url} ${a.message}`).not.toBe(403);
      expect(a.status).toBeLessThan(500);
    }
    const a = await s.call(url, body, t16);
    expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
  });
  it('role 14 gets 权限不足 on the pool', async () => {
    const a = await s.call('/api/income/pool/list', {}, t14);
    expect([a.status, a.message]).toEqual([403, '权限不足']);
  });
});

describe('signing (签收归档)', () => {
  it('validates the body with Chinese messages', async () => {
    expect((await sign([], { docType: 'contract', docNo: 'HT1' })).message).toContain('请选择要签收的发票');
    expect((await sign([ZERO], { docType: 'contract' })).message).toContain('请填写合同号');
    expect((await sign([ZERO], { docType: 'other' })).message).toContain('单据类型为其他时请填写说明');
    expect((await sign([ZERO], { docType: 'x', docNo: 'A' })).message).toContain('单据类型不正确');
    expect((await sign([ZERO, ZERO], { docType: 'contract', docNo: 'HT1' })).message).toContain('同一张发票不能重复选择');
  });

  it('refuses a document that does not exist or does not accept invoices, naming it; nothing is signed or locked (issue 27)', async () => {
    const ids = [await fresh(), await fresh(), await fresh()];
    const untouched = { sign_state: IncomeSignState.unsigned, archive_no: '', usage: IncomeUsage.available, use_kind: '', doc_no: '' };
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ docType: 'reimbursement', docNo: 'BX2026119999' }, '报销单 BX2026119999 不存在，请核对报销单号'],
      [{ docType: 'reimbursement', docNo: D.draftBill }, `报销单 ${D.draftBill} 尚未提交审批，不能使用`],
      [{ docType: 'contract', docNo: 'HT2099-0001' }, '合同 HT2099-0001 不存在，请核对合同编号'],
      [{ docType: 'project', docNo: 'XM2099-001' }, '项目 XM2099-001 不存在，请核对项目编号'],
      [{ docType: 'project', docNo: D.tempProject }, new RegExp(`^项目 ${D.tempProject}（.+）为临时项目，请先匹配正式项目后再使用$`)],
    ];
    for (const [doc, message] of cases) {
      for (const url of ['/api/income/entry/sign', '/api/income/entry/dept/sign']) {
        const a = await s.call(url, { invoiceIds: ids, ...doc }, t14);
        expect(a.code, url).toBe(30000);
        if (typeof message === 'string') expect(a.message, url).toBe(message);
        else expect(a.message, url).toMatch(message);
      }
    }
    for (const id of ids) expect(await inv(id)).toEqual(untouched);
    const rows = await s.db.kysely.selectFrom('income_signings').select('id').where('invoice_id', 'in', ids).execute();
    expect(rows).toEqual([]);
  });

  it('signs many against a reimbursement: each gets the next archive number of the month and stays held by the signing', async () => {
    const ids = [await fresh(), await fresh(), await fresh()];
    const before = await s.call('/api/income/entry/sign-count', {}, t14);
    const a = await sign(ids, { docType: 'reimbursement', docNo: D.reimbursement });
    expect(a.code, a.message).toBe(20000);
    expect(a.message).toBe('签收成功3张，失败0张');
    const nos = a.r.outcomes.map((o: { archiveNo: string }) => o.archiveNo);
    for (const n of nos) expect(n).toMatch(ARCHIVE);
    expect(nos[0].slice(2, 8)).toBe(shanghaiMonth());
    expect([seqOf(nos[1]) - seqOf(nos[0]), seqOf(nos[2]) - seqOf(nos[1])]).toEqual([1, 1]);
    for (const [i, id] of ids.entries()) expect(await inv(id)).toEqual({ sign_state: IncomeSignState.signed, archive_no: nos[i], usage: IncomeUsage.locked, use_kind: 'sign', doc_no: D.reimbursement });
    expect((await s.call('/api/income/entry/sign-count', {}, t14)).r.invoiceEntrySignCount).toBe(before.r.invoiceEntrySignCount - 3);
    // The archive side was asked once per invoice (sync log, system 2 财务系统).
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['status', 'memo']).where('system', '=', SyncSystem.accounting).where('type', '=', 'incomeArchive').execute();
    expect(logs.filter((l) => l.status === 0).length).toBeGreaterThanOrEqual(3);
    const d = await s.call('/api/income/entry/detail', { id: ids[0] }, t16);
    expect(d.r.signings[0]).toMatchObject({ state: 'signed', archiveNo: nos[0], docType: 'reimbursement', docNo: D.reimbursement });
    expect(d.r.signings[0].voucherId).toMatch(/^SIMV/);
    expect(d.r.history[0].message).toContain(`档案号 ${nos[0]}`);
    // Signed again: refused, nothing changes.
    const again = await sign([ids[0]!], { docType: 'contract', docNo: D.contract });
    expect(again.r.outcomes[0].message).toBe(`该发票已签收，档案号 ${nos[0]}`);
  });

  it('signing against a contract closes the use (archived against a contract)', async () => {
    const id = await fresh();
    const a = await sign([id], { docType: 'contract', docNo: D.contract });
    expect(a.r.outcomes[0].signState).toBe(IncomeSignState.signed);
    expect(await inv(id)).toMatchObject({ usage: IncomeUsage.closed, use_kind: 'sign', doc_no: D.contract });
  });

  it('a failed archive call: sign state 2 with the reason, the lock released, no archive number taken', async () => {
    const [ok1, bad, ok2] = [await fresh(), await fresh(), await fresh()];
    const first = await sign([ok1], { docType: 'project', docNo: D.project });
    const failed = await sign([bad], { docType: 'other', note: '测试失败：模拟档案拒绝' });
    // Nothing signed: a refusal, 30000 with the reason (issue 27 item 8), the outcome beside it.
    expect(failed.code).toBe(30000);
    expect(failed.message).toBe(`签收失败：${ARCHIVE_SIM_REFUSAL}`);
    expect(failed.r.outcomes[0]).toEqual({ invoiceId: bad, signState: IncomeSignState.failed, archiveNo: '', message: `签收失败：${ARCHIVE_SIM_REFUSAL}` });
    expect(await inv(bad)).toEqual({ sign_state: IncomeSignState.failed, archive_no: '', usage: IncomeUsage.available, use_kind: '', doc_no: '' });
    const second = await sign([ok2], { docType: 'project', docNo: D.project });
    expect(seqOf(second.r.outcomes[0].archiveNo)).toBe(seqOf(first.r.outcomes[0].archiveNo) + 1);
    const list = await s.call('/api/income/entry/signings', { state: 'failed', invoiceId: bad }, t16);
    expect(list.r.items[0]).toMatchObject({ state: 'failed', failReason: ARCHIVE_SIM_REFUSAL, docType: 'other' });
    // A failed one is waiting again and may be signed again.
    expect((await s.call('/api/income/entry/list', { number: (await s.db.kysely.selectFrom('income_invoices').select('digital_no').where('id', '=', bad).executeTakeFirstOrThrow()).digital_no }, t14)).r.total).toBe(1);
    expect((await sign([bad], { docType: 'other', note: '补签' })).r.outcomes[0].signState).toBe(IncomeSignState.signed);
    // 其他 without a number: the signing's own number QS{yyyyMMdd}-{6} holds the invoice.
    expect(await inv(bad)).toMatchObject({ usage: IncomeUsage.locked, use_kind: 'sign', doc_no: expect.stringMatching(/^QS\d{8}-[0-9A-F]{6}$/) });
  });

  it('an invoice held by a reimbursement is refused with the holder; the state is unchanged', async () => {
    const id = await fresh();
    await s.db.kysely.transaction().execute((trx) => lock(id, { kind: 'reimbursement', docNo: 'BX202611-0777' }, trx));
    const a = await sign([id], { docType: 'contract', docNo: D.contract });
    expect(a.code).toBe(30000);
    expect(a.message).toBe('该发票已用于报销单 BX202611-0777');
    expect(a.r.outcomes[0].message).toBe('该发票已用于报销单 BX202611-0777');
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.unsigned, use_kind: 'reimbursement' });
    // Every invoice of the call refused: 30000 naming each invoice and its reason (issue 27 item 8).
    const other = await fresh();
    await s.db.kysely.transaction().execute((trx) => lock(other, { kind: 'reimbursement', docNo: 'BX202611-0778' }, trx));
    const both = await sign([id, other], { docType: 'contract', docNo: D.contract });
    const nos = await s.db.kysely.selectFrom('income_invoices').select(['id', 'digital_no', 'invoice_no']).where('id', 'in', [id, other]).execute();
    const no = (x: string) => { const r = nos.find((n) => n.id === x)!; return r.digital_no || r.invoice_no; };
    expect(both.code).toBe(30000);
    expect(both.message).toBe(`2 张发票均未签收：${no(id)} 该发票已用于报销单 BX202611-0777；${no(other)} 该发票已用于报销单 BX202611-0778`);
    expect(both.r).toMatchObject({ signed: 0, failed: 2, pending: 0 });
  });

  it('the waiting list and the badge: unsigned, unlocked, in force, buyer ours', async () => {
    const count = (await s.call('/api/income/entry/sign-count', {}, t13)).r.invoiceEntrySignCount;
    const n = await s.db.kysely
      .selectFrom('income_invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sign_state', 'in', [0, 2])
      .where('usage', '=', 0)
      .where('invoice_state', 'not in', [2, 3, 8])
      .where('buyer_mismatch', '=', 0)
      .executeTakeFirstOrThrow();
    expect(count).toBe(Number(n.n));
    expect((await s.call('/api/income/entry/list', { pageSize: 1 }, t16)).r.total).toBe(count);
    for (const t of [t1, t13, t14, t16]) expect((await s.call('/api/invoice/billing-cancellation-count', {}, t)).r.invoiceEntrySignCount).toBe(count);
  });
});

describe('revoking (签收撤销)', () => {
  it('withdraws a signing with a reason; the archive number is never reused', async () => {
    const id = await fresh();
    const a = await sign([id], { docType: 'reimbursement', docNo: D.reimbursement });
    const no = a.r.outcomes[0].archiveNo;
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: id, reason: '撤' }, t14)).message).toContain('撤销原因至少2个字');
    const r = await s.call('/api/income/entry/revoke/add', { invoiceId: id, reason: '报销单退回' }, t14);
    expect(r.code, r.message).toBe(20000);
    expect(r.message).toBe(`已撤销签收，档案号 ${no} 作废`);
    expect(await inv(id)).toEqual({ sign_state: IncomeSignState.unsigned, archive_no: '', usage: IncomeUsage.available, use_kind: '', doc_no: '' });
    const list = await s.call('/api/income/entry/revoke/list', { archiveNo: no }, t16);
    expect(list.r.items).toEqual([expect.objectContaining({ invoiceId: id, archiveNo: no, reason: '报销单退回', docNo: D.reimbursement })]);
    expect(list.r.items[0].userName).toBeTruthy();
    const again = await sign([id], { docType: 'reimbursement', docNo: D.reimbursement });
    const no2 = again.r.outcomes[0].archiveNo;
    expect(no2).toMatch(ARCHIVE);
    expect(no2).not.toBe(no);
    expect(seqOf(no2)).toBeGreaterThan(seqOf(no));
    expect((await s.call('/api/income/entry/signings', { archiveNo: no }, t13)).r.items[0].state).toBe('revoked');
  });

  it('refuses an unsigned invoice, a booked one and one closed against a contract', async () => {
    const unsigned = await fresh();
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: unsigned, reason: '测试撤销' }, t13)).message).toBe('该发票未签收，无需撤销');
    const booked = await fresh();
    await sign([booked], { docType: 'reimbursement', docNo: D.reimbursement });
    await s.db.kysely.updateTable('income_invoices').set({ booking_state: '02' }).where('id', '=', booked).execute();
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: booked, reason: '测试撤销' }, t13)).message).toBe('该发票已入账，不能撤销签收');
    expect((await inv(booked)).sign_state).toBe(IncomeSignState.signed);
    const closed = await fresh();
    await sign([closed], { docType: 'contract', docNo: D.contract });
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: closed, reason: '测试撤销' }, t13)).message).toBe(`该发票已随合同 ${D.contract} 归档完成使用，不能撤销签收`);
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: ZERO, reason: '测试撤销' }, t13)).message).toBe('发票不存在');
  });
});

describe('project apportionment and change; department signing', () => {
  async function projects() {
    return s.db.kysely.selectFrom('projects').select(['id', 'name']).where('is_temp', '=', 0).orderBy('code').limit(3).execute();
  }

  it('allocates within 0.01 元, moves part with a reason, recorded with who and when', async () => {
    const id = await fresh();
    const [p1, p2, p3] = await projects();
    const bad = await s.call('/api/income/entry/project/set', { invoiceId: id, items: [{ projectId: p1!.id, amountExcl: 5000, tax: 450, amountIncl: 5450 }, { projectId: p2!.id, amountExcl: 4000, tax: 450, amountIncl: 4450 }], reason: '首次分摊' }, t14);
    expect(bad.message).toContain('差额不能超过0.01元');
    // 1 分 off on 价税合计 and 不含税金额 is within the rule.
    const good = await s.call('/api/income/entry/project/set', { invoiceId: id, items: [{ projectId: p1!.id, amountExcl: 5000, tax: 450, amountIncl: 5450 }, { projectId: p2!.id, amountExcl: 4999, tax: 450, amountIncl: 5449 }], reason: '首次分摊' }, t14);
    expect(good.code, good.message).toBe(20000);
    const alloc = (await s.call('/api/income/entry/project/allocations', { invoiceId: id }, t16)).r;
    expect(alloc.map((a: { projectId: string; amountIncl: number }) => [a.projectId, a.amountIncl])).toEqual([[p1!.id, 5450], [p2!.id, 5449]]);
    const from = alloc[0];
    expect((await s.call('/api/income/entry/project/move', { allocationId: from.id, toProjectId: p3!.id, amountIncl: 9999, reason: '项目调整' }, t14)).message).toBe('变更金额 99.99 元超过该分摊的金额 54.50 元');
    expect((await s.call('/api/income/entry/project/move', { allocationId: from.id, toProjectId: p1!.id, amountIncl: 100, reason: '项目调整' }, t14)).message).toBe('变更后的项目与原项目相同');
    const mv = await s.call('/api/income/entry/project/move', { allocationId: from.id, toProjectId: p3!.id, amountIncl: 1090, reason: '项目调整' }, t14);
    expect(mv.code, mv.message).toBe(20000);
    const after = (await s.call('/api/income/entry/project/allocations', { invoiceId: id }, t13)).r;
    expect(after.find((a: { projectId: string }) => a.projectId === p3!.id)).toMatchObject({ amountExcl: 1000, tax: 90, amountIncl: 1090 });
    expect(after.find((a: { projectId: string }) => a.projectId === p1!.id)).toMatchObject({ amountExcl: 4000, tax: 360, amountIncl: 4360 });
    const ch = await s.call('/api/income/entry/project/changes', { invoiceId: id }, t16);
    expect(ch.r.total).toBe(2);
    const who = await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo14').executeTakeFirstOrThrow();
    expect(ch.r.items[0]).toMatchObject({ action: 'move', fromName: p1!.name, toName: p3!.name, amountIncl: 1090, reason: '项目调整', userName: who.name });
    expect(ch.r.items[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(ch.r.items[0].before).toHaveLength(2);
    expect(ch.r.items[0].after).toHaveLength(3);
  });

  it('the pickers: projects by code or name, and the departments', async () => {
    const [p1] = await projects();
    const found = (await s.call('/api/income/entry/project/targets', { keyword: p1!.name }, t16)).r as Array<{ id: string; name: string }>;
    expect(found.map((x) => x.id)).toContain(p1!.id);
    expect(found.every((x) => x.name.includes(p1!.name) || x.id === p1!.id)).toBe(true);
    const depts = (await s.call('/api/income/entry/depts', {}, t13)).r as Array<{ id: string; name: string; parentId: string | null }>;
    const n = await s.db.kysely.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(depts).toHaveLength(Number(n.n));
    expect(Object.keys(depts[0]!).sort()).toEqual(['id', 'name', 'parentId']);
    expect(depts.filter((d) => d.parentId === null).length).toBeGreaterThan(0);
  });

  it("dept/sign lists and signs only the signer's department's invoices", async () => {
    const me = await s.db.kysely.selectFrom('users').select(['dept_id']).where('login_name', '=', 'demo14').executeTakeFirstOrThrow();
    const other = await s.db.kysely.selectFrom('departments').select('id').where('id', '!=', me.dept_id!).executeTakeFirstOrThrow();
    const [p1] = await projects();
    const mine = await fresh();
    const theirs = await fresh();
    const items = [{ projectId: p1!.id, amountExcl: 10000, tax: 900, amountIncl: 10900 }];
    expect((await s.call('/api/income/entry/project/set', { invoiceId: mine, deptId: me.dept_id, items, reason: '登记部门' }, t14)).code).toBe(20000);
    expect((await s.call('/api/income/entry/project/set', { invoiceId: theirs, deptId: other.id, items, reason: '登记部门' }, t14)).code).toBe(20000);
    const list = await s.call('/api/income/entry/dept/list', { pageSize: 500 }, t14);
    const ids = list.r.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect((await s.call('/api/income/entry/dept/sign', { invoiceIds: [theirs], docType: 'project', docNo: D.project }, t14)).message).toBe('只能签收本部门的发票（发票所属部门在项目分摊中登记）');
    const ok = await s.call('/api/income/entry/dept/sign', { invoiceIds: [mine], docType: 'project', docNo: D.project }, t14);
    expect(ok.r.outcomes[0].archiveNo).toMatch(ARCHIVE);
    const d = await s.call('/api/income/entry/detail', { id: mine }, t16);
    expect(d.r.deptId).toBe(me.dept_id);
  });
});
