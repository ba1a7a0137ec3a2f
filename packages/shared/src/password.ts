/** SPEC section 5: the password rules with their messages, word for word. */
import { z } from './zod-locale.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { text } from './api/common.js';

export const PasswordMessages = {
  newRequired: '输入新密码',
  length: '6-20位密码',
  composition: '6-20位，由字母和数字组合',
  confirmRequired: '输入确认密码',
  mismatch: '两次密码不一致',
} as const;

const COMPOSITION = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]+$/;

function lengthOk(v: string): boolean {
  return v.length >= PASSWORD_MIN_LENGTH && v.length <= PASSWORD_MAX_LENGTH;
}

/** The first broken rule of a new password, or null. */
export function validateNewPassword(value: string | null | undefined): string | null {
  if (!value) return PasswordMessages.newRequired;
  if (!lengthOk(value)) return PasswordMessages.length;
  if (!COMPOSITION.test(value)) return PasswordMessages.composition;
  return null;
}

/** The first broken rule of the confirmation, or null. */
export function validateConfirmPassword(value: string | null | undefined, password: string | null | undefined): string | null {
  if (!value) return PasswordMessages.confirmRequired;
  if (!lengthOk(value)) return PasswordMessages.length;
  if (value !== password) return PasswordMessages.mismatch;
  return null;
}

/** The password update body, enforced on the server with the same rules. */
export const UpdatePasswordBody = z
  .object({
    oldPassword: text().max(128).optional(),
    password: text().max(128),
    confirmPassword: text().max(128),
  })
  .superRefine((v, ctx) => {
    const p = validateNewPassword(v.password);
    if (p) ctx.addIssue({ code: 'custom', path: ['password'], message: p });
    const c = validateConfirmPassword(v.confirmPassword, v.password);
    if (c) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: c });
  });
export type UpdatePasswordBody = z.infer<typeof UpdatePasswordBody>;
