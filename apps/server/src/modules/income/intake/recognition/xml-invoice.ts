/**
 * The fields of an invoice XML, field by field. Two layouts are read:
 * - the tax bureau's 数电 XML: EInvoice/Header/EIid and InherentLabel/GeneralOrSpecialVAT/LabelCode
 *   (01 专票, 02 普票) or InherentLabel/EInvoiceType (its code or name: the rail and air tickets), EInvoiceData/SellerInformation/SellerIdNum and SellerName, BuyerInformation
 *   likewise, BasicInformation/TotalAmWithoutTax, TotalTaxAm, TotalTax-includedAmount (and
 *   RequestTime), IssuItemInformation lines (a discount line has a negative Amount), TaxSupervisionInfo/InvoiceNumber
 *   and IssueTime, and on a red invoice SpecificInformation/RedEInvoice/OriginalInvoiceCode (the blue invoice); a
 *   数电 toll invoice has no InherentLabel and is named by its 通行费 lines (kinds.ts tollKind);
 * - the platform's own simulator XML (integrations/tax/simulator/xml.ts): EInvoice/Header/InvoiceNumber,
 *   InvoiceCode, IssueTime, InvoiceKind, Seller and Buyer Name/TaxNumber, Items/Item, Total.
 */
import { blueNumberInRemark } from '@zhyy/shared';
import { isTollLine, kindOfTitle, kindOfTypeCode, tollKind } from './kinds.js';
import type { FieldValues, RecognisedLine } from './types.js';
import { day, digits, money, plain, rate, taxNo } from './values.js';
import { child, descendants, textAt, type XmlNode } from './xml-tree.js';

export interface XmlInvoice {
  fields: FieldValues;
  lines: RecognisedLine[];
}

/** The simulator's kind numbers (1 paper 普票, 2 paper 专票, 9 数电专, 10 数电普) as the tax service's codes. */
const SIMULATOR_KINDS: Record<string, string> = { '1': '04', '2': '01', '9': '81', '10': '82' };

function put(fields: FieldValues, name: keyof FieldValues, value: string | null | undefined): void {
  if (value) fields[name] = value;
}

/**
 * The kind of a 数电 XML: its type (InherentLabel/EInvoiceType code or name) when that names a ticket
 * (铁路电子客票, 航空运输电子客票行程单, codes 51/61) or a kind the pool knows, else 专/普 from
 * GeneralOrSpecialVAT (01 → 81, 02 → 82).
 */
function digitalKind(header: XmlNode | undefined): string | undefined {
  const type = child(header, 'InherentLabel/EInvoiceType');
  const typed = kindOfTypeCode(textAt(type, 'EInvoiceTypeCode')) ?? kindOfTitle(textAt(type, 'EInvoiceTypeName') ?? '');
  if (typed) return typed;
  const label = child(header, 'InherentLabel/GeneralOrSpecialVAT');
  const code = textAt(label, 'LabelCode');
  if (code === '01') return '81';
  if (code === '02') return '82';
  const name = textAt(label, 'LabelName') ?? '';
  if (name.includes('专用')) return '81';
  if (name.includes('普通')) return '82';
  return undefined;
}

function readDigital(root: XmlNode): XmlInvoice {
  const fields: FieldValues = {};
  const header = child(root, 'Header');
  const data = child(root, 'EInvoiceData');
  const basic = child(data, 'BasicInformation');
  put(fields, 'invoiceNo', digits(textAt(root, 'TaxSupervisionInfo/InvoiceNumber') ?? textAt(header, 'EIid'), 20, 8));
  put(fields, 'issueDate', day(textAt(root, 'TaxSupervisionInfo/IssueTime') ?? textAt(basic, 'RequestTime')));
  put(fields, 'sellerName', plain(textAt(data, 'SellerInformation/SellerName')));
  put(fields, 'sellerTaxNo', taxNo(textAt(data, 'SellerInformation/SellerIdNum')));
  put(fields, 'buyerName', plain(textAt(data, 'BuyerInformation/BuyerName')));
  put(fields, 'buyerTaxNo', taxNo(textAt(data, 'BuyerInformation/BuyerIdNum')));
  put(fields, 'amount', money(textAt(basic, 'TotalAmWithoutTax')));
  put(fields, 'tax', money(textAt(basic, 'TotalTaxAm')));
  put(fields, 'total', money(textAt(basic, 'TotalTax-includedAmount')));
  // A red invoice (红字发票) names the blue one it reverses: SpecificInformation/RedEInvoice/OriginalInvoiceCode,
  // also printed in the remark (被红冲蓝字数电票号码：…); docs/income.md "Discount lines and red invoices received".
  const red = textAt(data, 'SpecificInformation/RedEInvoice/OriginalInvoiceCode');
  put(fields, 'blueInvoiceNo', digits(red, 20, 8) ?? (blueNumberInRemark(textAt(data, 'AdditionalInformation/Remark') ?? '') || undefined));
  const lines = (data ? data.children.filter((c) => c.name === 'IssuItemInformation') : []).map((l) => ({
    name: textAt(l, 'ItemName') ?? '',
    spec: textAt(l, 'SpecMod') ?? '',
    unit: textAt(l, 'MeaUnits') ?? '',
    quantity: textAt(l, 'Quantity') ?? '',
    unitPrice: textAt(l, 'UnPrice') ?? '',
    amount: money(textAt(l, 'Amount')) ?? '',
    taxRate: rate(textAt(l, 'TaxRate')),
    tax: money(textAt(l, 'ComTaxAm')) ?? '',
  }));
  // A 数电 toll invoice has no InherentLabel: its 通行费 lines name it (kinds.ts tollKind).
  put(fields, 'kindCode', tollKind(digitalKind(header), fields.invoiceNo, lines.length > 0 && lines.every((l) => isTollLine(l.name))));
  return { fields, lines };
}

function readSimulator(root: XmlNode): XmlInvoice {
  const fields: FieldValues = {};
  const header = child(root, 'Header');
  put(fields, 'kindCode', SIMULATOR_KINDS[textAt(header, 'InvoiceKind') ?? '']);
  put(fields, 'invoiceNo', digits(textAt(header, 'InvoiceNumber'), 20, 8));
  put(fields, 'invoiceCode', digits(textAt(header, 'InvoiceCode'), 10, 12));
  put(fields, 'issueDate', day(textAt(header, 'IssueTime')));
  put(fields, 'sellerName', plain(textAt(root, 'Seller/Name')));
  put(fields, 'sellerTaxNo', taxNo(textAt(root, 'Seller/TaxNumber')));
  put(fields, 'buyerName', plain(textAt(root, 'Buyer/Name')));
  put(fields, 'buyerTaxNo', taxNo(textAt(root, 'Buyer/TaxNumber')));
  put(fields, 'amount', money(textAt(root, 'Total/Amount')));
  put(fields, 'tax', money(textAt(root, 'Total/TaxAmount')));
  put(fields, 'total', money(textAt(root, 'Total/AmountWithTax')));
  const items = child(root, 'Items');
  const lines = (items ? descendants(items, 'Item') : []).map((l) => ({
    name: textAt(l, 'ItemName') ?? '',
    spec: textAt(l, 'Spec') ?? '',
    unit: textAt(l, 'Unit') ?? '',
    quantity: textAt(l, 'Quantity') ?? '',
    unitPrice: textAt(l, 'UnitPrice') ?? '',
    amount: money(textAt(l, 'Amount')) ?? '',
    taxRate: rate(textAt(l, 'TaxRate')),
    tax: money(textAt(l, 'TaxAmount')) ?? '',
  }));
  return { fields, lines };
}

/** The invoice in an XML tree, or null when the root is not an invoice (EInvoice). */
export function readInvoiceXml(root: XmlNode): XmlInvoice | null {
  if (root.name !== 'EInvoice') return null;
  if (child(root, 'EInvoiceData') || child(root, 'TaxSupervisionInfo')) return readDigital(root);
  if (child(root, 'Header/InvoiceNumber')) return readSimulator(root);
  return null;
}
