/**
 * Issue 12, items 5 and 10: every validation message is one plain Chinese sentence naming the field
 * (no zod wording, no type names, no English keys), and phone, mobile, bank account, email and tax
 * number follow one shared set of rules wherever they are entered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ID } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import type { TestServer } from './helpers.js';
import { buyer, entryBody, startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let demo3: string;
let t5: string;
let admin: string;
beforeAll(async () => {
  s = await startInvoiceServer();
  [demo3, t5] = await Promise.all([s.login('demo3'), s.login('demo5')]);
  admin = await s.login('admin');
});
afterAll(() => s?.close());

/** One sentence: Chinese, no zod wording, no type names, no English field key. */
const plain = (m: string) => {
  expect(m).toMatch(/^参数错误：[\u4e00-\u9fa5]/);
  expect(m).not.toMatch(/期望|实际接收|无效输入|string|number|undefined|expected|received/i);
  expect(m).not.toMatch(/\b(name|password|loginName|deptId|phone|mobile|account|email)\b/);
};

const newUser = (over: Record<string, unknown> = {}) => ({ id: EMPTY_ID, loginName: 'li.si_12', name: '李四', deptId: demoId('dept:eng1'), ...over });

describe('item 5: one Chinese sentence naming the field', () => {
  it('sign-in without a field', async () => {
    for (const [body, message] of [
      [{}, '参数错误：请输入用户名'],
      [{ name: 'demo5' }, '参数错误：请输入密码'],
      [{ password: 'demo123' }, '参数错误：请输入用户名'],
      [{ name: 5, password: 'demo123' }, '参数错误：请输入用户名'],
    ] as const) {
      const a = await s.call('/api/account/login', body);
      expect([a.status, a.code, a.message]).toEqual([400, 30000, message]);
      plain(String(a.message));
    }
  });

  it('user create with missing fields names the first missing one', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: EMPTY_ID }, '参数错误：请输入登录名'],
      [{ id: EMPTY_ID, loginName: 'li.si_12' }, '参数错误：请输入姓名'],
      [{ id: EMPTY_ID, loginName: 'li.si_12', name: '李四' }, '参数错误：请选择部门'],
      [newUser({ name: '' }), '参数错误：请输入姓名'],
      [newUser({ position: 5 }), '参数错误：职务格式不正确'],
      [newUser({ roles: 'x' }), '参数错误：角色格式不正确'],
    ];
    for (const [body, message] of cases) {
      const a = await s.call('/api/user/save', body, demo3);
      expect([a.status, a.message]).toEqual([400, message]);
      plain(String(a.message));
    }
  });

  it('a field without a message of ours still gets a sentence naming it', async () => {
    const a = await s.call('/api/user/list', { pageSize: 'abc' }, demo3);
    expect(a.message).toBe('参数错误：每页条数格式不正确');
    const b = await s.call('/api/user/list', { pageIndex: 0 }, demo3);
    expect(b.message).toBe('参数错误：页码从1开始');
    const c = await s.call('/api/invoice/projects', { keyword: '项'.repeat(101) }, t5);
    expect(c.message).toBe('参数错误：关键字不能超过100个字符');
  });
});

describe('item 10: one set of rules for phone, mobile, bank account, email and tax number', () => {
  const PHONE = '电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）';

  it('users: 电话 "12345" and "abc" are refused, real numbers are taken', async () => {
    for (const phone of ['12345', 'abc', '123', '-1']) {
      const a = await s.call('/api/user/save', newUser({ phone }), demo3);
      expect([phone, a.status, a.message]).toEqual([phone, 400, `参数错误：${PHONE}`]);
    }
    const bad = await s.call('/api/user/save', newUser({ email: 'a@b' }), demo3);
    expect(bad.message).toBe('参数错误：邮箱格式不正确');
    for (const [phone, loginName] of [['025-86651234', 'li.si_a'], ['13912345678', 'li.si_b'], ['0512 6878 1234', 'li.si_c'], ['', 'li.si_d']]) {
      const ok = await s.call('/api/user/save', newUser({ loginName, phone, email: `${loginName}@huajian.example.cn` }), demo3);
      expect([phone, ok.code]).toEqual([phone, 20000]);
    }
  });

  it('buyers: 电话, 交付手机, 账号 and 交付邮箱 follow the rules', async () => {
    const body = { id: EMPTY_ID, name: '南京规则测试有限公司', taxNo: '', address: '', phone: '', bank: '', account: '', email: '', mobile: '', defaultKind: 10, remark: '' };
    for (const [over, message] of [
      [{ phone: '12345' }, PHONE],
      [{ phone: 'abc' }, PHONE],
      [{ mobile: '123' }, '交付手机须为11位手机号码'],
      [{ mobile: '12345678901' }, '交付手机须为11位手机号码'],
      [{ account: '账号xx' }, '账号须为8至32位数字'],
      [{ account: '1234' }, '账号须为8至32位数字'],
      [{ email: 'x@' }, '交付邮箱格式不正确'],
      [{ taxNo: '91350100M000100Y44' }, '税号校验位不正确，请核对统一社会信用代码'],
    ] as const) {
      const a = await s.call('/api/invoice/buyer/save', { ...body, ...over }, t5);
      expect([over, a.status, a.message]).toEqual([over, 400, `参数错误：${message}`]);
    }
    const ok = await s.call('/api/invoice/buyer/save', { ...body, phone: '025-86651234', mobile: '13912345678', account: '3205 0159 6136 0000 1234', email: 'cw@example.cn' }, t5);
    expect([ok.code, ok.message]).toEqual([20000, '保存成功']);
  });

  it('an invoice request and the seller settings take the same rules', async () => {
    const b = await buyer(s, (await s.db.kysely.selectFrom('invoice_buyers').select('name').executeTakeFirstOrThrow()).name);
    const body = entryBody(b);
    for (const [over, message] of [
      [{ buyerPhone: '12345' }, '购买方电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）'],
      [{ buyerAccount: '账号xx' }, '购买方账号须为8至32位数字'],
      [{ buyerMobile: '123' }, '交付手机须为11位手机号码'],
    ] as const) {
      const a = await s.call('/api/invoice/save', { ...body, ...over }, t5);
      expect([over, a.message]).toEqual([over, `参数错误：${message}`]);
    }
    const setting = (await s.call('/api/invoice/setting/get', {}, admin)).r;
    const save = (over: object) => s.call('/api/invoice/setting/save', { ...setting, appSecret: '', ...over }, admin);
    expect((await save({ sellerPhone: 'abc' })).message).toBe('参数错误：销方电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）');
    expect((await save({ sellerAccount: '账号xx' })).message).toBe('参数错误：销方账号须为8至32位数字');
  });
});
