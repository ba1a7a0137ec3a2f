import { describe, expect, it } from 'vitest';
import {
  ABNORMAL_INVOICE_TARGET,
  DATA_SCREEN_BASE,
  DATA_SCREEN_MIN,
  DEFAULT_THEME_COLOUR,
  ERROR_TOAST_MS,
  HEADER_HEIGHT,
  MOBILE_BREAKPOINT,
  Messages,
  PasswordMessages,
  REFRESH_INTERVAL_MS,
  REQUEST_TIMEOUT_MS,
  ResponseCode,
  TOKEN_COOKIE_DAYS,
  abnormalInvoiceText,
  accountLockedMessage,
  badgeText,
  inTransitBadgeText,
  navbarBadgeText,
  relativeTime,
  sidebarBadgeText,
  validateConfirmPassword,
  validateNewPassword,
  UpdatePasswordBody,
  CLIENT_LOG_BUFFER_SIZE,
  NOTIFICATION_STAGGER_MS,
  PASSWORD_INPUT_MAX_LENGTH,
  PASSWORD_DIALOG_WIDTH,
  MAIN_SIDEBAR_WIDTH,
  DATA_SCREEN_SIDEBAR_OPEN,
  DATA_SCREEN_SIDEBAR_COLLAPSED,
  ALTERNATE_THEME_COLOUR,
} from '../src/index.js';

describe('SPEC section 5: password rules', () => {
  it('requires a new password: 输入新密码', () => {
    expect(validateNewPassword('')).toBe('输入新密码');
    expect(validateNewPassword(undefined)).toBe(PasswordMessages.newRequired);
  });
  it('allows 6 to 20 characters: 6-20位密码', () => {
    expect(validateNewPassword('a1b2c')).toBe('6-20位密码');
    expect(validateNewPassword('a1'.repeat(10) + 'x')).toBe('6-20位密码');
    expect(validateNewPassword('a1b2c3')).toBeNull();
    expect(validateNewPassword('a1'.repeat(10))).toBeNull();
  });
  it('takes letters and digits only, at least one of each: 6-20位，由字母和数字组合', () => {
    expect(validateNewPassword('abcdefg')).toBe('6-20位，由字母和数字组合');
    expect(validateNewPassword('1234567')).toBe('6-20位，由字母和数字组合');
    expect(validateNewPassword('abc123!')).toBe('6-20位，由字母和数字组合');
    expect(validateNewPassword('密码abc123')).toBe('6-20位，由字母和数字组合');
    expect(validateNewPassword('Abc123')).toBeNull();
  });
  it('checks the confirmation: 输入确认密码, 6-20位密码, 两次密码不一致', () => {
    expect(validateConfirmPassword('', 'abc123')).toBe('输入确认密码');
    expect(validateConfirmPassword('abc', 'abc')).toBe('6-20位密码');
    expect(validateConfirmPassword('abc124', 'abc123')).toBe('两次密码不一致');
    expect(validateConfirmPassword('abc123', 'abc123')).toBeNull();
  });
  it('limits input to 32 characters and the dialog to 440px', () => {
    expect(PASSWORD_INPUT_MAX_LENGTH).toBe(32);
    expect(PASSWORD_DIALOG_WIDTH).toBe(440);
  });
  it('the server-side schema reports each broken rule on its field', () => {
    const r = UpdatePasswordBody.safeParse({ oldPassword: 'x', password: 'abcdef', confirmPassword: 'abcdeg' });
    expect(r.success).toBe(false);
    const msgs = r.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    expect(msgs).toEqual(['password:6-20位，由字母和数字组合', 'confirmPassword:两次密码不一致']);
    expect(UpdatePasswordBody.safeParse({ password: 'abc123', confirmPassword: 'abc123' }).success).toBe(true);
  });
});

describe('SPEC section 9: badge text', () => {
  it('navbar badges show 9+ above 9 and hide at 0', () => {
    expect(navbarBadgeText(0)).toBe('');
    expect(navbarBadgeText(1)).toBe('1');
    expect(navbarBadgeText(9)).toBe('9');
    expect(navbarBadgeText(10)).toBe('9+');
    expect(navbarBadgeText(null)).toBe('');
  });
  it('sidebar badges show 99+ above 99', () => {
    expect(sidebarBadgeText(99)).toBe('99');
    expect(sidebarBadgeText(100)).toBe('99+');
    expect(sidebarBadgeText(-3)).toBe('');
    expect(badgeText(Number.NaN, 9)).toBe('');
  });
  it('the in-transit badge carries the 在途 prefix', () => {
    expect(inTransitBadgeText(3)).toBe('在途3');
    expect(inTransitBadgeText(120)).toBe('在途99+');
    expect(inTransitBadgeText(0)).toBe('');
  });
});

describe('SPEC section 9: relative time', () => {
  const now = new Date(2026, 10, 21, 12, 0, 0).getTime();
  it('under 30 s is 刚刚', () => {
    expect(relativeTime(now - 29_000, now)).toBe('刚刚');
    expect(relativeTime(now, now)).toBe('刚刚');
  });
  it('under 1 hour is minutes, under 1 day hours, under 2 days 1天前', () => {
    expect(relativeTime(now - 30_000, now)).toBe('1分钟前');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5分钟前');
    expect(relativeTime(now - 3600_000, now)).toBe('1小时前');
    expect(relativeTime(now - 3 * 3600_000, now)).toBe('3小时前');
    expect(relativeTime(now - 24 * 3600_000, now)).toBe('1天前');
    expect(relativeTime(now - 47 * 3600_000, now)).toBe('1天前');
  });
  it('older times show the date', () => {
    expect(relativeTime(new Date('2026-11-18T09:05:00+08:00'), now)).toBe('11月18日9时5分');
  });
});

describe('SPEC sections 8 and 9: codes, messages and constants', () => {
  it('response codes', () => {
    expect(ResponseCode).toEqual({ ok: 20000, businessError: 30000, tokenInvalid: 50008, needChangePassword: 50010, passwordErrorsExceeded: 50011 });
  });
  it('messages word for word', () => {
    expect(Messages.loginInfoMissing).toBe('验证失败, 请重新登录');
    expect(Messages.noRoles).toBe('权限不足');
    expect(Messages.passwordUpdated).toBe('修改成功');
    expect(Messages.routeGuardFallback).toBe('Has Error');
    expect(Messages.abnormalInvoiceTitle).toBe('异常发票提醒');
    expect(Messages.abnormalInvoiceButton).toBe('查看异常票池');
    expect(abnormalInvoiceText(7)).toBe('税务端进项票池存在7张未处理的异常发票');
    expect(ABNORMAL_INVOICE_TARGET).toBe('/redirect/income/invoicePool/abnormal');
  });
  it('the lock message says until when (Asia/Shanghai)', () => {
    expect(accountLockedMessage(new Date('2026-11-21T02:15:00Z'))).toBe('密码错误次数过多，账号已锁定至 2026-11-21 10:15，请稍后再试');
  });
  it('constants', () => {
    expect(TOKEN_COOKIE_DAYS).toBe(7);
    expect(REQUEST_TIMEOUT_MS).toBe(120000);
    expect(ERROR_TOAST_MS).toBe(5000);
    expect(REFRESH_INTERVAL_MS).toBe(60000);
    expect(MOBILE_BREAKPOINT).toBe(992);
    expect(HEADER_HEIGHT).toBe(66);
    expect(DATA_SCREEN_BASE).toEqual({ width: 1024, height: 768 });
    expect(DATA_SCREEN_MIN).toEqual({ width: 807, height: 540 });
    expect(DATA_SCREEN_SIDEBAR_OPEN).toBe(210);
    expect(DATA_SCREEN_SIDEBAR_COLLAPSED).toBe(55);
    expect(MAIN_SIDEBAR_WIDTH).toBe(160);
    expect(DEFAULT_THEME_COLOUR).toBe('#1890ff');
    expect(ALTERNATE_THEME_COLOUR).toBe('#409EFF');
    expect(CLIENT_LOG_BUFFER_SIZE).toBe(25);
    expect(NOTIFICATION_STAGGER_MS).toBe(200);
  });
});
