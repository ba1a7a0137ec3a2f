/**
 * Issue 15, applying (continued from reimbursement-apply.test.ts, same set-up: reimbursement-apply-fixture.ts):
 * the pool picker and the on-the-spot upload, approval through the workflow (submit, withdraw, return, 核定,
 * complete; an applicant never approves their own bill), two bills saving the same invoice at once, and the
 * lists, attachments and permissions. "Approvers may reduce a line's approved amount, never raise it."
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeInvoiceState, IncomeUsage, ReimbFlowState, ReimbState } from '@zhyy/shared';
import type { TestServer } from './helpers.js';
import { b64, entry, pdf, shanghaiDay } from './income-helpers.js';
import { openHandlers } from './workflow-helpers.js';
import { wf } from '../src/modules/workflow/tables.js';
import { applyHelpers, header, line, person, startApplyServer } from './reimbursement-apply-fixture.js';

let s: TestServer;
/** The applicant (a staff member, not a manager), another employee of another department, the 费用会计 (role 12). */
const A = person();
const B = person();
let t12 = '';
let tBoss = '';
const { call, invoice, usage, bill } = applyHelpers(() => s);

beforeAll(async () => {
  ({ s, t12, tBoss } = await startApplyServer(A, B));
});
afterAll(() => s?.close());

describe('the pool picker and the upload', () => {
  it('offers my uploads that are free or held by this bill, never another bill\'s or a dead one', async () => {
    const free = await invoice(A.id);
    const held = await invoice(A.id);
    const dead = await invoice(A.id, { invoiceState: 2 });
    const x = await call('/bill/save', { ...header(), lines: [line({ invoiceId: held })] }, A.token);
    const ids = (r: Array<{ id: string }>) => r.map((i) => i.id);
    const plain = ids((await call('/invoice/candidates', {}, A.token)).r);
    expect(plain).toContain(free);
    expect(plain).not.toContain(held);
    expect(plain).not.toContain(dead);
    expect(ids((await call('/invoice/candidates', { billId: x.r.id }, A.token)).r)).toContain(held);
    expect((await call('/invoice/candidates', { billId: x.r.id }, B.token)).status).toBe(403);
  });

  it('the invoice just uploaded is fetched by id whatever the search; one that may not be picked is refused with its true reason (issue 31)', async () => {
    const fresh = await invoice(A.id, { issueDate: shanghaiDay(-400) });
    const other = await invoice(A.id);
    // Line 1's search (another invoice's number) does not hide the new one when it is asked for by id.
    const searched = (await call('/invoice/candidates', { keyword: 'NO-SUCH-NUMBER' }, A.token)).r;
    expect(searched.some((x: { id: string }) => x.id === fresh)).toBe(false);
    const byId = await call('/invoice/candidates', { keyword: 'NO-SUCH-NUMBER', invoiceId: fresh }, A.token);
    expect([byId.code, byId.r.map((x: { id: string }) => x.id)]).toEqual([20000, [fresh]]);
    // Held by another bill: which one.
    const x = await call('/bill/save', { ...header(), lines: [line({ invoiceId: other })] }, A.token);
    const held = await call('/invoice/candidates', { invoiceId: other }, A.token);
    expect([held.code, held.message]).toEqual([30000, `该发票已用于报销单 ${x.r.billNo}`]);
    // The same bill may pick what it holds.
    expect((await call('/invoice/candidates', { billId: x.r.id, invoiceId: other }, A.token)).code).toBe(20000);
    // Dead, and someone else's.
    const dead = await invoice(A.id, { invoiceState: 2 });
    const deadAnswer = await call('/invoice/candidates', { invoiceId: dead }, A.token);
    expect([deadAnswer.code, deadAnswer.message]).toEqual([30000, `该发票${IncomeInvoiceState.label(2)}，不能用于报销`]);
    const notMine = await call('/invoice/candidates', { invoiceId: fresh }, B.token);
    // Whose it is, by the claim rule (issue 27): the uploader is named.
    expect(notMine.code).toBe(30000);
    expect(notMine.message).toMatch(/^发票 \S+ 由.+上传，只能由上传人报销$/);
  });

  it('everyone may upload an invoice on the spot; it is theirs to pick', async () => {
    const digitalNo = `99${String(Date.now()).slice(-6)}777777777777`;
    const file = { fileName: 'fapiao.pdf', content: b64(pdf(`reimb ${digitalNo}`)) };
    const rec = await call('/invoice/upload-recognise', file, B.token);
    expect(rec.code, rec.message).toBe(20000);
    const e = entry({ digitalNo });
    const saved = await call('/invoice/upload-save', { ...e, invoiceCode: '', invoiceNo: '', checkCode: '', files: [file] }, B.token);
    expect(saved.code, saved.message).toBe(20000);
    const c = (await call('/invoice/candidates', { keyword: digitalNo.slice(-8) }, B.token)).r;
    expect(c.map((i: { id: string }) => i.id)).toEqual([saved.r.id]);
    expect(c[0].files).toHaveLength(1);
    // Its file: for me, and for nobody else until a bill they may read uses it.
    expect((await call('/invoice/file', { id: c[0].files[0].id }, B.token)).status).toBe(200);
    expect((await call('/invoice/file', { id: c[0].files[0].id }, A.token)).status).toBe(403);
  });
});

describe('an applicant never approves their own bill (issue 27)', () => {
  it('demo16 (财务主管, role 16) submits a bill: 财务负责人复核 passes to someone else and the track says so', async () => {
    const t16 = await s.login('demo16');
    const me = await s.db.kysely.selectFrom('users').select('id').where('login_name', '=', 'demo16').executeTakeFirstOrThrow();
    const a = await call('/bill/save', { ...header(), lines: [line()] }, t16);
    expect(a.code, a.message).toBe(20000);
    const sub = await call('/bill/submit', { id: a.r.id }, t16);
    expect(sub.code, sub.message).toBe(20000);
    const workId = sub.r.workId as number;
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const b = await bill(a.r.id);
      if (b.flow_state !== ReimbFlowState.approving) break;
      const open = await openHandlers(s, workId);
      expect(open).not.toContain('demo16');
      seen.push((await s.app.workflow.instanceOf('reimbursement', a.r.id))!.nodeName);
      const r = await s.call('/api/miswf/workflow/send', { workId, opinion: '同意' }, await s.login(open[0]!));
      expect(r.code, r.message).toBe(20000);
    }
    expect(seen).toContain('财务负责人复核');
    expect((await bill(a.r.id)).flow_state).toBe(ReimbFlowState.approved);
    // demo16 never held a work item after the start, and the track records the pass-over at 财务负责人复核.
    const items = await wf(s.db.kysely).selectFrom('wf_work_items').select('node_id').where('work_id', '=', workId).where('handler_id', '=', me.id).execute();
    expect(items.map((i) => i.node_id)).toEqual(['start']);
    const track = (await s.call('/api/miswf/workflow/workflow-record', { workId }, t16)).r as Array<{ action: string; actionName: string; nodeName: string; opinion: string }>;
    const pass = track.filter((e) => e.action === 'passOver');
    expect(pass.map((e) => [e.actionName, e.nodeName])).toEqual([['自动转交', '财务负责人复核']]);
    expect(pass[0]!.opinion).toMatch(/^申请人本人为审批人，已自动转交/);
  });
});

describe('two bills saving the same invoice at once', () => {
  it('exactly one wins; the other is refused with the winner', async () => {
    const inv = await invoice(A.id);
    const [x, y] = await Promise.all([
      call('/bill/save', { ...header(), lines: [line({ invoiceId: inv })] }, A.token),
      call('/bill/save', { ...header(), lines: [line({ invoiceId: inv })] }, A.token),
    ]);
    const won = [x, y].filter((r) => r.code === 20000);
    const lost = [x, y].filter((r) => r.code !== 20000);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toBe(`该发票已用于报销单 ${won[0]!.r.billNo}`);
    expect((await usage(inv)).doc_no).toBe(won[0]!.r.billNo);
    const lines = await s.db.kysely.selectFrom('reimb_lines').select('bill_id').where('invoice_id', '=', inv).execute();
    expect(lines.map((l) => l.bill_id)).toEqual([won[0]!.r.id]);
  });
});

describe('approval: submit, withdraw, return, 核定, complete', () => {
  let id = '';
  let no = '';
  let inv = '';
  const loginOf = async (workId: number) => (await openHandlers(s, workId))[0]!;

  it('submits into FY01 in the same transaction; the bill is 审批中 and its invoice stays locked', async () => {
    inv = await invoice(A.id, { amountExcl: 100_000, tax: 13_000, amountIncl: 113_000, lines: [{ name: '*办公用品*打印纸', spec: '', unit: '箱', quantity: '1', unitPrice: '1000.00', amount: 100_000, taxRate: '0.13', tax: 13_000 }] });
    const a = await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv, amount: 113_000 }), line({ categoryCode: 'T-HOTEL', city: '上海', nights: 1, amount: 40_000, expenseDate: shanghaiDay(-8) })] }, A.token);
    id = a.r.id;
    no = a.r.billNo;
    const sub = await call('/bill/submit', { id }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    expect(sub.r.nodeName).toBe('部门负责人审批');
    const b = await bill(id);
    expect(b.flow_state).toBe(ReimbFlowState.approving);
    expect(b.work_id).toBe(sub.r.workId);
    expect(b.submitted_at).not.toBeNull();
    const inst = await s.app.workflow.instanceOf('reimbursement', id);
    expect(inst).toMatchObject({ workId: sub.r.workId, nodeName: '部门负责人审批' });
    // Issue 31 #8: the to-do's title writes the money as every screen does (1,530.00, not 1530.00).
    const todo = await wf(s.db.kysely).selectFrom('wf_instances').select('title').where('work_id', '=', sub.r.workId).executeTakeFirstOrThrow();
    expect(todo.title).toBe(`${A.name}的费用报销 ${no}（1,530.00元）`);
    expect((await usage(inv)).usage).toBe(IncomeUsage.locked);
    // Not editable while in approval.
    expect((await call('/bill/save', { id, ...header(), lines: [] }, A.token)).message).toBe('报销单审批中，不能修改');
  });

  it('another employee cannot read or change it; the handler and roles 12, 16 read it', async () => {
    expect((await call('/bill/get', { id }, B.token)).status).toBe(403);
    expect((await call('/bill/withdraw', { id }, B.token)).status).toBe(403);
    expect((await call('/bill/detail', { id }, B.token)).status).toBe(403);
    const d = await call('/bill/detail', { id }, t12);
    expect(d.code).toBe(20000);
    expect(d.r).toMatchObject({ billNo: no, flowStateName: '审批中', can: { edit: false, approve: false } });
    const mgr = await s.login(await loginOf((await bill(id)).work_id!));
    const m = await call('/bill/get', { id }, mgr);
    expect(m.r.can.approve).toBe(true);
    expect(m.r.track.map((t: { actionName: string }) => t.actionName)).toContain('发起');
  });

  it('withdraw before anyone acted: back to 草稿, invoices released; resubmitting re-locks them', async () => {
    const w = await call('/bill/withdraw', { id }, A.token);
    expect(w.code, w.message).toBe(20000);
    expect((await bill(id)).flow_state).toBe(ReimbFlowState.draft);
    expect((await usage(inv)).usage).toBe(IncomeUsage.available);
    const sub = await call('/bill/submit', { id }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    expect((await bill(id)).flow_state).toBe(ReimbFlowState.approving);
    expect(await usage(inv)).toMatchObject({ usage: IncomeUsage.locked, doc_no: no });
  });

  it('核定: only the current handler, never above the claim, not below 0; sums recomputed', async () => {
    const d = (await call('/bill/get', { id }, A.token)).r;
    const hotel = d.lines[1];
    expect((await call('/bill/approve-line', { lineId: hotel.id, approvedAmount: 30_000, note: '超标准部分不予报销' }, A.token)).status).toBe(403);
    const mgr = await s.login(await loginOf((await bill(id)).work_id!));
    expect((await call('/bill/approve-line', { lineId: hotel.id, approvedAmount: 40_001, note: '调增' }, mgr)).message).toBe('核定金额不能高于报销金额 400.00 元');
    expect((await call('/bill/approve-line', { lineId: hotel.id, approvedAmount: -1, note: 'x' }, mgr)).status).toBe(400);
    const ok = await call('/bill/approve-line', { lineId: hotel.id, approvedAmount: 30_000, note: '超标准部分不予报销' }, mgr);
    expect(ok.code, ok.message).toBe(20000);
    const b = await bill(id);
    expect(Number(b.amount)).toBe(153_000);
    expect(Number(b.approved_amount)).toBe(143_000);
    const l = (await call('/bill/get', { id }, A.token)).r.lines[1];
    expect(l).toMatchObject({ approvedAmount: 30_000, approveNote: '超标准部分不予报销' });
  });

  it('a return to the starter: 已退回, invoices released, a message; resubmitting sends it on', async () => {
    const workId = (await bill(id)).work_id!;
    const mgr = await s.login(await loginOf(workId));
    const r = await s.call('/api/miswf/workflow/return', { workId, toNodeId: 'start', reason: '请补充住宿发票' }, mgr);
    expect(r.code, r.message).toBe(20000);
    expect((await bill(id)).flow_state).toBe(ReimbFlowState.returned);
    expect((await usage(inv)).usage).toBe(IncomeUsage.available);
    const msgs = await s.db.kysely.selectFrom('user_messages').select(['title', 'content', 'link']).where('user_id', '=', A.id).execute();
    expect(msgs.find((m) => m.title === `报销单 ${no} 已退回`)).toMatchObject({ link: `/my/reimbursement/detail/${id}` });
    expect(msgs.find((m) => m.title === `报销单 ${no} 已退回`)!.content).toContain('请补充住宿发票');
    // Editable again by the applicant; the pool lets it take the invoice back.
    const d = (await call('/bill/get', { id }, A.token)).r;
    expect(d.can).toMatchObject({ edit: true, submit: true, delete: false });
    expect((await call('/bill/delete', { id }, A.token)).message).toBe('报销单已退回，只能删除草稿');
    // The returned form cannot be sent on from 我的待办: the bill is resubmitted (with its locks and checks).
    expect((await s.call('/api/miswf/workflow/send', { workId, opinion: '重新提交' }, A.token)).message).toBe('请在「我的报销」中修改报销单后重新提交');
    const sub = await call('/bill/submit', { id }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    expect((await bill(id)).flow_state).toBe(ReimbFlowState.approving);
    expect((await usage(inv)).usage).toBe(IncomeUsage.locked);
  });

  it('approved through every node: 已通过, 未报销, approved_at, a message to the applicant', async () => {
    for (let i = 0; i < 6; i++) {
      const b = await bill(id);
      if (b.flow_state !== ReimbFlowState.approving) break;
      const login = await loginOf(b.work_id!);
      const t = await s.login(login);
      const r = await s.call('/api/miswf/workflow/send', { workId: b.work_id, opinion: '同意' }, t);
      expect(r.code, r.message).toBe(20000);
    }
    const b = await bill(id);
    expect(b).toMatchObject({ flow_state: ReimbFlowState.approved, reimb_state: ReimbState.unReimburse });
    expect(b.approved_at).not.toBeNull();
    expect((await usage(inv)).usage).toBe(IncomeUsage.locked);
    const msg = await s.db.kysely.selectFrom('user_messages').select('title').where('user_id', '=', A.id).where('title', '=', `报销单 ${no} 已审批通过`).executeTakeFirst();
    expect(msg).toBeDefined();
    const d = (await call('/bill/detail', { id }, tBoss)).r;
    expect(d.track.filter((t: { actionName: string }) => t.actionName === '同意').length).toBeGreaterThanOrEqual(3);
    expect(d.can).toMatchObject({ edit: false, withdraw: false, approve: false });
  });

  it('a past handler still reads the bill', async () => {
    const sender = await wf(s.db.kysely).selectFrom('wf_work_items as w').innerJoin('users as u', 'u.id', 'w.handler_id').select('u.login_name').where('w.work_id', '=', (await bill(id)).work_id!).where('w.node_id', '=', 'mgr').executeTakeFirstOrThrow();
    const d = await call('/bill/get', { id }, await s.login(sender.login_name));
    expect(d.code).toBe(20000);
    expect(d.r.can.approve).toBe(false);
  });
});

describe('费用报销审批 only for a bill', () => {
  it('is not started as a bare form from 发起申请', async () => {
    const a = await s.call('/api/miswf/workflow/start', { flowNo: 'FY01', form: {} }, A.token);
    expect(a.message).toBe('费用报销请在「我的报销」中填写报销单并提交');
    expect((await s.call('/api/miswf/workflow/savedraft', { flowNo: 'FY01', form: {} }, A.token)).message).toBe('费用报销请在「我的报销」中填写报销单并提交');
  });
});

describe('lists, attachments, permissions', () => {
  it('my bills: only mine, filters, sums of the filtered set, sorting and paging', async () => {
    const all = await call('/my/list', { pageIndex: 1, pageSize: 500 }, A.token);
    expect(all.code).toBe(20000);
    // The demo company's own bills count too (TEST_DEMO seeds some): every figure is checked against the table.
    const rows = await s.db.kysely.selectFrom('reimb_bills').select(['amount', 'approved_amount', 'flow_state', 'created_at']).where('applicant_id', '=', A.id).execute();
    expect(all.r.total).toBe(rows.length);
    expect(all.r.sums.amount).toBe(rows.reduce((a, r) => a + Number(r.amount), 0));
    expect(all.r.sums.approvedAmount).toBe(rows.reduce((a, r) => a + Number(r.approved_amount), 0));
    const approved = await call('/my/list', { flowState: ReimbFlowState.approved }, A.token);
    expect(approved.r.items.every((i: { flowStateName: string }) => i.flowStateName === '已通过')).toBe(true);
    expect(approved.r.total).toBe(rows.filter((r) => r.flow_state === ReimbFlowState.approved).length);
    expect(approved.r.total).toBeGreaterThanOrEqual(1);
    const big = await call('/my/list', { amountMin: 100_000, sort: { field: 'amount', order: 'descend' } }, A.token);
    expect(big.r.items.every((i: { amount: number }) => i.amount >= 100_000)).toBe(true);
    const page = await call('/my/list', { pageIndex: 2, pageSize: 2, sort: { field: 'billNo', order: 'ascend' } }, A.token);
    expect(page.r.items).toHaveLength(2);
    expect(page.r.items[0].billNo < page.r.items[1].billNo).toBe(true);
    const bRows = await s.db.kysely.selectFrom('reimb_bills').select('id').where('applicant_id', '=', B.id).execute();
    expect((await call('/my/list', {}, B.token)).r.total).toBe(bRows.length);
    const today = await call('/my/list', { from: shanghaiDay(), to: shanghaiDay() }, A.token);
    const dayOf = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);
    expect(today.r.total).toBe(rows.filter((r) => dayOf(r.created_at) === shanghaiDay()).length);
    expect((await call('/my/list', { from: shanghaiDay(1) }, A.token)).r.total).toBe(0);
  });

  it('attachments: the applicant uploads to a draft; readers download; others cannot', async () => {
    const a = await call('/bill/save', { ...header(), lines: [] }, A.token);
    const up = await call('/attachment/upload', { billId: a.r.id, name: '行程单.pdf', content: b64(pdf('trip')) }, A.token);
    expect(up.code, up.message).toBe(20000);
    expect((await call('/attachment/upload', { billId: a.r.id, name: 'x.html', content: b64(Buffer.from('<html><script>1</script></html>')) }, A.token)).status).toBe(400);
    expect((await call('/attachment/upload', { billId: a.r.id, name: 'y.pdf', content: b64(pdf('y')) }, B.token)).status).toBe(403);
    expect((await call('/attachment/download', { id: up.r.id }, A.token)).status).toBe(200);
    expect((await call('/attachment/download', { id: up.r.id }, B.token)).status).toBe(403);
    expect((await call('/bill/get', { id: a.r.id }, A.token)).r.attachments).toMatchObject([{ name: '行程单.pdf' }]);
    expect((await call('/attachment/delete', { id: up.r.id }, B.token)).status).toBe(403);
    expect((await call('/attachment/delete', { id: up.r.id }, A.token)).code).toBe(20000);
  });

  it('the options: enabled categories with their default rates; my grade', async () => {
    const o = (await call('/my/options', {}, A.token)).r;
    expect(o.categories.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['T-OFFICE', 'T-HOTEL']));
    expect(o.categories.map((c: { code: string }) => c.code)).not.toContain('T-OFF');
    expect(o.profile.grade).toBe('staff');
    expect(o.invoiceAgeDays).toBe(365);
  });

  it('the detail page of the ledger is for roles 1, 12, 16 only', async () => {
    const a = await call('/bill/save', { ...header(), lines: [] }, A.token);
    expect((await call('/bill/detail', { id: a.r.id }, A.token)).status).toBe(403);
    expect((await call('/bill/detail', { id: a.r.id }, await s.login('demo1'))).code).toBe(20000);
    expect((await call('/bill/get', { id: a.r.id }, t12)).code).toBe(20000);
    expect((await call('/bill/get', { id: '00000000-0000-4000-8000-000000000000' }, A.token)).message).toBe('报销单不存在');
  });
});

