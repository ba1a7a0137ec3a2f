/** Issue 15: the bill arithmetic and the line checks the server stores and the editor shows. */
import { describe, expect, it } from 'vitest';
import { DUPLICATE_CLAIM_DAYS, billSums, daysBetween, hasBlock, lineChecks, reimbRateLabel, sellerKey, taxOfIncluded, type LineCheckFacts } from '../src/reimbursement-rules.js';

const base: LineCheckFacts = { amount: 10_900, travelKind: '', nights: null, seatClass: '', today: '2026-11-23', invoiceAgeDays: 365 };
const inv = { number: '1', total: 10_900, issueDate: '2026-11-01', buyerMismatch: false, deadState: '' };
const std = { hotelPerNight: 50_000, seatClasses: ['二等座', '经济舱'], allowancePerDay: 10_000, label: '员工一类城市' };

describe('bill arithmetic', () => {
  it('tax included: amount ÷ (1 + rate) × rate, half-up to 分', () => {
    expect(taxOfIncluded(10_900, '0.09')).toBe(900);
    expect(taxOfIncluded(10_000, '0.13')).toBe(1_150);
    expect(taxOfIncluded(10_000, '0')).toBe(0);
    expect(taxOfIncluded(10_000, 'abc')).toBe(0);
    expect(reimbRateLabel('0.06')).toBe('6%');
  });
  it('sums: the approved amount is the claim where nobody reduced it', () => {
    expect(billSums([{ amount: 100, approvedAmount: null, tax: 5, deductibleTax: 3 }, { amount: 200, approvedAmount: 150, tax: 10, deductibleTax: 0 }])).toEqual({ amount: 300, approvedAmount: 250, tax: 15, deductibleTax: 3, lineCount: 2 });
    expect(billSums([])).toEqual({ amount: 0, approvedAmount: 0, tax: 0, deductibleTax: 0, lineCount: 0 });
    expect(daysBetween('2025-11-23', '2026-11-23')).toBe(365);
  });
});

describe('line checks', () => {
  it('blocks: the invoice below the line, buyer not ours, a dead invoice, an invoice on another bill', () => {
    expect(lineChecks({ ...base, invoice: inv })).toEqual([]);
    expect(lineChecks({ ...base, amount: 10_901, invoice: inv })).toEqual([{ code: 'invoiceShort', level: 'block', message: '发票金额 109.00 元小于报销金额 109.01 元' }]);
    expect(lineChecks({ ...base, invoice: { ...inv, buyerMismatch: true } }).map((c) => c.code)).toEqual(['buyerNotOurs']);
    expect(lineChecks({ ...base, invoice: { ...inv, deadState: '作废' } })[0]).toMatchObject({ code: 'invoiceDead', message: '发票作废，不能报销' });
    const dup = lineChecks({ ...base, invoice: inv, duplicateInvoiceBill: 'BX2026110001' });
    expect(dup).toEqual([{ code: 'duplicateInvoice', level: 'block', message: '该发票已在报销单 BX2026110001 中报销' }]);
    expect(hasBlock(dup)).toBe(true);
  });
  it('warns: age past the setting, standards over, a possible duplicate claim', () => {
    expect(lineChecks({ ...base, invoice: { ...inv, issueDate: '2025-11-23' } })).toEqual([]);
    expect(lineChecks({ ...base, invoice: { ...inv, issueDate: '2025-11-22' } }).map((c) => c.code)).toEqual(['invoiceTooOld']);
    expect(lineChecks({ ...base, travelKind: 'hotel', nights: 2, amount: 100_000, standard: std })).toEqual([]);
    expect(lineChecks({ ...base, travelKind: 'hotel', nights: 2, amount: 100_001, standard: std })[0]).toMatchObject({ code: 'hotelOverStandard', level: 'warn' });
    expect(lineChecks({ ...base, travelKind: 'transport', seatClass: '二等座', standard: std })).toEqual([]);
    expect(lineChecks({ ...base, travelKind: 'transport', seatClass: '商务座', standard: std })[0]).toMatchObject({ code: 'seatOverStandard', level: 'warn' });
    // The lowest classes are for everyone (issue 29 #10): 硬座 passes a standard that names no train class; 软卧 does not.
    expect(lineChecks({ ...base, travelKind: 'transport', seatClass: '硬座', standard: std })).toEqual([]);
    expect(lineChecks({ ...base, travelKind: 'transport', seatClass: '软卧', standard: std })).toEqual([{ code: 'seatOverStandard', level: 'warn', message: '座席「软卧」超出员工一类城市标准（二等座、经济舱）' }]);
    expect(lineChecks({ ...base, travelKind: 'allowance', nights: 3, amount: 30_001, standard: std })[0]).toMatchObject({ code: 'allowanceOverStandard', level: 'warn' });
    const ref = { billId: 'b2', billNo: 'BX2026110002', lineId: 'l2', lineNo: 2, applicantName: '李四', expenseDate: '2026-11-20', amount: 3_650, sellerName: '北京出租汽车公司', days: 0 };
    const w = lineChecks({ ...base, duplicateClaims: [{ ref, sameApplicant: true, bySeller: false }] });
    expect(w).toEqual([{ code: 'duplicateClaim', level: 'warn', message: '与报销单 BX2026110002 的费用类别、日期和金额相同，疑似重复报销', ref }]);
    expect(hasBlock(w)).toBe(false);
    // Issue 32 #4: by seller; another employee's bill is not named in the words (the reference goes to the approvers).
    expect(lineChecks({ ...base, duplicateClaims: [{ ref: { ...ref, days: 2 }, sameApplicant: false, bySeller: true }] })[0]!.message).toBe('与另一员工的报销单的收款方（北京出租汽车公司）、金额（36.50 元）相同，日期相差 2 天，疑似重复报销');
    expect(lineChecks({ ...base, duplicateClaims: [{ ref, sameApplicant: true, bySeller: true }] })[0]!.message).toBe('与报销单 BX2026110002 第2行的收款方（北京出租汽车公司）、金额（36.50 元）相同，日期相同，疑似重复报销');
  });
  it('sellerKey: full-width, spaces, punctuation and one legal-form ending do not tell sellers apart (issue 32 #4)', () => {
    expect(sellerKey('北京出租汽车有限公司')).toBe('北京出租汽车');
    expect(sellerKey(' 北京出租汽车公司 ')).toBe('北京出租汽车');
    expect(sellerKey('北京（首汽）出租汽车有限责任公司')).toBe(sellerKey('北京(首汽)出租汽车'));
    expect(sellerKey('ＡＢＣ停车场')).toBe('abc停车场');
    expect(sellerKey('京沪高速·沧州收费站')).toBe('京沪高速沧州收费站');
    expect(sellerKey('公司')).toBe('公司');
    expect(sellerKey('  ')).toBe('');
    expect(sellerKey('北京出租汽车')).not.toBe(sellerKey('天津出租汽车'));
    expect(DUPLICATE_CLAIM_DAYS).toBe(3);
  });
});
