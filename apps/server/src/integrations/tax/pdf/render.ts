/**
 * The simulator's invoice PDF: the layout of a 数电 / paper VAT invoice in Chinese — title, number
 * and date, buyer and seller, the lines, totals in figures and in capitals (大写), remark and clerk.
 * Lines beyond the first page continue on 销货清单 pages. Deterministic for the same input.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { unitPriceText } from '@zhyy/shared';
import { chineseCapital, formatYuan } from '../money.js';
import type { TaxInvoiceLine, TaxInvoiceRequest } from '../types.js';
import { subsetFor } from './font.js';

export interface PrintedNumbers {
  invoiceNo: string;
  invoiceCode: string | null;
  /** 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai. */
  issuedAt: string;
}

const W = 842;
const H = 595;
const M = 36;
const INK = rgb(0.55, 0.25, 0.1);
const TEXT = rgb(0.1, 0.1, 0.1);
const FIRST_PAGE_LINES = 8;
const LIST_PAGE_LINES = 24;
const ROW = 18;

const TITLES: Record<number, string> = {
  1: '增值税普通发票',
  2: '增值税专用发票',
  9: '电子发票（增值税专用发票）',
  10: '电子发票（普通发票）',
};
const RED_REASONS: Record<number, string> = { 1: '销货退回', 2: '开票有误', 3: '服务中止', 4: '销售折让' };

/** Columns of the lines table: header, x from the left edge of the box, width, right-aligned. */
const COLUMNS = [
  { title: '项目名称', x: 0, w: 200, right: false },
  { title: '规格型号', x: 200, w: 80, right: false },
  { title: '单位', x: 280, w: 40, right: false },
  { title: '数量', x: 320, w: 75, right: true },
  { title: '单价', x: 395, w: 85, right: true },
  { title: '金额', x: 480, w: 95, right: true },
  { title: '税率/征收率', x: 575, w: 60, right: true },
  { title: '税额', x: 635, w: 129, right: true },
] as const;

const rateText = (line: TaxInvoiceLine) => {
  if (line.policyFlag === 'exempt') return '免税';
  if (line.policyFlag === 'nonTaxable') return '不征税';
  const pct = Number(line.taxRate) * 100;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(1)}%`;
};

const dateText = (issuedAt: string) => `${issuedAt.slice(0, 4)}年${issuedAt.slice(5, 7)}月${issuedAt.slice(8, 10)}日`;

function cells(line: TaxInvoiceLine): string[] {
  return [line.goodsName, line.spec ?? '', line.unit ?? '', line.quantity ?? '', unitPriceText({ quantity: line.quantity, unitPrice: line.unitPrice, priceIncludesTax: line.priceIncludesTax, amountExcl: line.amountExcludingTax }), formatYuan(line.amountExcludingTax), rateText(line), formatYuan(line.tax)];
}

function remarkLines(req: TaxInvoiceRequest): string[] {
  const out: string[] = [];
  if (req.colour === 2 && req.blueInvoiceNo) out.push(`被红冲蓝字发票号码：${req.blueInvoiceNo}　冲红原因：${RED_REASONS[req.redReason ?? 0] ?? ''}`);
  if (req.specialFactor === 31) out.push(`建筑服务发生地：${req.projectSite ?? ''}　建筑项目名称：${req.projectName ?? ''}`);
  if (req.specialFactor === 32) out.push('不动产经营租赁服务');
  if (req.buyer.address || req.buyer.phone) out.push(`购方地址电话：${[req.buyer.address, req.buyer.phone].filter(Boolean).join(' ')}`);
  if (req.buyer.bankName || req.buyer.bankAccount) out.push(`购方开户银行及账号：${[req.buyer.bankName, req.buyer.bankAccount].filter(Boolean).join(' ')}`);
  if (req.seller.address || req.seller.phone) out.push(`销方地址电话：${[req.seller.address, req.seller.phone].filter(Boolean).join(' ')}`);
  if (req.seller.bankName || req.seller.bankAccount) out.push(`销方开户银行及账号：${[req.seller.bankName, req.seller.bankAccount].filter(Boolean).join(' ')}`);
  if (req.remark) out.push(...req.remark.split(/\r?\n/));
  return out;
}

/** Every text the PDF may show, so the font subset holds all of its glyphs. */
function allText(req: TaxInvoiceRequest, nums: PrintedNumbers): string {
  const parts = [
    ...Object.values(TITLES),
    '发票号码：发票代码：开票日期：购买方信息销售方信息名称：统一社会信用代码/纳税人识别号：合计价税合计（大写）（小写）¥备注开票人：收款人：复核：销货清单第页共续销项负数…⊗（续）详见，行',
    ...COLUMNS.map((c) => c.title),
    nums.invoiceNo, nums.invoiceCode ?? '', dateText(nums.issuedAt),
    req.buyer.name, req.buyer.taxNumber ?? '', req.seller.name, req.seller.taxNumber ?? '',
    req.clerk, req.payee ?? '', req.checker ?? '',
    ...remarkLines(req),
    ...req.lines.flatMap(cells),
    '0123456789.,-%',
    chineseCapital(req.lines.reduce((s, l) => s + l.amountIncludingTax, 0)),
  ];
  return parts.join('');
}

class Painter {
  constructor(
    readonly page: PDFPage,
    readonly font: PDFFont,
  ) {}

  text(s: string, x: number, y: number, size = 10, opts: { width?: number; right?: boolean; center?: boolean; colour?: typeof TEXT } = {}): void {
    let t = s;
    if (opts.width !== undefined) t = this.fit(t, opts.width - 4, size);
    const w = this.font.widthOfTextAtSize(t, size);
    let at = x + 2;
    if (opts.right && opts.width !== undefined) at = x + opts.width - 2 - w;
    if (opts.center && opts.width !== undefined) at = x + (opts.width - w) / 2;
    this.page.drawText(t, { x: at, y, size, font: this.font, color: opts.colour ?? TEXT });
  }

  fit(s: string, width: number, size: number): string {
    if (this.font.widthOfTextAtSize(s, size) <= width) return s;
    let t = s;
    while (t.length > 0 && this.font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
    return `${t}…`;
  }

  box(x: number, y: number, w: number, h: number): void {
    this.page.drawRectangle({ x, y, width: w, height: h, borderColor: INK, borderWidth: 0.8 });
  }

  hline(x1: number, x2: number, y: number): void {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness: 0.5, color: INK });
  }

  vline(x: number, y1: number, y2: number): void {
    this.page.drawLine({ start: { x, y: y1 }, end: { x, y: y2 }, thickness: 0.5, color: INK });
  }
}

function header(p: Painter, req: TaxInvoiceRequest, nums: PrintedNumbers, title: string): void {
  p.text(title, M, H - M - 22, 20, { width: W - 2 * M, center: true, colour: INK });
  p.hline(W / 2 - 150, W / 2 + 150, H - M - 28);
  if (req.colour === 2) p.text('销项负数', M, H - M - 20, 12, { colour: rgb(0.8, 0, 0) });
  const right = W - M - 230;
  let y = H - M - 10;
  if (nums.invoiceCode) {
    p.text(`发票代码：${nums.invoiceCode}`, right, y, 10);
    y -= 15;
  }
  p.text(`发票号码：${nums.invoiceNo}`, right, y, 10);
  p.text(`开票日期：${dateText(nums.issuedAt)}`, right, y - 15, 10);
}

function linesTable(p: Painter, lines: TaxInvoiceLine[], top: number, rows: number): number {
  const left = M;
  const width = W - 2 * M - 6;
  p.box(left, top - ROW * (rows + 1), width, ROW * (rows + 1));
  for (const c of COLUMNS) p.text(c.title, left + c.x, top - 13, 9, { width: c.w, center: true });
  p.hline(left, left + width, top - ROW);
  lines.forEach((line, i) => {
    const y = top - ROW * (i + 2) + 5;
    cells(line).forEach((v, k) => {
      const c = COLUMNS[k]!;
      p.text(v, left + c.x, y, 9, { width: c.w, right: c.right });
    });
  });
  return top - ROW * (rows + 1);
}

function firstPage(p: Painter, req: TaxInvoiceRequest, nums: PrintedNumbers, shown: TaxInvoiceLine[], more: number): void {
  header(p, req, nums, TITLES[req.kind] ?? '增值税发票');
  const top = H - M - 62;
  const half = (W - 2 * M - 6) / 2;
  p.box(M, top - 56, half, 56);
  p.box(M + half, top - 56, half, 56);
  p.text('购买方信息', M, top - 16, 10, { colour: INK });
  p.text(`名称：${req.buyer.name}`, M, top - 32, 10, { width: half });
  p.text(`统一社会信用代码/纳税人识别号：${req.buyer.taxNumber ?? ''}`, M, top - 48, 9, { width: half });
  p.text('销售方信息', M + half, top - 16, 10, { colour: INK });
  p.text(`名称：${req.seller.name}`, M + half, top - 32, 10, { width: half });
  p.text(`统一社会信用代码/纳税人识别号：${req.seller.taxNumber ?? ''}`, M + half, top - 48, 9, { width: half });

  const rows = FIRST_PAGE_LINES;
  const bottom = linesTable(p, shown, top - 62, rows);
  if (more > 0) p.text(`（续）详见销货清单，共${shown.length + more}行`, M, bottom + 5, 9, { colour: INK });
  const excl = req.lines.reduce((s, l) => s + l.amountExcludingTax, 0);
  const tax = req.lines.reduce((s, l) => s + l.tax, 0);
  const incl = excl + tax;
  const width = W - 2 * M - 6;
  p.box(M, bottom - ROW, width, ROW);
  p.text('合计', M, bottom - 13, 10, { width: 200, center: true });
  p.text(`¥${formatYuan(excl)}`, M + 480, bottom - 13, 10, { width: 95, right: true });
  p.text(`¥${formatYuan(tax)}`, M + 635, bottom - 13, 10, { width: 129, right: true });
  p.box(M, bottom - 2 * ROW - 4, width, ROW + 4);
  p.text('价税合计（大写）', M, bottom - 2 * ROW + 2, 10, { colour: INK });
  p.text(`⊗ ${chineseCapital(incl)}`, M + 110, bottom - 2 * ROW + 2, 11);
  p.text(`（小写）¥${formatYuan(incl)}`, M + 520, bottom - 2 * ROW + 2, 11);

  const remarks = remarkLines(req);
  const remarkTop = bottom - 2 * ROW - 4;
  const remarkH = Math.max(48, 14 * remarks.length + 8);
  p.box(M, remarkTop - remarkH, width, remarkH);
  p.vline(M + 40, remarkTop, remarkTop - remarkH);
  p.text('备注', M, remarkTop - remarkH / 2 - 4, 10, { width: 40, center: true, colour: INK });
  remarks.forEach((r, i) => p.text(r, M + 40, remarkTop - 14 * (i + 1), 9, { width: width - 40 }));
  const footY = remarkTop - remarkH - 16;
  const signers = req.kind === 9 || req.kind === 10 ? [`开票人：${req.clerk}`] : [`收款人：${req.payee ?? ''}`, `复核：${req.checker ?? ''}`, `开票人：${req.clerk}`];
  signers.forEach((s, i) => p.text(s, M + i * 200, footY, 10));
}

/** The invoice as a PDF (one page up to 8 lines; then 销货清单 pages of 24 lines). */
export async function renderInvoicePdf(req: TaxInvoiceRequest, nums: PrintedNumbers): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await subsetFor(allText(req, nums)), { subset: false });
  const issued = new Date(`${nums.issuedAt.replace(' ', 'T')}+08:00`);
  doc.setTitle(`${TITLES[req.kind] ?? '发票'} ${nums.invoiceNo}`);
  doc.setProducer('综合运营支撑平台 税务端模拟');
  doc.setCreator('综合运营支撑平台');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const shown = req.lines.slice(0, FIRST_PAGE_LINES);
  const rest = req.lines.slice(FIRST_PAGE_LINES);
  firstPage(new Painter(doc.addPage([W, H]), font), req, nums, shown, rest.length);
  const pages = Math.ceil(rest.length / LIST_PAGE_LINES);
  for (let i = 0; i < pages; i++) {
    const p = new Painter(doc.addPage([W, H]), font);
    header(p, req, nums, `销货清单（第${i + 1}页 共${pages}页）`);
    const chunk = rest.slice(i * LIST_PAGE_LINES, (i + 1) * LIST_PAGE_LINES);
    linesTable(p, chunk, H - M - 62, LIST_PAGE_LINES);
  }
  return doc.save();
}
