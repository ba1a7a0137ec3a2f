/**
 * Issue 15, 报销设置 (/reimbursement/cost-setting): /api/reimbursement/setting/* — the default reference
 * data of migration 0033 (categories with subjects and tax rates, travel standards per grade × city tier,
 * city tiers), categories (add, edit, duplicates refused, enable/disable, a used one cannot be deleted),
 * cost centres, standards, cities, grades (default rule: department managers 部门负责人, others 员工),
 * 发票期限 and the accounting interface (the secret never sent back; kept when not retyped; URL checked).
 * Every change one operation log entry. Roles 1 and 12; role 16 gets 权限不足.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, OperationLogType, ReimbGrade } from '@zhyy/shared';
import { cityTierOf, gradeOf, reimbAccountingConfig, reimbSetting, travelStandardOf } from '../src/modules/reimbursement/settings/read.js';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let t1: string;
let t12: string;
let t16: string;
const P = '/api/reimbursement/setting';
const db = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer();
  [t1, t12, t16] = (await Promise.all(['demo1', 'demo12', 'demo16'].map((n) => s.login(n)))) as [string, string, string];
});
afterAll(() => s?.close());

/** Operation log rows (newest first) whose description contains `text`. */
const logs = (text: string) => db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', `%${text}%`).execute();
const ok = async (url: string, body: unknown, token = t12) => {
  const a = await s.call(url, body, token);
  expect(a.code, a.message).toBe(20000);
  return a;
};
const refused = async (url: string, body: unknown, message: string | RegExp, token = t12) => {
  const a = await s.call(url, body, token);
  expect(a.code).toBe(30000);
  if (typeof message === 'string') expect(a.message).toBe(message);
  else expect(a.message).toMatch(message);
  return a;
};
const cat = (code: string, over: Record<string, unknown> = {}) => ({ code, name: `测试类别${code}`, travelKind: '', subjectCode: '6602.99', subjectName: '管理费用-其他', defaultTaxRate: '0.06', sort: 900, ...over });

describe('default reference data (migration 0033)', () => {
  it('has the expense categories with subjects and default tax rates', async () => {
    const v = (await ok(`${P}/get`, {})).r;
    const by = new Map<string, any>(v.categories.map((c: any) => [c.name, c]));
    for (const name of ['差旅-交通', '差旅-住宿', '差旅-补助', '市内交通', '业务招待', '办公', '通讯', '会议', '培训', '车辆', '项目现场']) expect(by.has(name), name).toBe(true);
    expect(by.get('差旅-住宿')).toMatchObject({ travelKind: 'hotel', subjectCode: '6602.01', subjectName: '管理费用-差旅费', defaultTaxRate: '0.06', enabled: true });
    expect(by.get('差旅-交通')).toMatchObject({ travelKind: 'transport', defaultTaxRate: '0.09' });
    expect(by.get('差旅-补助')).toMatchObject({ travelKind: 'allowance', defaultTaxRate: '0' });
    expect(by.get('办公').defaultTaxRate).toBe('0.13');
    expect(by.get('通讯').defaultTaxRate).toBe('0.06');
    expect(by.get('会议').defaultTaxRate).toBe('0.06');
    expect(by.get('培训').defaultTaxRate).toBe('0.06');
    expect(by.get('业务招待')).toMatchObject({ defaultTaxRate: '0', subjectName: '管理费用-业务招待费' });
  });

  it('has a travel standard for every grade × city tier; leaders may take 一等座, staff not', async () => {
    const v = (await ok(`${P}/get`, {})).r;
    expect(v.standards).toHaveLength(9);
    for (const g of ReimbGrade.values) for (const t of [1, 2, 3]) expect(v.standards.some((x: any) => x.grade === g && x.cityTier === t), `${g}/${t}`).toBe(true);
    const staff1 = v.standards.find((x: any) => x.grade === 'staff' && x.cityTier === 1);
    expect(staff1.seatClasses).toEqual(expect.arrayContaining(['二等座', '经济舱']));
    expect(staff1.seatClasses).not.toContain('一等座');
    expect(v.standards.find((x: any) => x.grade === 'leader' && x.cityTier === 1).seatClasses).toContain('一等座');
    // Higher tier, higher hotel standard; higher grade, higher standard.
    const hotel = (g: string, t: number) => v.standards.find((x: any) => x.grade === g && x.cityTier === t).hotelPerNight;
    expect(hotel('staff', 1)).toBeGreaterThan(hotel('staff', 2));
    expect(hotel('staff', 2)).toBeGreaterThan(hotel('staff', 3));
    expect(hotel('leader', 1)).toBeGreaterThan(hotel('staff', 1));
  });

  it('lists 北京 上海 广州 深圳 as 一类 and provincial capitals as 二类; others are 其他城市', async () => {
    const v = (await ok(`${P}/get`, {})).r;
    expect(v.cities.filter((c: any) => c.tier === 1).map((c: any) => c.city).sort()).toEqual(['上海', '北京', '广州', '深圳'].sort());
    for (const c of ['南京', '杭州', '成都', '武汉']) expect(v.cities.find((x: any) => x.city === c)?.tier, c).toBe(2);
    expect(await cityTierOf(db(), '上海市')).toBe(1);
    expect(await cityTierOf(db(), '南京')).toBe(2);
    expect(await cityTierOf(db(), '盐城')).toBe(3);
    expect(v.invoiceAgeDays).toBe(365);
  });
});

describe('permissions', () => {
  it('role 16 and others get 权限不足; roles 1 and 12 read', async () => {
    for (const url of [`${P}/get`, `${P}/category/add`, `${P}/accounting/save`, `${P}/grade/list`]) {
      const a = await s.call(url, url.endsWith('add') ? cat('P16') : url.endsWith('save') ? { mode: 'simulator' } : {}, t16);
      expect(a.status, url).toBe(403);
      expect(a.message).toBe(Messages.forbidden);
    }
    await ok(`${P}/get`, {}, t1);
    await ok(`${P}/get`, {}, t12);
  });
});

describe('费用类别', () => {
  it('adds a category, refuses a duplicate code or name in Chinese, edits it, and logs each change', async () => {
    await ok(`${P}/category/add`, cat('9901'));
    await refused(`${P}/category/add`, cat('9901', { name: '别的名称' }), '类别编码 9901 已存在');
    await refused(`${P}/category/add`, cat('9902', { name: '差旅-住宿' }), /^类别名称「差旅-住宿」已被类别 0102 使用$/);
    await refused(`${P}/category/edit`, cat('9901', { name: '办公' }), /已被类别 0401 使用/);
    const v = (await ok(`${P}/category/edit`, cat('9901', { name: '测试改名', defaultTaxRate: '0.13' }))).r;
    expect(v.categories.find((c: any) => c.code === '9901')).toMatchObject({ name: '测试改名', defaultTaxRate: '0.13', enabled: true, usedCount: 0 });
    expect((await logs('新增费用类别：9901')).map((l) => l.type)).toEqual([OperationLogType.add]);
    expect(await logs('修改费用类别：9901')).toHaveLength(1);
  });

  it('two adds of the same category at once: one is added, the other refused in Chinese (never a 5xx)', async () => {
    const answers = await Promise.all([s.call(`${P}/category/add`, cat('9911', { name: '并发类别' }), t12), s.call(`${P}/category/add`, cat('9911', { name: '并发类别' }), t1)]);
    expect(answers.map((a) => a.code).sort()).toEqual([20000, 30000]);
    expect(answers.find((a) => a.code === 30000)!.message).toMatch(/已存在|已被类别/);
    const cities = await Promise.all([s.call(`${P}/city/add`, { city: '丽水', tier: 2 }, t12), s.call(`${P}/city/add`, { city: '丽水', tier: 2 }, t1)]);
    expect(cities.map((a) => a.code).sort()).toEqual([20000, 30000]);
    await ok(`${P}/city/delete`, { city: '丽水' });
  });

  it('refuses a bad tax rate, subject code or travel kind with Chinese messages', async () => {
    await refused(`${P}/category/add`, cat('9903', { defaultTaxRate: '0.17' }), /默认税率不正确/);
    await refused(`${P}/category/add`, cat('9903', { subjectCode: 'abc' }), /科目编码格式应为/);
    await refused(`${P}/category/add`, cat('9903', { travelKind: 'boat' }), /差旅标准类型不正确/);
    await refused(`${P}/category/add`, cat('9903', { name: '' }), /请填写类别名称/);
  });

  it('disables and enables; a category used by a bill cannot be deleted, only disabled; an unused one is deleted', async () => {
    await ok(`${P}/category/add`, cat('9904'));
    await ok(`${P}/category/add`, cat('9905'));
    // A bill with a line of 9904.
    const now = new Date().toISOString();
    const user = demoId('user:demo12');
    await db().insertInto('reimb_bills').values({ id: demoId('test-bill:settings'), bill_no: 'BX2099010001', applicant_id: user, applicant_name: '吴强', period_from: '2026-01-01', period_to: '2026-01-02', reason: '测试', created_at: now, updated_at: now } as never).execute();
    await db().insertInto('reimb_lines').values({ id: demoId('test-line:settings'), bill_id: demoId('test-bill:settings'), line_no: 1, category_code: '9904', category_name: '测试类别9904', expense_date: '2026-01-01', amount: 10000 } as never).execute();
    await refused(`${P}/category/delete`, { code: '9904' }, '费用类别「测试类别9904」已被报销单使用，不能删除，只能停用');
    let v = (await ok(`${P}/category/enable`, { code: '9904', enabled: false })).r;
    expect(v.categories.find((c: any) => c.code === '9904')).toMatchObject({ enabled: false, usedCount: 1 });
    await refused(`${P}/category/enable`, { code: '9904', enabled: false }, '该类别已是停用状态');
    v = (await ok(`${P}/category/enable`, { code: '9904', enabled: true })).r;
    expect(v.categories.find((c: any) => c.code === '9904').enabled).toBe(true);
    v = (await ok(`${P}/category/delete`, { code: '9905' })).r;
    expect(v.categories.some((c: any) => c.code === '9905')).toBe(false);
    await refused(`${P}/category/delete`, { code: '9905' }, '费用类别不存在');
    expect(await logs('停用费用类别：9904')).toHaveLength(1);
    expect(await logs('启用费用类别：9904')).toHaveLength(1);
    expect((await logs('删除费用类别：9905')).map((l) => l.type)).toEqual([OperationLogType.delete]);
  });
});

describe('成本中心', () => {
  it('lists every department with its path, sets and clears a centre, refuses a code used by another department', async () => {
    const v = (await ok(`${P}/get`, {})).r;
    const depts = await db().selectFrom('departments').select('id').execute();
    expect(v.costCentres).toHaveLength(depts.length);
    const eng1 = v.costCentres.find((c: any) => c.deptName === '工程一部');
    expect(eng1.deptPath).toMatch(/工程管理部 \/ 工程一部$/);
    const it1 = v.costCentres.find((c: any) => c.deptName === '信息中心');
    await ok(`${P}/cost-centre/save`, { deptId: it1.deptId, centreCode: 'CC-TEST-01', centreName: '测试中心' });
    await refused(`${P}/cost-centre/save`, { deptId: eng1.deptId, centreCode: 'CC-TEST-01', centreName: '别的' }, '成本中心编码 CC-TEST-01 已用于部门「信息中心」');
    let after = (await ok(`${P}/get`, {})).r;
    expect(after.costCentres.find((c: any) => c.deptId === it1.deptId)).toMatchObject({ centreCode: 'CC-TEST-01', centreName: '测试中心' });
    after = (await ok(`${P}/cost-centre/delete`, { deptId: it1.deptId })).r;
    expect(after.costCentres.find((c: any) => c.deptId === it1.deptId).centreCode).toBe('');
    await refused(`${P}/cost-centre/delete`, { deptId: it1.deptId }, '该部门未设置成本中心');
    expect(await logs('设置成本中心：信息中心')).toHaveLength(1);
    expect(await logs('取消成本中心：信息中心')).toHaveLength(1);
  });
});

describe('差旅标准 and 城市分类', () => {
  it('saves the grid in one change and the readers see it; refuses a duplicate cell and a bad seat class', async () => {
    await ok(`${P}/standard/save`, { items: [{ grade: 'staff', cityTier: 3, hotelPerNight: 32_000, seatClasses: ['二等座', '硬座'], allowancePerDay: 6_500 }] });
    const st = await travelStandardOf(db(), 'staff', 3);
    expect(st).toMatchObject({ seat_classes: '二等座,硬座' });
    expect(Number(st!.hotel_per_night)).toBe(32_000);
    expect(await logs('修改差旅标准：员工·其他城市 住宿320.00元/晚')).toHaveLength(1);
    const cell = { grade: 'staff', cityTier: 3, hotelPerNight: 1, seatClasses: ['二等座'], allowancePerDay: 1 };
    await refused(`${P}/standard/save`, { items: [cell, cell] }, '差旅标准重复：员工 × 其他城市');
    await refused(`${P}/standard/save`, { items: [{ ...cell, seatClasses: ['火箭'] }] }, /席别不正确/);
    await refused(`${P}/standard/save`, { items: [{ ...cell, hotelPerNight: -1 }] }, /住宿标准不能为负数/);
  });

  it('adds and removes a city; refuses a city already listed', async () => {
    await ok(`${P}/city/add`, { city: '盐城市', tier: 2 });
    expect(await cityTierOf(db(), '盐城')).toBe(2);
    await refused(`${P}/city/add`, { city: '盐城', tier: 1 }, '城市「盐城」已在二类城市中');
    await refused(`${P}/city/add`, { city: '扬州', tier: 3 }, /城市分类只能是一类或二类/);
    await ok(`${P}/city/delete`, { city: '盐城' });
    expect(await cityTierOf(db(), '盐城')).toBe(3);
    await refused(`${P}/city/delete`, { city: '盐城' }, '城市「盐城」不在城市分类中');
    expect(await logs('新增城市分类：盐城')).toHaveLength(1);
    expect(await logs('移除城市分类：盐城')).toHaveLength(1);
  });
});

describe('人员职级', () => {
  it('applies the default rule (managers 部门负责人, others 员工) until a grade is set, and back', async () => {
    const manager = await db().selectFrom('departments').innerJoin('users', 'users.id', 'departments.manager_id').select(['users.id', 'users.name']).executeTakeFirstOrThrow();
    const list = (await ok(`${P}/grade/list`, { keyword: manager.name, pageSize: 50 })).r;
    const row = list.items.find((r: any) => r.userId === manager.id);
    expect(row).toMatchObject({ grade: '', effectiveGrade: 'manager', isManager: true });
    const staff = (await ok(`${P}/grade/list`, { keyword: 'demo12' })).r.items[0];
    expect(staff).toMatchObject({ loginName: 'demo12', effectiveGrade: 'staff' });
    await ok(`${P}/grade/save`, { userId: staff.userId, grade: 'leader' });
    expect(await gradeOf(db(), staff.userId)).toBe('leader');
    expect((await ok(`${P}/grade/list`, { keyword: 'demo12' })).r.items[0]).toMatchObject({ grade: 'leader', effectiveGrade: 'leader' });
    await ok(`${P}/grade/save`, { userId: staff.userId, grade: '' });
    expect(await gradeOf(db(), staff.userId)).toBe('staff');
    await refused(`${P}/grade/save`, { userId: staff.userId, grade: 'boss' }, /职级不正确/);
    expect(await logs('设置人员职级：吴强 → 公司领导')).toHaveLength(1);
    const all = (await ok(`${P}/grade/list`, { pageSize: 500 })).r;
    expect(all.total).toBeGreaterThan(40);
  });
});

describe('发票期限', () => {
  it('saves invoiceAgeDays; the reader and the view see it; refuses 0', async () => {
    const v = (await ok(`${P}/invoice-age/save`, { invoiceAgeDays: 180 })).r;
    expect(v.invoiceAgeDays).toBe(180);
    expect(await reimbSetting(db(), 'invoiceAgeDays')).toBe(180);
    await refused(`${P}/invoice-age/save`, { invoiceAgeDays: 0 }, /发票期限至少1天/);
    expect(await logs('修改发票期限：365 天 → 180 天')).toHaveLength(1);
  });
});

describe('会计系统接口', () => {
  it('starts from the environment (simulator); the test button answers', async () => {
    const v = (await ok(`${P}/get`, {})).r;
    expect(v.accounting).toMatchObject({ mode: 'simulator', source: 'env', tokenSet: false });
    const t = await ok(`${P}/accounting/test`, {});
    expect(t.r.ok).toBe(true);
  });

  it('stores the i8 endpoint and secret, never sends the secret back, keeps it when not retyped; validates the URL', async () => {
    await refused(`${P}/accounting/save`, { mode: 'http', url: 'ftp://i8.example.cn/api', token: 'x' }, '接口地址须以 http:// 或 https:// 开头');
    await refused(`${P}/accounting/save`, { mode: 'http', url: 'not a url', token: 'x' }, '接口地址格式不正确，应以 http:// 或 https:// 开头');
    await refused(`${P}/accounting/save`, { mode: 'http', url: 'https://i8.example.cn/api', token: '' }, '请填写会计系统接口密钥');
    await refused(`${P}/accounting/save`, { mode: 'http', url: '', token: 'x' }, '请填写会计系统接口地址');
    const a = await ok(`${P}/accounting/save`, { mode: 'http', url: 'https://i8.example.cn/api', token: 'SECRET-TOKEN-123', timeoutMs: 8000 });
    expect(a.raw).not.toContain('SECRET-TOKEN-123');
    expect(a.r.accounting).toEqual({ mode: 'http', url: 'https://i8.example.cn/api', timeoutMs: 8000, tokenSet: true, source: 'setting' });
    expect(await reimbAccountingConfig(db())).toEqual({ mode: 'http', url: 'https://i8.example.cn/api', token: 'SECRET-TOKEN-123', timeoutMs: 8000 });
    expect((await s.call(`${P}/get`, {}, t1)).raw).not.toContain('SECRET-TOKEN-123');
    // A new URL without retyping the secret keeps it; back to the simulator keeps it too.
    await ok(`${P}/accounting/save`, { mode: 'http', url: 'https://i8-new.example.cn/api' });
    expect((await reimbAccountingConfig(db())).token).toBe('SECRET-TOKEN-123');
    await ok(`${P}/accounting/save`, { mode: 'simulator' });
    expect((await reimbAccountingConfig(db())).mode).toBe('simulator');
    await ok(`${P}/accounting/save`, { mode: 'http', url: 'https://i8-new.example.cn/api' });
    expect(await reimbAccountingConfig(db())).toMatchObject({ mode: 'http', token: 'SECRET-TOKEN-123' });
    const l = await logs('修改会计系统接口');
    expect(l).toHaveLength(4);
    expect(l.some((x) => x.description.includes('SECRET'))).toBe(false);
    // Nothing listens there: the test answers a failure in Chinese, not a 5xx.
    await ok(`${P}/accounting/save`, { mode: 'http', url: 'http://127.0.0.1:9/i8', token: 'T', timeoutMs: 1000 });
    const t = await ok(`${P}/accounting/test`, {});
    expect(t.r.ok).toBe(false);
    expect(t.r.message).toMatch(/^连接失败：/);
    await ok(`${P}/accounting/save`, { mode: 'simulator' });
  });
});
