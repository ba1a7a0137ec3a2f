/**
 * Issue 32 item 2, the status re-check: the bureau's status changes become ready 进项转出. The job asks the tax
 * service's 发票状态查询 about the last 180 days' invoices twice a day; a change updates the invoice and opens
 * its case by itself; a case of an invoice ticked for 抵扣 proposes the amount (the deducted tax, or the red part
 * of a partial 红冲) and the period, and 确认转出建议 makes the voucher; a case of an invoice in a reimbursement
 * bill names the bill and tells its applicant; the job run again, or on two servers at once, opens one case.
 * The simulator control `setIncomingStatus` is the bureau changing an invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIncomingStatus } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { RecheckJob, shanghaiPeriod } from '../src/modules/income/abnormal/recheck.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import { attachServer, type TestServer } from './helpers.js';
import { startTicking, tickHelpers, type TickEnv } from './income-deduction-helpers.js';
import { nextDigital, shanghaiDay } from './income-helpers.js';
import { applyHelpers, header, line, person, startApplyServer } from './reimbursement-apply-fixture.js';

const A = '/api/income/abnormal';
const HOUR = 3600_000;

describe('a deducted invoice the bureau red-reverses or grades', () => {
  let env: TickEnv;
  const { fresh, tick } = tickHelpers(() => env);
  beforeAll(async () => {
    env = await startTicking();
  });
  afterAll(() => env?.s.close());

  const deps = () => ({ db: env.s.db, synclog: env.s.app.synclog });
  const newJob = (server: TestServer, at: number) => new RecheckJob({ db: server.db, log: server.app.log, gateway: () => new InvoiceSettings(server.app).gateway() }, { now: () => new Date(at) });
  /** One round of a job on `server` whose clock reads `at` (the other invoices of the pool checked just now, so the round asks about ours). */
  async function round(server: TestServer, at = Date.now()): Promise<RecheckJob> {
    const j = newJob(server, at);
    await j.tick();
    await j.stop();
    return j;
  }
  /** Only `ids` are due: every other invoice counts as checked at `at`. */
  const onlyDue = (ids: string[], at = Date.now()) => env.s.db.kysely.updateTable('income_invoices').set({ status_checked_at: new Date(at).toISOString() }).where('id', 'not in', ids).execute();
  const inv = (id: string) => env.s.db.kysely.selectFrom('income_invoices').select(['invoice_state', 'risk_level', 'status_checked_at', 'status_found']).where('id', '=', id).executeTakeFirstOrThrow();
  const casesOf = async (id: string) => (await env.s.call(`${A}/history`, { invoiceId: id }, env.t13)).r as Array<{ id: string; flag: string; state: string; proposal: { amount: number | null; reason: number | null; period: string; note: string } | null; statusCheckedAt: string | null; transferOut: { id: string; voucherNo: string; period: string; amount: number } | null }>;
  const statusCalls = async () => (await env.s.db.kysely.selectFrom('sync_logs').select('id').where('type', '=', 'nuonuo.OpeMplatform.queryInvoiceStatus').execute()).length;
  async function deducted(tax = 900): Promise<{ id: string; no: string }> {
    const a = await fresh({ tax });
    const t = await tick({ items: [{ id: a.id }] });
    expect(t.code, t.message).toBe(20000);
    return a;
  }

  it('a red-letter notice (全额红冲) for a deducted invoice: the case proposes the deducted tax and the period; confirming makes the voucher', async () => {
    const a = await deducted();
    await onlyDue([a.id]);
    // Nothing changed at the bureau yet: checked, no case.
    const j0 = await round(env.s);
    expect(j0.last).toMatchObject({ checked: 1, changed: 0 });
    expect((await inv(a.id)).status_found).toBe(1);
    expect(await casesOf(a.id)).toEqual([]);

    await setIncomingStatus(deps(), { key: a.no, state: 8 });
    // Not due again before 12 hours: the next round asks nothing.
    expect((await round(env.s)).last).toMatchObject({ checked: 0 });
    const later = Date.now() + 13 * HOUR;
    await onlyDue([a.id], later);
    const j = await round(env.s, later);
    expect(j.last).toMatchObject({ checked: 1, changed: 1 });
    const row = await inv(a.id);
    expect([row.invoice_state, row.status_checked_at]).toEqual([8, new Date(later).toISOString()]);
    const [c] = await casesOf(a.id);
    expect(c).toMatchObject({ flag: 'red', state: 'open', proposal: { amount: 900, reason: 7, period: shanghaiPeriod(new Date(later)) } });
    expect(c!.proposal!.note).toBe('全额红冲：转出已抵扣税额9.00元');
    const hist = await env.s.db.kysely.selectFrom('income_events').select('message').where('invoice_id', '=', a.id).where('kind', '=', 'state').execute();
    expect(hist.map((h) => h.message)).toContain('发票状态核查：发票状态「正常」→「全额红冲」');

    const ok = await env.s.call(`${A}/transfer-proposal`, { caseId: c!.id, idempotencyKey: 'recheck-red-0001' }, env.t13);
    expect(ok.code, ok.message).toBe(20000);
    expect(ok.message).toMatch(/^进项转出成功，凭证号 /);
    const again = await env.s.call(`${A}/transfer-proposal`, { caseId: c!.id, idempotencyKey: 'recheck-red-0001' }, env.t13);
    expect(again.message).toMatch(/^该发票已进项转出，凭证号 /);
    const [done] = await casesOf(a.id);
    expect(done).toMatchObject({ state: 'resolved', transferOut: { amount: 900, period: c!.proposal!.period } });
    const vouchers = await env.s.db.kysely.withTables<{ accountingsim_vouchers: { id: string; period: string; voucher_no: string; body: string } }>().selectFrom('accountingsim_vouchers').selectAll().where('id', '=', done!.transferOut!.id).execute();
    expect(vouchers).toHaveLength(1);
    expect([vouchers[0]!.voucher_no, vouchers[0]!.period]).toEqual([done!.transferOut!.voucherNo, c!.proposal!.period]);
    const body = JSON.parse(vouchers[0]!.body) as { entries: Array<{ dc: string; accountCode: string; amount: number }> };
    expect(body.entries.map((e) => [e.dc, e.accountCode, e.amount])).toEqual([['debit', '2202', 900], ['credit', '22210103', 900]]);
  });

  it('attacked: two clicks at once on 确认转出建议 make one voucher; role 14 and a made-up case id are refused', async () => {
    const a = await deducted(600);
    await setIncomingStatus(deps(), { key: a.no, state: 2 });
    const at = Date.now() + 40 * HOUR;
    await onlyDue([a.id], at);
    await round(env.s, at);
    const [c] = await casesOf(a.id);
    expect(c!.proposal!.amount).toBe(600);
    expect((await env.s.call(`${A}/transfer-proposal`, { caseId: c!.id }, env.t14)).message).toBe('权限不足');
    expect((await env.s.call(`${A}/transfer-proposal`, { caseId: 'no-such-case' }, env.t13)).code).not.toBe(20000);
    const both = await Promise.all([1, 2].map(() => env.s.call(`${A}/transfer-proposal`, { caseId: c!.id }, env.t13)));
    expect(both.filter((r) => r.code === 20000 && /^进项转出成功/.test(r.message ?? ''))).toHaveLength(1);
    const outs = await env.s.db.kysely.selectFrom('income_transfer_outs').select('id').where('invoice_id', '=', a.id).execute();
    expect(outs).toHaveLength(1);
  });

  it('a partial 红冲: the case proposes the red part (the effective tax above the net tax left), filled once the red invoice arrives', async () => {
    const a = await deducted(900);
    await setIncomingStatus(deps(), { key: a.no, state: 7 });
    const at = Date.now() + 26 * HOUR;
    await onlyDue([a.id], at);
    await round(env.s, at);
    const [c] = await casesOf(a.id);
    expect(c).toMatchObject({ flag: 'red', proposal: { amount: null, reason: 7, note: '部分红冲：红字发票尚未收到，收到后按红字发票税额计算转出税额' } });
    expect((await env.s.call(`${A}/transfer-proposal`, { caseId: c!.id }, env.t13)).message).toBe('该异常没有可确认的进项转出建议（部分红冲：红字发票尚未收到，收到后按红字发票税额计算转出税额）');
    // The red invoice (−300.00 tax) arrives and links to the blue one.
    const blue = await env.s.db.kysely.selectFrom('income_invoices').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    const red = await env.s.call('/api/income/pool/save', {
      kind: '81', digitalNo: nextDigital(), issueDate: shanghaiDay(-1), sellerName: blue.seller_name, sellerTaxNo: blue.seller_tax_no, buyerName: blue.buyer_name, buyerTaxNo: blue.buyer_tax_no,
      amountExcl: -3000, tax: -300, amountIncl: -3300, checkCode: '', remark: '', blueInvoiceNo: a.no,
      lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '-1', unitPrice: '30.00', amount: -3000, taxRate: '0.09', tax: -300 }],
    }, env.t13);
    expect(red.code, red.message).toBe(20000);
    const at2 = at + 13 * HOUR;
    await onlyDue([a.id], at2);
    const j = await round(env.s, at2);
    expect(j.last!.proposed).toBeGreaterThanOrEqual(1);
    // The bureau answers 部分红冲 still; the pool keeps it.
    expect((await inv(a.id)).invoice_state).toBe(7);
    const [c2] = await casesOf(a.id);
    expect(c2).toMatchObject({ state: 'open', proposal: { amount: 300, reason: 7, period: c!.proposal!.period, note: '红字发票税额3.00元，已抵扣9.00元，红冲后税额6.00元：转出3.00元' } });
    const ok = await env.s.call(`${A}/transfer-proposal`, { caseId: c2!.id }, env.t13);
    expect(ok.code, ok.message).toBe(20000);
    expect((await casesOf(a.id))[0]).toMatchObject({ state: 'resolved', transferOut: { amount: 300 } });
  });

  it('risk 02 and 03: the grade changes, 异常凭证 proposes the whole deducted tax, 疑点 only asks for a check', async () => {
    const x = await deducted(500);
    const y = await deducted(700);
    await setIncomingStatus(deps(), { key: x.no, riskLevel: '02' });
    await setIncomingStatus(deps(), { key: y.no, riskLevel: '03' });
    const at = Date.now() + 39 * HOUR;
    await onlyDue([x.id, y.id], at);
    await round(env.s, at);
    expect((await inv(x.id)).risk_level).toBe('02');
    expect((await inv(y.id)).risk_level).toBe('03');
    expect((await casesOf(x.id))[0]).toMatchObject({ flag: 'abnormalVoucher', proposal: { amount: 500, reason: 9, note: '异常凭证：转出已抵扣税额5.00元' } });
    const [s3] = await casesOf(y.id);
    expect(s3).toMatchObject({ flag: 'suspicious', proposal: { amount: null, reason: null } });
    // 疑点: confirmed after checking, even though it is ticked.
    expect((await env.s.call(`${A}/confirm`, { caseId: s3!.id, note: '已核实业务真实' }, env.t13)).message).toBe('已确认无误');
    // The pool shows the grade and the last check.
    const pool = await env.s.call('/api/income/pool/list', { number: x.no, pageSize: 5 }, env.t13);
    expect(pool.r.items[0]).toMatchObject({ riskLevel: '02', statusCheckedAt: new Date(at).toISOString(), statusFound: true });
    const detail = await env.s.call('/api/income/pool/detail', { id: x.id }, env.t13);
    expect(detail.r.invoice ?? detail.r).toMatchObject({ statusCheckedAt: new Date(at).toISOString() });
  });

  it('the job run twice, and on two servers at once, opens one case; an invoice the bureau does not know is recorded as such', async () => {
    const a = await deducted();
    const unknown = await fresh({ known: false });
    await setIncomingStatus(deps(), { key: a.no, riskLevel: '02' });
    const at = Date.now() + 52 * HOUR;
    await onlyDue([a.id, unknown.id], at);
    const b = await attachServer(env.s);
    await b.app.incomeRecheckJob.stop();
    try {
      const calls0 = await statusCalls();
      const jobs = [newJob(env.s, at), newJob(b, at)];
      const ran = await Promise.all(jobs.map((j) => j.tick()));
      await Promise.all(jobs.map((j) => j.stop()));
      expect(ran.filter(Boolean)).toHaveLength(1);
      // The service was asked once (one sync log row: one batch of the two due invoices).
      expect(await statusCalls()).toBe(calls0 + 1);
      // Again later, on the other server: the same answer changes nothing.
      await onlyDue([a.id, unknown.id], at + 13 * HOUR);
      const again = await round(b, at + 13 * HOUR);
      expect(again.last).toMatchObject({ checked: 2, changed: 0 });
    } finally {
      await b.close();
    }
    const cases = await env.s.db.kysely.selectFrom('income_abnormal_cases').select(['flag']).where('invoice_id', '=', a.id).execute();
    expect(cases).toEqual([{ flag: 'abnormalVoucher' }]);
    expect((await inv(unknown.id)).status_found).toBe(0);
  });

  it('立即核查 asks about one invoice now (roles 1 and 13; others 权限不足); refusals in Chinese', async () => {
    const a = await deducted(400);
    expect((await env.s.call(`${A}/recheck`, { invoiceId: a.id }, env.t13)).message).toBe('税务端状态无变化：发票状态「正常」，风险等级「正常」');
    await setIncomingStatus(deps(), { key: a.no, state: 2 });
    for (const t of [env.t14, env.t16]) expect((await env.s.call(`${A}/recheck`, { invoiceId: a.id }, t)).message).toBe('权限不足');
    const r = await env.s.call(`${A}/recheck`, { invoiceId: a.id }, env.t1);
    expect([r.code, r.message]).toEqual([20000, '状态已更新：发票状态「作废」，风险等级「正常」']);
    expect((await casesOf(a.id))[0]).toMatchObject({ flag: 'voided', proposal: { amount: 400, reason: 9 } });
    const unknown = await fresh({ known: false });
    expect((await env.s.call(`${A}/recheck`, { invoiceId: unknown.id }, env.t13)).message).toBe('税务端无此发票信息');
    expect((await env.s.call(`${A}/recheck`, { invoiceId: '00000000-0000-4000-8000-000000000000' }, env.t13)).message).toBe('发票不存在');
    expect((await env.s.call(`${A}/recheck`, { invoiceId: 'x' }, env.t13)).code).toBe(30000);
    const logs = await env.s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', '发票状态核查：%').execute();
    expect(logs.map((l) => l.description)).toContain('发票状态核查：状态已更新：发票状态「作废」，风险等级「正常」');
  });

  it('an invoice apportioned to a project: the case names the project and its manager is told', async () => {
    const k = env.s.db.kysely;
    const project = await k.selectFrom('projects').select(['id', 'code', 'name', 'manager_id']).where('manager_id', 'is not', null).orderBy('code').limit(1).executeTakeFirstOrThrow();
    const a = await fresh();
    const now = new Date().toISOString();
    await k.insertInto('income_allocations').values({ id: crypto.randomUUID(), invoice_id: a.id, project_id: project.id, amount_excl: 10_000, tax: 900, amount_incl: 10_900, created_by_name: '测试', created_at: now, updated_at: now }).execute();
    await setIncomingStatus(deps(), { key: a.no, state: 1 });
    expect((await env.s.call(`${A}/recheck`, { invoiceId: a.id }, env.t13)).message).toBe('状态已更新：发票状态「失控」，风险等级「正常」');
    const c = await k.selectFrom('income_abnormal_cases').select(['flag', 'doc_flagged', 'doc_kind', 'doc_id', 'owner_id', 'notified_user_id']).where('invoice_id', '=', a.id).executeTakeFirstOrThrow();
    expect(c).toEqual({ flag: 'lostControl', doc_flagged: `项目 ${project.code} ${project.name}`, doc_kind: 'project', doc_id: project.id, owner_id: project.manager_id, notified_user_id: project.manager_id });
    const msgs = await k.selectFrom('user_messages').select(['title', 'link']).where('user_id', '=', project.manager_id!).execute();
    expect(msgs).toContainEqual({ title: `发票失控：项目 ${project.code} ${project.name}`, link: `/income/invoicePool/detail/${a.id}` });
  });

  it('the simulator control changes what ticking sees too: a 作废 invoice is refused by the service', async () => {
    const a = await fresh();
    await setIncomingStatus(deps(), { key: a.no, state: 2 });
    const t = await tick({ items: [{ id: a.id }] });
    expect(JSON.stringify(t)).toContain('作废');
    const row = await simDb(env.s.db).selectFrom('taxsim_income_status').selectAll().where('invoice_key', '=', a.no).executeTakeFirstOrThrow();
    expect([Number(row.invoice_state), row.risk_level]).toEqual([2, '01']);
  });
});

describe('an invoice in a reimbursement bill', () => {
  let s: TestServer;
  const P = person();
  const Q = person();
  const { call, invoice } = applyHelpers(() => s);
  beforeAll(async () => {
    ({ s } = await startApplyServer(P, Q));
  });
  afterAll(() => s?.close());

  it('risk 02: the case names the bill and the applicant gets a message', async () => {
    const no = nextDigital();
    const id = await invoice(P.id, { digitalNo: no, issueDate: shanghaiDay(-8) });
    const bill = await call('/bill/save', { ...header(), lines: [line({ invoiceId: id, amount: 10_900 })] }, P.token);
    expect(bill.code, bill.message).toBe(20000);
    const billNo = (await s.db.kysely.selectFrom('reimb_bills').select('bill_no').where('id', '=', bill.r.id).executeTakeFirstOrThrow()).bill_no;
    const deps = { db: s.db, synclog: s.app.synclog };
    const { registerKnownIncoming } = await import('../src/integrations/tax/index.js');
    await registerKnownIncoming(deps, [{ key: no, kind: '81', issueDate: shanghaiDay(-8), tax: 900 }]);
    await setIncomingStatus(deps, { key: no, riskLevel: '02' });
    await s.db.kysely.updateTable('income_invoices').set({ status_checked_at: new Date().toISOString() }).where('id', '!=', id).execute();
    const j = new RecheckJob({ db: s.db, log: s.app.log, gateway: () => new InvoiceSettings(s.app).gateway() });
    await j.tick();
    await j.stop();
    const t13 = await s.login('demo13');
    const [c] = (await s.call(`${A}/history`, { invoiceId: id }, t13)).r as Array<{ flag: string; docFlagged: string; ownerId: string; proposal: unknown }>;
    expect(c).toMatchObject({ flag: 'abnormalVoucher', docFlagged: `报销单 ${billNo}`, ownerId: P.id, proposal: null });
    const caseRow = await s.db.kysely.selectFrom('income_abnormal_cases').select(['doc_kind', 'doc_id', 'notified_user_id']).where('invoice_id', '=', id).executeTakeFirstOrThrow();
    expect(caseRow).toEqual({ doc_kind: 'reimbursement', doc_id: bill.r.id, notified_user_id: P.id });
    const msgs = await s.db.kysely.selectFrom('user_messages').select(['title', 'link']).where('user_id', '=', P.id).execute();
    expect(msgs).toContainEqual({ title: `发票异常凭证：报销单 ${billNo}`, link: `/income/invoicePool/detail/${id}` });
  });
});
