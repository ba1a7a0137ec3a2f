/**
 * Issue 29 (red invoices received, the blue number beyond XML): a red 数电 invoice names the blue one it reverses in
 * its 备注 — "被红冲蓝字数电发票号码：<20 digits> 红字发票信息确认单编号：…". Read from a PDF's text and from an OFD's
 * Note tag (fixtures invoice-sd-red.pdf, invoice-sd-red-tagged.ofd; docs/income-recognition.md). No database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recognise } from '../src/modules/income/intake/recognition/index.js';
import { readInvoiceText } from '../src/modules/income/intake/recognition/text-fields.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/income');
const read = (name: string) => recognise({ name, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) });
const BLUE_NO = '25322000000104862417';

describe('the blue number of a red invoice from its PDF text', () => {
  it('the red 数电 PDF: number, negative figures and the blue number, all from the text', async () => {
    const r = await read('invoice-sd-red.pdf');
    expect(r.kind).toBe('pdf');
    expect(r.fields.blueInvoiceNo).toEqual({ value: BLUE_NO, source: 'pdf-text' });
    expect([r.fields.invoiceNo?.value, r.fields.amount?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual(['25322000000104869971', '-500.00', '-45.00', '-545.00']);
    expect(r.warnings.filter((w) => w.includes('不一致') || w.includes('不等于'))).toEqual([]);
  });

  it('a blue invoice PDF has none', async () => {
    const r = await read('invoice-sd.pdf');
    expect(r.fields.blueInvoiceNo).toBeUndefined();
    expect(r.fields.invoiceNo?.value).toBe('25322000000104857316');
  });

  it('the remark split into characters by the text layer, both spellings of the label, and the 税控 form with code and number', () => {
    expect(readInvoiceText(`备注 被 红 冲 蓝 字 数 电 发 票 号 码 ： ${BLUE_NO.split('').join(' ')} 红字发票信息确认单编号：32010525062100158836`).blueInvoiceNo).toBe(BLUE_NO);
    expect(readInvoiceText(`被红冲蓝字数电票号码：${BLUE_NO} 红字发票信息确认单编号：32010525062000153208`).blueInvoiceNo).toBe(BLUE_NO);
    expect(readInvoiceText('开具红字增值税专用发票信息表编号3201052506200015 对应正数发票代码:3200231130号码:04567890').blueInvoiceNo).toBe('04567890');
    // 19 digits are not a 数电 number.
    expect(readInvoiceText('被红冲蓝字数电发票号码：2532200000010486241 红字发票信息确认单编号：1').blueInvoiceNo).toBeUndefined();
  });
});

describe('the blue number of a red invoice from its OFD', () => {
  it('the Note tag of the red 数电 OFD maps the 备注: the blue number with the source OFD标签, the figures negative', async () => {
    const r = await read('invoice-sd-red-tagged.ofd');
    expect(r.kind).toBe('ofd');
    expect(r.fields.blueInvoiceNo).toEqual({ value: BLUE_NO, source: 'ofd-tag' });
    expect([r.fields.invoiceNo?.value, r.fields.amount?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual(['25322000000104869988', '-300.00', '-27.00', '-327.00']);
    expect(r.warnings).toEqual([]);
  });

  it('the blue 数电 OFD of the same structure, whose Note holds 收款人 and 复核人, has none', async () => {
    const r = await read('invoice-sd-tagged.ofd');
    expect(r.fields.blueInvoiceNo).toBeUndefined();
    expect(r.fields.total?.value).toBe('5000.00');
  });
});
