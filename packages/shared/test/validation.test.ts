/** Issue 12 items 5 and 10: the shared error map and the shared contact rules. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from '../src/index.js';
import {
  BuyerSaveBody, FIELD_LABELS, LoginBody, PersonalSaveBody, UserSaveBody, contactProblem, fieldSentence, isBankAccount, isEmailAddress, isMobileNumber, isPhoneNumber, issueMessage,
} from '../src/index.js';

const first = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('the shared zod error map', () => {
  it('says what is missing in one Chinese sentence naming the field, never zod wording', () => {
    expect(first(z.object({ phone: z.string() }), {})).toBe('请填写电话');
    expect(first(z.object({ deptId: z.string() }), {})).toBe('请选择部门');
    expect(first(z.object({ quantity: z.number() }), { quantity: 'x' })).toBe('数量格式不正确');
    expect(first(z.object({ remark: z.string().max(3) }), { remark: 'abcd' })).toBe('备注不能超过3个字符');
    expect(first(z.object({ quantity: z.number().min(2) }), { quantity: 1 })).toBe('数量不能小于2');
    expect(first(z.object({ email: z.email() }), { email: 'x' })).toBe('邮箱格式不正确');
    expect(first(z.string(), undefined)).toBe('请填写此项');
  });

  it('takes a label from the caller (a web form item)', () => {
    const r = z.string().safeParse(undefined, { error: (iss) => issueMessage(iss, '姓名') });
    expect(r.error?.issues[0]?.message).toBe('请填写姓名');
  });

  it('sign-in and user bodies name their own fields', () => {
    expect(first(LoginBody, {})).toBe('请输入用户名');
    expect(first(LoginBody, { name: 'demo1' })).toBe('请输入密码');
    expect(first(UserSaveBody, { id: shared.EMPTY_ID })).toBe('请输入登录名');
    expect(first(UserSaveBody, { id: shared.EMPTY_ID, loginName: 'li.si' })).toBe('请输入姓名');
  });

  it('no message of any shared schema speaks zod', () => {
    const bad = [undefined, null, 1, 'x', [], {}];
    for (const [name, value] of Object.entries(shared)) {
      if (!(value instanceof z.ZodType)) continue;
      for (const input of bad) {
        const r = (value as z.ZodType).safeParse(input);
        for (const iss of r.success ? [] : r.error.issues) expect([name, iss.message]).not.toEqual([name, expect.stringMatching(/期望|实际接收|无效输入|string|number|undefined|expected|received/i)]);
      }
    }
  });

  it('every field of the shared request bodies has a Chinese name', () => {
    const keys = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (s: unknown) => {
      if (!s || typeof s !== 'object' || seen.has(s)) return;
      seen.add(s);
      const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (!def) return;
      if (def.type === 'object') for (const [k, v] of Object.entries(def.shape as object)) { keys.add(k); walk(v); }
      for (const k of ['innerType', 'in', 'out', 'element', 'options', 'left', 'right', 'valueType']) {
        const v = def[k];
        if (Array.isArray(v)) v.forEach(walk); else walk(v);
      }
    };
    Object.values(shared).forEach(walk);
    expect([...keys].filter((k) => !Object.hasOwn(FIELD_LABELS, k))).toEqual([]);
    for (const label of Object.values(FIELD_LABELS)) expect(label).toMatch(/[\u4e00-\u9fa5]|^(ID|AppKey|AppSecret)$/);
  });

  it("the server's sentence: the message as it is when it names the field, else the field's name before it", () => {
    expect(fieldSentence(['name'], '请输入用户名')).toBe('请输入用户名');
    expect(fieldSentence(['id'], 'ID格式不正确')).toBe('ID格式不正确');
    expect(fieldSentence(['projectId'], 'ID格式不正确')).toBe('项目ID格式不正确');
    expect(fieldSentence(['keyword'], '不能超过100个字符')).toBe('关键字不能超过100个字符');
    expect(fieldSentence(['from'], '时间格式不正确')).toBe('开始时间格式不正确');
    expect(fieldSentence(['issueFrom'], '不是有效的日期')).toBe('开票开始日期不是有效的日期');
    expect(fieldSentence(['form', 'note', 'deep', '1'], '不能包含控制字符')).toBe('备注不能包含控制字符');
    expect(fieldSentence(['roles', '0'], '角色不在角色目录中')).toBe('角色不在角色目录中');
    expect(fieldSentence(['phone'], '手机号须为11位手机号码')).toBe('手机号须为11位手机号码');
    expect(fieldSentence(['pageSize'], '每页最多500条')).toBe('每页最多500条');
    expect(fieldSentence(['password'], '6-20位，由字母和数字组合')).toBe('密码：6-20位，由字母和数字组合');
  });
});

describe('one set of contact rules (item 10)', () => {
  it('telephone: mobile, landline with area code, 400 numbers; not 12345 or abc', () => {
    for (const ok of ['13912345678', '+86 13912345678', '025-86651234', '0512 6878 1234', '(025)86651234', '025-86651234-801', '010-8888666', '400-820-8820']) expect([ok, isPhoneNumber(ok)]).toEqual([ok, true]);
    for (const bad of ['12345', 'abc', '123', '-1', '025-123', '1391234567', '86651234']) expect([bad, isPhoneNumber(bad)]).toEqual([bad, false]);
  });

  it('mobile: 11 digits 13x-19x', () => {
    expect(isMobileNumber('13912345678')).toBe(true);
    for (const bad of ['123', '12345678901', '1391234567', '139123456789', '025-83451234']) expect([bad, isMobileNumber(bad)]).toEqual([bad, false]);
  });

  it('bank account: 8 to 32 digits, grouped or not', () => {
    for (const ok of ['32050159613600001234', '3205 0159 6136 0000 1234', '6222-0212-3456-7890']) expect(isBankAccount(ok)).toBe(true);
    for (const bad of ['账号xx', '1234', '12345678901234567890123456789012345', '3205  0159']) expect([bad, isBankAccount(bad)]).toEqual([bad, false]);
  });

  it('email', () => {
    expect(isEmailAddress('cw@huajian.example.cn')).toBe(true);
    for (const bad of ['x@', 'a@b', 'abc', '@x.cn']) expect([bad, isEmailAddress(bad)]).toEqual([bad, false]);
  });

  it('the problems name the field; empty is fine', () => {
    expect(contactProblem('phone', '', '电话')).toBeNull();
    expect(contactProblem('bankAccount', '账号xx', '账号')).toBe('账号须为8至32位数字');
    expect(contactProblem('taxNo', '91350100M000100Y44', '购买方税号')).toBe('购买方税号校验位不正确，请核对统一社会信用代码');
  });

  it('users, buyers and personal settings use them', () => {
    expect(first(UserSaveBody.shape.phone, '12345')).toBe('电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）');
    expect(first(BuyerSaveBody.shape.phone, 'abc')).toBe('电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）');
    expect(first(BuyerSaveBody.shape.mobile, '123')).toBe('交付手机须为11位手机号码');
    expect(first(BuyerSaveBody.shape.account, '账号xx')).toBe('账号须为8至32位数字');
    expect(first(PersonalSaveBody.shape.phone, '123')).toBe('手机号须为11位手机号码');
    expect(first(UserSaveBody.shape.phone, '')).toBeNull();
  });
});
