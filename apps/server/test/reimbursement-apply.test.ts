/**
 * Issue 15, applying: "A reimbursement (bill number BX{yyyyMM}{seq}) has an applicant, department,
 * optional project/contract, period, reason, payee bank details, and lines (expense category, date,
 * description, amount including tax, tax rate, tax, incoming invoice used). It is approved through the
 * workflow … One incoming invoice backs at most one active line. Checks that users rely on: duplicate
 * invoice across bills, buyer must be the company, invoice total at least the line amount, invoice age,
 * travel standards by grade and city tier (flag for the approver, do not block), possible duplicate
 * claim (same person, category, date, amount). Approvers may reduce a line's approved amount, never raise it."
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeInvoiceState, IncomeSource, IncomeUsage, REIMB_BILL_NO, REIMB_MAX_AMOUNT, formatFen, railTicketTax, ReimbFlowState, ReimbState, taxOfIncluded } from '@zhyy/shared';
import { arrive } from '../src/modules/income/arrival.js';
import { documentOwner } from '../src/modules/income/abnormal/raise.js';
import { startTestServer, type TestServer } from './helpers.js';
import { b64, creditCode, entry, pdf, shanghaiDay } from './income-helpers.js';
import { openHandlers } from './workflow-helpers.js';
import { wf } from '../src/modules/workflow/tables.js';

let s: TestServer;
/** The applicant (a staff member, not a manager), another employee of another department, the 费用会计 (role 12). */
const A = { login: '', id: '', name: '', token: '' };
const B = { login: '', id: '', name: '', token: '' };
let t12 = '';
let tBoss = '';

const call = (url: string, body: unknown, token: string) => s.call(`/api/reimbursement${url}`, body, token);
const NOW = new Date().toISOString();

async function staff(exclude: string[]): Promise<{ login: string; id: string; name: string }> {
  const k = s.db.kysely;
  const users = await k.selectFrom('users').select(['login_name', 'id', 'name', 'dept_id']).where('status', '=', 1).where('dept_id', 'is not', null).orderBy('login_name').execute();
  const roles = await k.selectFrom('user_roles').select(['user_id', 'role']).execute();
  const managers = new Set((await k.selectFrom('departments').select('manager_id').execute()).map((d) => d.manager_id));
  const strong = new Set(roles.filter((r) => ['1', '3', '12', '16'].includes(r.role)).map((r) => r.user_id));
  const u = users.find((x) => !managers.has(x.id) && !strong.has(x.id) && !exclude.includes(x.dept_id!) && !x.login_name.startsWith('demo') && x.login_name !== 'admin')!;
  return { login: u.login_name, id: u.id, name: u.name };
}

/** A new invoice in the pool uploaded by `userId` (109.00 incl. tax unless told), or one of its overrides. */
async function invoice(userId: string | null, over: Record<string, unknown> = {}): Promise<string> {
  const e = entry(over);
  const a = await s.db.kysely.transaction().execute((trx) => arrive({ ...e, invoiceCode: '', invoiceNo: '', checkCode: '' } as never, IncomeSource.uploaded, trx, { userId: userId ?? undefined, userName: 'x' }));
  return a.id;
}

const header = (over: Record<string, unknown> = {}) => ({
  periodFrom: shanghaiDay(-20),
  periodTo: shanghaiDay(),
  reason: '项目现场出差',
  payeeName: '收款人甲',
  payeeBank: '工商银行南京分行',
  payeeAccount: '6222020200112233445',
  ...over,
});
const line = (over: Record<string, unknown> = {}) => ({ categoryCode: 'T-OFFICE', expenseDate: shanghaiDay(-5), description: '办公用品', amount: 10_900, invoiceId: null, ...over });
const usage = async (id: string) => s.db.kysely.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow();
const bill = async (id: string) => s.db.kysely.selectFrom('reimb_bills').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  s = await startTestServer();
  const k = s.db.kysely;
  await k
    .insertInto('reimb_categories')
    .values([
      { code: 'T-OFFICE', name: '测试办公费', travel_kind: '', subject_code: '660201', subject_name: '管理费用-办公费', default_tax_rate: '0.13', sort: 1, enabled: 1, updated_at: NOW },
      { code: 'T-HOTEL', name: '测试住宿费', travel_kind: 'hotel', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0.06', sort: 2, enabled: 1, updated_at: NOW },
      { code: 'T-TRAFFIC', name: '测试交通费', travel_kind: 'transport', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0.09', sort: 3, enabled: 1, updated_at: NOW },
      { code: 'T-ALLOW', name: '测试出差补助', travel_kind: 'allowance', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0', sort: 4, enabled: 1, updated_at: NOW },
      { code: 'T-OFF', name: '测试停用类别', travel_kind: '', subject_code: '', subject_name: '', default_tax_rate: '0', sort: 5, enabled: 0, updated_at: NOW },
    ])
    .onConflict((oc) => oc.doNothing())
    .execute();
  await k.deleteFrom('reimb_travel_standards').execute();
  await k.insertInto('reimb_travel_standards').values({ grade: 'staff', city_tier: 1, hotel_per_night: 50_000, seat_classes: '二等座,经济舱', allowance_per_day: 10_000, updated_at: NOW }).execute();
  await k.insertInto('reimb_city_tiers').values({ city: '北京', tier: 1 }).onConflict((oc) => oc.doNothing()).execute();
  Object.assign(A, await staff([]));
  const aDept = (await k.selectFrom('users').select('dept_id').where('id', '=', A.id).executeTakeFirstOrThrow()).dept_id!;
  Object.assign(B, await staff([aDept]));
  await k.deleteFrom('reimb_profiles').where('user_id', 'in', [A.id, B.id]).execute();
  A.token = await s.login(A.login);
  B.token = await s.login(B.login);
  t12 = await s.login('demo12');
  tBoss = await s.login('demo16');
});
afterAll(() => s?.close());

describe('a draft: number, sums, the invoice lock', () => {
  it('saves a new bill BX{yyyyMM}{seq} with the lines, tax from the category, sums computed and the invoice locked', async () => {
    const inv = await invoice(A.id);
    const a = await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv }), line({ categoryCode: 'T-HOTEL', amount: 30_000, city: '北京', nights: 1, expenseDate: shanghaiDay(-4) })] }, A.token);
    expect(a.code, a.message).toBe(20000);
    expect(a.r.billNo).toMatch(REIMB_BILL_NO);
    expect(a.r.billNo).toMatch(/^BX\d{6}\d{4}$/);
    const b = await bill(a.r.id);
    expect(b).toMatchObject({ applicant_id: A.id, flow_state: ReimbFlowState.draft, line_count: 2 });
    expect(Number(b.amount)).toBe(40_900);
    expect(Number(b.approved_amount)).toBe(40_900);
    expect(Number(b.tax)).toBe(taxOfIncluded(10_900, '0.13') + taxOfIncluded(30_000, '0.06'));
    expect(Number(b.tax)).toBe(1_254 + 1_698);
    expect(await usage(inv)).toEqual({ usage: IncomeUsage.locked, use_kind: 'reimbursement', doc_no: a.r.billNo });
    // The abnormal worklist's owner of an invoice a bill holds: the applicant.
    expect(await documentOwner(s.db.kysely, inv)).toBe(A.id);
  });

  it('numbers bills one after another within the month', async () => {
    const x = await call('/bill/save', { ...header(), lines: [] }, A.token);
    const y = await call('/bill/save', { ...header(), lines: [] }, A.token);
    expect(Number(y.r.billNo.slice(8))).toBe(Number(x.r.billNo.slice(8)) + 1);
    expect(y.r.billNo.slice(0, 8)).toBe(x.r.billNo.slice(0, 8));
  });

  it('refuses an invoice another bill holds, naming that bill; removing the line releases it', async () => {
    const inv = await invoice(A.id);
    const first = await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv })] }, A.token);
    const second = await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv })] }, A.token);
    expect(second.status).toBe(409);
    expect(second.message).toBe(`该发票已用于报销单 ${first.r.billNo}`);
    const again = await call('/bill/save', { id: first.r.id, ...header(), lines: [line()] }, A.token);
    expect(again.code).toBe(20000);
    expect((await usage(inv)).usage).toBe(IncomeUsage.available);
  });

  it('refuses the same invoice twice in a bill, an invoice that is not mine, a disabled category', async () => {
    const inv = await invoice(A.id);
    expect((await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv }), line({ invoiceId: inv })] }, A.token)).message).toBe('第2行：同一张发票不能用于多行费用明细');
    const others = await invoice(B.id);
    // Another's upload: refused naming who uploaded it (issue 27, reimbursement-ownership.test.ts).
    expect((await call('/bill/save', { ...header(), lines: [line({ invoiceId: others })] }, A.token)).message).toMatch(new RegExp(`^第1行：发票 \\d{20} 由${B.name}上传，只能由上传人报销$`));
    expect((await call('/bill/save', { ...header(), lines: [line({ categoryCode: 'T-OFF' })] }, A.token)).message).toBe('第1行：费用类别不存在或已停用');
    expect((await usage(inv)).usage).toBe(IncomeUsage.available);
  });

  it('validates the body in Chinese', async () => {
    const a = await call('/bill/save', { ...header({ reason: '' }), lines: [] }, A.token);
    expect(a.status).toBe(400);
    expect(a.message).toContain('请填写报销事由');
    const p = await call('/bill/save', { ...header({ periodFrom: shanghaiDay(), periodTo: shanghaiDay(-3) }), lines: [] }, A.token);
    expect(p.message).toContain('费用期间的开始日期不能晚于结束日期');
    const m = await call('/bill/save', { ...header(), lines: [line({ amount: 0 })] }, A.token);
    expect(m.message).toContain('金额必须大于0');
    // Issue 31 #7: one upper bound (REIMB_MAX_AMOUNT, the editor's too), named in the refusal; never clamped.
    const big = await call('/bill/save', { ...header(), lines: [line({ amount: 9_999_999_999_900 })] }, A.token);
    expect(big.status).toBe(400);
    expect(big.message).toContain(`金额不能超过 ${formatFen(REIMB_MAX_AMOUNT)} 元`);
    const edge = await call('/bill/save', { ...header(), lines: [line({ amount: REIMB_MAX_AMOUNT })] }, A.token);
    expect(edge.code, edge.message).toBe(20000);
    expect((await bill(edge.r.id)).amount).toBe(REIMB_MAX_AMOUNT);
    expect((await call('/bill/delete', { id: edge.r.id }, A.token)).code).toBe(20000);
  });

  it('a line takes only a rate of the shared list (issue 27: 0.5 is no rate), stored as the list spells it', async () => {
    for (const bad of ['0.5', '0.17', '1', 'abc', '-0.09']) {
      const a = await call('/bill/save', { ...header(), lines: [line({ taxRate: bad })] }, A.token);
      expect([a.code, a.status], bad).toEqual([30000, 400]);
      expect(a.message, bad).toContain('税率不在税率表中，可选：0、1%、1.5%、3%、5%、6%、9%、13%（免税、不征税按0）');
    }
    const ok = await call('/bill/save', { ...header(), lines: [line({ taxRate: '13%' }), line({ taxRate: '0.050' })] }, A.token);
    expect(ok.code, ok.message).toBe(20000);
    const rates = await s.db.kysely.selectFrom('reimb_lines').select('tax_rate').where('bill_id', '=', ok.r.id).orderBy('line_no').execute();
    expect(rates.map((r) => r.tax_rate)).toEqual(['0.13', '0.05']);
    await call('/bill/delete', { id: ok.r.id }, A.token);
  });

  it('takes the payee from my default, and keeps it when asked', async () => {
    const a = await call('/bill/save', { ...header({ payeeName: '默认收款人', payeeAccount: '6222 0000 1111', saveAsDefault: true }), lines: [] }, A.token);
    expect(a.code).toBe(20000);
    expect((await call('/profile/get', {}, A.token)).r).toMatchObject({ payeeName: '默认收款人', payeeAccount: '622200001111', grade: 'staff' });
    const b = await call('/bill/save', { ...header({ payeeName: '', payeeBank: '', payeeAccount: '' }), lines: [] }, A.token);
    expect(await bill(b.r.id)).toMatchObject({ payee_name: '默认收款人', payee_account: '622200001111' });
    expect((await call('/profile/save', { payeeName: '收款人甲', payeeBank: '工行', payeeAccount: '6222' }, A.token)).code).toBe(20000);
  });

  it('deleting a draft releases its invoices; only drafts, only by the applicant', async () => {
    const inv = await invoice(A.id);
    const a = await call('/bill/save', { ...header(), lines: [line({ invoiceId: inv })] }, A.token);
    expect((await call('/bill/delete', { id: a.r.id }, B.token)).status).toBe(403);
    const d = await call('/bill/delete', { id: a.r.id }, A.token);
    expect(d.message).toBe(`报销单 ${a.r.billNo} 已删除`);
    expect((await usage(inv)).usage).toBe(IncomeUsage.available);
    expect((await call('/bill/get', { id: a.r.id }, A.token)).message).toBe('报销单不存在');
  });
});

describe('the checks', () => {
  it('blocks: invoice total below the line, buyer not the company, dead invoice; the submit names the line', async () => {
    const short = await invoice(A.id);
    const foreign = await invoice(A.id, { buyerName: '别的公司', buyerTaxNo: creditCode('91110000MA0000000') });
    const a = await call('/bill/save', { ...header(), lines: [line({ invoiceId: short, amount: 20_000 }), line({ invoiceId: foreign, expenseDate: shanghaiDay(-6) })] }, A.token);
    expect(a.code, a.message).toBe(20000);
    const d = (await call('/bill/get', { id: a.r.id }, A.token)).r;
    expect(d.lines[0].checks).toEqual([{ code: 'invoiceShort', level: 'block', message: '发票金额 109.00 元小于报销金额 200.00 元' }]);
    expect(d.lines[1].checks.map((c: { code: string }) => c.code)).toContain('buyerNotOurs');
    const sub = await call('/bill/submit', { id: a.r.id }, A.token);
    expect(sub.message).toBe('第1行：发票金额 109.00 元小于报销金额 200.00 元');
    expect((await bill(a.r.id)).flow_state).toBe(ReimbFlowState.draft);
  });

  it('warns: travel standards by grade and city tier, the invoice age, a possible duplicate claim', async () => {
    const old = await invoice(A.id, { issueDate: shanghaiDay(-400) });
    const lines = [
      line({ categoryCode: 'T-HOTEL', city: '北京市', nights: 2, amount: 120_000, expenseDate: shanghaiDay(-3) }),
      line({ categoryCode: 'T-TRAFFIC', city: '北京', seatClass: '一等座', amount: 50_000, expenseDate: shanghaiDay(-3) }),
      line({ categoryCode: 'T-ALLOW', city: '北京', nights: 3, amount: 40_000, expenseDate: shanghaiDay(-3) }),
      line({ invoiceId: old, amount: 10_900, expenseDate: shanghaiDay(-2) }),
      line({ categoryCode: 'T-HOTEL', city: '北京', nights: 1, amount: 50_000, expenseDate: shanghaiDay(-2) }),
    ];
    const a = await call('/bill/save', { ...header(), lines }, A.token);
    const d = (await call('/bill/get', { id: a.r.id }, A.token)).r;
    expect(d.lines[0].checks).toEqual([{ code: 'hotelOverStandard', level: 'warn', message: '住宿每晚 600.00 元，超过员工一类城市标准 500.00 元' }]);
    expect(d.lines[1].checks).toEqual([{ code: 'seatOverStandard', level: 'warn', message: '座席「一等座」超出员工一类城市标准（二等座、经济舱）' }]);
    expect(d.lines[2].checks[0]).toMatchObject({ code: 'allowanceOverStandard', level: 'warn' });
    expect(d.lines[3].checks).toEqual([{ code: 'invoiceTooOld', level: 'warn', message: `发票开具于 ${shanghaiDay(-400)}，已超过 365 天` }]);
    // Exactly at the standard: nothing.
    expect(d.lines[4].checks).toEqual([]);
    // The same claim on a second bill: 疑似重复报销 (warns, does not block).
    const b = await call('/bill/save', { ...header(), lines: [lines[4]] }, A.token);
    const db2 = (await call('/bill/get', { id: b.r.id }, A.token)).r;
    expect(db2.lines[0].checks).toEqual([{ code: 'duplicateClaim', level: 'warn', message: `与报销单 ${a.r.billNo} 的费用类别、日期和金额相同，疑似重复报销` }]);
  });

  it('blocks a second claim of the same invoice by seller + date + total on a submitted bill; an administrator deleting the approval returns the bill to 草稿', async () => {
    const seller = { sellerName: '测试酒店有限公司', sellerTaxNo: creditCode('91320106MA1TE8HTK'), issueDate: shanghaiDay(-7) };
    const first = await invoice(A.id, seller);
    const twin = await invoice(A.id, seller);
    const x = await call('/bill/save', { ...header(), lines: [line({ invoiceId: first, expenseDate: shanghaiDay(-7) })] }, A.token);
    expect((await call('/bill/submit', { id: x.r.id }, A.token)).code).toBe(20000);
    const y = await call('/bill/save', { ...header(), lines: [line({ invoiceId: twin, expenseDate: shanghaiDay(-9) })] }, A.token);
    const l = (await call('/bill/get', { id: y.r.id }, A.token)).r.lines[0];
    expect(l.checks[0]).toEqual({ code: 'duplicateInvoice', level: 'block', message: `该发票已在报销单 ${x.r.billNo} 中报销` });
    expect((await call('/bill/submit', { id: y.r.id }, A.token)).message).toBe(`第1行：该发票已在报销单 ${x.r.billNo} 中报销`);
    // 管理员删除流程: the bill goes back to 草稿, unlinked, its invoice released; it can be submitted again.
    const workId = (await bill(x.r.id)).work_id!;
    const del = await s.call('/api/miswf/workflow/admin/delete', { workId, reason: '测试删除' }, await s.login('demo1'));
    expect(del.code, del.message).toBe(20000);
    expect(await bill(x.r.id)).toMatchObject({ flow_state: ReimbFlowState.draft, work_id: null });
    expect((await usage(first)).usage).toBe(IncomeUsage.available);
    const again = await call('/bill/submit', { id: x.r.id }, A.token);
    expect(again.code, again.message).toBe(20000);
    expect((await bill(x.r.id)).work_id).not.toBe(workId);
  });

  it('a passenger ticket shows its deductible tax by the transport formula and the expense net of it', async () => {
    const ticket = await invoice(null, { kind: 'rail', amountExcl: 20_000, tax: 1_800, amountIncl: 21_800, lines: [{ name: '*运输服务*铁路旅客运输', spec: '', unit: '', quantity: '1', unitPrice: '200.00', amount: 20_000, taxRate: '0.09', tax: 1_800 }] });
    await s.db.kysely.deleteFrom('income_transport').where('invoice_id', '=', ticket).execute();
    await s.db.kysely.insertInto('income_transport').values({ invoice_id: ticket, transport_kind: 'rail', passenger_name: A.name, travel_date: shanghaiDay(-3), international: 0, fare: 0, fuel: 0, basis: 21_800, formula_tax: railTicketTax(21_800) }).execute();
    const c = await call('/invoice/candidates', {}, A.token);
    expect(c.r.find((x: { id: string }) => x.id === ticket)).toMatchObject({ origin: '我的客票', passengerName: A.name, transportTax: 1_800 });
    expect((await call('/invoice/candidates', {}, B.token)).r.some((x: { id: string }) => x.id === ticket)).toBe(false);
    const a = await call('/bill/save', { ...header(), lines: [line({ categoryCode: 'T-TRAFFIC', invoiceId: ticket, amount: 21_800, city: '南京', seatClass: '二等座' })] }, A.token);
    expect(a.code, a.message).toBe(20000);
    const l = (await call('/bill/get', { id: a.r.id }, A.token)).r.lines[0];
    expect(railTicketTax(21_800)).toBe(1_800);
    expect(l).toMatchObject({ deductibleTax: 1_800, netAmount: 20_000, tax: 1_800 });
    expect(Number((await bill(a.r.id)).deductible_tax)).toBe(1_800);
  });
});

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

