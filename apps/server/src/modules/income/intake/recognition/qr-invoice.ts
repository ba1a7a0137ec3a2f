/**
 * The text of the QR code printed on every Chinese VAT invoice (DOMAIN.md):
 * `01,{kind},{code},{number},{amount},{yyyyMMdd},{check code},{hash}` — 数电: code empty, number 20
 * digits. The kind is the pool's (kinds.ts `kindOfQrCode`): 31/32, which 数电 invoices print for
 * 专/普, are 81/82, or 85/86 with an invoice code (数电纸质), and a 32 whose number has 8 as its fifth
 * digit is a 数电 air itinerary ('air'); 51 is the rail e-ticket ('rail'), 61 the air itinerary. Example
 * of a rail ticket: `01,51,,26339132621000219582,56.00,20260423,,219a` — 56.00 is the ticket's total.
 * The amount is the total including tax on 数电 invoices and tickets and the amount excluding tax
 * (合计金额) on the others, the figure each kind is verified (查验) with. Layout as public parsers read
 * it (docs/income-recognition.md names them).
 */
import { kindOfQrCode, qrAmountIsTotal } from './kinds.js';
import type { FieldValues } from './types.js';
import { day, digits, money } from './values.js';

/** The fields the QR text carries, or null when it is not an invoice QR. */
export function readInvoiceQr(payload: string): FieldValues | null {
  const parts = payload.trim().split(',').map((p) => p.trim());
  if (parts.length < 7 || parts[0] !== '01') return null;
  const [, rawKind = '', rawCode = '', rawNo = '', rawAmount = '', rawDate = '', rawCheck = ''] = parts;
  if (!/^\d{2}$/.test(rawKind)) return null;
  const invoiceNo = digits(rawNo, 8, 20);
  const amount = money(rawAmount);
  const issueDate = /^\d{8}$/.test(rawDate) ? day(rawDate) : null;
  if (!invoiceNo || !amount || !issueDate) return null;
  if (rawCode !== '' && !digits(rawCode, 10, 12)) return null;
  const kindCode = kindOfQrCode(rawKind, invoiceNo, rawCode);
  const fields: FieldValues = { kindCode, invoiceNo, issueDate };
  if (rawCode) fields.invoiceCode = rawCode;
  fields[qrAmountIsTotal(kindCode) ? 'total' : 'amount'] = amount;
  const check = rawCheck.replace(/\s/g, '');
  if (/^\d{20}$/.test(check)) fields.checkCode = check;
  return fields;
}
