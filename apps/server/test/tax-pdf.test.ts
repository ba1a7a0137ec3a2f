/** The simulator's invoice PDF read back with pdf-lib, and the money words printed on it. */
import zlib from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { capitalAmount } from '@zhyy/shared';
import { chineseCapital, formatYuan } from '../src/integrations/tax/money.js';
import { renderInvoicePdf } from '../src/integrations/tax/pdf/render.js';
import { line, request } from './tax-helpers.js';

const numbers = { invoiceNo: '26112000000000000123', invoiceCode: null, issuedAt: '2026-11-21 10:30:00' };

const streamText = (s: PDFRawStream) => {
  const bytes = Buffer.from(s.getContents());
  return (s.dict.get(PDFName.of('Filter')) ? zlib.inflateSync(bytes) : bytes).toString('latin1');
};

/** The text a page shows: its hex glyph strings mapped through the font's ToUnicode CMap. */
function pageText(doc: PDFDocument, pageIndex: number): string {
  const map = new Map<string, string>();
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    const text = streamText(obj);
    if (!text.includes('beginbfchar') && !text.includes('beginbfrange')) continue;
    const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
    for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
      for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(m[1]!.toLowerCase(), utf16(m[2]!));
    }
    for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
      for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
        const [lo, hi, dst] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
        for (let g = lo; g <= hi; g++) map.set(g.toString(16).padStart(4, '0'), String.fromCodePoint(dst + g - lo));
      }
    }
  }
  const page = doc.getPage(pageIndex);
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  let out = '';
  for (const ref of refs) {
    const stream = doc.context.lookup(ref as PDFRef);
    if (!(stream instanceof PDFRawStream)) continue;
    for (const m of streamText(stream).matchAll(/<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hex = m[1]!.toLowerCase();
      for (let i = 0; i < hex.length; i += 4) out += map.get(hex.slice(i, i + 4)) ?? '?';
      out += '\n';
    }
  }
  return out;
}

function fontFiles(doc: PDFDocument): Array<{ name: string; bytes: number }> {
  const out: Array<{ name: string; bytes: number }> = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    const file = doc.context.lookup(obj.get(PDFName.of('FontFile2')) as PDFRef);
    out.push({ name: String(obj.get(PDFName.of('FontName'))), bytes: file instanceof PDFRawStream ? file.getContents().length : 0 });
  }
  return out;
}

describe('invoice PDF', () => {
  it('is one small page in Chinese with the font embedded, totals in figures and capitals', async () => {
    const req = request('PDF-1', { remark: '合同编号 HT-2026-001', specialFactor: 31, projectName: '天河二期', projectSite: '广东省广州市天河区' });
    const bytes = await renderInvoicePdf(req, numbers);
    expect(bytes.length).toBeLessThan(80_000);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('电子发票（增值税专用发票） 26112000000000000123');
    const fonts = fontFiles(doc);
    expect(fonts).toHaveLength(1);
    expect(fonts[0]!.name).toContain('NotoSansSC');
    expect(fonts[0]!.bytes).toBeGreaterThan(1000);
    const text = pageText(doc, 0);
    for (const expected of [
      '电子发票（增值税专用发票）',
      '发票号码：26112000000000000123',
      '开票日期：2026年11月21日',
      '名称：广州市喆堃建设有限公司',
      '名称：华建工程技术服务有限公司',
      '*现代服务*技术咨询',
      '3,000.50',
      '9%',
      `¥${formatYuan(1_300_050)}`,
      `⊗ ${chineseCapital(1_408_053)}`,
      '（小写）¥14,080.53',
      '建筑服务发生地：广东省广州市天河区　建筑项目名称：天河二期',
      '合同编号 HT-2026-001',
      '开票人：张敏',
    ]) {
      expect(text).toContain(expected);
    }
    expect(chineseCapital(1_408_053)).toBe('壹万肆仟零捌拾圆伍角叁分');
    expect(chineseCapital(1_408_053)).toBe(capitalAmount(1_408_053));
  });

  it('prints the unit price excluding tax that multiplies out to the printed amount, grouped like amounts', async () => {
    // 2 × 54,500 含税 at 9%: 金额 100,000.00, so 单价 50,000.00 (not the typed 54500)
    const req = request('PDF-4', { lines: [line({ quantity: '2', unitPrice: '54500', priceIncludesTax: true, amountExcludingTax: 10_000_000, tax: 900_000, amountIncludingTax: 10_900_000 })] });
    const text = pageText(await PDFDocument.load(await renderInvoicePdf(req, numbers)), 0);
    expect(text).toContain('50,000.00');
    expect(text).toContain('100,000.00');
    expect(text).not.toContain('54500');
    expect(text).toContain(`⊗ ${capitalAmount(10_900_000)}`);
  });

  it('prints red invoices as 销项负数 with the blue number, and paper invoices with code and signers', async () => {
    const red = request('PDF-2', { kind: 2, colour: 2, redReason: 1, blueInvoiceNo: '00001234', payee: '李娜', checker: '王强', lines: [line({ quantity: '-2', amountExcludingTax: -1_000_000, tax: -90_000, amountIncludingTax: -1_090_000 })] });
    const doc = await PDFDocument.load(await renderInvoicePdf(red, { invoiceNo: '00004321', invoiceCode: '1100261130', issuedAt: '2026-11-21 10:30:00' }));
    const text = pageText(doc, 0);
    for (const expected of ['增值税专用发票', '销项负数', '发票代码：1100261130', '被红冲蓝字发票号码：00001234　冲红原因：销货退回', '（负数）壹万零玖佰圆整', '收款人：李娜', '复核：王强', '-10,000.00']) {
      expect(text).toContain(expected);
    }
  });

  it('continues long invoices on 销货清单 pages', async () => {
    const many = request('PDF-3', { lines: Array.from({ length: 40 }, (_, i) => line({ goodsName: `*建筑服务*分项工程${i + 1}` })) });
    const doc = await PDFDocument.load(await renderInvoicePdf(many, numbers));
    expect(doc.getPageCount()).toBe(3);
    expect(pageText(doc, 0)).toContain('（续）详见销货清单，共40行');
    expect(pageText(doc, 2)).toContain('销货清单（第2页 共2页）');
    expect(pageText(doc, 2)).toContain('*建筑服务*分项工程40');
  });
});
