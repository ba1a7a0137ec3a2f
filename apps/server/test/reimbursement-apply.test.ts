/**
 * Issue 15, applying: "A reimbursement (bill number BX{yyyyMM}{seq}) has an applicant, department,
 * optional project/contract, period, reason, payee bank details, and lines (expense category, date,
 * description, amount including tax, tax rate, tax, incoming invoice used). It is approved through the
 * workflow … One incoming invoice backs at most one active line. Checks that users rely on: duplicate
 * invoice across bills, buyer must be the company, invoice total at least the line amount, invoice age,
 * travel standards by grade and city tier (flag for the approver, do not block), possible duplicate
 * claim (same person, category, date, amount). Approvers may reduce a line's approved amount, never raise it."
 *
 * This file: drafts (number, sums, the invoice lock) and the checks; the pool picker, approval and the lists
 * are in reimbursement-apply-approval.test.ts (same set-up: reimbursement-apply-fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeUsage, REIMB_BILL_NO, REIMB_MAX_AMOUNT, formatFen, railTicketTax, ReimbFlowState, taxOfIncluded } from '@zhyy/shared';
import { documentOwner } from '../src/modules/income/abnormal/raise.js';
import type { TestServer } from './helpers.js';
import { creditCode, shanghaiDay } from './income-helpers.js';
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
    // The same claim on a second bill: 疑似重复报销 (warns, does not block) once the first is a claim (submitted;
    // a draft is not one, issue 32 #4).
    const early = await call('/bill/save', { ...header(), lines: [lines[4]] }, A.token);
    expect((await call('/bill/get', { id: early.r.id }, A.token)).r.lines[0].checks).toEqual([]);
    expect((await call('/bill/delete', { id: early.r.id }, A.token)).code).toBe(20000);
    const sub = await call('/bill/submit', { id: a.r.id }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    const b = await call('/bill/save', { ...header(), lines: [lines[4]] }, A.token);
    const db2 = (await call('/bill/get', { id: b.r.id }, A.token)).r;
    expect(db2.lines[0].checks).toEqual([{ code: 'duplicateClaim', level: 'warn', message: `与报销单 ${a.r.billNo} 的费用类别、日期和金额相同，疑似重复报销`, ref: expect.objectContaining({ billId: a.r.id, lineNo: 5 }) }]);
  });

  it('takes the standard as a ceiling (issue 29 #10): the lowest classes pass for the lowest grade, a class above its ceiling is flagged', async () => {
    // The staff standard names 二等座 and 经济舱 only: 硬座 and 硬卧 (the lowest train level, 硬席) are for everyone.
    const seat = (seatClass: string, amount: number) => line({ categoryCode: 'T-TRAFFIC', city: '北京', seatClass, amount, expenseDate: shanghaiDay(-7) });
    const a = await call('/bill/save', { ...header(), lines: [seat('硬座', 31_100), seat('硬卧', 31_200), seat('二等座', 31_300), seat('经济舱', 31_400), seat('软卧', 31_500), seat('公务舱', 31_600)] }, A.token);
    expect(a.code, a.message).toBe(20000);
    const d = (await call('/bill/get', { id: a.r.id }, A.token)).r;
    expect(d.lines.slice(0, 4).map((l: { checks: unknown[] }) => l.checks)).toEqual([[], [], [], []]);
    expect(d.lines[4].checks).toEqual([{ code: 'seatOverStandard', level: 'warn', message: '座席「软卧」超出员工一类城市标准（二等座、经济舱）' }]);
    expect(d.lines[5].checks).toEqual([{ code: 'seatOverStandard', level: 'warn', message: '座席「公务舱」超出员工一类城市标准（二等座、经济舱）' }]);
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

