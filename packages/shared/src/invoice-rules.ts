/**
 * Pure rules of outgoing invoices (DOMAIN.md): line arithmetic with a decimal library (money in 分,
 * quantity and unit price as decimal strings up to 8 places, tax rounded half-up to 分), the checks
 * of a line and of an invoice with Chinese messages, the GB 32100 tax number checksum and the
 * Chinese capital amount (大写).
 */
import { Decimal } from 'decimal.js';
import { InvoiceColour } from './enums.js';
import { LineProperty, TaxPolicy, isSpecialKind, normaliseRate, SpecialFactor, TAX_RATES } from './invoice.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;

/** The most a line's tax may differ from amount × rate: 0.06 元 (DOMAIN.md). */
export const TAX_TOLERANCE_FEN = 6;
export const MAX_LINES = 2000;
const DECIMAL_RE = /^-?\d{1,12}(\.\d{1,8})?$/;
/** The longest 规格型号 and 单位 of a line (the tax service's limits). */
export const SPEC_MAX = 40;
export const UNIT_MAX = 20;

export const isDecimalText = (s: string) => DECIMAL_RE.test(s.trim());

/** 分 from a decimal amount in 元, rounded half-up (away from zero on .5). */
export const yuanToFen = (yuan: string | number): number => new D(yuan).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
/** '1234.50' from 123450 分 (no grouping). */
export const fenToYuan = (fen: number): string => new D(fen).dividedBy(100).toFixed(2);

export interface LineInput {
  /** Decimal string; negative on red invoices. Empty when the line has no quantity (services). */
  quantity?: string;
  /** Decimal string, up to 8 places. */
  unitPrice?: string;
  /** Whether quantity and unit price (or the amount) include tax. */
  priceIncludesTax: boolean;
  /** Rate as a decimal string of the catalogue ('0.09'). */
  taxRate: string;
  /** The line's amount in 分 (including tax when priceIncludesTax) when no unit price is given. */
  amount?: number;
}

export interface LineAmounts {
  amountExcl: number;
  tax: number;
  amountIncl: number;
  /** The unit price excluding tax, 8 places, when there is a quantity. */
  unitPriceExcl: string;
}

const trimZeros = (d: Dec) => d.toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed().replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * The amounts of a line: the gross amount is quantity × unit price (or the amount given); with tax
 * included the tax is gross × rate / (1 + rate), else gross × rate; tax rounds half-up to 分 and
 * excluded + tax = included exactly.
 */
export function computeLine(l: LineInput): LineAmounts {
  const rate = new D(normaliseRate(l.taxRate) ?? l.taxRate);
  const hasQty = !!l.quantity && !new D(l.quantity).isZero();
  const gross =
    hasQty && l.unitPrice
      ? new D(l.quantity!).times(l.unitPrice).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
      : new D(l.amount ?? 0);
  let excl: Dec;
  let tax: Dec;
  if (l.priceIncludesTax) {
    tax = gross.times(rate).dividedBy(rate.plus(1)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
    excl = gross.minus(tax);
  } else {
    excl = gross;
    tax = gross.times(rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  }
  const unitPriceExcl = hasQty ? trimZeros(excl.dividedBy(100).dividedBy(l.quantity!)) : '';
  return { amountExcl: excl.toNumber(), tax: tax.toNumber(), amountIncl: excl.plus(tax).toNumber(), unitPriceExcl };
}

/**
 * The unit price a line prints (单价 on the detail page, the ledger and the PDF): the price excluding
 * tax, to at most 8 places, as the tax service prints it, so that quantity × 单价 gives the printed
 * 金额. A price typed excluding tax is printed as typed; a price typed including tax is the amount
 * excluding tax divided by the quantity. '' for a line without quantity.
 */
export function printedUnitPrice(l: { quantity?: string; unitPrice?: string; priceIncludesTax: boolean; amountExcl: number }): string {
  const q = (l.quantity ?? '').trim();
  if (!q || !isDecimalText(q) || new D(q).isZero()) return '';
  const typed = (l.unitPrice ?? '').trim();
  if (!l.priceIncludesTax && typed && isDecimalText(typed)) return trimZeros(new D(typed));
  return trimZeros(new D(l.amountExcl).dividedBy(100).dividedBy(q).abs());
}

/** A unit price (decimal string) with thousands separators and at least two places, up to 8: '50000' → '50,000.00'. */
export function formatUnitPrice(price: string | null | undefined): string {
  const s = (price ?? '').trim();
  if (!s || !isDecimalText(s)) return s;
  const d = new D(s).toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
  const places = Math.max(2, Math.min(8, d.decimalPlaces()));
  const [int, dec] = d.abs().toFixed(places).split('.') as [string, string];
  return `${d.isNegative() ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** The 单价 text of a line wherever it is shown or printed: the printed price, grouped ('50,000.00'). */
export const unitPriceText = (l: Parameters<typeof printedUnitPrice>[0]): string => formatUnitPrice(printedUnitPrice(l));

/** A line as it is stored and checked. */
export interface InvoiceLineData {
  goodsName: string;
  taxCode: string;
  spec?: string;
  unit?: string;
  quantity?: string;
  unitPrice?: string;
  priceIncludesTax: boolean;
  taxRate: string;
  policy: number;
  lineProperty: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

/** Every problem of one line, in Chinese; [] when it is right. `n` is the 1-based line number. */
export function checkLine(l: InvoiceLineData, colour: number, n: number): string[] {
  const p = `第${n}行`;
  const out: string[] = [];
  const red = colour === InvoiceColour.red;
  if (!l.goodsName.trim()) out.push(`${p}：请填写货物或应税劳务名称`);
  if (!/^\d{19}$/.test(l.taxCode)) out.push(`${p}：税收分类编码须为19位数字`);
  if ((l.spec ?? '').trim().length > SPEC_MAX) out.push(`${p}：规格型号不能超过${SPEC_MAX}个字符`);
  if ((l.unit ?? '').trim().length > UNIT_MAX) out.push(`${p}：单位不能超过${UNIT_MAX}个字符`);
  const rate = normaliseRate(l.taxRate);
  if (!rate) out.push(`${p}：税率不在税率表中`);
  for (const [v, label] of [[l.quantity, '数量'], [l.unitPrice, '单价']] as const) {
    if (v && !isDecimalText(v)) out.push(`${p}：${label}须为最多8位小数的数字`);
  }
  if (l.unitPrice && new D(isDecimalText(l.unitPrice) ? l.unitPrice : 0).isNegative()) out.push(`${p}：单价不能为负数`);
  if (rate) {
    const zero = rate === '0';
    const simplified = TAX_RATES.find((r) => r.value === rate)?.kind === 'simplified';
    if (zero && ![TaxPolicy.exempt, TaxPolicy.notTaxable, TaxPolicy.zeroRate].includes(l.policy as 1)) out.push(`${p}：税率为0%时须选择免税、不征税或普通零税率`);
    if (!zero && [TaxPolicy.exempt, TaxPolicy.notTaxable, TaxPolicy.zeroRate].includes(l.policy as 1)) out.push(`${p}：${TaxPolicy.label(l.policy)}的税率须为0%`);
    if (l.policy === TaxPolicy.simplified && !simplified) out.push(`${p}：简易征收须使用征收率5%、3%、1.5%或1%`);
  }
  if (!TaxPolicy.has(l.policy)) out.push(`${p}：优惠政策标识不正确`);
  if (!LineProperty.has(l.lineProperty)) out.push(`${p}：发票行性质不正确`);
  if (l.amountExcl + l.tax !== l.amountIncl) out.push(`${p}：不含税金额加税额须等于含税金额`);
  if (rate && Math.abs(new D(l.amountExcl).times(rate).minus(l.tax).toNumber()) > TAX_TOLERANCE_FEN) {
    out.push(`${p}：税额与不含税金额×税率的差不能超过0.06元`);
  }
  if (l.quantity && l.unitPrice && isDecimalText(l.quantity) && isDecimalText(l.unitPrice)) {
    const gross = new D(l.quantity).times(l.unitPrice).times(100);
    const amount = l.priceIncludesTax ? l.amountIncl : l.amountExcl;
    if (gross.minus(amount).abs().greaterThan(1)) out.push(`${p}：数量×单价与金额不符`);
  }
  if (red) {
    if (l.lineProperty !== LineProperty.normal) out.push(`${p}：红字发票只能有正常行`);
    if (l.quantity && isDecimalText(l.quantity) && !new D(l.quantity).isNegative()) out.push(`${p}：红字发票的数量须为负数`);
    if (l.amountIncl >= 0) out.push(`${p}：红字发票的金额须为负数`);
  } else {
    if (l.quantity && isDecimalText(l.quantity) && new D(l.quantity).isNegative()) out.push(`${p}：蓝字发票的数量不能为负数`);
    if (l.lineProperty !== LineProperty.discount && l.amountIncl <= 0) out.push(`${p}：金额须大于0`);
    if (l.lineProperty === LineProperty.discount && l.amountIncl >= 0) out.push(`${p}：折扣行的金额须为负数`);
  }
  return out;
}

export interface InvoiceTotals {
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export const sumLines = (lines: readonly Pick<InvoiceLineData, 'amountExcl' | 'tax' | 'amountIncl'>[]): InvoiceTotals =>
  lines.reduce((t, l) => ({ amountExcl: t.amountExcl + l.amountExcl, tax: t.tax + l.tax, amountIncl: t.amountIncl + l.amountIncl }), { amountExcl: 0, tax: 0, amountIncl: 0 });

export interface InvoiceHeaderData {
  kind: number;
  colour: number;
  buyerName: string;
  buyerTaxNo: string;
  buyerAddress: string;
  buyerPhone: string;
  buyerBank: string;
  buyerAccount: string;
  specialFactor: number;
  constructionSite?: string;
  constructionProject?: string;
  redReason?: number | null;
  blueInvoiceNo?: string;
}

/** Every problem of a whole invoice (header and lines), in Chinese; [] when it may be issued. */
export function checkInvoice(h: InvoiceHeaderData, lines: readonly InvoiceLineData[]): string[] {
  const out: string[] = [];
  if (!h.buyerName.trim()) out.push('请填写购买方名称');
  const taxNoProblem = h.buyerTaxNo ? taxNumberProblem(h.buyerTaxNo) : null;
  if (taxNoProblem) out.push(`购买方${taxNoProblem}`);
  if (isSpecialKind(h.kind) && !h.buyerTaxNo) out.push('开具专用发票须填写购买方税号');
  if ((h.buyerAddress + h.buyerPhone).length > 100) out.push('购买方地址和电话合计不能超过100个字符');
  if ((h.buyerBank + h.buyerAccount).length > 100) out.push('购买方开户行和账号合计不能超过100个字符');
  if (h.specialFactor === SpecialFactor.construction && (!h.constructionSite?.trim() || !h.constructionProject?.trim())) {
    out.push('建筑服务发票须填写建筑服务发生地和建筑项目名称');
  }
  if (h.colour === InvoiceColour.red) {
    if (!h.redReason) out.push('红字发票须选择红冲原因');
    if (!h.blueInvoiceNo) out.push('红字发票须关联蓝字发票号码');
  }
  if (lines.length === 0) out.push('请至少填写一行开票明细');
  if (lines.length > MAX_LINES) out.push(`开票明细不能超过${MAX_LINES}行`);
  lines.forEach((l, i) => out.push(...checkLine(l, h.colour, i + 1)));
  const t = sumLines(lines);
  if (h.colour === InvoiceColour.blue && lines.length > 0 && t.amountIncl <= 0) out.push('价税合计须大于0');
  return out;
}

// ---------------------------------------------------------------------------------------------
// 统一社会信用代码 (GB 32100-2015)

const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character of the first 17 characters, or null when one is not in the code set. */
export function creditCodeCheckChar(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = CODE_CHARS.indexOf(first17[i] ?? '');
    if (v < 0) return null;
    sum += v * WEIGHTS[i]!;
  }
  return CODE_CHARS[(31 - (sum % 31)) % 31]!;
}

/**
 * What is wrong with a tax number, or null: 15 to 20 letters and digits; an 18-character number is
 * a 统一社会信用代码 and must pass the GB 32100 checksum.
 */
export function taxNumberProblem(raw: string): string | null {
  const s = raw.trim().toUpperCase();
  if (!/^[0-9A-Z]{15,20}$/.test(s)) return '税号须为15至20位字母或数字';
  if (s.length === 18) {
    const check = creditCodeCheckChar(s.slice(0, 17));
    if (check === null) return '税号含有统一社会信用代码不允许的字符（I、O、Z、S、V）';
    if (check !== s[17]) return '税号校验位不正确，请核对统一社会信用代码';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// 大写金额

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const SMALL = ['', '拾', '佰', '仟'];
const BIG = ['', '万', '亿', '万亿'];

/**
 * The amount in Chinese capitals (大写) as printed on invoices, the one rule for the pages and the PDF:
 * 12345.60 元 → 壹万贰仟叁佰肆拾伍圆陆角整 (圆, as on the tax service's invoices); red amounts get （负数）.
 */
export function capitalAmount(fen: number): string {
  const negative = fen < 0;
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor((abs % 100) / 10);
  const fenDigit = abs % 10;
  let intText = '';
  if (yuan > 0) {
    const groups: number[] = [];
    for (let y = yuan; y > 0; y = Math.floor(y / 10000)) groups.push(y % 10000);
    let pendingZero = false;
    for (let g = groups.length - 1; g >= 0; g--) {
      const group = groups[g]!;
      if (group === 0) {
        pendingZero = intText !== '';
        continue;
      }
      if (pendingZero || (intText !== '' && group < 1000)) intText += '零';
      pendingZero = false;
      let zero = false;
      let part = '';
      for (let i = 3; i >= 0; i--) {
        const d = Math.floor(group / 10 ** i) % 10;
        if (d === 0) {
          zero = part !== '';
          continue;
        }
        if (zero) part += '零';
        zero = false;
        part += DIGITS[d] + SMALL[i]!;
      }
      intText += part + BIG[g]!;
    }
    intText += '圆';
  }
  let decText = '';
  if (jiao === 0 && fenDigit === 0) decText = intText ? '整' : '零圆整';
  else {
    if (jiao > 0) decText += `${DIGITS[jiao]}角`;
    else if (intText) decText += '零';
    decText += fenDigit > 0 ? `${DIGITS[fenDigit]}分` : '整';
  }
  return `${negative ? '（负数）' : ''}${intText}${decText}`;
}
