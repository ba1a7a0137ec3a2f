#!/usr/bin/env node
/**
 * Regenerates the sample invoice files of issue 13 (upload and recognition) in
 * apps/server/test/fixtures/income/, for the docs and the tests:
 *   npx tsx --conditions=source scripts/make-income-samples.mjs
 * (tsx reads the TypeScript sources: the simulator's PDF renderer and the shared GB 32100 rule).
 * Every figure is consistent: amount + tax = total, the tax numbers pass GB 32100, and each QR code
 * carries `01,{kind},{code},{number},{amount},{yyyyMMdd},{check code},{hash}` (DOMAIN.md) —
 * except invoice-qr-mismatch.pdf, whose QR amount deliberately disagrees with its text.
 * The output is the same on every run (fixed dates, no random values).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { creditCodeCheckChar } from '../packages/shared/src/invoice-rules.ts';
import { renderInvoicePdf } from '../apps/server/src/integrations/tax/pdf/render.ts';
import { subsetFor } from '../apps/server/src/integrations/tax/pdf/font.ts';
import { chineseCapital } from '../apps/server/src/integrations/tax/money.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, '..', 'apps', 'server');
const require = createRequire(path.join(server, 'package.json'));
const QRCode = require('qrcode');
const { PNG } = require('pngjs');
const jpeg = require('jpeg-js');
const JSZip = require('jszip');
const { PDFDocument, rgb } = require('pdf-lib');
const fontkit = require('@pdf-lib/fontkit');

const OUT = path.join(server, 'test', 'fixtures', 'income');
const creditCode = (first17) => `${first17}${creditCodeCheckChar(first17)}`;
const yuan = (fen) => (fen / 100).toFixed(2);
const qrHash = (s) => createHash('sha256').update(s).digest('hex').slice(0, 4).toUpperCase();
const qrText = (kind, code, no, amountFen, day, check) => {
  const head = `01,${kind},${code},${no},${yuan(amountFen)},${day.replaceAll('-', '')},${check}`;
  return `${head},${qrHash(head)}`;
};
const qrPng = (text, scale = 4) => QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 2, scale });

const BUYER = { name: '华建工程技术服务有限公司', taxNumber: creditCode('91320100MA1HJGC7X') };

// ------------------------------------------------------------------ sample 1: a 数电 普通发票
const SD = {
  no: '25322000000104857316',
  issuedAt: '2025-03-18 10:26:41',
  seller: { name: '南京恒信建材贸易有限公司', taxNumber: creditCode('91320106MA1R8TL5D'), address: '南京市秦淮区中华路88号', phone: '025-52261873' },
  lines: [
    { goodsName: '*水泥*普通硅酸盐水泥', taxCode: '1080102010000000000', spec: 'P.O42.5', unit: '吨', quantity: '20', unitPrice: '450', amountExcludingTax: 900000, tax: 117000 },
    { goodsName: '*钢材*热轧带肋钢筋', taxCode: '1080204010000000000', spec: 'HRB400 Φ16', unit: '吨', quantity: '1.5', unitPrice: '3980', amountExcludingTax: 597000, tax: 77610 },
  ],
};
const sdExcl = SD.lines.reduce((s, l) => s + l.amountExcludingTax, 0);
const sdTax = SD.lines.reduce((s, l) => s + l.tax, 0);
const sdTotal = sdExcl + sdTax;
const sdQr = qrText('82', '', SD.no, sdTotal, SD.issuedAt.slice(0, 10), '');

function digitalXml() {
  const item = (l) =>
    `    <IssuItemInformation><ItemName>${l.goodsName}</ItemName><SpecMod>${l.spec}</SpecMod><MeaUnits>${l.unit}</MeaUnits><Quantity>${l.quantity}</Quantity>` +
    `<UnPrice>${l.unitPrice}</UnPrice><Amount>${yuan(l.amountExcludingTax)}</Amount><TaxRate>0.13</TaxRate><ComTaxAm>${yuan(l.tax)}</ComTaxAm>` +
    `<TotaltaxIncludedAmount>${yuan(l.amountExcludingTax + l.tax)}</TotaltaxIncludedAmount><TaxClassificationCode>${l.taxCode}</TaxClassificationCode></IssuItemInformation>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<EInvoice>
  <Header>
    <EIid>${SD.no}</EIid>
    <EInvoiceTag>SWEI3200</EInvoiceTag>
    <Version>0.31</Version>
    <InherentLabel><GeneralOrSpecialVAT><LabelCode>02</LabelCode><LabelName>普通发票</LabelName></GeneralOrSpecialVAT></InherentLabel>
  </Header>
  <EInvoiceData>
    <SellerInformation><SellerIdNum>${SD.seller.taxNumber}</SellerIdNum><SellerName>${SD.seller.name}</SellerName><SellerAddr>${SD.seller.address}</SellerAddr><SellerTelNum>${SD.seller.phone}</SellerTelNum></SellerInformation>
    <BuyerInformation><BuyerIdNum>${BUYER.taxNumber}</BuyerIdNum><BuyerName>${BUYER.name}</BuyerName></BuyerInformation>
    <BasicInformation><TotalAmWithoutTax>${yuan(sdExcl)}</TotalAmWithoutTax><TotalTaxAm>${yuan(sdTax)}</TotalTaxAm><TotalTax-includedAmount>${yuan(sdTotal)}</TotalTax-includedAmount><TotalTax-includedAmountInChinese>${chineseCapital(sdTotal)}</TotalTax-includedAmountInChinese><Drawer>李梅</Drawer><RequestTime>${SD.issuedAt}</RequestTime></BasicInformation>
${SD.lines.map(item).join('')}    <AdditionalInformation><Remark>项目：南京江北新区综合管廊二期</Remark></AdditionalInformation>
  </EInvoiceData>
  <TaxSupervisionInfo><InvoiceNumber>${SD.no}</InvoiceNumber><IssueTime>${SD.issuedAt}</IssueTime><TaxBureauCode>13200000000</TaxBureauCode><TaxBureauName>国家税务总局江苏省税务局</TaxBureauName></TaxSupervisionInfo>
</EInvoice>
`;
}

/** The simulator's layout of the same invoice with the QR code stamped top left as a PNG image. */
async function digitalPdf() {
  const req = {
    orderNo: 'SAMPLE-INCOME-1', kind: 10, colour: 1, specialFactor: 0, clerk: '李梅', remark: '项目：南京江北新区综合管廊二期',
    buyer: BUYER, seller: SD.seller,
    lines: SD.lines.map((l) => ({ ...l, priceIncludesTax: false, taxRate: '0.13', amountIncludingTax: l.amountExcludingTax + l.tax, lineProperty: 0, policyFlag: 'none' })),
  };
  const base = await renderInvoicePdf(req, { invoiceNo: SD.no, invoiceCode: null, issuedAt: SD.issuedAt });
  const doc = await PDFDocument.load(base, { updateMetadata: false });
  const img = await doc.embedPng(await qrPng(sdQr, 2));
  doc.getPage(0).drawImage(img, { x: 40, y: 595 - 36 - 66, width: 62, height: 62 });
  return doc.save();
}

// ------------------------------------------------------------------ sample 2: an 增值税电子普通发票 (税控, with code and 校验码)
const VAT = {
  code: '032002300111', no: '05836271', day: '2024-11-05', check: '61853290447316285590',
  seller: { name: '苏州衡石工程咨询有限公司', taxNumber: creditCode('91320594MA1P6WKD3') },
  line: { name: '*咨询服务*工程造价咨询服务', amount: 200000, rate: '6%', tax: 12000 },
};
const vatTotal = VAT.line.amount + VAT.line.tax;
const vatQr = qrText('10', VAT.code, VAT.no, VAT.line.amount, VAT.day, VAT.check);
const fmt = (fen) => yuan(fen);

/** The older 税控 e-invoice layout: labels with spaces, 纳税人识别号, 校验码 in groups of five. */
async function vatPdf(qrAmountFen) {
  const [y, m, d] = VAT.day.split('-');
  const checkSpaced = VAT.check.replace(/(\d{5})(?=\d)/g, '$1 ');
  const rows = [
    [170, 560, 18, '增值税电子普通发票'],
    [560, 560, 10, `发票代码：${VAT.code}`],
    [560, 545, 10, `发票号码：${VAT.no}`],
    [560, 530, 10, `开票日期：${y}年${m}月${d}日`],
    [560, 515, 10, `校 验 码：${checkSpaced}`],
    [40, 470, 10, '购买方'],
    [90, 478, 10, `名        称：${BUYER.name}`],
    [90, 462, 10, `纳税人识别号：${BUYER.taxNumber}`],
    [40, 430, 9, '项目名称'], [250, 430, 9, '规格型号'], [330, 430, 9, '单位'], [380, 430, 9, '数量'], [440, 430, 9, '单价'], [520, 430, 9, '金额'], [600, 430, 9, '税率'], [660, 430, 9, '税额'],
    [40, 412, 9, VAT.line.name], [380, 412, 9, '1'], [440, 412, 9, fmt(VAT.line.amount)], [520, 412, 9, fmt(VAT.line.amount)], [600, 412, 9, VAT.line.rate], [660, 412, 9, fmt(VAT.line.tax)],
    [40, 380, 10, '合      计'], [520, 380, 10, `¥${fmt(VAT.line.amount)}`], [660, 380, 10, `¥${fmt(VAT.line.tax)}`],
    [40, 360, 10, '价税合计（大写）'], [150, 360, 10, `⊗${chineseCapital(vatTotal)}`], [520, 360, 10, `（小写）¥${fmt(vatTotal)}`],
    [40, 320, 10, '销售方'],
    [90, 328, 10, `名        称：${VAT.seller.name}`],
    [90, 312, 10, `纳税人识别号：${VAT.seller.taxNumber}`],
    [40, 280, 10, '收款人：王芳    复核：陈刚    开票人：周丽'],
  ];
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await subsetFor(rows.map((r) => r[3]).join('')), { subset: false });
  const page = doc.addPage([842, 595]);
  for (const [x, yy, size, text] of rows) page.drawText(text, { x, y: yy, size, font, color: rgb(0.1, 0.1, 0.1) });
  const qr = qrText('10', VAT.code, VAT.no, qrAmountFen, VAT.day, VAT.check);
  const img = await doc.embedPng(await qrPng(qr, 3));
  page.drawImage(img, { x: 40, y: 500, width: 80, height: 80 });
  return doc.save();
}

/** The QR of sample 2 as a JPEG, the way a phone photo or a scan arrives. */
async function vatJpeg() {
  const png = PNG.sync.read(await qrPng(vatQr, 6));
  return jpeg.encode({ data: png.data, width: png.width, height: png.height }, 90).data;
}

/** An OFD package of sample 1: OFD.xml with the invoice's CustomDatas, one page, and the QR as a resource image. */
async function digitalOfd() {
  const ns = 'xmlns:ofd="http://www.ofdspec.org/2016"';
  const custom = [
    ['发票号码', SD.no], ['开票日期', `${SD.issuedAt.slice(0, 4)}年${SD.issuedAt.slice(5, 7)}月${SD.issuedAt.slice(8, 10)}日`],
    ['合计金额', yuan(sdExcl)], ['合计税额', yuan(sdTax)], ['价税合计', yuan(sdTotal)],
    ['购买方名称', BUYER.name], ['购买方纳税人识别号', BUYER.taxNumber], ['销售方名称', SD.seller.name], ['销售方纳税人识别号', SD.seller.taxNumber],
  ];
  const files = {
    'OFD.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<ofd:OFD ${ns} DocType="OFD" Version="1.1"><ofd:DocBody><ofd:DocInfo><ofd:DocID>${SD.no}</ofd:DocID><ofd:CreationDate>${SD.issuedAt.slice(0, 10)}</ofd:CreationDate><ofd:CustomDatas>${custom.map(([k, v]) => `<ofd:CustomData Name="${k}">${v}</ofd:CustomData>`).join('')}</ofd:CustomDatas></ofd:DocInfo><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>\n`,
    'Doc_0/Document.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<ofd:Document ${ns}><ofd:CommonData><ofd:MaxUnitID>10</ofd:MaxUnitID><ofd:PageArea><ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox></ofd:PageArea><ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes></ofd:CommonData><ofd:Pages><ofd:Page ID="1" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages></ofd:Document>\n`,
    'Doc_0/DocumentRes.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<ofd:Res ${ns} BaseLoc="Res"><ofd:MultiMedias><ofd:MultiMedia ID="5" Type="Image"><ofd:MediaFile>qrcode.png</ofd:MediaFile></ofd:MultiMedia></ofd:MultiMedias></ofd:Res>\n`,
    'Doc_0/Pages/Page_0/Content.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<ofd:Page ${ns}><ofd:Content><ofd:Layer ID="2"><ofd:ImageObject ID="6" Boundary="5 5 20 20" CTM="20 0 0 20 0 0" ResourceID="5"/></ofd:Layer></ofd:Content></ofd:Page>\n`,
    'Doc_0/Res/qrcode.png': await qrPng(sdQr, 4),
  };
  const zip = new JSZip();
  const date = new Date('2025-03-18T02:26:41Z');
  for (const [name, data] of Object.entries(files)) zip.file(name, data, { date, createFolders: false });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

await fs.mkdir(OUT, { recursive: true });
const write = async (name, data) => {
  await fs.writeFile(path.join(OUT, name), data);
  console.log(`${name}\t${(data.length / 1024).toFixed(1)} KB`);
};
await write('invoice-sd.xml', digitalXml());
await write('invoice-sd.pdf', await digitalPdf());
await write('invoice-sd-qr.png', await qrPng(sdQr, 4));
await write('invoice-sd.ofd', await digitalOfd());
await write('invoice-vat.pdf', await vatPdf(VAT.line.amount));
await write('invoice-vat-qr.jpg', await vatJpeg());
await write('invoice-qr-mismatch.pdf', await vatPdf(VAT.line.amount + 10000));
await write(
  'README.md',
  `# Sample invoice files (issue 13)\n\nMade by \`npx tsx --conditions=source scripts/make-income-samples.mjs\`; fictitious companies, consistent figures.\n\n` +
    `| file | what | QR text |\n| --- | --- | --- |\n` +
    `| invoice-sd.xml | 数电普票 in the tax bureau's XML layout, 2 lines, ${yuan(sdExcl)} + ${yuan(sdTax)} = ${yuan(sdTotal)} | |\n` +
    `| invoice-sd.pdf | the same invoice in the platform's invoice PDF layout, QR embedded as a PNG image | \`${sdQr}\` |\n` +
    `| invoice-sd-qr.png | the QR code of that invoice alone | \`${sdQr}\` |\n` +
    `| invoice-sd.ofd | the same invoice as OFD: CustomDatas in OFD.xml, the QR as a resource image | \`${sdQr}\` |\n` +
    `| invoice-vat.pdf | 增值税电子普通发票 (税控 layout: 发票代码, 校验码, 纳税人识别号), ${yuan(VAT.line.amount)} + ${yuan(VAT.line.tax)} = ${yuan(vatTotal)} | \`${vatQr}\` |\n` +
    `| invoice-vat-qr.jpg | the QR code of invoice-vat.pdf as a JPEG | \`${vatQr}\` |\n` +
    `| invoice-qr-mismatch.pdf | invoice-vat.pdf whose QR says ${yuan(VAT.line.amount + 10000)} while the text says ${yuan(VAT.line.amount)} | |\n`,
);
