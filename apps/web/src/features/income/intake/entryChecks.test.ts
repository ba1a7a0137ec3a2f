/** 手工录入's checks before sending, in the server's words (docs/income.md, Arrival). */
import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { asksItineraryFigures, entryLabels, entryProblems, ITINERARY_NEGATIVE, numberFields } from './entryChecks';
import { faceOf } from './EntryFormFields';

const ok = { kind: '01', invoiceCode: '3200261130', invoiceNo: '12345678', issueDate: '2026-11-02', amountExcl: 100000, tax: 13000, amountIncl: 113000 };

describe('手工录入 checks', () => {
  it('a complete paper 专票 passes', () => expect(entryProblems(ok, '2026-11-22')).toEqual([]));
  it('the key by kind', () => {
    expect(entryProblems({ ...ok, invoiceNo: '' }, '2026-11-22')).toEqual(['请填写数电发票号码，或发票代码和发票号码']);
    expect(entryProblems({ ...ok, invoiceCode: '32002611' }, '2026-11-22')).toEqual(['发票代码须为10位或12位数字']);
    expect(entryProblems({ ...ok, invoiceNo: '1234567' }, '2026-11-22')).toEqual(['发票号码须为8位数字']);
    expect(entryProblems({ ...ok, kind: '85', invoiceCode: '', invoiceNo: '' }, '2026-11-22')).toEqual(['数电发票须填写20位数电发票号码']);
    expect(entryProblems({ ...ok, kind: '85', digitalNo: '2632200000001' }, '2026-11-22')).toEqual(['数电发票号码须为20位数字']);
    expect(entryProblems({ kind: 'customs', invoiceNo: '', issueDate: '2026-11-02' }, '2026-11-22')).toEqual(['请填写票据号码']);
  });
  it('tax numbers, sums and the date', () => {
    expect(entryProblems({ ...ok, sellerTaxNo: '91320100MA1HDJC309' }, '2026-11-22')[0]).toMatch(/^销方税号/);
    expect(entryProblems({ ...ok, tax: 13001 }, '2026-11-22')).toEqual(['金额与税额之和不等于价税合计']);
    expect(entryProblems({ ...ok, issueDate: '2026-11-23' }, '2026-11-22')).toEqual(['开票日期不能晚于今天']);
    expect(entryProblems({ ...ok, lines: [{ amount: 60000, tax: 7800 }, { amount: 40000, tax: 5200 }] }, '2026-11-22')).toEqual([]);
    expect(entryProblems({ ...ok, lines: [{ amount: 60000, tax: 7800 }, { amount: 40001, tax: 5201 }] }, '2026-11-22')).toEqual(['明细金额合计与发票金额不一致', '明细税额合计与发票税额不一致']);
  });
  it('issue 29: the 数电 toll kind asks for the 20-digit number; a customs notice for its 缴款书号码, 填发日期 and 税款金额', () => {
    expect(numberFields('dtoll')).toEqual({ code: false, number: false, digital: true });
    expect(entryProblems({ ...ok, kind: 'dtoll', invoiceCode: '', invoiceNo: '' }, '2026-11-22')).toEqual(['数电发票须填写20位数电发票号码']);
    expect(numberFields('customs')).toEqual({ code: false, number: true, digital: false });
    expect(entryLabels('customs')).toEqual({ invoiceNo: '缴款书号码', issueDate: '填发日期', sellerName: '填发海关', amountExcl: '完税价格', tax: '税款金额', amountIncl: '合计' });
    expect(entryLabels('81')).toMatchObject({ invoiceNo: '发票号码', issueDate: '开票日期', tax: '税额', amountIncl: '价税合计' });
    expect(entryProblems({ kind: 'customs', invoiceNo: '530120261000123456-L01', issueDate: '2026-11-02', amountExcl: 1000000, tax: 130000, amountIncl: 1130000 }, '2026-11-22')).toEqual([]);
  });

  it('a discount line (折扣行) and a red invoice (红字发票) pass; the rule of issue 29 speaks as the server does', () => {
    const discounted = { ...ok, amountExcl: 2_700_000, tax: 351_000, amountIncl: 3_051_000, lines: [{ amount: 2_000_000, tax: 260_000 }, { amount: -200_000, tax: -26_000 }, { amount: 900_000, tax: 117_000 }] };
    expect(entryProblems(discounted, '2026-11-22')).toEqual([]);
    expect(entryProblems({ ...discounted, lines: [discounted.lines[1]!, discounted.lines[0]!, discounted.lines[2]!] }, '2026-11-22')).toEqual(['第1行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
    const red = { ...ok, amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, lines: [{ amount: -100_000, tax: -9_000 }], blueInvoiceNo: '25322000000104862417' };
    expect(entryProblems(red, '2026-11-22')).toEqual([]);
    expect(entryProblems({ ...red, tax: 9_000, amountIncl: -91_000, lines: [] }, '2026-11-22')).toEqual(['红字发票的金额和税额不能为正数']);
    expect(entryProblems({ ...ok, blueInvoiceNo: '25322000000104862417' }, '2026-11-22')).toEqual(['只有红字发票可填写对应蓝字发票号码']);
  });

  it('issue 29 item 7: a paper air itinerary takes its 票价, 燃油附加费 and 民航发展基金 (元 → 分); they cannot pass 合计 nor be negative', () => {
    expect(asksItineraryFigures('air', '')).toBe(true);
    expect(asksItineraryFigures('air', '26329000000012345678')).toBe(false); // 数电 itinerary: ticked with its stated tax
    expect(asksItineraryFigures('rail', '')).toBe(false);
    const paper = { kind: 'air', invoiceNo: 'XC1234567890', issueDate: dayjs('2026-11-02'), sellerName: '东方航空', buyerName: '本公司', amountExcl: 1100, tax: 0, amountIncl: 1100, fare: 1000, fuelSurcharge: 50, developmentFund: 50 };
    const face = faceOf(paper);
    expect([face.fare, face.fuelSurcharge, face.developmentFund, face.amountIncl]).toEqual([100_000, 5_000, 5_000, 110_000]);
    expect(entryProblems(face, '2026-11-22')).toEqual([]);
    expect(entryProblems(faceOf({ ...paper, fare: 1100 }), '2026-11-22')).toEqual(['票价、燃油附加费与民航发展基金之和不能超过价税合计']); // the server's words (shared itineraryProblem)
    expect(entryProblems(faceOf({ ...paper, fuelSurcharge: -50 }), '2026-11-22')).toEqual([ITINERARY_NEGATIVE]);
    // Another kind sends none of them, even when the form still holds figures typed before the kind changed.
    expect(faceOf({ ...paper, kind: 'rail' }).fare).toBeUndefined();
  });
});

