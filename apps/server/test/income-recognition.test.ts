/**
 * Issue 13, recognition: "数电 XML is read field by field; a PDF's text is read for its fields; any
 * file with the invoice's QR code (every Chinese VAT invoice prints one) is decoded from the image or
 * the PDF page, giving kind, code, number, amount, date and check code … each field says where it
 * came from." The sample files are made by scripts/make-income-samples.mjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { renderInvoiceXml } from '../src/integrations/tax/simulator/xml.js';
import { recognise, RecognitionMessages as M, type Recognition } from '../src/modules/income/intake/recognition/index.js';
import { mergeReadings } from '../src/modules/income/intake/recognition/merge.js';
import { readInvoiceQr } from '../src/modules/income/intake/recognition/qr-invoice.js';
import { readInvoiceText } from '../src/modules/income/intake/recognition/text-fields.js';
import { recogniseAndLog } from '../src/modules/income/intake/recognition/logged.js';
import { startTestServer } from './helpers.js';
import { request } from './tax-helpers.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'income');
const sample = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const run = (name: string, bytes = sample(name)) => recognise({ name, bytes });
/** field -> 'value @ source', the way the correction form shows it. */
const shown = (r: Recognition) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, `${f.value} @ ${f.source}`]));

const SD = { no: '25322000000104857316', buyerTaxNo: '91320100MA1HJGC7XE', sellerTaxNo: '91320106MA1R8TL5DE' };

describe('issue 13: 数电 XML is read field by field', () => {
  it('reads the tax bureau layout (EInvoice/EInvoiceData, TaxSupervisionInfo) with its lines', async () => {
    const r = await run('invoice-sd.xml');
    expect(r.kind).toBe('xml');
    expect(shown(r)).toEqual({
      kindCode: '82 @ xml',
      invoiceNo: `${SD.no} @ xml`,
      issueDate: '2025-03-18 @ xml',
      buyerName: '华建工程技术服务有限公司 @ xml',
      buyerTaxNo: `${SD.buyerTaxNo} @ xml`,
      sellerName: '南京恒信建材贸易有限公司 @ xml',
      sellerTaxNo: `${SD.sellerTaxNo} @ xml`,
      amount: '14970.00 @ xml',
      tax: '1946.10 @ xml',
      total: '16916.10 @ xml',
    });
    expect(r.lines).toEqual([
      { name: '*水泥*普通硅酸盐水泥', spec: 'P.O42.5', unit: '吨', quantity: '20', unitPrice: '450', amount: '9000.00', taxRate: '0.13', tax: '1170.00' },
      { name: '*钢材*热轧带肋钢筋', spec: 'HRB400 Φ16', unit: '吨', quantity: '1.5', unitPrice: '3980', amount: '5970.00', taxRate: '0.13', tax: '776.10' },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it("reads the platform simulator's XML (Header/InvoiceNumber, Seller, Items, Total)", async () => {
    const xml = renderInvoiceXml(request('ORD-13-1'), { invoiceNo: '26112000000000000123', invoiceCode: null, issuedAt: '2026-11-21 10:30:00' });
    const r = await recognise({ name: 'a.xml', bytes: new TextEncoder().encode(xml) });
    expect(r.kind).toBe('xml');
    expect(r.fields.kindCode).toEqual({ value: '81', source: 'xml' });
    expect(r.fields.invoiceNo).toEqual({ value: '26112000000000000123', source: 'xml' });
    expect(r.fields.issueDate?.value).toBe('2026-11-21');
    expect(r.fields.buyerTaxNo?.value).toBe('91440101MA5CM2K81U');
    expect([r.fields.amount?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual(['13000.50', '1080.03', '14080.53']);
    expect(r.lines?.map((l) => [l.name, l.taxRate, l.amount])).toEqual([
      ['*建筑服务*工程施工', '0.09', '10000.00'],
      ['*现代服务*技术咨询', '0.06', '3000.50'],
    ]);
  });

  it('reads a GBK-encoded 数电 XML and flags a seller tax number failing GB 32100', async () => {
    const text = new TextDecoder().decode(sample('invoice-sd.xml')).replace('encoding="UTF-8"', 'encoding="GBK"').replaceAll(SD.sellerTaxNo, '91320106MA1R8TL5D1');
    const bytes = encodeGbk(text);
    const r = await recognise({ name: 'x.xml', bytes });
    expect(r.fields.sellerName?.value).toBe('南京恒信建材贸易有限公司');
    expect(r.warnings).toContain('销售方税号校验位不正确，请核对统一社会信用代码');
  });

  it('answers an XML that is not an invoice, and broken XML, with a Chinese warning', async () => {
    const notInvoice = await recognise({ name: 'x.xml', bytes: new TextEncoder().encode('<?xml version="1.0"?><Order><No>1</No></Order>') });
    expect(notInvoice).toEqual({ kind: 'xml', fields: {}, warnings: ['XML 文件不是数电发票（未找到 EInvoice 发票数据）', '未能识别出任何发票字段，请手工填写'] });
    const broken = await recognise({ name: 'x.xml', bytes: new TextEncoder().encode('<EInvoice><Header></EInvoice>') });
    expect(broken.warnings).toEqual(['XML 文件格式错误，无法解析', '未能识别出任何发票字段，请手工填写']);
  });
});

describe("issue 13: a PDF's text is read for its fields; the QR is decoded from the PDF page", () => {
  it('the platform layout PDF: parties and figures from the text, kind/number/date/total from the embedded QR', async () => {
    const r = await run('invoice-sd.pdf');
    expect(r.kind).toBe('pdf');
    expect(shown(r)).toEqual({
      kindCode: '82 @ qr',
      invoiceNo: `${SD.no} @ qr`,
      issueDate: '2025-03-18 @ qr',
      buyerName: '华建工程技术服务有限公司 @ pdf-text',
      buyerTaxNo: `${SD.buyerTaxNo} @ pdf-text`,
      sellerName: '南京恒信建材贸易有限公司 @ pdf-text',
      sellerTaxNo: `${SD.sellerTaxNo} @ pdf-text`,
      amount: '14970.00 @ pdf-text',
      tax: '1946.10 @ pdf-text',
      total: '16916.10 @ qr',
    });
    expect(r.warnings).toEqual([]);
  });

  it('the 税控 e-invoice PDF: code, number, amount, date and check code from the QR agree with the text', async () => {
    const r = await run('invoice-vat.pdf');
    expect(shown(r)).toMatchObject({
      kindCode: '10 @ qr',
      invoiceCode: '032002300111 @ qr',
      invoiceNo: '05836271 @ qr',
      issueDate: '2024-11-05 @ qr',
      amount: '2000.00 @ qr',
      tax: '120.00 @ pdf-text',
      total: '2120.00 @ pdf-text',
      checkCode: '61853290447316285590 @ qr',
      sellerTaxNo: '91320594MA1P6WKD3Y @ pdf-text',
    });
    expect(r.warnings).toEqual([]);
  });

  it('flags a QR whose amount disagrees with the text', async () => {
    const r = await run('invoice-qr-mismatch.pdf');
    expect(r.warnings).toContain('金额（不含税）：PDF文字为“2000.00”，与二维码的“2100.00”不一致，请核对');
    expect(r.warnings).toContain('金额2100.00加税额120.00不等于价税合计2120.00，请核对');
  });

  it('a scanned PDF (an image, no text) is read from its QR, with the warning that it has no text', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    page.drawImage(await doc.embedPng(sample('invoice-sd-qr.png')), { x: 40, y: 700, width: 90, height: 90 });
    const r = await recognise({ name: 'scan.pdf', bytes: await doc.save() });
    expect(r.kind).toBe('pdf');
    expect(r.warnings).toEqual(['PDF 中没有可读取的文字（可能是扫描件），只能从二维码识别']);
    expect(r.fields.total).toEqual({ value: '16916.10', source: 'qr' });
  });

  it('finds a QR embedded at one pixel a module on a transparent background', async () => {
    const text = '01,04,3200161350,00015045,165106.00,20160501,48114255542168294433,DBFE,';
    // Light modules fully transparent (RGBA 0,0,0,0): read as colour alone, the whole image is black.
    const png = await QRCode.toBuffer(text, { scale: 1, margin: 1, color: { dark: '#000000ff', light: '#00000000' } });
    const doc = await PDFDocument.create();
    doc.addPage([300, 300]).drawImage(await doc.embedPng(png), { x: 10, y: 10, width: 60, height: 60 });
    const pdf = await recognise({ name: 'tiny.pdf', bytes: await doc.save() });
    const image = await recognise({ name: 'tiny.png', bytes: png });
    for (const r of [pdf, image]) {
      expect(shown(r)).toEqual({
        kindCode: '04 @ qr',
        invoiceCode: '3200161350 @ qr',
        invoiceNo: '00015045 @ qr',
        issueDate: '2016-05-01 @ qr',
        amount: '165106.00 @ qr',
        checkCode: '48114255542168294433 @ qr',
      });
    }
  });

  it('reads the labels of other layouts: split characters, half-width colons, 纳税人识别号, 价税合计(小写)', () => {
    const text = [
      '电子发票（增值税专用发票）',
      '发 票 号 码 : 24112000000012345678',
      '开票日期: 2024年01月05日',
      '购 买 方 信 息 名称: 北京甲建设有限公司 统一社会信用代码/纳税人识别号: 91110108MA01ABCD2X',
      '销 售 方 信 息 名称: 上海乙材料有限公司 统一社会信用代码/纳税人识别号: 91310115MA1K3YJ25Q',
      '项目名称 规格型号 单位 数量 单价 金额 税率/征收率 税额',
      '合 计 ¥1,000.00 ¥130.00',
      '价税合计(大写) 壹仟壹佰叁拾圆整 (小写) ¥1,130.00',
    ].join('\n');
    expect(readInvoiceText(text)).toEqual({
      kindCode: '81',
      invoiceNo: '24112000000012345678',
      issueDate: '2024-01-05',
      buyerName: '北京甲建设有限公司',
      buyerTaxNo: '91110108MA01ABCD2X',
      sellerName: '上海乙材料有限公司',
      sellerTaxNo: '91310115MA1K3YJ25Q',
      amount: '1000.00',
      tax: '130.00',
      total: '1130.00',
    });
  });

  it('the kind a PDF title suggests yields to the QR without a warning (数电纸质 85/86 print the titles of 01/04)', async () => {
    const r = mergeReadings([
      { source: 'pdf-text', fields: { kindCode: '01', invoiceNo: '12345678' } },
      { source: 'qr', fields: { kindCode: '85', invoiceNo: '12345678' } },
    ]);
    expect(r).toEqual({ fields: { kindCode: { value: '85', source: 'qr' }, invoiceNo: { value: '12345678', source: 'qr' } }, warnings: [] });
    const other = mergeReadings([
      { source: 'pdf-text', fields: { invoiceNo: '12345678' } },
      { source: 'qr', fields: { invoiceNo: '12345679' } },
    ]);
    expect(other.warnings).toEqual(['发票号码：PDF文字为“12345678”，与二维码的“12345679”不一致，请核对']);
  });

  it('takes no label for a name when a layout prints its labels before its values', () => {
    const text = '购买方信息 名称： 统一社会信用代码/纳税人识别号： 销售方信息 名称： 统一社会信用代码/纳税人识别号：\n北京甲建设有限公司 91110108MA01ABCD2X';
    const fields = readInvoiceText(text);
    expect(fields.buyerName).toBeUndefined();
    expect(fields.sellerName).toBeUndefined();
    expect(fields.buyerTaxNo).toBeUndefined();
  });

  it('answers a broken PDF with a Chinese warning, never an error', async () => {
    const r = await recognise({ name: 'x.pdf', bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj garbage') });
    expect(r).toEqual({ kind: 'pdf', fields: {}, warnings: ['PDF 文件已损坏或已加密，无法读取', '未能识别出任何发票字段，请手工填写'] });
  });
});

describe('issue 13: the QR code decoded from an image', () => {
  it('a PNG of a 数电 QR gives kind, number, date and the total (数电: no code, 20-digit number)', async () => {
    const r = await run('invoice-sd-qr.png');
    expect(r.kind).toBe('image');
    expect(shown(r)).toEqual({ kindCode: '82 @ qr', invoiceNo: `${SD.no} @ qr`, issueDate: '2025-03-18 @ qr', total: '16916.10 @ qr' });
    expect(r.warnings).toEqual([]);
  });

  it('a JPEG of a 税控 QR gives kind, code, number, amount, date and check code', async () => {
    const r = await run('invoice-vat-qr.jpg');
    expect(shown(r)).toEqual({
      kindCode: '10 @ qr',
      invoiceCode: '032002300111 @ qr',
      invoiceNo: '05836271 @ qr',
      issueDate: '2024-11-05 @ qr',
      amount: '2000.00 @ qr',
      checkCode: '61853290447316285590 @ qr',
    });
  });

  it('the format comes from the content, not the file name', async () => {
    const r = await recognise({ name: '发票.pdf', bytes: sample('invoice-sd-qr.png') });
    expect(r.kind).toBe('image');
    expect(r.fields.invoiceNo?.value).toBe(SD.no);
  });

  it('an image without a QR, and a QR that is not an invoice, are said so', async () => {
    const blank = await QRCode.toBuffer('https://example.com/not-an-invoice', { scale: 4 });
    const other = await recognise({ name: 'a.png', bytes: blank });
    expect(other.warnings).toEqual(['文件中的二维码不是发票二维码（https://example.com/not-an-invoice）', '未能识别出任何发票字段，请手工填写']);
    const { PNG } = await import('pngjs');
    const white = new PNG({ width: 60, height: 60 });
    white.data.fill(255);
    const none = await recognise({ name: 'b.png', bytes: PNG.sync.write(white) });
    expect(none.warnings).toEqual(['未在文件中找到发票二维码', '未能识别出任何发票字段，请手工填写']);
  });

  it('QR texts: 数电 kinds 31/32 read as 81/82 with the total; 专票 with its code and the amount excluding tax; others refused', () => {
    expect(readInvoiceQr('01,32,,23442000000014209621,112,20230215,,74AE')).toEqual({ kindCode: '82', invoiceNo: '23442000000014209621', issueDate: '2023-02-15', total: '112.00' });
    expect(readInvoiceQr('01,01,1200154130,03630024,94339.62,20160621,,9335,')).toEqual({ kindCode: '01', invoiceCode: '1200154130', invoiceNo: '03630024', issueDate: '2016-06-21', amount: '94339.62' });
    expect(readInvoiceQr('https://inv-veri.chinatax.gov.cn/')).toBeNull();
    expect(readInvoiceQr('01,10,,123,10.00,20240230,,')).toBeNull();
  });
});

describe('issue 13: OFD files', () => {
  it("reads OFD.xml's CustomDatas and the QR among its resource images", async () => {
    const r = await run('invoice-sd.ofd');
    expect(r.kind).toBe('ofd');
    expect(shown(r)).toEqual({
      kindCode: '82 @ qr',
      invoiceNo: `${SD.no} @ xml`,
      issueDate: '2025-03-18 @ xml',
      buyerName: '华建工程技术服务有限公司 @ xml',
      buyerTaxNo: `${SD.buyerTaxNo} @ xml`,
      sellerName: '南京恒信建材贸易有限公司 @ xml',
      sellerTaxNo: `${SD.sellerTaxNo} @ xml`,
      amount: '14970.00 @ xml',
      tax: '1946.10 @ xml',
      total: '16916.10 @ xml',
    });
    expect(r.warnings).toEqual([]);
  });

  it('reads the original invoice XML packed inside an OFD, lines included', async () => {
    const zip = new JSZip();
    zip.file('OFD.xml', '<?xml version="1.0" encoding="UTF-8"?><ofd:OFD xmlns:ofd="http://www.ofdspec.org/2016"><ofd:DocBody><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>');
    zip.file('Doc_0/Attachs/original_invoice.xml', sample('invoice-sd.xml'));
    const r = await recognise({ name: 'x.ofd', bytes: await zip.generateAsync({ type: 'uint8array' }) });
    expect(r.kind).toBe('ofd');
    expect(r.fields.invoiceNo).toEqual({ value: SD.no, source: 'xml' });
    expect(r.lines).toHaveLength(2);
  });

  it('does not inflate a part past 5 MB (a zip bomb stops there)', async () => {
    const zip = new JSZip();
    zip.file('OFD.xml', '<?xml version="1.0" encoding="UTF-8"?><ofd:OFD xmlns:ofd="http://www.ofdspec.org/2016"/>');
    const padded = new TextDecoder().decode(sample('invoice-sd.xml')).replace('<EInvoice>', `<EInvoice><!--${' '.repeat(8_000_000)}-->`);
    zip.file('Doc_0/Attachs/original_invoice.xml', padded);
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    expect(bytes.length).toBeLessThan(200_000);
    const r = await recognise({ name: 'bomb.ofd', bytes });
    expect(r).toEqual({ kind: 'ofd', fields: {}, warnings: ['OFD 中的 Doc_0/Attachs/original_invoice.xml 超过5MB，未读取', '未能识别出任何发票字段，请手工填写'] });
  });

  it('a zip that is not an OFD is refused with a Chinese warning', async () => {
    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    const r = await recognise({ name: 'x.ofd', bytes: await zip.generateAsync({ type: 'uint8array' }) });
    expect(r).toEqual({ kind: 'unknown', fields: {}, warnings: ['压缩文件不是 OFD 发票（缺少 OFD.xml），请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件'] });
  });
});

describe('issue 13: garbled or unsupported files', () => {
  it('garbled bytes are answered with a Chinese warning', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);
    expect(await recognise({ name: 'invoice.pdf', bytes })).toEqual({ kind: 'unknown', fields: {}, warnings: ['无法识别的文件格式：请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件'] });
    expect(M.unsupported).toBe('无法识别的文件格式：请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件');
  });

  it('an empty file, and a PNG signature with a broken body', async () => {
    expect((await recognise({ name: 'a.png', bytes: new Uint8Array() })).warnings).toEqual(['文件为空，请重新选择']);
    const broken = sample('invoice-sd-qr.png').slice(0, 60);
    expect((await recognise({ name: 'a.png', bytes: broken })).warnings).toEqual(['图片已损坏，无法读取', '未能识别出任何发票字段，请手工填写']);
  });
});

/** GBK bytes of a string (Node has a GBK decoder but no encoder): the characters this file's XML uses. */
function encodeGbk(text: string): Uint8Array {
  const decoder = new TextDecoder('gbk');
  const table = new Map<string, number[]>();
  for (let hi = 0x81; hi <= 0xfe; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      if (lo === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([hi, lo]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [hi, lo]);
    }
  }
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else out.push(...(table.get(ch) ?? [0x3f]));
  }
  return new Uint8Array(out);
}

describe('issue 13: each call is a row of the AI call log that /system/report/ai-interface-statistic reports', () => {
  it('logs success with the time taken, and a file with nothing recognised as a failure with its warnings', async () => {
    const s = await startTestServer({ demo: false });
    try {
      const user = { id: null, loginName: 'ocr.upload', name: '上传测试' };
      const ok = await recogniseAndLog(s.db, user, { name: 'invoice-sd.xml', bytes: sample('invoice-sd.xml') });
      expect(ok.fields.invoiceNo?.value).toBe(SD.no);
      await recogniseAndLog(s.db, user, { name: 'garbled.pdf', bytes: new Uint8Array([1, 2, 3, 4]) });
      const rows = await s.db.kysely.selectFrom('ai_call_logs').select(['interface_code', 'success', 'message', 'file_name', 'login_name', 'duration_ms']).where('login_name', '=', 'ocr.upload').orderBy('file_name').execute();
      expect(rows.map((r) => ({ ...r, success: Number(r.success), duration_ms: Number(r.duration_ms) >= 0 }))).toEqual([
        { interface_code: 'invoice-ocr', success: 0, message: '无法识别的文件格式：请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件', file_name: 'garbled.pdf', login_name: 'ocr.upload', duration_ms: true },
        { interface_code: 'invoice-ocr', success: 1, message: '', file_name: 'invoice-sd.xml', login_name: 'ocr.upload', duration_ms: true },
      ]);
    } finally {
      await s.close();
    }
  });
});
