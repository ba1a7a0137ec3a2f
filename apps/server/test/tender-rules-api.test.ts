/**
 * Issue 17, rule gaps closed after the first round: a 竣工验收 day after today is refused; a certificate
 * kind's hasSpeciality is enforced (required when the kind has specialities, refused when it has none);
 * 证书汇总, its alerts and the 工作台 card count only the certificates of active users; a project's detail
 * lists the certificates in use (its manager's); a certificate added, edited or deleted refreshes the stored
 * 注册建造师 flag of the projects its holder leads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractType, ProjectState } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { shanghaiDay } from '../src/platform/listing.js';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer();
  for (const n of ['demo1', 'demo4', 'demo6', 'demo15']) tokens[n] = await s.login(n);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who: string) => s.call(`/api/tender/${path}`, body, tokens[who]);
async function answer(path: string, body: unknown, who: string): Promise<[number, string]> {
  const a = await call(path, body, who);
  return [a.status, a.code === 20000 ? 'ok' : (a.message ?? '')];
}

describe('竣工验收 day', () => {
  const contract = (code: string, acceptedOn: string) => ({
    contractType: ContractType.single, code, name: '验收日期测试合同', customer: '南京测试客户有限公司', amount: 1_000_000, signedOn: '2025-03-01', acceptedOn, remark: '',
  });
  it('a day after today is refused on add and on edit; today is accepted', async () => {
    const today = shanghaiDay();
    const tomorrow = addDays(today, 1);
    expect(await answer('contract/add', contract(`T-YS-${process.pid}-1`, tomorrow), 'demo1')).toEqual([400, '竣工验收日期不能晚于今天']);
    const added = await call('contract/add', contract(`T-YS-${process.pid}-2`, today), 'demo1');
    expect(added.code).toBe(20000);
    expect(added.r.acceptedOn).toBe(today);
    expect(await answer('contract/edit', { ...contract(added.r.code, addDays(today, 30)), id: added.r.id }, 'demo6')).toEqual([400, '竣工验收日期不能晚于今天']);
    const kept = await db().selectFrom('contracts').select('accepted_on').where('id', '=', added.r.id).executeTakeFirstOrThrow();
    expect(kept.accepted_on).toBe(today);
  });
});

describe('certificate specialities', () => {
  const base = { userId: demoId('user:demo15'), validFrom: '2025-03-01' };
  it('a kind with specialities needs one; a kind without refuses one', async () => {
    expect(await answer('certificate/save', { ...base, kindId: certKindId('jz2'), certNo: 'ZY-T-1' }, 'demo15')).toEqual([400, '请填写二级建造师的专业']);
    expect(await answer('certificate/save', { ...base, kindId: certKindId('jz2'), certNo: 'ZY-T-1', speciality: '   ' }, 'demo15')).toEqual([400, '请填写二级建造师的专业']);
    expect(await answer('certificate/save', { ...base, kindId: certKindId('jz2'), certNo: 'ZY-T-1', speciality: '市政公用工程' }, 'demo15')).toEqual([200, 'ok']);
    expect(await answer('certificate/save', { ...base, kindId: certKindId('aq'), level: 'B', certNo: 'ZY-T-2', speciality: '建筑工程' }, 'demo15')).toEqual([400, '安全生产考核合格证书不分专业，请不要填写专业']);
    expect(await answer('certificate/save', { ...base, kindId: certKindId('aq'), level: 'B', certNo: 'ZY-T-2' }, 'demo15')).toEqual([200, 'ok']);
  });
});

describe('证书汇总 and disabled users', () => {
  it('the summary, the alerts and the card leave out the certificates of disabled users', async () => {
    const before = (await call('certificate/summary', {}, 'demo15')).r;
    const alertsBefore = (await call('certificate/alerts', { pageIndex: 1, pageSize: 10 }, 'demo15')).r.total;
    const cardBefore = (await call('certificate/card', {}, 'demo15')).r;
    // A holder with expired and expiring certificates, and a title.
    const holder = demoId('user:demo9');
    const today = shanghaiDay();
    const saved: string[] = [];
    for (const [no, to] of [['DIS-1', addDays(today, -5)], ['DIS-2', addDays(today, 20)], ['DIS-3', addDays(today, 400)]] as const) {
      const a = await call('certificate/save', { userId: holder, kindId: certKindId('aq'), level: 'A', certNo: no, validFrom: '2024-01-01', validTo: to }, 'demo15');
      expect(a.code, a.message).toBe(20000);
      saved.push(a.r.id);
    }
    const mid = (await call('certificate/summary', {}, 'demo15')).r;
    expect([mid.total, mid.expired, mid.expiring]).toEqual([before.total + 3, before.expired + 1, before.expiring + 1]);
    expect((await call('certificate/alerts', { pageIndex: 1, pageSize: 10 }, 'demo15')).r.total).toBe(alertsBefore + 2);

    await db().updateTable('users').set({ status: 0 }).where('id', '=', holder).execute();
    const all = Number((await db().selectFrom('tender_certificates').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const heldByDisabled = Number((await db().selectFrom('tender_certificates as c').innerJoin('users as u', 'u.id', 'c.user_id').select((eb) => eb.fn.countAll<number>().as('n')).where('u.status', '=', 0).executeTakeFirstOrThrow()).n);
    expect(heldByDisabled).toBeGreaterThanOrEqual(3);
    const after = (await call('certificate/summary', {}, 'demo15')).r;
    expect(after.total).toBe(all - heldByDisabled);
    expect(after.kinds.reduce((n: number, k: { total: number }) => n + k.total, 0)).toBe(after.total);
    const alerts = (await call('certificate/alerts', { pageIndex: 1, pageSize: 100 }, 'demo15')).r;
    expect(alerts.items.some((c: { id: string }) => saved.includes(c.id))).toBe(false);
    expect(alerts.total).toBeLessThanOrEqual(alertsBefore);
    const card = (await call('certificate/card', {}, 'demo15')).r;
    expect(card.expired + card.expiring).toBeLessThanOrEqual(cardBefore.expired + cardBefore.expiring);
    expect([card.expired, card.expiring]).toEqual([after.expired, after.expiring]);
    // The certificates themselves are kept: in the holder's own list, and in the list with 含停用人员.
    expect((await call('certificate/list', { pageIndex: 1, pageSize: 10, userId: holder }, 'demo15')).r.total).toBeGreaterThanOrEqual(3);
    const list = async (f: Record<string, unknown>) => (await call('certificate/list', { pageIndex: 1, pageSize: 500, ...f }, 'demo15')).r as { total: number; items: Array<{ id: string }> };
    expect((await list({ keyword: 'DIS-' })).total).toBe(0);
    expect((await list({ keyword: 'DIS-', includeDisabled: true })).items.map((c) => c.id).sort()).toEqual([...saved].sort());
    // Each card of 证书汇总 opens the list filtered by its state: the same count.
    expect([(await list({})).total, (await list({ state: 'expired' })).total, (await list({ state: 'expiring' })).total, (await list({ state: 'renewable' })).total]).toEqual([after.total, after.expired, after.expiring, after.renewable]);
    expect((await call('certificate/list', { pageIndex: 1, pageSize: 10, includeDisabled: 'yes' }, 'demo15')).message).toContain('参数不正确');
    await db().updateTable('users').set({ status: 1 }).where('id', '=', holder).execute();
  });
});

describe('certificates in use on a project', () => {
  it("the detail lists its manager's certificates with their state; none without a manager", async () => {
    const manager = demoId('user:demo6');
    const today = shanghaiDay();
    const saved = await call('certificate/save', { userId: manager, kindId: certKindId('aq'), level: 'C', certNo: 'XM-ZS-1', validFrom: '2024-01-01', validTo: addDays(today, -1) }, 'demo15');
    expect(saved.code, saved.message).toBe(20000);
    const p = await call('project/save', { code: `T-XM-ZS-${process.pid}`, name: '证书项目', state: 3, managerId: manager }, 'demo4');
    expect(p.code, p.message).toBe(20000);
    const d = (await call('project/detail', { id: p.r.id }, 'demo4')).r;
    const own = await db().selectFrom('tender_certificates').select('id').where('user_id', '=', manager).execute();
    expect(d.certificates.map((c: { id: string }) => c.id).sort()).toEqual(own.map((c) => c.id).sort());
    expect(d.certificates.find((c: { certNo: string }) => c.certNo === 'XM-ZS-1')).toMatchObject({ holderName: expect.any(String), state: 'expired', kindName: '安全生产考核合格证书' });
    const none = await call('project/save', { code: `T-XM-ZS-${process.pid}-2`, name: '无经理项目', state: 3 }, 'demo4');
    expect((await call('project/detail', { id: none.r.id }, 'demo4')).r.certificates).toEqual([]);
  });
});

/** An active staff member (not admin) with no 建造师 certificate and no project: the first or last by login name. */
const freeStaff = (order: 'asc' | 'desc') =>
  db()
    .selectFrom('users as u')
    .select('u.id')
    .where('u.status', '=', 1)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('user_roles as r').select('r.user_id').whereRef('r.user_id', '=', 'u.id').where('r.role', '=', 'admin'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('tender_certificates as c').select('c.id').whereRef('c.user_id', '=', 'u.id').where('c.kind_id', 'in', [certKindId('jz1'), certKindId('jz2')]))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.manager_id', '=', 'u.id'))))
    .orderBy('u.login_name', order)
    .executeTakeFirstOrThrow();

describe('the stored 注册建造师 flag follows the certificates', () => {
  it('adding a valid 一级建造师 certificate marks the holder\'s project; an expired end unmarks it; deleting it unmarks it', async () => {
    const today = shanghaiDay();
    // A staff member with no 建造师 certificate and no project.
    const free = await freeStaff('asc');
    const code = `T-ZC-${process.pid}`;
    const p = await call('project/save', { code, name: '注册建造师标记项目', state: ProjectState.building, managerId: free.id }, 'demo4');
    expect(p.code, p.message).toBe(20000);
    const flag = async () => {
      const d = (await call('project/detail', { id: p.r.id }, 'demo4')).r;
      const row = (await call('project/list', { keyword: code }, 'demo1')).r.items.find((x: { id: string }) => x.id === p.r.id);
      expect(row.managerRegistered).toBe(d.managerRegistered);
      return d.managerRegistered as boolean;
    };
    expect(await flag()).toBe(false);
    const body = { userId: free.id, kindId: certKindId('jz1'), speciality: '建筑工程', certNo: `ZC-${process.pid}`, validFrom: '2024-01-01', validTo: addDays(today, 400) };
    const c = await call('certificate/save', body, 'demo15');
    expect(c.code, c.message).toBe(20000);
    expect(await flag()).toBe(true);
    const log = await db().selectFrom('operation_logs').select('description').where('description', 'like', `%ZC-${process.pid}%`).execute();
    expect(log.map((l) => l.description).join()).toContain(`项目注册建造师标记：${code} 注册建造师标记项目 否 → 是`);
    // Edited to have ended yesterday: no longer registered.
    expect((await call('certificate/save', { ...body, id: c.r.id, validTo: addDays(today, -1) }, 'demo15')).code).toBe(20000);
    expect(await flag()).toBe(false);
    expect((await call('certificate/save', { ...body, id: c.r.id }, 'demo6')).code).toBe(20000);
    expect(await flag()).toBe(true);
    expect((await call('certificate/delete', { id: c.r.id }, 'demo15')).code).toBe(20000);
    expect(await flag()).toBe(false);
  });

  it('of two active projects led before the certificate, one is marked (the rule allows one), the finished one too', async () => {
    const free = await freeStaff('desc');
    const save = async (suffix: string, state: number) => {
      const a = await call('project/save', { code: `T-ZC2-${process.pid}-${suffix}`, name: `两个在建项目${suffix}`, state, managerId: free.id }, 'demo4');
      expect(a.code, a.message).toBe(20000);
      return a.r.id as string;
    };
    const ids = [await save('A', ProjectState.building), await save('B', ProjectState.suspended), await save('C', ProjectState.finished)];
    const c = await call('certificate/save', { userId: free.id, kindId: certKindId('jz2'), speciality: '建筑工程', certNo: `ZC2-${process.pid}`, validFrom: '2024-01-01', validTo: addDays(shanghaiDay(), 400) }, 'demo15');
    expect(c.code, c.message).toBe(20000);
    const flags = async () => Promise.all(ids.map(async (id) => (await call('project/detail', { id }, 'demo4')).r.managerRegistered as boolean));
    expect(await flags()).toEqual([true, false, true]);
    expect((await call('certificate/delete', { id: c.r.id }, 'demo15')).code).toBe(20000);
    expect(await flags()).toEqual([false, false, false]);
  });
});
