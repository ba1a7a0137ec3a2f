/**
 * One set of rules for contact and payment details, used by the server's schemas and the web's
 * forms alike (users, 个人设置, buyers, the seller's settings, an invoice's buyer, delivery):
 * telephone, mobile, bank account, email and tax number, each with a Chinese message naming the
 * field. Each field may be left empty; what is typed must be plausible.
 */
import { z } from './zod-locale.js';
import { hasControlChar } from './api/common.js';
import { taxNumberProblem } from './invoice-rules.js';

/** A mainland mobile number: 11 digits, 13x to 19x (+86 allowed in front). */
export const MOBILE_NUMBER_RE = /^(?:\+?86[ -]?)?1[3-9]\d{9}$/;
/**
 * A telephone: a mobile number, a landline with its area code (025-86651234, 0512 6878 1234, with an
 * extension -801 or 转801), or a 400/800 service number. 12345, abc and 123 are not.
 */
const LANDLINE_RE = /^(?:\+?86[ -]?)?(?:\(0\d{2,3}\)|0\d{2,3})[ -]?[2-9]\d{2,3}[ -]?\d{4}(?:(?:-|转|[ ]?ext\.?[ ]?)\d{1,6})?$/i;
const SERVICE_RE = /^[48]00[ -]?\d{3}[ -]?\d{4}$/;
/** A bank account: 8 to 32 digits, groups separated by single spaces or hyphens allowed. */
const BANK_ACCOUNT_RE = /^\d(?:[ -]?\d){7,31}$/;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

/** An 11-digit mobile number as typed into a form (without +86). */
export const MOBILE_RE = /^1[3-9]\d{9}$/;

export const isMobileNumber = (v: string): boolean => MOBILE_NUMBER_RE.test(v.trim());
export const isPhoneNumber = (v: string): boolean => {
  const s = v.trim();
  return MOBILE_NUMBER_RE.test(s) || LANDLINE_RE.test(s) || SERVICE_RE.test(s);
};
export const isBankAccount = (v: string): boolean => BANK_ACCOUNT_RE.test(v.trim());
export const isEmailAddress = (v: string): boolean => EMAIL_RE.test(v.trim());

export const ContactMessages = {
  phone: (label: string) => `${label}格式不正确，应为手机号或带区号的固定电话（如 025-86651234）`,
  mobile: (label: string) => `${label}须为11位手机号码`,
  bankAccount: (label: string) => `${label}须为8至32位数字`,
  email: (label: string) => `${label}格式不正确`,
  tooLong: (label: string, max: number) => `${label}不能超过${max}个字符`,
} as const;

/** The problem with a value for one kind of field, or null (empty is fine: the field is optional). */
export type ContactKind = 'phone' | 'mobile' | 'bankAccount' | 'email' | 'taxNo';
const CHECKS: Record<Exclude<ContactKind, 'taxNo'>, (v: string) => boolean> = {
  phone: isPhoneNumber,
  mobile: isMobileNumber,
  bankAccount: isBankAccount,
  email: isEmailAddress,
};

export function contactProblem(kind: ContactKind, value: string, label: string): string | null {
  const v = value.trim();
  if (v === '') return null;
  if (kind === 'taxNo') {
    const p = taxNumberProblem(v);
    return p ? p.replace(/^税号/, label) : null;
  }
  return CHECKS[kind](v) ? null : ContactMessages[kind](label);
}

/** An optional contact field: trimmed text, '' or a value that passes its rule and fits max. */
export const contactField = (kind: Exclude<ContactKind, 'taxNo'>, label: string, max: number) =>
  z
    .string({ error: `${label}格式不正确` })
    .trim()
    .max(max, ContactMessages.tooLong(label, max))
    .refine((v) => !hasControlChar(v), `${label}不能包含控制字符`)
    .refine((v) => contactProblem(kind, v, label) === null, ContactMessages[kind](label));

export const phoneField = (label = '电话', max = 30) => contactField('phone', label, max);
export const mobileField = (label = '手机', max = 20) => contactField('mobile', label, max);
export const bankAccountField = (label = '银行账号', max = 50) => contactField('bankAccount', label, max);
export const emailField = (label = '邮箱', max = 100) => contactField('email', label, max);
