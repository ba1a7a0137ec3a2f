/**
 * The text of the QR code printed on every Chinese VAT invoice (DOMAIN.md):
 * `01,{kind},{code},{number},{amount},{yyyyMMdd},{check code},{hash}` — 数电: code empty, number 20
 * digits. Kind 31/32, which 数电 invoices print for 专/普, is read as 81/82 (the codes the pool uses).
 * The amount is the total including tax on a 数电 invoice and the amount excluding tax (合计金额) on
 * the others, the figure each kind is verified (查验) with.
 */
import { isDigitalKind, type FieldValues } from './types.js';
import { day, digits, money } from './values.js';

const PRINTED_DIGITAL: Record<string, string> = { '31': '81', '32': '82' };

/** The fields the QR text carries, or null when it is not an invoice QR. */
export function readInvoiceQr(payload: string): FieldValues | null {
  const parts = payload.trim().split(',').map((p) => p.trim());
  if (parts.length < 7 || parts[0] !== '01') return null;
  const [, rawKind = '', rawCode = '', rawNo = '', rawAmount = '', rawDate = '', rawCheck = ''] = parts;
  if (!/^\d{2}$/.test(rawKind)) return null;
  const kindCode = PRINTED_DIGITAL[rawKind] ?? rawKind;
  const invoiceNo = digits(rawNo, 8, 20);
  const amount = money(rawAmount);
  const issueDate = /^\d{8}$/.test(rawDate) ? day(rawDate) : null;
  if (!invoiceNo || !amount || !issueDate) return null;
  if (rawCode !== '' && !digits(rawCode, 10, 12)) return null;
  const fields: FieldValues = { kindCode, invoiceNo, issueDate };
  if (rawCode) fields.invoiceCode = rawCode;
  fields[isDigitalKind(kindCode) ? 'total' : 'amount'] = amount;
  const check = rawCheck.replace(/\s/g, '');
  if (/^\d{20}$/.test(check)) fields.checkCode = check;
  return fields;
}
