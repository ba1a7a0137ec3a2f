import { describe, expect, it } from 'vitest';
import {
  capitalAmount,
  checkInvoice,
  checkLine,
  computeLine,
  creditCodeCheckChar,
  fenToYuan,
  formatUnitPrice,
  printedUnitPrice,
  unitPriceText,
  InvoiceColour,
  InvoiceKind,
  normaliseRate,
  sumLines,
  taxNumberProblem,
  TaxPolicy,
  yuanToFen,
  type InvoiceLineData,
} from '../src/index.js';

const line = (over: Partial<InvoiceLineData> = {}): InvoiceLineData => {
  const a = computeLine({ quantity: '2', unitPrice: '545', priceIncludesTax: true, taxRate: '0.09' });
  return { goodsName: '*建筑服务*工程施工', taxCode: '3050100000000000000', quantity: '2', unitPrice: '545', priceIncludesTax: true, taxRate: '0.09', policy: 0, lineProperty: 0, ...a, ...over };
};

describe('line arithmetic', () => {
  it('splits an amount including tax so that excluded + tax = included exactly', () => {
    const a = computeLine({ quantity: '2', unitPrice: '545', priceIncludesTax: true, taxRate: '0.09' });
    expect(a).toEqual({ amountExcl: 100000, tax: 9000, amountIncl: 109000, unitPriceExcl: '500' });
  });

  it('adds tax to an amount excluding tax, rounding half-up to 分', () => {
    // 0.5 分 of tax rounds up: 1005 分 × 6% = 60.3 → 60; 1025 × 6% = 61.5 → 62
    expect(computeLine({ amount: 1025, priceIncludesTax: false, taxRate: '0.06' })).toMatchObject({ amountExcl: 1025, tax: 62, amountIncl: 1087 });
    expect(computeLine({ amount: 1005, priceIncludesTax: false, taxRate: '0.06' })).toMatchObject({ tax: 60 });
  });

  it('rounds half away from zero on red lines', () => {
    expect(computeLine({ amount: -1025, priceIncludesTax: false, taxRate: '0.06' })).toMatchObject({ amountExcl: -1025, tax: -62, amountIncl: -1087 });
  });

  it('multiplies quantities and prices with 8 decimals without float error', () => {
    const a = computeLine({ quantity: '3', unitPrice: '0.10000001', priceIncludesTax: false, taxRate: '0.13' });
    expect(a.amountExcl).toBe(30);
    expect(a.tax).toBe(4);
    expect(computeLine({ quantity: '0.1', unitPrice: '0.2', priceIncludesTax: false, taxRate: '0' }).amountExcl).toBe(2);
  });

  it('keeps the identity for many amounts and rates, and the tax within 0.06 元 of amount × rate', () => {
    for (const rate of ['0.13', '0.09', '0.06', '0.05', '0.03', '0.015', '0.01']) {
      for (let fen = 1; fen < 200000; fen += 997) {
        const a = computeLine({ amount: fen, priceIncludesTax: true, taxRate: rate });
        expect(a.amountExcl + a.tax).toBe(fen);
        expect(Math.abs(a.amountExcl * Number(rate) - a.tax)).toBeLessThanOrEqual(6);
      }
    }
  });

  it('converts between 元 and 分 half-up', () => {
    expect(yuanToFen('12.345')).toBe(1235);
    expect(yuanToFen('-12.345')).toBe(-1235);
    expect(fenToYuan(123456)).toBe('1234.56');
    expect(sumLines([{ amountExcl: 1, tax: 2, amountIncl: 3 }, { amountExcl: 10, tax: 20, amountIncl: 30 }])).toEqual({ amountExcl: 11, tax: 22, amountIncl: 33 });
  });

  it('knows the rate catalogue', () => {
    expect(normaliseRate('9%')).toBe('0.09');
    expect(normaliseRate('0.090')).toBe('0.09');
    expect(normaliseRate('1.5%')).toBe('0.015');
    expect(normaliseRate('0.17')).toBeNull();
  });
});

describe('line checks', () => {
  it('accepts a correct blue line', () => {
    expect(checkLine(line(), InvoiceColour.blue, 1)).toEqual([]);
  });
  it('refuses excluded + tax ≠ included', () => {
    expect(checkLine(line({ amountIncl: 109001 }), 1, 1)).toContain('第1行：不含税金额加税额须等于含税金额');
  });
  it('refuses a tax more than 0.06 元 away from amount × rate', () => {
    const errs = checkLine(line({ amountExcl: 99993, tax: 9007, amountIncl: 109000 }), 1, 2);
    expect(errs).toContain('第2行：税额与不含税金额×税率的差不能超过0.06元');
    expect(checkLine(line({ amountExcl: 99995, tax: 9005, amountIncl: 109000, quantity: '', unitPrice: '' }), 1, 2)).toEqual([]);
  });
  it('red lines: negative quantities and amounts, normal lines only', () => {
    const a = computeLine({ quantity: '-2', unitPrice: '545', priceIncludesTax: true, taxRate: '0.09' });
    expect(checkLine(line({ ...a, quantity: '-2' }), InvoiceColour.red, 1)).toEqual([]);
    expect(checkLine(line(), InvoiceColour.red, 1)).toEqual(expect.arrayContaining(['第1行：红字发票的数量须为负数', '第1行：红字发票的金额须为负数']));
    expect(checkLine(line({ ...a, quantity: '-2', lineProperty: 1 }), InvoiceColour.red, 1)).toContain('第1行：红字发票只能有正常行');
  });
  it('checks the tax code, the rate and the policy flags', () => {
    expect(checkLine(line({ taxCode: '305010' }), 1, 1)).toContain('第1行：税收分类编码须为19位数字');
    expect(checkLine(line({ taxRate: '0.17' }), 1, 1)).toContain('第1行：税率不在税率表中');
    const zero = computeLine({ amount: 10000, priceIncludesTax: true, taxRate: '0' });
    const zl = line({ ...zero, quantity: '', unitPrice: '', taxRate: '0' });
    expect(checkLine(zl, 1, 1)).toContain('第1行：税率为0%时须选择免税、不征税或普通零税率');
    expect(checkLine({ ...zl, policy: TaxPolicy.exempt }, 1, 1)).toEqual([]);
    expect(checkLine(line({ policy: TaxPolicy.notTaxable }), 1, 1)).toContain('第1行：不征税的税率须为0%');
    expect(checkLine(line({ policy: TaxPolicy.simplified }), 1, 1)).toContain('第1行：简易征收须使用征收率5%、3%、1.5%或1%');
  });
  it('checks quantity × price against the amount and the decimal places', () => {
    expect(checkLine(line({ unitPrice: '600' }), 1, 1)).toContain('第1行：数量×单价与金额不符');
    expect(checkLine(line({ quantity: '1.123456789' }), 1, 1)).toContain('第1行：数量须为最多8位小数的数字');
  });
});

describe('invoice checks', () => {
  const header = { kind: InvoiceKind.bs, colour: 1, buyerName: '江苏长江路桥建设有限公司', buyerTaxNo: '91320100249728262Y', buyerAddress: '', buyerPhone: '', buyerBank: '', buyerAccount: '', specialFactor: 0 };
  it('accepts a complete invoice', () => expect(checkInvoice(header, [line()])).toEqual([]));
  it('needs the buyer tax number on special invoices, and a valid one', () => {
    expect(checkInvoice({ ...header, buyerTaxNo: '' }, [line()])).toContain('开具专用发票须填写购买方税号');
    expect(checkInvoice({ ...header, kind: InvoiceKind.pc, buyerTaxNo: '' }, [line()])).toEqual([]);
    expect(checkInvoice({ ...header, buyerTaxNo: '91320100249728262X' }, [line()])).toContain('购买方税号校验位不正确，请核对统一社会信用代码');
  });
  it('limits address and phone to 100 characters together', () => {
    expect(checkInvoice({ ...header, buyerAddress: '地'.repeat(90), buyerPhone: '02581234567' }, [line()])).toContain('购买方地址和电话合计不能超过100个字符');
  });
  it('needs lines, the 建安 site and project, and the red reason and blue number', () => {
    expect(checkInvoice(header, [])).toContain('请至少填写一行开票明细');
    expect(checkInvoice({ ...header, specialFactor: 31 }, [line()])).toContain('建筑服务发票须填写建筑服务发生地和建筑项目名称');
    expect(checkInvoice({ ...header, colour: 2 }, [])).toEqual(expect.arrayContaining(['红字发票须选择红冲原因', '红字发票须关联蓝字发票号码']));
  });
});

describe('tax number (GB 32100-2015)', () => {
  it('computes the check character', () => {
    expect(creditCodeCheckChar('91320100249728262')).toBe('Y');
    expect(creditCodeCheckChar('91350100M000100Y4')).toBe('3');
    expect(creditCodeCheckChar('91110000600037341')).toBe('L');
    expect(creditCodeCheckChar('9111000060003734I')).toBeNull();
  });
  it('accepts 15 to 20 letters and digits, verifying 18-character ones', () => {
    expect(taxNumberProblem('91320100249728262Y')).toBeNull();
    expect(taxNumberProblem('91110000600037341l')).toBeNull();
    expect(taxNumberProblem('91320100249728262X')).toBe('税号校验位不正确，请核对统一社会信用代码');
    expect(taxNumberProblem('320100249728262')).toBeNull();
    expect(taxNumberProblem('32010024972826212345')).toBeNull();
    expect(taxNumberProblem('32010024972826')).toBe('税号须为15至20位字母或数字');
    expect(taxNumberProblem('3201002497282621234X5')).toBe('税号须为15至20位字母或数字');
    expect(taxNumberProblem('9132010024972826-0')).toBe('税号须为15至20位字母或数字');
    expect(taxNumberProblem('91350100M000100Y42')).toBe('税号校验位不正确，请核对统一社会信用代码');
    expect(taxNumberProblem('I13201002497282620')).toBe('税号含有统一社会信用代码不允许的字符（I、O、Z、S、V）');
  });
});

describe('capital amount (大写)', () => {
  it.each([
    [1234560, '壹万贰仟叁佰肆拾伍圆陆角整'],
    [100000000, '壹佰万圆整'],
    [1000000100, '壹仟万零壹圆整'],
    [10000000000, '壹亿圆整'],
    [100500, '壹仟零伍圆整'],
    [101, '壹圆零壹分'],
    [5, '伍分'],
    [0, '零圆整'],
    [10203040506, '壹亿零贰佰零叁万零肆佰零伍圆零陆分'],
    [-109000, '（负数）壹仟零玖拾圆整'],
  ])('%i 分 → %s', (fen, text) => expect(capitalAmount(fen)).toBe(text));
});

describe('printed unit price (单价 shown and printed)', () => {
  it('prints the price excluding tax of a line typed including tax, so that quantity × 单价 = 金额', () => {
    const a = computeLine({ quantity: '2', unitPrice: '54500', priceIncludesTax: true, taxRate: '0.09' });
    expect(a.amountExcl).toBe(10_000_000);
    const l = { quantity: '2', unitPrice: '54500', priceIncludesTax: true, amountExcl: a.amountExcl };
    expect(printedUnitPrice(l)).toBe('50000');
    expect(unitPriceText(l)).toBe('50,000.00');
  });

  it('keeps 8 places as the tax service prints them, and a price typed excluding tax as typed', () => {
    const a = computeLine({ quantity: '3', unitPrice: '100', priceIncludesTax: true, taxRate: '0.13' });
    expect(printedUnitPrice({ quantity: '3', unitPrice: '100', priceIncludesTax: true, amountExcl: a.amountExcl })).toBe('88.49666667');
    expect(printedUnitPrice({ quantity: '3', unitPrice: '0.333', priceIncludesTax: false, amountExcl: 100 })).toBe('0.333');
    expect(printedUnitPrice({ quantity: '-2', unitPrice: '54500', priceIncludesTax: true, amountExcl: -10_000_000 })).toBe('50000');
    expect(printedUnitPrice({ quantity: '', unitPrice: '', priceIncludesTax: true, amountExcl: 100 })).toBe('');
  });

  it('groups unit prices like amounts', () => {
    expect(formatUnitPrice('1234567.5')).toBe('1,234,567.50');
    expect(formatUnitPrice('45871.55963303')).toBe('45,871.55963303');
    expect(formatUnitPrice('0.333')).toBe('0.333');
    expect(formatUnitPrice('')).toBe('');
  });
});
