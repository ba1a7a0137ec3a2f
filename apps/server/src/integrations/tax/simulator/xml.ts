/** The simulator's XML rendition of an issued invoice (the structured data beside the PDF). */
import { fenToYuan } from '../money.js';
import type { TaxInvoiceRequest } from '../types.js';

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const el = (name: string, value: string | number | undefined | null) => (value === undefined || value === null || value === '' ? '' : `<${name}>${esc(String(value))}</${name}>`);

export function renderInvoiceXml(req: TaxInvoiceRequest, nums: { invoiceNo: string; invoiceCode: string | null; issuedAt: string }): string {
  const excl = req.lines.reduce((s, l) => s + l.amountExcludingTax, 0);
  const tax = req.lines.reduce((s, l) => s + l.tax, 0);
  const lines = req.lines
    .map(
      (l, i) =>
        `<Item>${el('LineNo', i + 1)}${el('ItemName', l.goodsName)}${el('TaxClassificationCode', l.taxCode)}${el('Spec', l.spec)}${el('Unit', l.unit)}` +
        `${el('Quantity', l.quantity)}${el('UnitPrice', l.unitPrice)}${el('Amount', fenToYuan(l.amountExcludingTax))}${el('TaxRate', l.taxRate)}${el('TaxAmount', fenToYuan(l.tax))}</Item>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<EInvoice><Header>${el('InvoiceNumber', nums.invoiceNo)}${el('InvoiceCode', nums.invoiceCode)}${el('IssueTime', nums.issuedAt)}` +
    `${el('InvoiceKind', req.kind)}${el('Colour', req.colour)}${el('OrderNo', req.orderNo)}</Header>` +
    `<Seller>${el('Name', req.seller.name)}${el('TaxNumber', req.seller.taxNumber)}</Seller><Buyer>${el('Name', req.buyer.name)}${el('TaxNumber', req.buyer.taxNumber)}</Buyer>` +
    `<Items>${lines}</Items><Total>${el('Amount', fenToYuan(excl))}${el('TaxAmount', fenToYuan(tax))}${el('AmountWithTax', fenToYuan(excl + tax))}</Total>` +
    `${el('Remark', req.remark)}${el('Drawer', req.clerk)}${el('BlueInvoiceNumber', req.blueInvoiceNo)}</EInvoice>\n`
  );
}
