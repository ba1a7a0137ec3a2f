/**
 * The face of an incoming invoice as the bureau issues it (issue 29 items 1 and 2): the rule of every
 * arrival (upload, manual entry, collection) and of the entry form, in one place.
 *
 * - A blue invoice (价税合计 ≥ 0) has a non-negative 金额 and 税额; a line may be negative only as a
 *   discount line (折扣行, 发票行性质 1): it follows the line it discounts (被折扣行) and takes off at most
 *   that line's amount and tax.
 * - A red invoice (红字发票, 价税合计 < 0) reverses a blue one: 金额 and 税额 are ≤ 0; a positive line is
 *   the reversal of a discount line, after the negative line it belongs to.
 * - Either way 金额 + 税额 = 价税合计, and when there are lines their 金额 and 税额 add up to the face.
 * - 对应蓝字发票号码 (数电: `SpecificInformation/RedEInvoice/OriginalInvoiceCode`, printed in the remark as
 *   被红冲蓝字数电票号码) belongs to a red invoice only.
 * Sources: docs/income.md "Discount lines and red invoices received".
 */

export interface IncomeFaceFigures {
  amountExcl: number;
  tax: number;
  amountIncl: number;
  lines: ReadonlyArray<{ amount: number; tax: number }>;
  /** 对应蓝字发票号码 (red invoices only); '' or absent on a blue one. */
  blueInvoiceNo?: string;
}

export interface IncomeFaceProblem {
  /** The field the message is about (a form puts it there). */
  field: 'amountExcl' | 'tax' | 'amountIncl' | 'lines' | 'blueInvoiceNo';
  /** The line (0-based) when the problem is one line's. */
  line?: number;
  message: string;
}

export const IncomeFaceMessages = {
  sum: '金额与税额之和不等于价税合计',
  linesAmount: '明细金额合计与发票金额不一致',
  linesTax: '明细税额合计与发票税额不一致',
  blueNegative: '蓝字发票的金额和税额不能为负数（折扣只能作为明细中的折扣行）',
  redPositive: '红字发票的金额和税额不能为正数',
  blueNoOnBlue: '只有红字发票可填写对应蓝字发票号码',
  discount: (n: number) => `第${n}行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行`,
} as const;

/** 红字发票: its 价税合计 is negative. */
export const isRedInvoice = (f: { amountIncl: number }): boolean => f.amountIncl < 0;

/** Every problem of a face, in the order a clerk would fix them; empty when it is right. */
export function incomeFaceProblems(f: IncomeFaceFigures): IncomeFaceProblem[] {
  const out: IncomeFaceProblem[] = [];
  const red = isRedInvoice(f);
  if (f.amountExcl + f.tax !== f.amountIncl) out.push({ field: 'amountIncl', message: IncomeFaceMessages.sum });
  if (red && (f.amountExcl > 0 || f.tax > 0)) out.push({ field: f.amountExcl > 0 ? 'amountExcl' : 'tax', message: IncomeFaceMessages.redPositive });
  if (!red && (f.amountExcl < 0 || f.tax < 0)) out.push({ field: f.amountExcl < 0 ? 'amountExcl' : 'tax', message: IncomeFaceMessages.blueNegative });
  if (!red && f.blueInvoiceNo && f.blueInvoiceNo.trim()) out.push({ field: 'blueInvoiceNo', message: IncomeFaceMessages.blueNoOnBlue });
  if (f.lines.length) {
    // The invoice's direction: +1 blue, −1 red. A line against it is a discount line (or a discount's reversal).
    const sign = red ? -1 : 1;
    f.lines.forEach((l, i) => {
      if (l.amount * sign >= 0 && l.tax * sign >= 0) return;
      const prev = f.lines[i - 1];
      const againstPrev = prev && prev.amount * sign > 0 && l.amount * sign <= 0 && l.tax * sign <= 0;
      const withinPrev = prev && Math.abs(l.amount) <= Math.abs(prev.amount) && Math.abs(l.tax) <= Math.abs(prev.tax);
      if (!againstPrev || !withinPrev) out.push({ field: 'lines', line: i, message: IncomeFaceMessages.discount(i + 1) });
    });
    if (f.lines.reduce((a, l) => a + l.amount, 0) !== f.amountExcl) out.push({ field: 'lines', message: IncomeFaceMessages.linesAmount });
    if (f.lines.reduce((a, l) => a + l.tax, 0) !== f.tax) out.push({ field: 'lines', message: IncomeFaceMessages.linesTax });
  }
  return out;
}

/**
 * 对应蓝字发票号码 in a red invoice's remark (数电: 被红冲蓝字数电票号码：…, also written 被红冲蓝字数电发票号码;
 * tax-control red invoices: 对应正数发票代码:… 号码:…); '' when none.
 */
export function blueNumberInRemark(remark: string): string {
  const m = /被红冲蓝字数电(?:发)?票号码[:：]\s*(\d{20})/.exec(remark) ?? /对应正数发票代码[:：]?\s*\d{10,12}\s*号码[:：]?\s*(\d{8})/.exec(remark);
  return m?.[1] ?? '';
}
