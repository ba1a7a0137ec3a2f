/**
 * Issue 29 item 5: "A 数电 OFD carries its number, both tax numbers, totals and date in CustomDatas of
 * OFD.xml and maps them in Doc_0/Tags/CustomTag.xml: read those offline, without text layout guessing."
 * The fixture invoice-sd-tagged.ofd is made by scripts/make-income-ofd-tagged.mjs in the structure of
 * ofdrw's public sample 20240531141733.ofd (fictitious values); the variants below change one part of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { recognise, type Recognition } from '../src/modules/income/intake/recognition/index.js';
import { readOfd } from '../src/modules/income/intake/recognition/ofd.js';
import { resolvePath } from '../src/modules/income/intake/recognition/ofd-tags.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'income');
const fixture = new Uint8Array(fs.readFileSync(path.join(dir, 'invoice-sd-tagged.ofd')));
const shown = (r: Recognition) => Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, `${f.value} @ ${f.source}`]));

const T = {
  no: '25322000000104871945',
  buyer: '华建工程技术服务有限公司',
  buyerTaxNo: '91320100MA1HJGC7XE',
  seller: '南京智联信息技术服务有限公司',
  sellerTaxNo: '91320105MA1W3KQ2TA',
};

/** The fixture with parts replaced (a function gets the part's text) or removed (null). */
async function variant(changes: Record<string, string | null | ((text: string) => string)>): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(fixture);
  for (const [name, change] of Object.entries(changes)) {
    if (change === null) zip.remove(name);
    else if (typeof change === 'string') zip.file(name, change);
    else zip.file(name, change(await zip.file(name)!.async('string')));
  }
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
const noCustomDatas = (t: string) => t.replace(/<ofd:CustomDatas>[\s\S]*<\/ofd:CustomDatas>/, '');

describe('issue 29 item 5: the fields an OFD maps in Doc_0/Tags/CustomTag.xml', () => {
  it('every field the tag file maps is read from the text objects it names', async () => {
    const ofd = await readOfd(fixture);
    expect(ofd?.tagFields).toEqual({
      invoiceNo: T.no,
      issueDate: '2025-04-07',
      buyerName: T.buyer,
      buyerTaxNo: T.buyerTaxNo,
      sellerName: T.seller,
      sellerTaxNo: T.sellerTaxNo,
      amount: '4716.98',
      tax: '283.02',
      total: '5000.00',
    });
    expect(ofd?.warnings).toEqual([]);
  });

  it('the CustomDatas stay first (source xml); the tags fill what they lack: both names and 价税合计 (source ofd-tag)', async () => {
    const r = await recognise({ name: 'tagged.ofd', bytes: fixture });
    expect(r.kind).toBe('ofd');
    expect(shown(r)).toEqual({
      invoiceNo: `${T.no} @ xml`,
      issueDate: '2025-04-07 @ xml',
      buyerName: `${T.buyer} @ ofd-tag`,
      buyerTaxNo: `${T.buyerTaxNo} @ xml`,
      sellerName: `${T.seller} @ ofd-tag`,
      sellerTaxNo: `${T.sellerTaxNo} @ xml`,
      amount: '4716.98 @ xml',
      tax: '283.02 @ xml',
      total: '5000.00 @ ofd-tag',
    });
    expect(r.warnings).toEqual([]);
  });

  it('without CustomDatas every field comes from the tags', async () => {
    const r = await recognise({ name: 'tagged.ofd', bytes: await variant({ 'OFD.xml': noCustomDatas }) });
    expect(Object.values(r.fields).map((f) => f.source)).toEqual(Array(9).fill('ofd-tag'));
    expect(r.fields.invoiceNo).toEqual({ value: T.no, source: 'ofd-tag' });
    expect(r.fields.total).toEqual({ value: '5000.00', source: 'ofd-tag' });
    expect(r.warnings).toEqual([]);
  });

  it('a CustomData that disagrees with the printed page stays, and both values are named', async () => {
    const bytes = await variant({ 'OFD.xml': (t) => t.replace('<ofd:CustomData Name="合计金额">4716.98<', '<ofd:CustomData Name="合计金额">4716.89<') });
    const r = await recognise({ name: 'tagged.ofd', bytes });
    expect(r.fields.amount).toEqual({ value: '4716.89', source: 'xml' });
    expect(r.warnings).toEqual(['金额（不含税）：OFD标签为“4716.98”，与XML的“4716.89”不一致，请核对', '金额4716.89加税额283.02不等于价税合计5000.00，请核对']);
  });

  it('a malformed CustomTag.xml gives a warning, not a crash; the CustomDatas are still read', async () => {
    const bytes = await variant({ 'Doc_0/Tags/CustomTag.xml': '<?xml version="1.0" encoding="UTF-8"?>\n<ofd:root xmlns:ofd="http://www.ofdspec.org/2016"><ofd:InvoiceNo>' });
    const r = await recognise({ name: 'tagged.ofd', bytes });
    expect(r.kind).toBe('ofd');
    expect(r.warnings).toEqual(['OFD 文件的 Doc_0/Tags/CustomTag.xml 无法解析']);
    expect(r.fields.invoiceNo).toEqual({ value: T.no, source: 'xml' });
    expect(r.fields.buyerName).toBeUndefined();
  });

  it('a page that does not parse is named in a warning; a missing tag file or page is passed over', async () => {
    const broken = await recognise({ name: 'a.ofd', bytes: await variant({ 'Doc_0/Pages/Page_0/Content.xml': '<ofd:Page>', 'OFD.xml': noCustomDatas }) });
    expect(broken.warnings).toEqual(['OFD 文件的 Doc_0/Pages/Page_0/Content.xml 无法解析', '未能识别出任何发票字段，请手工填写']);
    for (const missing of ['Doc_0/Tags/CustomTag.xml', 'Doc_0/Tags/CustomTags.xml', 'Doc_0/Pages/Page_0/Content.xml']) {
      const ofd = await readOfd(await variant({ [missing]: null }));
      expect(ofd?.tagFields).toEqual({});
      expect(ofd?.warnings).toEqual([]);
    }
  });

  it("the fp: layout of other producers (eInvoice root, GoodsInfos), paths from the root or in other case, an object on the page's template", async () => {
    // As ofdrw's 999.ofd (Tag_Invoice.xml, namespace of the 2019 e-invoice schema) and path_unstd.ofd / draw_param_ref.ofd (BaseLoc "/Doc_0/…", TPLS).
    const fp = (tag: string, ...ids: string[]) => `<fp:${tag}>${ids.map((id) => `<fp:ObjectRef PageRef="61">${id}</fp:ObjectRef>`).join('')}</fp:${tag}>`;
    const tagFile =
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<fp:eInvoice xmlns:fp="http://www.edrm.org.cn/schema/e-invoice/2019" version="1.0">' +
      `${fp('InvoiceNo', '6922')}<fp:Buyer>${fp('BuyerName', '6924')}</fp:Buyer><fp:Seller>${fp('SellerName', '6927')}${fp('SellerTaxID', '6928')}</fp:Seller>` +
      `<fp:GoodsInfos><fp:GoodsInfo>${fp('Amount', '6942')}${fp('TaxAmount', '6943')}</fp:GoodsInfo></fp:GoodsInfos>` +
      `${fp('TaxInclusiveTotalAmount', '6935', '6936')}${fp('IssueDate', '9999')}</fp:eInvoice>`;
    const zip = await JSZip.loadAsync(await variant({ 'OFD.xml': noCustomDatas, 'Doc_0/Tags/CustomTag.xml': null }));
    zip.file('Doc_0/Tags/Tag_Invoice.xml', tagFile);
    const tags = (await zip.file('Doc_0/Tags/CustomTags.xml')!.async('string')).replace('CustomTag.xml', 'Tag_Invoice.xml');
    zip.file('Doc_0/Tags/CustomTags.xml', tags);
    const doc = (await zip.file('Doc_0/Document.xml')!.async('string')).replace('BaseLoc="Tpls/Tpl_0/Content.xml"', 'BaseLoc="TPLS/TPL_0/Content.xml"').replace('BaseLoc="Pages/', 'BaseLoc="/Doc_0/Pages/');
    zip.file('Doc_0/Document.xml', doc);
    // The seller's name moves from the page to its template.
    const page = await zip.file('Doc_0/Pages/Page_0/Content.xml')!.async('string');
    const seller = /<ofd:TextObject ID="6927"[\s\S]*?<\/ofd:TextObject>/.exec(page)![0];
    zip.file('Doc_0/Pages/Page_0/Content.xml', page.replace(seller, ''));
    const tpl = await zip.file('Doc_0/Tpls/Tpl_0/Content.xml')!.async('string');
    zip.remove('Doc_0/Tpls/Tpl_0/Content.xml');
    zip.file('Doc_0/Tpls/Tpl_0/content.XML', tpl.replace('</ofd:Layer>', `${seller}</ofd:Layer>`));
    const ofd = await readOfd(await zip.generateAsync({ type: 'uint8array' }));
    expect(ofd?.tagFields).toEqual({ invoiceNo: T.no, buyerName: T.buyer, sellerName: T.seller, sellerTaxNo: T.sellerTaxNo, total: '5000.00' });
    expect(ofd?.warnings).toEqual([]);
  });

  it('resolves OFD paths against the folder of the part that names them', () => {
    expect(resolvePath('Doc_0/', 'Pages/Page_0/Content.xml')).toBe('Doc_0/Pages/Page_0/Content.xml');
    expect(resolvePath('Doc_0/Tags/', '../Pages/./Page_0/Content.xml')).toBe('Doc_0/Pages/Page_0/Content.xml');
    expect(resolvePath('Doc_0/', '/Doc_0/Tpls/Tpl_0/Content.xml')).toBe('Doc_0/Tpls/Tpl_0/Content.xml');
  });
});
