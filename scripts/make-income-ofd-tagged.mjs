#!/usr/bin/env node
/**
 * Writes apps/server/test/fixtures/income/invoice-sd-tagged.ofd (issue 29 item 5): a 数电 OFD whose
 * invoice fields are mapped by Doc_0/Tags/CustomTag.xml to the text objects of its page.
 *   npx tsx --conditions=source scripts/make-income-ofd-tagged.mjs
 * Its structure is that of a public sample, ofdrw's ofdrw-converter/src/test/resources/20240531141733.ofd
 * (Apache-2.0; a 数电 电子发票（增值税专用发票）made by swdomsdk): the same parts, the same CustomDatas
 * names in the same order (no 价税合计 and no names: those are only in the tags), the same CustomTags.xml
 * (TypeID "root") and CustomTag.xml elements (ofd:root > InvoiceNo, IssueDate, Buyer/BuyerName,
 * Buyer/BuyerTaxID, Seller/…, TaxExclusiveTotalAmount, TaxTotalAmount, TaxInclusiveTotalAmount with the
 * '¥' and the figures as two ObjectRefs, InvoiceClerk twice, Item, TaxScheme, Amount, TaxAmount, Price,
 * Quantity, Note), the same object IDs, page ID 61 on template 1. The values are changed: that sample
 * names real companies and people, this one fictitious ones (tax numbers built with GB 32100's check
 * character); its QR image and fonts are left out (the QR is tested elsewhere), the template keeps only
 * the labels as text. The output is the same on every run.
 *
 * It also writes invoice-sd-red-tagged.ofd (issue 29): the same structure for a red 数电专票 that partly reverses
 * fixtures/income/invoice-sd-blue.xml — negative figures, and its 备注 (the Note tag's first object) in the words a
 * red 数电 invoice prints, "被红冲蓝字数电发票号码：<20 digits> 红字发票信息确认单编号：<number>" (docs/income-recognition.md
 * "Red invoices: the blue number from PDF and OFD" names the public samples of that remark).
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { creditCodeCheckChar } from '../packages/shared/src/invoice-rules.ts';
import { chineseCapital } from '../apps/server/src/integrations/tax/money.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, '..', 'apps', 'server');
const require = createRequire(path.join(server, 'package.json'));
const JSZip = require('jszip');

const creditCode = (first17) => `${first17}${creditCodeCheckChar(first17)}`;
const yuan = (fen) => (fen / 100).toFixed(2);

const TAGGED = {
  no: '25322000000104871945',
  day: '2025年04月07日',
  buyer: { name: '华建工程技术服务有限公司', taxNumber: creditCode('91320100MA1HJGC7X') },
  seller: { name: '南京智联信息技术服务有限公司', taxNumber: creditCode('91320105MA1W3KQ2T') },
  item: ['*信息技术服务*技术服务', '费'],
  price: '4716.98113207547',
  amount: 471698,
  tax: 28302,
  clerk: '王敏',
  note: '收款人:张丽;    复核人:刘强;    ',
};

/** A red 数电专票 of the labour subcontractor of invoice-sd-blue.xml, reversing 300.00 + 27.00 of it (9 %). */
const RED = {
  no: '25322000000104869988',
  day: '2025年06月23日',
  buyer: TAGGED.buyer,
  seller: { name: '南京筑诚劳务工程有限公司', taxNumber: '91320105MA2B7LQ3K6' },
  item: ['*建筑服务*劳务分包', ''],
  price: '300',
  quantity: '-1',
  amount: -30000,
  tax: -2700,
  rate: '9%',
  clerk: '王芳',
  remarkFirst: '被红冲蓝字数电发票号码：25322000000104862417 红字发票信息确认单编号：32010525062300161744',
  note: '',
};

const ns = 'xmlns:ofd="http://www.ofdspec.org/2016"';
const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
const text = (id, box, font, size, value, x = '0', y = '3.6414') =>
  `<ofd:TextObject ID="${id}" Boundary="${box}" Font="${font}" Size="${size}"><ofd:TextCode X="${x}" Y="${y}">${value}</ofd:TextCode></ofd:TextObject>`;
const ref = (...ids) => ids.map((id) => `<ofd:ObjectRef PageRef="61">${id}</ofd:ObjectRef>`).join('');

function build(TAGGED) {
const total = TAGGED.amount + TAGGED.tax;
const custom = [
  ['template-version', '1.0.20.0422'],
  ['发票号码', TAGGED.no],
  ['销售方纳税人识别号', TAGGED.seller.taxNumber],
  ['合计金额', yuan(TAGGED.amount)],
  ['购买方纳税人识别号', TAGGED.buyer.taxNumber],
  ['合计税额', yuan(TAGGED.tax)],
  ['开票日期', TAGGED.day],
  ['native-producer', 'swdomsdk'],
  ['producer-version', '2.0.23.1108.1400'],
];

const files = {
  'OFD.xml':
    `${head}<ofd:OFD ${ns} DocType="OFD" Version="1.0">\n\t<ofd:DocBody>\n\t\t<ofd:DocInfo>\n\t\t\t<ofd:DocID>90baf370c9dc11e980000b7700000a77</ofd:DocID>\n` +
    `\t\t\t<ofd:Author>China Tax</ofd:Author>\n\t\t\t<ofd:CreationDate>2025-04-07</ofd:CreationDate>\n\t\t\t<ofd:ModDate>2025-04-07</ofd:ModDate>\n\t\t\t<ofd:Creator>Suwell</ofd:Creator>\n` +
    `\t\t\t<ofd:CustomDatas>\n${custom.map(([k, v]) => `\t\t\t<ofd:CustomData Name="${k}">${v}</ofd:CustomData>`).join('\n')}</ofd:CustomDatas>\n` +
    `\t\t</ofd:DocInfo>\n\t\t<ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot>\n\t</ofd:DocBody>\n</ofd:OFD>\n`,
  'Doc_0/Document.xml':
    `${head}<ofd:Document ${ns}>\n\t<ofd:CommonData>\n\t\t<ofd:MaxUnitID>6957</ofd:MaxUnitID>\n\t\t<ofd:PublicRes>PublicRes.xml</ofd:PublicRes>\n` +
    `\t\t<ofd:TemplatePage ID="1" BaseLoc="Tpls/Tpl_0/Content.xml"/>\n\t<ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes></ofd:CommonData>\n` +
    `\t<ofd:Pages><ofd:Page ID="61" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages>\n\t\n<ofd:CustomTags>Tags/CustomTags.xml</ofd:CustomTags></ofd:Document>\n`,
  'Doc_0/PublicRes.xml': `${head}<ofd:Res ${ns} BaseLoc="Res"><ofd:Fonts><ofd:Font ID="6919" FontName="楷体" FamilyName="楷体"/><ofd:Font ID="6925" FontName="Courier New" FamilyName="Courier New"/></ofd:Fonts></ofd:Res>\n`,
  'Doc_0/DocumentRes.xml': `${head}<ofd:Res ${ns} BaseLoc="Res"/>\n`,
  'Doc_0/Tags/CustomTags.xml': `${head}<ofd:CustomTags ${ns}><ofd:CustomTag TypeID="root"><ofd:FileLoc>CustomTag.xml</ofd:FileLoc></ofd:CustomTag></ofd:CustomTags>\n`,
  'Doc_0/Tags/CustomTag.xml':
    `${head}<ofd:root ${ns} version="1.0"><ofd:InvoiceNo>${ref(6922)}</ofd:InvoiceNo><ofd:IssueDate>${ref(6923)}</ofd:IssueDate>` +
    `<ofd:Buyer><ofd:BuyerName>${ref(6924)}</ofd:BuyerName><ofd:BuyerTaxID>${ref(6926)}</ofd:BuyerTaxID></ofd:Buyer>` +
    `<ofd:Seller><ofd:SellerName>${ref(6927)}</ofd:SellerName><ofd:SellerTaxID>${ref(6928)}</ofd:SellerTaxID></ofd:Seller>` +
    `<ofd:TaxExclusiveTotalAmount>${ref(6929, 6930)}</ofd:TaxExclusiveTotalAmount><ofd:TaxTotalAmount>${ref(6931, 6932)}</ofd:TaxTotalAmount>` +
    `<ofd:TaxInclusiveTotalAmount>${ref(6935, 6936)}</ofd:TaxInclusiveTotalAmount><ofd:InvoiceClerk>${ref(6937)}</ofd:InvoiceClerk><ofd:InvoiceClerk>${ref(6938)}</ofd:InvoiceClerk>` +
    `<ofd:Item>${ref(6939, 6940)}</ofd:Item><ofd:TaxScheme>${ref(6941)}</ofd:TaxScheme><ofd:Amount>${ref(6942)}</ofd:Amount><ofd:TaxAmount>${ref(6943)}</ofd:TaxAmount>` +
    `<ofd:Price>${ref(6944)}</ofd:Price><ofd:Quantity>${ref(6945)}</ofd:Quantity><ofd:Note>${ref(6946, 6947)}</ofd:Note></ofd:root>\n`,
  'Doc_0/Tpls/Tpl_0/Content.xml':
    `${head}<ofd:Page ${ns}>\n\t<ofd:Area>\n\t\t<ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox>\n\t</ofd:Area>\n\t<ofd:Content>\n\t<ofd:Layer ID="6">` +
    [
      text(24, '65 8 80 8', 6919, 6.35, '电子发票（增值税专用发票）'),
      text(25, '145 10.3 25 5', 6919, 3.175, '发票号码：'),
      text(26, '145 16.4 25 5', 6919, 3.175, '开票日期：'),
      text(27, '12 33.8 10 5', 6919, 3.175, '名称：'),
      text(28, '12 43.3 42 5', 6919, 3.175, '统一社会信用代码/纳税人识别号：'),
      text(29, '112 33.8 10 5', 6919, 3.175, '名称：'),
      text(30, '112 43.3 42 5', 6919, 3.175, '统一社会信用代码/纳税人识别号：'),
      text(31, '4.5 90.5 20 5', 6919, 3.175, '合计'),
      text(32, '4.5 96 40 7', 6919, 3.175, '价税合计（大写）'),
      text(33, '140 96 15 7', 6919, 3.175, '（小写）'),
      text(34, '10 129.1 20 4.7', 6919, 3.175, '开票人：'),
    ].join('') +
    `</ofd:Layer>\n\t</ofd:Content>\n</ofd:Page>\n`,
  'Doc_0/Pages/Page_0/Content.xml':
    `${head}<ofd:Page ${ns}>\n\t<ofd:Area>\n\t\t<ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox>\n\t</ofd:Area>\n\t<ofd:Template TemplateID="1" ZOrder="Background"/>\n\t<ofd:Content><ofd:Layer ID="6948">` +
    [
      text(6922, '170 10.3 38 5', 6919, 3.175, TAGGED.no),
      text(6923, '170 16.4 38 5', 6919, 3.175, TAGGED.day),
      text(6924, '20 33.8 84 10.8', 6919, 3.175, TAGGED.buyer.name, '0', '2.7273'),
      text(6926, '54 43.3 58 5.293', 6925, 4.2333, TAGGED.buyer.taxNumber, '0', '3.7726'),
      text(6927, '120 33.8 84 10.8', 6919, 3.175, TAGGED.seller.name, '0', '2.7273'),
      text(6928, '154.5 43.3 58 5.293', 6925, 4.2333, TAGGED.seller.taxNumber, '0', '3.7726'),
      text(6929, '127.5 90.5 26 5.293', 6925, 3.8806, '¥', '12.5591', '4.1288'),
      text(6930, '127.5 90.5 26 5.293', 6919, 3.175, yuan(TAGGED.amount), '14.8875', '4.1288'),
      text(6931, '179.5 90.5 26 5.293', 6925, 3.8806, '¥', '14.1466', '4.1288'),
      text(6932, '179.5 90.5 26 5.293', 6919, 3.175, yuan(TAGGED.tax), '16.475', '4.1288'),
      text(6934, '62.9471 96 82.5189 7.4102', 6919, 3.175, chineseCapital(total), '0', '4.8465'),
      text(6935, '155.5164 96.0681 48.665 7.6749', 6925, 3.8806, '¥', '0', '4.9221'),
      text(6936, '155.5164 96.0681 48.665 7.6749', 6919, 3.8806, yuan(total), '2.3284', '4.9221'),
      text(6937, '32.0025 129.1 150 4.7637', 6919, 3.175, TAGGED.clerk, '0', '3.5233'),
      text(6938, '32.1176 285.8599 150 5', 6919, 3.5278, TAGGED.clerk, '0', '3.7682'),
      text(6939, '4.5 56 36.5 4.5', 6919, 3.175, TAGGED.item[0], '0', '3.2571'),
      text(6940, '4.5 60.5 36.5 4.5', 6919, 3.175, TAGGED.item[1], '0', '3.2571'),
      text(6941, '154 56.1059 25 4.5', 6919, 3.175, TAGGED.rate ?? '6%', '10.9125', '3.3914'),
      text(6942, '127.5 56.1059 25.5 4.5', 6919, 3.175, yuan(TAGGED.amount), '14.3875', '3.3914'),
      text(6943, '179.5 56.1059 26 4.5', 6919, 3.175, yuan(TAGGED.tax), '16.475', '3.2567'),
      text(6944, '102.5 56.1059 25 4.5', 6919, 2.8222, TAGGED.price, '2.4224', '3.2646'),
      text(6945, '77.5 56.1059 25 4.5', 6919, 3.175, TAGGED.quantity ?? '1', '23.4125', '3.3914'),
      text(6946, '11.1083 104.5369 193 3.3', 6919, 3.175, TAGGED.remarkFirst ?? '    ', '0', '2.7273'),
      text(6947, '11.1083 107.8369 193 3.3', 6919, 3.175, TAGGED.note, '0', '2.7273'),
    ].join('') +
    `</ofd:Layer></ofd:Content></ofd:Page>\n`,
};
return files;
}

for (const [fileName, values] of [['invoice-sd-tagged.ofd', TAGGED], ['invoice-sd-red-tagged.ofd', RED]]) {
  const zip = new JSZip();
  const date = new Date('2025-04-07T06:00:00Z');
  for (const [name, data] of Object.entries(build(values))) zip.file(name, data, { date, createFolders: false });
  const out = path.join(server, 'test', 'fixtures', 'income', fileName);
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  await fs.writeFile(out, bytes);
  console.log(`${fileName}\t${(bytes.length / 1024).toFixed(1)} KB\t${yuan(values.amount)} + ${yuan(values.tax)} = ${yuan(values.amount + values.tax)}\tseller ${values.seller.taxNumber}`);
}
