/**
 * Issue 29 item 9, the filing calendar (申报日历) on the server: 系统管理 / 申报日历 (role 1 only; the
 * published years, the entered ones and the computed ones with their basis; an administrator enters or
 * replaces a year, checked, in the operation log, and takes it back; a published year cannot be replaced) and the deadline
 * the ticking and statistics pages show (the simulated service's, from the calendar: 202505 → 2025-06-16,
 * an entered 2027 taking effect at once), and in Nuonuo mode the service's own deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType } from '@zhyy/shared';
import { IncomeMethods, clearTokenCache, createTaxGateway } from '../src/integrations/tax/index.js';
import { startTestServer, type TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo } from './tax-fake-nuonuo.js';
import { SELLER_TAX, TestClock } from './tax-helpers.js';

const C = '/api/system/filing-calendar';
const Y2027 = ['2027-01-18', '2027-02-22', '2027-03-15', '2027-04-19', '2027-05-20', '2027-06-15', '2027-07-15', '2027-08-16', '2027-09-15', '2027-10-22', '2027-11-15', '2027-12-15'];
let s: TestServer;
let admin: string;
let t1: string;
let t3: string;
let t13: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, t1, t3, t13] = (await Promise.all(['admin', 'demo1', 'demo3', 'demo13'].map((n) => s.login(n)))) as [string, string, string, string];
});
afterAll(async () => {
  delete process.env.TAX_SIMULATOR_NOW;
  await s?.close();
});

describe('permissions: role 1 only', () => {
  it('roles 3 (系统管理) and 13 (进项) get 权限不足 on each call', async () => {
    for (const t of [t3, t13]) {
      for (const [path, body] of [['list', {}], ['save', { year: 2027, deadlines: Y2027 }], ['delete', { year: 2027 }]] as const) {
        const a = await s.call(`${C}/${path}`, body, t);
        expect([a.status, a.message]).toEqual([403, '权限不足']);
      }
    }
    expect(await s.db.kysely.selectFrom('filing_calendars').selectAll().execute()).toEqual([]);
  });
});

describe('the calendar by year', () => {
  it('lists the published years with their notices, and the computed ones with their basis', async () => {
    const a = await s.call(`${C}/list`, {}, t1);
    expect(a.code, a.message).toBe(20000);
    const byYear = new Map<number, any>(a.r.years.map((y: any) => [y.year, y]));
    expect(byYear.get(2025)).toMatchObject({ source: 'published', sourceLabel: '税务总局公布', basis: '税总办征科函〔2024〕71号', editable: false, enteredDays: null });
    expect(byYear.get(2025).days[5]).toBe('2025-06-16');
    expect(byYear.get(2025).days[9]).toBe('2025-10-27');
    expect(byYear.get(2025).days[10]).toBe('2025-11-17');
    expect(byYear.get(2026)).toMatchObject({ source: 'published', basis: '税总办征科函〔2025〕64号' });
    expect(byYear.get(2024)).toMatchObject({ source: 'published', basis: '国家税务总局办公厅关于明确2024年度申报纳税期限的通知' });
    expect(byYear.get(2027)).toMatchObject({ source: 'computed', sourceLabel: '按规则推算', basis: '按实施细则第一百零九条推算（该年节假日安排未收录，仅顺延周末）', editable: true });
    expect(byYear.get(2027).days[0]).toBe('2027-01-15');
  });
});

describe('an administrator enters a year', () => {
  const refused = async (body: unknown, message: string) => {
    const a = await s.call(`${C}/save`, body, admin);
    expect([a.status, a.code, a.message]).toEqual([400, 30000, message]);
  };

  it('each check in Chinese, word for word; nothing saved', async () => {
    await refused({ year: 2027, deadlines: Y2027.slice(0, 11) }, '参数错误：须填写1月至12月共12个申报期限');
    await refused({ year: 2027, deadlines: Y2027.map((d, i) => (i === 1 ? '2027-02-30' : d)) }, '参数错误：2月的申报期限不是有效的日期');
    await refused({ year: 2027, deadlines: Y2027.map((d, i) => (i === 9 ? '2027-11-01' : d)) }, '参数错误：10月的申报期限须在2027年10月内');
    await refused({ year: 2027, deadlines: Y2027.map((d, i) => (i === 3 ? '2027-04-14' : d)) }, '参数错误：4月的申报期限不能早于4月15日');
    await refused({ year: 1999, deadlines: Y2027 }, '参数错误：年度不能早于2000年');
    await refused({ year: 2027 }, '参数错误：请填写申报期限');
    // A published year: the notice wins, it cannot be replaced.
    await refused({ year: 2025, deadlines: Y2027.map((d) => d.replace('2027', '2025')) }, '2025年的申报日历已按税务总局公布的通知内置，不能修改');
    expect(await s.db.kysely.selectFrom('filing_calendars').selectAll().execute()).toEqual([]);
  });

  it('enters and replaces a year (the operation log says which), and the list shows it as entered', async () => {
    const a = await s.call(`${C}/save`, { year: 2027, deadlines: Y2027 }, admin);
    expect([a.code, a.message], a.message).toEqual([20000, '保存成功']);
    const y = a.r.years.find((x: any) => x.year === 2027);
    expect(y).toMatchObject({ source: 'entered', sourceLabel: '管理员录入', basis: '管理员录入', days: Y2027, enteredDays: Y2027, editable: true });
    expect(y.updatedBy).not.toBe('');
    const replaced = Y2027.map((d, i) => (i === 0 ? '2027-01-19' : d));
    expect((await s.call(`${C}/save`, { year: 2027, deadlines: replaced }, t1)).code).toBe(20000);
    const row = await s.db.kysely.selectFrom('filing_calendars').selectAll().where('year', '=', 2027).executeTakeFirstOrThrow();
    expect(JSON.parse(row.days)).toEqual(replaced);
    const logs = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', '%2027年申报日历%').orderBy('created_at').execute();
    expect(logs.map((l) => [Number(l.type), l.login_name, l.description])).toEqual([
      [OperationLogType.add, 'admin', '录入2027年申报日历：1月18日、2月22日、3月15日、4月19日、5月20日、6月15日、7月15日、8月16日、9月15日、10月22日、11月15日、12月15日'],
      [OperationLogType.edit, 'demo1', '修改2027年申报日历：1月19日、2月22日、3月15日、4月19日、5月20日、6月15日、7月15日、8月16日、9月15日、10月22日、11月15日、12月15日'],
    ]);
    // Back to the first entry for the pages below.
    expect((await s.call(`${C}/save`, { year: 2027, deadlines: Y2027 }, admin)).code).toBe(20000);
  });
});

describe('the deadline the ticking and statistics pages show (simulator)', () => {
  const at = (iso: string) => {
    process.env.TAX_SIMULATOR_NOW = iso;
  };

  it('202505 → 2025-06-16 23:59:59 (not the 15th, a Sunday): on 2025-06-16 the period is still open', async () => {
    at('2025-06-16T10:00:00.123Z');
    const p = await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13);
    expect(p.code, p.message).toBe(20000);
    expect(p.r).toMatchObject({ period: '202505', deadline: '2025-06-16T15:59:59.000Z', deadlineText: '2025-06-16 23:59:59', open: true });
    const v = await s.call('/api/income/statistics/deduction/view', {}, t13);
    expect([v.r.period, v.r.deadlineText]).toEqual(['202505', '2025-06-16 23:59:59']);
  });

  it('202509 → 2025-10-27, past the October holiday: on 2025-10-20 the September period is still the one ticked', async () => {
    at('2025-10-20T02:00:00.123Z');
    const p = await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13);
    expect(p.r).toMatchObject({ period: '202509', deadlineText: '2025-10-27 23:59:59' });
  });

  it('a year entered by the administrator takes effect at once: 202612 → 2027-01-18', async () => {
    at('2027-01-10T02:00:00.123Z');
    const p = await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13);
    expect(p.r).toMatchObject({ period: '202612', deadlineText: '2027-01-18 23:59:59' });
    const v = await s.call('/api/income/statistics/deduction/view', {}, t13);
    expect([v.r.period, v.r.deadlineText]).toEqual(['202612', '2027-01-18 23:59:59']);
    // Taken back: computed again (2027-01-15, a Friday), at once; the operation log says so.
    const d = await s.call(`${C}/delete`, { year: 2027 }, admin);
    expect([d.code, d.message]).toEqual([20000, '删除成功']);
    expect(d.r.years.find((x: any) => x.year === 2027)).toMatchObject({ source: 'computed', enteredDays: null });
    const computed = await s.call('/api/income/deduction/period', { scope: 'deduction' }, t13);
    expect(computed.r.deadlineText).toBe('2027-01-15 23:59:59');
    const again = await s.call(`${C}/delete`, { year: 2027 }, admin);
    expect([again.status, again.message]).toEqual([400, '2027年的申报日历未录入，无需删除']);
    const log = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description']).where('description', '=', '删除2027年申报日历（改为按规则推算）').execute();
    expect(log.map((l) => Number(l.type))).toEqual([OperationLogType.delete]);
  });
});

describe('Nuonuo mode: the deadline is the service\'s', () => {
  let fake: FakeNuonuo;
  afterAll(() => fake?.close());

  it('takes gxjzrq as it comes (2026-10-20 where the calendar says 2026-10-26); the calendar only when the service leaves it out', async () => {
    fake = await startFakeNuonuo('SD63236305', 'SDDED2523BED4643', (method) => {
      if (method === IncomeMethods.period) return { code: 'E0000', describe: '成功', result: { skssq: '202609', gxjzrq: '2026-10-20', kprqq: '2017-01-01', kprqz: '2026-09-30', tjzt: '0' } };
      if (method === IncomeMethods.statFigures) return { code: 'E0000', describe: '成功', result: { tjzt: '0', list: [] } };
      return undefined;
    });
    clearTokenCache();
    const gw = createTaxGateway(
      { db: s.db, synclog: s.app.synclog, clock: new TestClock(Date.parse('2026-10-10T02:00:00Z')) },
      { mode: 'nuonuo', nuonuo: { appKey: 'SD63236305', appSecret: 'SDDED2523BED4643', taxNumber: SELLER_TAX, endpoint: fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } },
    );
    expect((await gw.tickPeriod()).deadline).toBe('2026-10-20T15:59:59.000Z');
    expect((await gw.statFigures({ period: '202609', scope: 'deduction' })).deadline).toBe('2026-10-26T15:59:59.000Z');
  });
});
