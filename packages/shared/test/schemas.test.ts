/** The shared text() and isoDay() schemas every API field is built from (issue 10, finding 2). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IsoTime, ListBody, LoginBody, checkFormValues, hasControlChar, isCalendarDay, isoDay, text, type FieldDef } from '../src/index.js';

const firstMessage = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe('isCalendarDay', () => {
  it('takes days that exist, leap days in leap years included', () => {
    for (const d of ['2026-01-01', '2026-12-31', '2024-02-29', '2000-02-29', '2026-04-30', '0001-01-01', '9999-12-31']) expect([d, isCalendarDay(d)]).toEqual([d, true]);
  });
  it('refuses days that do not exist or are not YYYY-MM-DD', () => {
    for (const d of ['9999-99-99', '2026-13-45', '2026-02-29', '1900-02-29', '2026-04-31', '2026-00-10', '2026-01-00', '2026-1-1', '20260101', '', '2026-01-01T00:00:00Z']) {
      expect([d, isCalendarDay(d)]).toEqual([d, false]);
    }
  });
});

describe('isoDay()', () => {
  const day = isoDay();
  it('names an impossible day as such, a malformed one by its format', () => {
    expect(firstMessage(day, '2026-13-45')).toBe('不是有效的日期');
    expect(firstMessage(day, '9999-99-99')).toBe('不是有效的日期');
    expect(firstMessage(day, '2026/01/01')).toBe('日期格式应为YYYY-MM-DD');
    expect(firstMessage(isoDay('日期格式须为YYYY-MM-DD'), 'x')).toBe('日期格式须为YYYY-MM-DD');
    expect(day.parse('2024-02-29')).toBe('2024-02-29');
  });
  it('is the date schema of the lists (the workflow list from/to)', () => {
    expect(ListBody.safeParse({ from: '2026-02-30' }).error?.issues[0]).toMatchObject({ path: ['from'], message: '不是有效的日期' });
    expect(ListBody.safeParse({ to: '2026-02-28' }).success).toBe(true);
  });
  it('IsoTime refuses a time on a day that does not exist', () => {
    expect(firstMessage(IsoTime, '2026-02-30T00:00:00Z')).toBe('时间格式不正确');
    expect(IsoTime.parse('2024-02-29T08:00:00+08:00')).toBe('2024-02-29T00:00:00.000Z');
  });
  it('form date fields refuse impossible days too', () => {
    const fields = [{ key: 'd', label: '日期', type: 'date', required: true }] as FieldDef[];
    expect(checkFormValues(fields, { d: '2026-02-30' }).first).toBe('日期日期无效');
    expect(checkFormValues(fields, { d: '2026-02-28' }).ok).toBe(true);
  });
});

describe('text()', () => {
  it('refuses U+0000 and the other C0 control characters, keeps tab, newline and CR', () => {
    const t = text().trim().max(10);
    for (const c of ['\u0000', '\u0001', '\u0007', '\u000b', '\u000c', '\u001b', '\u001f']) {
      expect([JSON.stringify(c), firstMessage(t, `a${c}b`)]).toEqual([JSON.stringify(c), '不能包含控制字符']);
    }
    expect(t.parse(' a\tb\r\nc ')).toBe('a\tb\r\nc');
    expect(t.parse('中文 😀')).toBe('中文 😀');
    expect(hasControlChar('ok')).toBe(false);
  });
  it('keeps the chained rules and their messages', () => {
    expect(firstMessage(text().max(3, '太长'), 'abcd')).toBe('太长');
    expect(firstMessage(text({ error: '应为文本' }), 1)).toBe('应为文本');
  });
  it('is what the API schemas are built of (sign-in name, sort field)', () => {
    expect(LoginBody.safeParse({ name: 'ad\u0000min', password: 'x' }).error?.issues[0]).toMatchObject({ path: ['name'], message: '不能包含控制字符' });
    expect(ListBody.safeParse({ sort: { field: 'a\u0000', order: 'ascend' } }).success).toBe(false);
  });
});
