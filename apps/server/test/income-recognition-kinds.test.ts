/**
 * Issue 29 item 4: every kind the collection knows is recognised from its QR, XML, OFD and PDF text
 * alike — the rail e-ticket (QR kind 51, 'rail'), the air itinerary (61, and a 数电 32 whose number has
 * 8 as its fifth digit, 'air'), 数电纸质 (31/32 with an invoice code: 85/86); a ticket's QR amount is its
 * total. The form is filled with the pool's kind (draftOf).
 */
import JSZip from 'jszip';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { draftOf } from '../src/modules/income/intake/upload.js';
import { recognise } from '../src/modules/income/intake/recognition/index.js';
import { kindOfQrCode } from '../src/modules/income/intake/recognition/kinds.js';
import { readInvoiceQr } from '../src/modules/income/intake/recognition/qr-invoice.js';
import { readInvoiceText } from '../src/modules/income/intake/recognition/text-fields.js';

/** The railway e-ticket QR of the issue. */
const RAIL_QR = '01,51,,26339132621000219582,56.00,20260423,,219a';
const RAIL_NO = '26339132621000219582';
const AIR_NO = '26328000000012345678';

describe('QR texts: the kinds the collection knows', () => {
  it('a railway e-ticket (51) is a rail ticket whose 56.00 is its total, never the amount excluding tax', () => {
    expect(readInvoiceQr(RAIL_QR)).toEqual({ kindCode: 'rail', invoiceNo: RAIL_NO, issueDate: '2026-04-23', total: '56.00' });
  });

  it('an air itinerary: 61, and a 数电 32 whose number has 8 as its fifth digit; a 32 without it stays 82', () => {
    expect(readInvoiceQr(`01,61,,${AIR_NO},1100.00,20260301,,ab12`)).toEqual({ kindCode: 'air', invoiceNo: AIR_NO, issueDate: '2026-03-01', total: '1100.00' });
    expect(readInvoiceQr(`01,32,,${AIR_NO},1100.00,20260301,,ab12`)).toEqual({ kindCode: 'air', invoiceNo: AIR_NO, issueDate: '2026-03-01', total: '1100.00' });
    expect(readInvoiceQr('01,32,,26322000000012345678,113.00,20260301,,ab12')?.kindCode).toBe('82');
    expect(readInvoiceQr('01,31,,26328000000012345678,113.00,20260301,,ab12')?.kindCode).toBe('81');
  });

  it('31/32 with an invoice code are 数电 paper invoices (85/86), read with their total', () => {
    expect(readInvoiceQr('01,31,144032300110,12345678,1130.00,20260301,,ab12')).toEqual({ kindCode: '85', invoiceCode: '144032300110', invoiceNo: '12345678', issueDate: '2026-03-01', total: '1130.00' });
    expect(readInvoiceQr('01,32,144032300110,12345678,1130.00,20260301,,ab12')?.kindCode).toBe('86');
  });

  it('the kind rule alone', () => {
    expect([kindOfQrCode('51', RAIL_NO, ''), kindOfQrCode('61', AIR_NO, ''), kindOfQrCode('32', AIR_NO, ''), kindOfQrCode('31', '12345678', '1440323001')]).toEqual(['rail', 'air', 'air', '85']);
    expect([kindOfQrCode('01', '12345678', '1200154130'), kindOfQrCode('10', '12345678', '032002300111'), kindOfQrCode('14', '12345678', '032002300111')]).toEqual(['01', '10', '14']);
  });

  it('a PNG of the rail QR is recognised as a rail ticket and fills the form with its kind and total in 分', async () => {
    const png = await QRCode.toBuffer(RAIL_QR, { scale: 4 });
    const r = await recognise({ name: 'rail.png', bytes: new Uint8Array(png) });
    expect(r.fields.kindCode).toEqual({ value: 'rail', source: 'qr' });
    expect(r.fields.total).toEqual({ value: '56.00', source: 'qr' });
    expect(r.fields.amount).toBeUndefined();
    expect(draftOf(r)).toEqual({ kind: 'rail', digitalNo: RAIL_NO, issueDate: '2026-04-23', amountIncl: 5600 });
  });
});

describe('XML, OFD and PDF text name the same kinds', () => {
  const digitalXml = (type: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><EInvoice><Header><EIid>${RAIL_NO}</EIid><InherentLabel>${type}<GeneralOrSpecialVAT><LabelCode>02</LabelCode></GeneralOrSpecialVAT></InherentLabel></Header>` +
    `<EInvoiceData><BasicInformation><TotalTax-includedAmount>56.00</TotalTax-includedAmount><RequestTime>2026-04-23 09:00:00</RequestTime></BasicInformation></EInvoiceData></EInvoice>`;

  it('数电 XML: the type code 51/61 or the type name beats 普通发票', async () => {
    const xml = (type: string) => recognise({ name: 'a.xml', bytes: new TextEncoder().encode(digitalXml(type)) });
    expect((await xml('<EInvoiceType><EInvoiceTypeCode>51</EInvoiceTypeCode></EInvoiceType>')).fields.kindCode).toEqual({ value: 'rail', source: 'xml' });
    expect((await xml('<EInvoiceType><EInvoiceTypeName>电子发票（航空运输电子客票行程单）</EInvoiceTypeName></EInvoiceType>')).fields.kindCode).toEqual({ value: 'air', source: 'xml' });
    expect((await xml('')).fields.kindCode).toEqual({ value: '82', source: 'xml' });
  });

  it("OFD: the kind in OFD.xml's CustomDatas, as a code or a name", async () => {
    const ofd = async (kind: string) => {
      const zip = new JSZip();
      zip.file(
        'OFD.xml',
        `<?xml version="1.0" encoding="UTF-8"?><ofd:OFD xmlns:ofd="http://www.ofdspec.org/2016"><ofd:DocBody><ofd:DocInfo><ofd:CustomDatas>` +
          `<ofd:CustomData Name="发票号码">${RAIL_NO}</ofd:CustomData><ofd:CustomData Name="发票种类">${kind}</ofd:CustomData><ofd:CustomData Name="价税合计">56.00</ofd:CustomData>` +
          `</ofd:CustomDatas></ofd:DocInfo></ofd:DocBody></ofd:OFD>`,
      );
      return recognise({ name: 'a.ofd', bytes: await zip.generateAsync({ type: 'uint8array' }) });
    };
    expect((await ofd('铁路电子客票')).fields.kindCode).toEqual({ value: 'rail', source: 'xml' });
    expect((await ofd('61')).fields.kindCode).toEqual({ value: 'air', source: 'xml' });
  });

  it('PDF text: the titles 电子发票（铁路电子客票） and 电子发票（航空运输电子客票行程单）', () => {
    expect(readInvoiceText(`电子发票（铁路电子客票）\n发票号码：${RAIL_NO}\n开票日期：2026年04月23日`)).toMatchObject({ kindCode: 'rail', invoiceNo: RAIL_NO, issueDate: '2026-04-23' });
    expect(readInvoiceText('电子发票（航空运输电子客票行程单）').kindCode).toBe('air');
    expect(readInvoiceText('电子发票（普通发票）').kindCode).toBe('82');
  });
});
