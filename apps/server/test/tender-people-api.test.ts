/**
 * Issue 17, people and certificates (/api/tender/personnel/*, title/*, certificate/*, cert-kind/*):
 * every call and permission (1, 6, 15 and admin; 4, 9, 23 get 权限不足; cert-kind writes for 投标设置
 * 1, 6 only, reads for every tender page), ID card checks and masking, the title and certificate
 * number once (per kind), the derived end day, the states on the boundary days, summary and alerts,
 * exports, the operation log; the renewal (延期) window: the kinds' 延期办理期, 可办理延期 on the list and
 * in 证书汇总.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, CERT_WARN_DAYS, idCardCheckChar, inRenewalWindow, Messages } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { shanghaiDay } from '../src/platform/listing.js';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
import { listAttachments, storeAttachment } from '../src/modules/tender/attachment/attachments.js';
import { isForeignKeyViolation, isUniqueViolation } from '../src/modules/tender/people/service.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const T = '/api/tender';
const today = shanghaiDay();
const addDays = (n: number) => {
  const t = new Date(`${today}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};
const user = (login: string) => demoId(`user:${login}`);
const first17 = '11010519900307123';
const ID_CARD = first17 + idCardCheckChar(first17);

beforeAll(async () => {
  s = await startTestServer();
  for (const n of ['admin', 'demo1', 'demo4', 'demo6', 'demo9', 'demo15', 'demo23']) tokens[n] = await s.login(n);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who = 'demo15') => s.call(`${T}/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who = 'demo15') => {
  const a = await call(path, body, who);
  expect(a.code, a.message).toBe(20000);
  return a.r;
};
const refused = async (path: string, body: unknown, message: string | RegExp, who = 'demo15') => {
  const a = await call(path, body, who);
  expect(a.code).toBe(30000);
  expect(a.status).toBeLessThan(500);
  // Schema refusals are prefixed 参数错误：, the service's are not.
  if (typeof message === 'string') expect(a.message?.replace(/^参数错误：/, '')).toBe(message);
  else expect(a.message).toMatch(message);
  return a;
};
const logs = (text: string) => db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', `%${text}%`).execute();

describe('permissions', () => {
  const calls: Array<[string, unknown]> = [
    ['personnel/list', {}], ['personnel/detail', { userId: user('demo9') }], ['personnel/options', {}], ['title/list', {}], ['certificate/list', {}],
    ['certificate/summary', {}], ['certificate/alerts', {}], ['certificate/card', {}], ['title/delete', { id: demoId('none') }], ['certificate/delete', { id: demoId('none') }],
  ];
  it('roles 4, 9 and 23 get 权限不足 on every people call', async () => {
    for (const who of ['demo4', 'demo9', 'demo23']) {
      for (const [path, body] of calls) {
        const a = await call(path, body, who);
        expect([path, who, a.status, a.message]).toEqual([path, who, 403, Messages.forbidden]);
      }
    }
  });
  it('roles 1, 6, 15 and admin read them', async () => {
    for (const who of ['demo1', 'demo6', 'demo15', 'admin']) for (const [path, body] of calls.slice(0, 8)) await ok(path, body, who);
  });
  it('certificate kinds: read by every tender page (9, 23, 15), written by 投标设置 (1, 6) only', async () => {
    for (const who of ['demo9', 'demo23', 'demo15', 'demo4']) expect((await ok('cert-kind/list', {}, who)).length).toBeGreaterThanOrEqual(9);
    for (const who of ['demo15', 'demo9', 'demo23']) expect((await call('cert-kind/save', { name: '测试种类' }, who)).status).toBe(403);
  });
});

describe('personnel', () => {
  it('lists staff with masked ID card numbers and counts; the detail shows the full number', async () => {
    const list = await ok('personnel/list', { keyword: 'demo15', pageSize: 50 });
    expect(list.total).toBe(1);
    const row = list.items[0];
    expect(row.name).toBe('马超');
    expect(row.idCard).toMatch(/^\d{6}\*{8}\d{3}[\dX]$/);
    const detail = await ok('personnel/detail', { userId: row.userId });
    expect(detail.facts.idCard).toMatch(/^\d{17}[\dX]$/);
    expect(detail.facts.idCard.slice(-4)).toBe(row.idCard.slice(-4));
    expect(detail.certificates.length).toBe(row.certCount);
    expect(detail.titles.length).toBe(row.titleCount);
  });
  it('the administrator is no personnel', async () => {
    const all = await ok('personnel/list', { pageSize: 500 });
    expect(all.items.some((r: { loginName: string }) => r.loginName === 'admin')).toBe(false);
    await refused('personnel/detail', { userId: user('admin') }, '人员不存在');
  });
  it('saves facts: the checksum is checked; the change is logged without the number', async () => {
    const bad = first17 + (idCardCheckChar(first17) === '1' ? '2' : '1');
    await refused('personnel/save', { userId: user('demo9'), idCard: bad }, '身份证号校验位不正确');
    await refused('personnel/save', { userId: user('demo9'), idCard: '11010519901307123X' }, '身份证号中的出生日期不正确');
    await refused('personnel/save', { userId: user('demo9'), education: 9 }, '学历不正确');
    const r = await ok('personnel/save', { userId: user('demo9'), idCard: ID_CARD.toLowerCase(), gender: 2, birthDate: '1990-03-07', education: 4, school: '东南大学', major: '土木工程', graduationDate: '2015-07-01', hireDate: '2015-08-01', remark: '' });
    expect(r.idCard).toBe(ID_CARD);
    expect(r.education).toBe(4);
    const l = await logs('修改人员信息：黄丽');
    expect(l.at(-1)!.description).toContain('身份证号已修改');
    expect(l.at(-1)!.description).toContain('学历');
    expect(l.at(-1)!.description).not.toContain(ID_CARD);
    expect(l.at(-1)!.login_name).toBe('demo15');
    const filtered = await ok('personnel/list', { education: 4, keyword: '黄丽' });
    expect(filtered.items.map((i: { loginName: string }) => i.loginName)).toContain('demo9');
  });
  it('filters by department and by a certificate kind held', async () => {
    const kind = certKindId('aq');
    const withKind = await ok('personnel/list', { kindId: kind, pageSize: 500 });
    const holders = await db().selectFrom('tender_certificates').select('user_id').distinct().where('kind_id', '=', kind).execute();
    expect(withKind.total).toBe(holders.length);
    const dept = await ok('personnel/list', { deptId: demoId('dept:hr'), pageSize: 500 });
    expect(dept.items.every((r: { deptName: string }) => r.deptName === '人力资源部')).toBe(true);
    expect(dept.total).toBeGreaterThan(0);
  });
  it('exports the list (masked) and logs the export', async () => {
    const { res, ws } = await s.download(`${T}/personnel/export`, { keyword: 'demo15' }, tokens.demo6!);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('姓名');
    expect(String(ws!.getRow(2).getCell(5).value)).toContain('********');
    expect(ws!.rowCount).toBe(2);
    expect((await logs('导出人员信息 1 条')).length).toBe(1);
  });
});

describe('titles', () => {
  let id = '';
  it('adds, reads, modifies and deletes a title; the number only once', async () => {
    const row = await ok('title/save', { userId: user('demo6'), level: 3, titleName: '高级工程师', speciality: '建筑工程', certNo: 'ZC-T-0001', issuer: '江苏省人社厅', issueDate: '2020-12-01' });
    id = row.id;
    expect(row.holderName).toBe('陈静');
    await refused('title/save', { userId: user('demo9'), level: 2, titleName: '工程师', certNo: 'ZC-T-0001', issueDate: '2019-01-01' }, '职称证书编号「ZC-T-0001」已存在');
    await refused('title/save', { userId: user('demo9'), level: 7, titleName: '工程师', certNo: 'ZC-T-0002', issueDate: '2019-01-01' }, '请选择职称级别');
    await refused('title/save', { userId: user('demo9'), level: 2, titleName: '', certNo: 'ZC-T-0002', issueDate: '2019-01-01' }, '请填写职称名称');
    const changed = await ok('title/save', { id, userId: user('demo6'), level: 4, titleName: '正高级工程师', certNo: 'ZC-T-0001', issueDate: '2024-12-01' }, 'demo6');
    expect(changed.level).toBe(4);
    expect((await ok('title/detail', { id })).titleName).toBe('正高级工程师');
    const list = await ok('title/list', { level: 4, keyword: 'ZC-T-0001' });
    expect(list.total).toBe(1);
    const { ws } = await s.download(`${T}/title/export`, { keyword: 'ZC-T-0001' }, tokens.demo15!);
    expect(ws!.getRow(2).getCell(3).value).toBe('正高级');
    await ok('title/delete', { id }, 'demo1');
    await refused('title/detail', { id }, '职称不存在');
    await refused('title/delete', { id }, '职称不存在');
    const l = await logs('ZC-T-0001');
    expect(l.map((x) => x.type)).toEqual(expect.arrayContaining([40, 50, 60]));
  });
});

describe('certificates', () => {
  const kind = certKindId('aq');
  const base = { userId: user('demo15'), kindId: kind, level: 'B', certNo: '', validFrom: '2024-03-01' };
  it('derives the end day from the kind (3 years, the day before the anniversary); open when asked', async () => {
    const a = await ok('certificate/save', { ...base, certNo: 'AQ-T-1' });
    expect(a.validTo).toBe('2027-02-28');
    expect(a.kindName).toBe('安全生产考核合格证书');
    const p = await ok('certificate/save', { ...base, certNo: 'AQ-T-2', permanent: true });
    expect(p.validTo).toBeNull();
    expect(p.state).toBe('permanent');
    const given = await ok('certificate/save', { ...base, certNo: 'AQ-T-3', validTo: '2025-01-31' });
    expect(given.validTo).toBe('2025-01-31');
    expect(given.state).toBe('expired');
    await refused('certificate/save', { ...base, certNo: 'AQ-T-4', validTo: '2024-01-01' }, '有效期至不能早于有效期起');
  });
  it('a number once per kind (another kind may share it); the level must be one of the kind\'s', async () => {
    await refused('certificate/save', { ...base, certNo: 'AQ-T-1' }, '安全生产考核合格证书证书编号「AQ-T-1」已存在');
    await ok('certificate/save', { ...base, kindId: certKindId('jl'), level: '', speciality: '房屋建筑工程', certNo: 'AQ-T-1' });
    await refused('certificate/save', { ...base, level: 'D', certNo: 'AQ-T-5' }, '请选择安全生产考核合格证书的级别（A、B、C）');
    await refused('certificate/save', { ...base, kindId: certKindId('jl'), level: 'A', certNo: 'AQ-T-6' }, '监理工程师不分级别');
    await refused('certificate/save', { ...base, kindId: demoId('no-kind'), certNo: 'AQ-T-7' }, '证书种类不存在');
    await refused('certificate/save', { ...base, userId: demoId('nobody'), certNo: 'AQ-T-8' }, '人员不存在');
  });
  it('two saves of one number at once: one is saved, the other refused', async () => {
    const [a, b] = await Promise.all([call('certificate/save', { ...base, certNo: 'AQ-RACE' }), call('certificate/save', { ...base, certNo: 'AQ-RACE' }, 'demo6')]);
    expect([a.code, b.code].sort()).toEqual([20000, 30000]);
    expect([a, b].find((x) => x.code === 30000)!.message).toMatch(/AQ-RACE.*已存在/);
  });
  it('states on the boundary days: today is expiring (0 days), yesterday expired, 90 days expiring, 91 valid', async () => {
    const mk = async (no: string, validTo: string) => (await ok('certificate/save', { ...base, certNo: no, validFrom: '2020-01-01', validTo })).id as string;
    const ids = { today: await mk('B-0', today), yesterday: await mk('B-1', addDays(-1)), d90: await mk('B-90', addDays(CERT_WARN_DAYS)), d91: await mk('B-91', addDays(CERT_WARN_DAYS + 1)) };
    const detail = async (id: string) => ok('certificate/detail', { id });
    expect(await detail(ids.today)).toMatchObject({ state: 'expiring', daysLeft: 0 });
    expect(await detail(ids.yesterday)).toMatchObject({ state: 'expired', daysLeft: -1 });
    expect(await detail(ids.d90)).toMatchObject({ state: 'expiring', daysLeft: 90 });
    expect(await detail(ids.d91)).toMatchObject({ state: 'valid', daysLeft: 91 });
    const by = async (state: string) => ((await ok('certificate/list', { keyword: 'B-', state, userId: user('demo15'), pageSize: 50 })).items as Array<{ certNo: string }>).map((i) => i.certNo).sort();
    expect(await by('expiring')).toEqual(['B-0', 'B-90']);
    expect(await by('expired')).toEqual(['B-1']);
    expect(await by('valid')).toEqual(['B-91']);
    const within = await ok('certificate/list', { keyword: 'B-', userId: user('demo15'), expiringWithin: 90, pageSize: 50 });
    expect(within.items.map((i: { certNo: string }) => i.certNo).sort()).toEqual(['B-0', 'B-90']);
  });
  it('modifies and deletes with the log; unknown ids answer 资格证书不存在', async () => {
    const c = await ok('certificate/save', { ...base, certNo: 'AQ-MOD' });
    const m = await ok('certificate/save', { ...base, id: c.id, certNo: 'AQ-MOD', level: 'C', validTo: '2030-01-01' }, 'demo6');
    expect(m).toMatchObject({ level: 'C', validTo: '2030-01-01', state: 'valid' });
    await storeAttachment(s.app, { ownerKind: 'certificate', ownerId: c.id, kind: 0, name: '扫描件.pdf', body: Buffer.from('%PDF-1.4\n%%EOF\n'), by: '测试' });
    expect(await listAttachments(db(), 'certificate', [c.id])).toHaveLength(1);
    await ok('certificate/delete', { id: c.id });
    // The scans go with the certificate.
    expect(await listAttachments(db(), 'certificate', [c.id])).toEqual([]);
    await refused('certificate/detail', { id: c.id }, '资格证书不存在');
    await refused('certificate/save', { ...base, id: c.id, certNo: 'AQ-MOD' }, '资格证书不存在');
    const l = await logs('AQ-MOD');
    expect(l.map((x) => x.type).sort()).toEqual([40, 50, 60]);
    expect(l.find((x) => x.type === 50)!.description).toContain('2027-02-28） → ');
  });
  it('lists by kind and level; exports the filter with state and days left', async () => {
    const list = await ok('certificate/list', { kindId: kind, level: 'B', userId: user('demo15'), pageSize: 100 });
    expect(list.items.every((i: { level: string; kindId: string }) => i.level === 'B' && i.kindId === kind)).toBe(true);
    const { res, ws } = await s.download(`${T}/certificate/export`, { keyword: 'B-9', userId: user('demo15') }, tokens.demo15!);
    expect(res.statusCode).toBe(200);
    const rows = [2, 3].map((n) => [ws!.getRow(n).getCell(6).value, ws!.getRow(n).getCell(10).value, ws!.getRow(n).getCell(11).value]);
    expect(rows).toEqual(expect.arrayContaining([['B-90', '即将到期', 90], ['B-91', '有效', 91]]));
  });
  it('summary: counts by kind and level add up; alerts soonest first within 90 days; the card', async () => {
    const sum = await ok('certificate/summary', {});
    const total = Number((await db().selectFrom('tender_certificates').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(sum.total).toBe(total);
    expect(sum.valid + sum.expiring + sum.expired).toBe(sum.total);
    for (const k of sum.kinds) {
      expect(k.valid + k.expiring + k.expired).toBe(k.total);
      expect(k.byLevel.reduce((a: number, l: { total: number }) => a + l.total, 0)).toBe(k.total);
    }
    const aq = sum.kinds.find((k: { kindId: string }) => k.kindId === kind);
    expect(aq.byLevel.map((l: { level: string }) => l.level)).toEqual(expect.arrayContaining(['B']));
    const alerts = await ok('certificate/alerts', { pageSize: 500 });
    expect(alerts.total).toBe(sum.expiring + sum.expired);
    const ends = alerts.items.map((i: { validTo: string }) => i.validTo);
    expect(ends).toEqual([...ends].sort());
    expect(alerts.items.every((i: { daysLeft: number }) => i.daysLeft <= CERT_WARN_DAYS)).toBe(true);
    const card = await ok('certificate/card', {}, 'demo6');
    expect(card).toEqual({ expired: sum.expired, expiring: sum.expiring, warnDays: CERT_WARN_DAYS });
  });
});

describe('certificate kinds', () => {
  it('a kind deleted under a certificate being saved is recognised on either engine (a Chinese 409, not a 500)', async () => {
    const row = { id: demoId('fk-probe'), user_id: user('demo15'), kind_id: demoId('no-such-kind'), cert_no: 'FK-1', valid_from: '2026-01-01', valid_to: null, level: '', speciality: '', issuer: '', company: '', remark: '', updated_by: '', created_at: 'x', updated_at: 'x' };
    const err = await db().insertInto('tender_certificates').values(row).execute().then(() => null, (e: unknown) => e);
    expect(isForeignKeyViolation(err)).toBe(true);
    expect(isUniqueViolation(err)).toBe(false);
  });

  it('adds, renames, refuses a duplicate name, keeps levels in use, deletes only unused kinds', async () => {
    const kinds = await ok('cert-kind/save', { name: '测试工程师', levels: ['甲', '乙'], validYears: 2 }, 'demo6');
    const k = kinds.find((x: { name: string }) => x.name === '测试工程师');
    expect(k).toMatchObject({ levels: ['甲', '乙'], validYears: 2, certCount: 0 });
    await refused('cert-kind/save', { name: '测试工程师' }, '证书种类「测试工程师」已存在', 'demo6');
    await refused('cert-kind/save', { name: '重复级别', levels: ['甲', '甲'] }, '级别不能重复', 'demo6');
    const c = await ok('certificate/save', { userId: user('demo6'), kindId: k.id, level: '乙', certNo: 'CS-1', validFrom: '2025-01-01' });
    expect(c.validTo).toBe('2026-12-31');
    await refused('cert-kind/save', { id: k.id, name: '测试工程师', levels: ['甲'] }, '级别「乙」已有证书使用，不能删除', 'demo1');
    await refused('cert-kind/delete', { id: k.id }, '证书种类「测试工程师」已有 1 本证书，不能删除', 'demo1');
    await ok('certificate/delete', { id: c.id });
    await ok('cert-kind/save', { id: k.id, name: '测试工程师（改）', levels: ['甲'], validYears: null }, 'demo1');
    const after = await ok('cert-kind/delete', { id: k.id }, 'demo1');
    expect(after.some((x: { id: string }) => x.id === k.id)).toBe(false);
    expect((await logs('证书种类')).map((x) => x.type)).toEqual(expect.arrayContaining([40, 50, 60]));
  });
});

describe('renewal window (延期办理期)', () => {
  const kindRow = async (name: string) => ((await ok('cert-kind/list', {}, 'demo6')) as Array<{ name: string; renewMonths: number | null }>).find((x) => x.name === name)!;
  it('the seeded 安全生产考核合格证书 and 安全生产许可证 have 3 months, the 建造师 none', async () => {
    expect((await kindRow('安全生产考核合格证书')).renewMonths).toBe(3);
    expect((await kindRow('安全生产许可证')).renewMonths).toBe(3);
    expect((await kindRow('一级建造师')).renewMonths).toBeNull();
  });
  it('the kind setting round-trips, is validated (1 to 24 months) and logged', async () => {
    const kinds = await ok('cert-kind/save', { name: '延期测试证书', validYears: 3, renewMonths: 3 }, 'demo6');
    const k = kinds.find((x: { name: string }) => x.name === '延期测试证书');
    expect(k.renewMonths).toBe(3);
    await refused('cert-kind/save', { id: k.id, name: '延期测试证书', validYears: 3, renewMonths: 0 }, '延期办理期至少1个月', 'demo6');
    await refused('cert-kind/save', { id: k.id, name: '延期测试证书', validYears: 3, renewMonths: 25 }, '延期办理期不能超过24个月', 'demo6');
    await refused('cert-kind/save', { id: k.id, name: '延期测试证书', validYears: 1, renewMonths: 13 }, '延期办理期不能超过默认有效年限', 'demo1');
    await ok('cert-kind/save', { id: k.id, name: '延期测试证书', validYears: 3, renewMonths: 6 }, 'demo1');
    expect((await kindRow('延期测试证书')).renewMonths).toBe(6);
    await ok('cert-kind/save', { id: k.id, name: '延期测试证书', validYears: 3, renewMonths: null }, 'demo1');
    expect((await kindRow('延期测试证书')).renewMonths).toBeNull();
    const l = await logs('延期测试证书');
    expect(l.find((x) => x.type === 40)!.description).toContain('延期办理期：3个月');
    expect(l.map((x) => x.description)).toEqual(expect.arrayContaining([expect.stringContaining('延期办理期：3个月） → 延期测试证书（级别：不分级；有效年限：3年；延期办理期：6个月）')]));
    await ok('cert-kind/delete', { id: k.id }, 'demo1');
  });
  it('可办理延期: 2 months before the end of a 3-month kind, not 4 months before, not a kind without a window; the filter and 证书汇总 agree', async () => {
    const mk = async (certNo: string, kindId: string, validTo: string, extra: Record<string, unknown> = {}) =>
      ok('certificate/save', { userId: user('demo15'), kindId, level: '', certNo, validFrom: '2020-01-01', validTo, ...extra });
    const in2 = await mk('YQ-2', certKindId('aq'), addMonths(today, 2), { level: 'A' });
    const in4 = await mk('YQ-4', certKindId('aq'), addMonths(today, 4), { level: 'A' });
    const jz = await mk('YQ-JZ', certKindId('jz1'), addMonths(today, 2), { speciality: '建筑工程' });
    expect(in2).toMatchObject({ renewable: true, renewFrom: addMonths(addMonths(today, 2), -3) });
    expect(in4).toMatchObject({ renewable: false, renewFrom: addMonths(addMonths(today, 4), -3) });
    expect(jz).toMatchObject({ renewable: false, renewFrom: null });
    expect((await ok('certificate/detail', { id: in2.id })).renewable).toBe(true);
    const list = await ok('certificate/list', { state: 'renewable', pageSize: 500 });
    const nos = list.items.map((i: { certNo: string }) => i.certNo);
    expect(nos).toContain('YQ-2');
    expect(nos).not.toContain('YQ-4');
    expect(nos).not.toContain('YQ-JZ');
    expect(list.items.every((i: { renewable: boolean; state: string }) => i.renewable && i.state !== 'expired')).toBe(true);
    // The filter (SQL) finds exactly the certificates the shared rule says are in their window today.
    const all = await db().selectFrom('tender_certificates as c').innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id').innerJoin('users as u', 'u.id', 'c.user_id').where('u.status', '=', 1).select(['c.valid_to', 'k.renew_months']).execute();
    expect(all.filter((c) => inRenewalWindow(c.valid_to, c.renew_months, today)).length).toBe(list.total);
    const sum = await ok('certificate/summary', {});
    expect(sum.renewable).toBe(list.total);
    expect(sum.renewable).toBeGreaterThan(0);
    await refused('certificate/list', { state: 'soon' }, '证书状态不正确');
    const { ws } = await s.download(`${T}/certificate/export`, { keyword: 'YQ-', state: 'renewable', userId: user('demo15') }, tokens.demo15!);
    expect([ws!.getRow(1).getCell(12).value, ws!.getRow(2).getCell(6).value, ws!.getRow(2).getCell(12).value, ws!.getRow(3).getCell(6).value]).toEqual(['可办理延期起', 'YQ-2', `${in2.renewFrom}（可办理）`, null]);
  });
});
