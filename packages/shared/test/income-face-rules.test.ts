/**
 * Issue 29 items 1 and 2: the face of an incoming invoice as the bureau issues it — discount lines (折扣行) under a
 * positive total, red invoices received (红字发票) with negative totals — and the entry schema that uses the rule.
 * Figures of the fixtures apps/server/test/fixtures/income/invoice-sd-discount.xml and invoice-sd-red.xml (分).
 */
import { describe, expect, it } from 'vitest';
import { blueNumberInRemark, IncomeFaceMessages, incomeFaceProblems, isRedInvoice, PoolEntryBody, UploadSaveBody } from '../src/index.js';

const line = (amount: number, tax: number) => ({ amount, tax });
const messages = (f: Parameters<typeof incomeFaceProblems>[0]) => incomeFaceProblems(f).map((p) => p.message);

// 20,000.00 − 2,000.00 (折扣行) + 9,000.00 = 27,000.00; 2,600.00 − 260.00 + 1,170.00 = 3,510.00
const discounted = { amountExcl: 2_700_000, tax: 351_000, amountIncl: 3_051_000, lines: [line(2_000_000, 260_000), line(-200_000, -26_000), line(900_000, 117_000)] };
// −1,000.00 / −90.00
const red = { amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, lines: [line(-100_000, -9_000)], blueInvoiceNo: '25322000000104862417' };

describe('discount lines (折扣行)', () => {
  it('a blue invoice whose lines include a discount line after the line it discounts, adding up to the face, is right', () => {
    expect(incomeFaceProblems(discounted)).toEqual([]);
  });
  it('the lines must still add up to the face: a total that leaves the discount out is refused', () => {
    expect(messages({ ...discounted, amountExcl: 2_900_000, amountIncl: 3_251_000 })).toEqual([IncomeFaceMessages.linesAmount]);
    expect(messages({ ...discounted, tax: 377_000, amountIncl: 3_077_000 })).toEqual([IncomeFaceMessages.linesTax]);
  });
  it('a discount line first, after another discount line, or larger than its line is refused with the line named', () => {
    const first = { amountExcl: -200_000 + 2_000_000, tax: -26_000 + 260_000, amountIncl: 1_800_000 + 234_000, lines: [line(-200_000, -26_000), line(2_000_000, 260_000)] };
    expect(messages(first)).toEqual(['第1行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
    const twice = { amountExcl: 1_600_000, tax: 208_000, amountIncl: 1_808_000, lines: [line(2_000_000, 260_000), line(-200_000, -26_000), line(-200_000, -26_000)] };
    expect(messages(twice)).toEqual(['第3行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
    const larger = { amountExcl: 700_000, tax: 91_000, amountIncl: 791_000, lines: [line(900_000, 117_000), line(-1_000_000, -130_000), line(800_000, 104_000)] };
    expect(messages(larger)).toEqual(['第2行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
  });
  it('a discount line whose tax has the other sign is refused', () => {
    expect(messages({ ...discounted, tax: 403_000, amountIncl: 3_103_000, lines: [line(2_000_000, 260_000), line(-200_000, 26_000), line(900_000, 117_000)] })).toEqual([
      '第2行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行',
    ]);
  });
  it('a blue face itself cannot be negative: the discount lives in the lines', () => {
    expect(messages({ amountExcl: -100, tax: 200, amountIncl: 100, lines: [] })).toEqual([IncomeFaceMessages.blueNegative]);
  });
});

describe('red invoices received (红字发票)', () => {
  it('−1,000.00 / −90.00 = −1,090.00 with its line and its blue invoice is right', () => {
    expect(isRedInvoice(red)).toBe(true);
    expect(isRedInvoice(discounted)).toBe(false);
    expect(incomeFaceProblems(red)).toEqual([]);
  });
  it('a red face with a positive amount or tax is refused; 金额 + 税额 must still be 价税合计', () => {
    expect(messages({ ...red, tax: 9_000, amountIncl: -91_000, lines: [] })).toEqual([IncomeFaceMessages.redPositive]);
    expect(messages({ ...red, amountIncl: -100_000 })).toEqual([IncomeFaceMessages.sum]);
  });
  it('a red invoice reversing a discounted one: the discount comes back as a positive line after its negative line', () => {
    const reversal = { amountExcl: -2_700_000, tax: -351_000, amountIncl: -3_051_000, lines: [line(-2_000_000, -260_000), line(200_000, 26_000), line(-900_000, -117_000)] };
    expect(incomeFaceProblems(reversal)).toEqual([]);
  });
  it('only a red invoice may name a blue invoice', () => {
    expect(messages({ ...discounted, blueInvoiceNo: '25322000000104862417' })).toEqual([IncomeFaceMessages.blueNoOnBlue]);
  });
  it('the blue number stated in a red invoice remark (数电 and tax-control wording)', () => {
    expect(blueNumberInRemark('被红冲蓝字数电票号码：25322000000104862417 红字发票信息确认单编号：32010525062000153208')).toBe('25322000000104862417');
    expect(blueNumberInRemark('被红冲蓝字数电发票号码:24112000000135114086')).toBe('24112000000135114086');
    expect(blueNumberInRemark('对应正数发票代码:032002300111号码:05836271')).toBe('05836271');
    expect(blueNumberInRemark('项目：南京江北新区综合管廊二期')).toBe('');
  });
});

describe('the entry schema (PoolEntryBody, UploadSaveBody) takes signed figures; the face rule judges them', () => {
  const face = {
    kind: '81', digitalNo: '25322000000104861208', issueDate: '2025-06-10', sellerName: '南京恒信建材贸易有限公司', buyerName: '华建工程技术服务有限公司',
    ...discounted, lines: discounted.lines.map((l, i) => ({ name: i === 2 ? '*水泥*普通硅酸盐水泥' : '*钢材*热轧带肋钢筋', taxRate: '0.13', ...l })),
  };
  const issues = (r: { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } }) => (r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

  it('negative discount lines are accepted (no 金额不能为负数), by the manual entry and the upload alike', () => {
    const parsed = PoolEntryBody.parse(face);
    expect(parsed.lines.map((l) => l.amount)).toEqual([2_000_000, -200_000, 900_000]);
    expect(incomeFaceProblems(parsed)).toEqual([]);
    expect(UploadSaveBody.safeParse({ ...face, files: [{ fileName: 'a.xml', content: 'PEVJbnZvaWNlLz4=' }] }).success).toBe(true);
  });
  it('a red invoice (−1,000.00 / −90.00, its line 数量 −1) with its blue number is accepted; a malformed blue number is refused', () => {
    const r = { ...face, digitalNo: '25322000000104869953', ...red, lines: [{ name: '*建筑服务*劳务分包', quantity: '-1', taxRate: '0.09', ...red.lines[0]! }] };
    const parsed = PoolEntryBody.parse(r);
    expect([parsed.amountExcl, parsed.tax, parsed.amountIncl, parsed.blueInvoiceNo, parsed.lines[0]!.quantity]).toEqual([-100_000, -9_000, -109_000, '25322000000104862417', '-1']);
    expect(incomeFaceProblems(parsed)).toEqual([]);
    expect(issues(PoolEntryBody.safeParse({ ...r, blueInvoiceNo: '2532' }))).toEqual([['blueInvoiceNo', '对应蓝字发票号码须为8位或20位数字']]);
  });
  it('what the schema lets through, the rule refuses: lines not adding up, a discount line first', () => {
    expect(messages(PoolEntryBody.parse({ ...face, amountExcl: 2_900_000, amountIncl: 3_251_000 }))).toEqual(['明细金额合计与发票金额不一致']);
    expect(messages(PoolEntryBody.parse({ ...face, lines: [face.lines[1]!, face.lines[0]!, face.lines[2]!] }))).toEqual(['第1行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
  });
});
