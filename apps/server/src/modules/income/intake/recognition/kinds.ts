/**
 * The kind of an invoice as recognition names it (the pool's kind codes, DOMAIN.md and shared
 * IncomeKind): 01/04/08/10/14 税控, 81/82 数电, 85/86 数电纸质, and the tickets the collection knows
 * as 'rail' (51 铁路电子客票) and 'air' (61 航空运输电子客票行程单). One place for the kind, whatever
 * said it: the QR's two-digit code, an XML's type code or name, an OFD's custom data, a PDF's title.
 */

/** Codes the tax service uses for tickets, as the pool names them (intake/collect.ts TICKET_KINDS alike). */
const TICKETS: Record<string, string> = { '51': 'rail', '61': 'air' };

/**
 * The kind a QR code's two-digit code gives. 数电 invoices print 31 (专) / 32 (普): with an invoice code
 * they are 数电 paper invoices (85/86); a 32 whose 20-digit number has 8 as its fifth digit is a 数电
 * air itinerary; otherwise 81/82. 51 and 61 are the rail and air tickets.
 */
export function kindOfQrCode(code: string, invoiceNo: string, invoiceCode: string): string {
  if (TICKETS[code]) return TICKETS[code]!;
  if (code === '31' || code === '32') {
    if (invoiceCode !== '') return code === '31' ? '85' : '86';
    if (code === '32' && invoiceNo.length === 20 && invoiceNo[4] === '8') return 'air';
    return code === '31' ? '81' : '82';
  }
  return code;
}

/** Title words -> kind; the first match wins, so the longer titles come first. */
const TITLES: [RegExp, string][] = [
  [/铁\s*路\s*电\s*子\s*客\s*票/, 'rail'],
  [/航\s*空\s*运\s*输\s*电\s*子\s*客\s*票\s*行\s*程\s*单/, 'air'],
  [/电子发票\s*[(（]\s*增值税专用发票\s*[)）]/, '81'],
  [/电子发票\s*[(（]\s*普通发票\s*[)）]/, '82'],
  [/通行费/, '14'],
  [/增值税电子专用发票/, '08'],
  [/增值税电子普通发票/, '10'],
  [/增值税专用发票/, '01'],
  [/增值税普通发票/, '04'],
];

/** The kind a printed title (or a type name in XML or OFD data) names; undefined when none. */
export const kindOfTitle = (text: string): string | undefined => TITLES.find(([re]) => re.test(text))?.[1];

/** The kind a type code in invoice data gives (the pool's codes as they are, 51/61 the tickets); undefined when unknown. */
export function kindOfTypeCode(code: string | undefined): string | undefined {
  const c = (code ?? '').trim();
  if (TICKETS[c]) return TICKETS[c];
  return /^(01|04|08|10|14|81|82|85|86)$/.test(c) ? c : undefined;
}

/** Kinds whose QR amount is the total including tax: 数电 invoices and tickets (the figure they are verified with). */
export const qrAmountIsTotal = (kind: string): boolean => ['81', '82', '85', '86', 'rail', 'air', 'dtoll'].includes(kind);

/** A line of a toll invoice: 项目名称 *经营租赁*通行费 (or 车辆通行费), as the toll invoices print it. */
export const isTollLine = (name: string): boolean => /通行费/.test(name);

/**
 * The 数电 toll kind ('dtoll', issue 29): a 数电 toll invoice carries no 专/普 label (no InherentLabel in its
 * XML), its lines are 通行费 with 车牌号, 类型 and 通行日期起止. A 数电 invoice (20-digit number) whose kind
 * is unknown, 82 or the 税控 toll title's 14, with toll lines (or, in text, 通行费 and 通行日期), is one;
 * any other kind stays as found.
 */
export function tollKind(kind: string | undefined, invoiceNo: string | undefined, tollEvidence: boolean): string | undefined {
  if (!tollEvidence || !/^\d{20}$/.test(invoiceNo ?? '')) return kind;
  return kind === undefined || kind === '82' || kind === '14' ? 'dtoll' : kind;
}

/** Two kinds that do not contradict each other: a 数电 toll's QR prints the 数电普票's 32 (82). */
export const sameKind = (a: string, b: string): boolean => a === b || (a === 'dtoll' && b === '82') || (a === '82' && b === 'dtoll');
