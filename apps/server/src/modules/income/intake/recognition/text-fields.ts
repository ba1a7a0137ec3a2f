/**
 * The fields of an invoice read from its printed text (a PDF's text layer), by their printed labels:
 * 发票号码, 发票代码, 开票日期, 名称 and 统一社会信用代码/纳税人识别号 (the first of each is the
 * buyer's, the second the seller's: every layout prints 购买方 before 销售方), 合计 (amount and tax),
 * 价税合计（小写）, 校验码, the blue invoice a red one reverses (its 备注: 被红冲蓝字数电发票号码：…), and the kind from the title (kinds.ts: 铁路电子客票 and 航空运输电子客票行程单 too). Text extraction may split a label into
 * characters, so a label matches with any white space between its characters.
 */
import { blueNumberInRemark } from '@zhyy/shared';
import { kindOfTitle, tollKind } from './kinds.js';
import type { FieldValues } from './types.js';
import { day, digits, money, plain, taxNo } from './values.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A label whose characters may be separated by white space, then an optional colon. */
const label = (text: string) => `${[...text].map(escape).join('\\s*')}\\s*[:：]?\\s*`;
const MONEY = '(-?[¥￥]?\\s*-?[\\d,]+\\.\\d{2})';


/** Words of labels, never of a company's or person's name. */
const NOT_A_NAME = /识别号|信用代码|名称|信息|地址|电话|开户行|账号|购买方|销售方|^[¥￥\d.,]+$/;

function first(text: string, re: RegExp): string | undefined {
  return re.exec(text)?.[1];
}

/** The value after each occurrence of a label (undefined where none follows it directly). */
function afterEach(text: string, labelRe: string, valueRe: string): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  const re = new RegExp(`${labelRe}(?:${valueRe})?`, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(m[1]);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

export function readInvoiceText(raw: string): FieldValues {
  const text = raw.replace(/\u3000/g, ' ');
  const fields: FieldValues = {};
  const set = (name: keyof FieldValues, v: string | null | undefined) => {
    if (v) fields[name] = v;
  };
  set('invoiceNo', digits(first(text, new RegExp(`${label('发票号码')}(\\d{20}|\\d{8})(?!\\d)`)), 8, 20));
  // A 数电 toll invoice: a 20-digit number, 通行费 and the 通行日期 columns (kinds.ts tollKind).
  set('kindCode', tollKind(kindOfTitle(text), fields.invoiceNo, /通\s*行\s*费/.test(text) && /通\s*行\s*日\s*期/.test(text)));
  set('invoiceCode', digits(first(text, new RegExp(`${label('发票代码')}(\\d{12}|\\d{10})(?!\\d)`)), 10, 12));
  set('issueDate', day(first(text, new RegExp(`${label('开票日期')}(\\d{4}\\s*(?:年\\s*\\d{1,2}\\s*月\\s*\\d{1,2}\\s*日|-\\d{1,2}-\\d{1,2}))`))));
  set('checkCode', digits(first(text, new RegExp(`${label('校验码')}((?:\\d\\s?){20})`)), 20));

  // 名称 with its colon: the lines table's column header 项目名称 has none. A layout that prints its
  // labels before its values puts the next label where the name should be: that is no name.
  const names = afterEach(text, '名\\s*称\\s*[:：]\\s*', '([^\\s:：]+)').map((n) => (n && !NOT_A_NAME.test(n) ? n : undefined));
  set('buyerName', plain(names[0]));
  set('sellerName', plain(names[1]));
  const ids = afterEach(text, `(?:${label('统一社会信用代码/纳税人识别号')}|${label('纳税人识别号')})`, '([0-9A-Za-z]{15,20})(?![0-9A-Za-z])');
  set('buyerTaxNo', taxNo(ids[0]));
  set('sellerTaxNo', taxNo(ids[1]));

  const totals = new RegExp(`(?<!价\\s*税\\s*)合\\s*计\\s*${MONEY}\\s*(?:${MONEY}|\\*+)`).exec(text);
  set('amount', money(totals?.[1]));
  set('tax', totals?.[2] ? money(totals[2]) : totals ? '0.00' : null);
  set('total', money(first(text, new RegExp(`[(（]\\s*小\\s*写\\s*[)）]\\s*${MONEY}`))));
  // A red invoice's 备注 names the blue one (被红冲蓝字数电发票号码：<20 digits> 红字发票信息确认单编号：…); the text
  // layer may split the words into characters, so the remark rule reads the text without white space.
  set('blueInvoiceNo', blueNumberInRemark(text.replace(/\s+/g, '')));
  return fields;
}
