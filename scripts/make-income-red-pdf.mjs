#!/usr/bin/env node
/**
 * Writes apps/server/test/fixtures/income/invoice-sd-red.pdf (issue 29): a red 数电专票 received, in the platform's
 * invoice PDF layout (the simulator's renderer, as invoice-sd.pdf), that partly reverses invoice-sd-blue.xml:
 * −500.00 + −45.00 = −545.00 at 9 %, its 备注 in the words a red 数电 invoice prints —
 * "被红冲蓝字数电发票号码：<the blue invoice's 20 digits> 红字发票信息确认单编号：<the confirmation's number>" (the public
 * samples of that remark are named in docs/income-recognition.md "Red invoices: the blue number from PDF and OFD").
 *   npx tsx --conditions=source scripts/make-income-red-pdf.mjs
 * Fictitious companies (those of invoice-sd-blue.xml); the same bytes on every run. No QR code is stamped: what a
 * red invoice's QR carries was not found in a public source, and the blue number is read from the 备注 only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderInvoicePdf } from '../apps/server/src/integrations/tax/pdf/render.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'apps', 'server', 'test', 'fixtures', 'income', 'invoice-sd-red.pdf');

const RED = {
  no: '25322000000104869971',
  issuedAt: '2025-06-21 09:42:10',
  blueNo: '25322000000104862417',
  confirmNo: '32010525062100158836',
};
const req = {
  orderNo: 'SAMPLE-INCOME-RED-1', kind: 9, colour: 1, specialFactor: 0, clerk: '王芳',
  remark: `被红冲蓝字数电发票号码：${RED.blueNo} 红字发票信息确认单编号：${RED.confirmNo}`,
  buyer: { name: '华建工程技术服务有限公司', taxNumber: '91320100MA1HJGC7XE' },
  seller: { name: '南京筑诚劳务工程有限公司', taxNumber: '91320105MA2B7LQ3K6', address: '南京市建邺区江东中路201号', phone: '025-86603127' },
  lines: [{ goodsName: '*建筑服务*劳务分包', taxCode: '3050100000000000000', spec: '', unit: '项', quantity: '-1', unitPrice: '500', amountExcludingTax: -50000, tax: -4500, amountIncludingTax: -54500, priceIncludesTax: false, taxRate: '0.09', lineProperty: 0, policyFlag: 'none' }],
};
const bytes = await renderInvoicePdf(req, { invoiceNo: RED.no, invoiceCode: null, issuedAt: RED.issuedAt });
await fs.writeFile(out, bytes);
console.log(`invoice-sd-red.pdf\t${(bytes.length / 1024).toFixed(1)} KB\t-500.00 + -45.00 = -545.00\tblue ${RED.blueNo}`);
