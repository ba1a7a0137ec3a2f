/**
 * The pool's identity of an incoming invoice (issue 13): its 20-digit 数电 number when there is one,
 * else 发票代码 + 发票号码 (tickets and other documents: their number alone, with the code when printed).
 */
import { CODED_INCOME_KINDS, DIGITAL_INCOME_KINDS, type IncomeKindCode } from '@zhyy/shared';
import { refuse } from '../../../platform/envelope.js';

export interface KeyParts {
  kind: string;
  invoiceCode: string;
  invoiceNo: string;
  digitalNo: string;
}

/** The identity key, or a refusal naming what is missing or malformed. */
export function identityKey(p: KeyParts): string {
  const digital = p.digitalNo.trim();
  const code = p.invoiceCode.trim();
  const no = p.invoiceNo.trim();
  if (digital) {
    if (!/^\d{20}$/.test(digital)) throw refuse('数电发票号码须为20位数字');
    return `D:${digital}`;
  }
  if (DIGITAL_INCOME_KINDS.includes(p.kind as IncomeKindCode)) throw refuse('数电发票须填写20位数电发票号码');
  if (CODED_INCOME_KINDS.includes(p.kind as IncomeKindCode)) {
    if (!code || !no) throw refuse('请填写数电发票号码，或发票代码和发票号码');
    if (!/^(\d{10}|\d{12})$/.test(code)) throw refuse('发票代码须为10位或12位数字');
    if (!/^\d{8}$/.test(no)) throw refuse('发票号码须为8位数字');
  } else if (!no) {
    throw refuse('请填写票据号码');
  } else if (!/^[0-9A-Za-z-]{1,40}$/.test(no) || (code && !/^[0-9A-Za-z]{1,20}$/.test(code))) {
    throw refuse('票据号码只能包含字母、数字和短横线');
  }
  return `C:${code}:${no}`;
}

/** The number people read for an invoice: 数电 number, else code + number. */
export const displayNo = (r: { invoice_code: string; invoice_no: string; digital_no: string }) => r.digital_no || (r.invoice_code ? `${r.invoice_code} ${r.invoice_no}` : r.invoice_no);
