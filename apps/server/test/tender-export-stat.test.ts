/**
 * Issue 17, 导出日志 and 导出统计 (/api/tender/export-stat/*): roles 1 and 6 only (9, 23 and 4 get
 * 权限不足); the statistic's counts per month against exports inserted here in 2020 (done only, an
 * export counted once per item, person and exporter, the month of Asia/Shanghai), the top N, the range
 * checks; the log's filters, drill-down by item, downloads per export and the item list; both Excel
 * exports and their log rows; a purged demo export's download refused with the retention message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@zhyy/shared';
import { EXPORT_CATEGORY, EXPORT_PURGED_MESSAGE } from '../src/modules/tender/export/jobs.js';
import { fileExportActorOf } from '../src/modules/syslog/fileExports.js';
import { demoId } from '../src/platform/ids.js';
import '../src/modules/tender/export/tables.js';
import '../src/modules/tender/people/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const S = '/api/tender/export-stat';
const user = (login: string) => demoId(`user:${login}`);
const KW = 'ZZ统计测试';

const call = (path: string, body: unknown, who = 'demo6') => s.call(`${S}/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who = 'demo6') => {
  const a = await call(path, body, who);
  expect(a.code, a.message).toBe(20000);
  return a.r;
};

let C1: string, C2: string, A1: string, A2: string, B1: string, P: string, Q: string;
const E = { e1: demoId('stat-test:e1'), e2: demoId('stat-test:e2'), e3: demoId('stat-test:e3'), e4: demoId('stat-test:e4'), e5: demoId('stat-test:e5') };

async function insertExport(id: string, o: { kind: 'performance' | 'certificate'; state: 'done' | 'failed'; at: string; by: string; items: [string, string][]; key?: string }) {
  const u = await db().selectFrom('users').select(['id', 'name']).where('login_name', '=', o.by).executeTakeFirstOrThrow();
  await db().insertInto('tender_exports').values({
    id, kind: o.kind, format: 'pdf', title: `${KW}${id.slice(0, 4)}`, params: '{}', state: o.state, progress: 100, step: '', error: o.state === 'failed' ? '导出失败' : null, attempt: 1,
    file_name: `${KW}-${id}.pdf`, storage_key: o.key ?? null, size: o.state === 'done' ? 1234 : null, sha256: o.state === 'done' ? `sha-${id}` : null, item_count: o.items.length, page_count: 3,
    created_by: u.id, created_by_name: u.name, created_at: o.at, started_at: o.at, finished_at: o.at,
  }).execute();
  await db().insertInto('tender_export_items').values(o.items.map(([kind, itemId], i) => ({ export_id: id, position: i + 1, item_kind: kind as 'contract', item_id: itemId, label: `项${i + 1}` }))).execute();
}

beforeAll(async () => {
  s = await startTestServer();
  for (const n of ['demo1', 'demo4', 'demo6', 'demo9', 'demo23']) tokens[n] = await s.login(n);
  const contracts = await db().selectFrom('contracts').select('id').where('is_temp', '=', 0).orderBy('code').limit(2).execute();
  [C1, C2] = contracts.map((c) => c.id) as [string, string];
  const certs = await db().selectFrom('tender_certificates').select(['id', 'user_id']).orderBy('id').execute();
  const byUser = new Map<string, string[]>();
  for (const c of certs) byUser.set(c.user_id, [...(byUser.get(c.user_id) ?? []), c.id]);
  P = [...byUser].find(([, ids]) => ids.length >= 2)![0];
  Q = [...byUser.keys()].find((k) => k !== P)!;
  [A1, A2] = byUser.get(P)! as [string, string];
  B1 = byUser.get(Q)![0]!;
  await insertExport(E.e1, { kind: 'performance', state: 'done', at: '2020-01-10T02:00:00.000Z', by: 'demo6', items: [['contract', C1], ['contract', C2]] });
  // 2020-02-01 01:00 in Shanghai: February's.
  await insertExport(E.e2, { kind: 'performance', state: 'done', at: '2020-01-31T17:00:00.000Z', by: 'demo1', items: [['contract', C1]] });
  await insertExport(E.e3, { kind: 'certificate', state: 'done', at: '2020-03-05T02:00:00.000Z', by: 'demo6', items: [['certificate', A1], ['certificate', A2], ['certificate', B1]] });
  await insertExport(E.e4, { kind: 'performance', state: 'failed', at: '2020-03-06T02:00:00.000Z', by: 'demo6', items: [['contract', C1], ['contract', C2]] });
  await insertExport(E.e5, { kind: 'certificate', state: 'done', at: '2020-03-07T02:00:00.000Z', by: 'demo1', items: [['certificate', A1]] });
  // Two downloads of e1's file, one of another file with e1's name but another hash.
  for (const [i, login, sha] of [[1, 'demo6', `sha-${E.e1}`], [2, 'demo9', `sha-${E.e1}`], [3, 'demo9', 'other']] as const) {
    const who = await fileExportActorOf(db(), user(login));
    await db().insertInto('file_export_logs').values({
      id: demoId(`stat-test:dl${i}`), kind: 'download', category: EXPORT_CATEGORY, description: '下载', file_name: `${KW}-${E.e1}.pdf`, row_count: null, size: 1234, sha256: sha, item_count: 2,
      user_id: who!.id, login_name: who!.loginName, user_name: who!.name, dept_name: who!.deptName, day: '2020-01-11', created_at: `2020-01-11T0${i}:00:00.000Z`,
    }).execute();
  }
});
afterAll(() => s?.close());

const range = { fromMonth: '2020-01', toMonth: '2020-03' };

describe('permissions', () => {
  const calls: Array<[string, unknown]> = [['list', {}], ['detail', { id: E.e1 }], ['export', {}], ['statistic', range], ['statistic/export', range]];
  it('roles 9, 23 and 4 get 权限不足 on every call', async () => {
    for (const who of ['demo9', 'demo23', 'demo4']) {
      for (const [path, body] of calls) {
        const a = await call(path, body, who);
        expect([path, who, a.status, a.message]).toEqual([path, who, 403, Messages.forbidden]);
      }
    }
  });
  it('roles 1 and 6 read them', async () => {
    for (const who of ['demo1', 'demo6']) {
      for (const [path, body] of calls) {
        const a = await call(path, body, who);
        expect([path, who, a.status]).toEqual([path, who, 200]);
      }
    }
  });
});

describe('导出统计', () => {
  it('contracts: done exports per Shanghai month, the failed one not counted', async () => {
    const r = await ok('statistic', { ...range, dimension: 'contract' });
    expect(r.months).toEqual(['2020-01', '2020-02', '2020-03']);
    expect(r.exportsPerMonth).toEqual([1, 1, 2]);
    expect(r.exports).toBe(4);
    expect(r.rows.map((x: any) => [x.key, x.counts, x.total])).toEqual([[C1, [1, 1, 0], 2], [C2, [1, 0, 0], 1]]);
    expect(r.itemTotal).toBe(2);
  });
  it('certificates, people (an export counted once per person) and exporters', async () => {
    const certs = await ok('statistic', { ...range, dimension: 'certificate' });
    expect(certs.rows[0]).toMatchObject({ key: A1, counts: [0, 0, 2], total: 2 });
    expect(certs.rows.slice(1).map((x: any) => x.key).sort()).toEqual([A2, B1].sort());
    const people = await ok('statistic', { ...range, dimension: 'person' });
    expect(people.rows.map((x: any) => [x.key, x.counts])).toEqual([[P, [0, 0, 2]], [Q, [0, 0, 1]]]);
    const names = await db().selectFrom('users').select(['id', 'name']).where('id', 'in', [P, Q]).execute();
    expect(people.rows[0].label).toBe(names.find((n) => n.id === P)!.name);
    const users = await ok('statistic', { ...range, dimension: 'user' });
    expect(Object.fromEntries(users.rows.map((x: any) => [x.key, x.counts]))).toEqual({ [user('demo6')]: [1, 0, 1], [user('demo1')]: [0, 1, 1] });
  });
  it('top N, one month, and the range checks in Chinese', async () => {
    const top = await ok('statistic', { ...range, dimension: 'contract', top: 1 });
    expect(top.rows.map((x: any) => x.key)).toEqual([C1]);
    expect(top.itemTotal).toBe(2);
    const feb = await ok('statistic', { fromMonth: '2020-02', toMonth: '2020-02', dimension: 'contract' });
    expect(feb.rows.map((x: any) => [x.key, x.counts])).toEqual([[C1, [1]]]);
    for (const [body, message] of [
      [{ fromMonth: '2020-03', toMonth: '2020-01' }, '开始月份不能晚于结束月份'],
      [{ fromMonth: '2020-01', toMonth: '2022-01' }, '统计区间最多24个月'],
      [{ ...range, dimension: 'x' }, '统计维度不正确'],
      [{ fromMonth: '2020-13', toMonth: '2020-12' }, '开始月份格式应为YYYY-MM'],
    ] as const) {
      const a = await call('statistic', body);
      expect([a.status, a.message]).toEqual([400, `参数错误：${message}`]);
    }
  });
  it('the Excel export: every item of the dimension with its months, logged', async () => {
    const { res, ws } = await s.download(`${S}/statistic/export`, { ...range, dimension: 'contract' }, tokens.demo6!);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).values).toEqual([undefined, '排名', '合同', '2020-01', '2020-02', '2020-03', '合计']);
    expect(ws!.rowCount).toBe(3);
    expect((ws!.getRow(2).values as unknown[]).slice(3)).toEqual([1, 1, 0, 2]);
    const log = await db().selectFrom('file_export_logs').selectAll().where('category', '=', '投标文件导出统计').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect([log.login_name, log.row_count, log.description]).toEqual(['demo6', 2, '导出投标文件导出统计 2 条（合同，2020-01至2020-03）']);
  });
});

describe('导出日志', () => {
  it('lists the exports with filters, newest first; downloads counted per export by name and hash', async () => {
    const all = await ok('list', { keyword: KW });
    expect(all.items.map((x: any) => x.id)).toEqual([E.e5, E.e4, E.e3, E.e2, E.e1]);
    const e1 = all.items.find((x: any) => x.id === E.e1);
    expect(e1).toMatchObject({ downloads: 2, purged: true, size: 1234, sha256: `sha-${E.e1}`, itemCount: 2, createdByLogin: 'demo6' });
    expect(all.items.find((x: any) => x.id === E.e4)).toMatchObject({ state: 'failed', purged: false, downloads: 0 });
    expect((await ok('list', { keyword: KW, state: 'failed' })).total).toBe(1);
    expect((await ok('list', { keyword: KW, kind: 'certificate' })).items.map((x: any) => x.id)).toEqual([E.e5, E.e3]);
    expect((await ok('list', { keyword: KW, user: 'demo1' })).items.map((x: any) => x.id)).toEqual([E.e5, E.e2]);
    // 2020-02-01 in Shanghai holds e2 (stored 2020-01-31 17:00 UTC) only.
    expect((await ok('list', { keyword: KW, from: '2020-02-01', to: '2020-02-29' })).items.map((x: any) => x.id)).toEqual([E.e2]);
    // An item's label is searched too.
    expect((await ok('list', { keyword: '项3', from: '2020-01-01', to: '2020-12-31' })).items.map((x: any) => x.id)).toEqual([E.e3]);
  });
  it('drills down from the statistic: the done exports that used a contract or a person', async () => {
    const base = { from: '2020-01-01', to: '2020-03-31', state: 'done' };
    expect((await ok('list', { ...base, dimension: 'contract', key: C1 })).items.map((x: any) => x.id)).toEqual([E.e2, E.e1]);
    expect((await ok('list', { ...base, dimension: 'person', key: P })).items.map((x: any) => x.id)).toEqual([E.e5, E.e3]);
    expect((await ok('list', { ...base, dimension: 'user', key: user('demo6') })).items.map((x: any) => x.id)).toEqual([E.e3, E.e1]);
  });
  it('the detail: items in order and each download with who and when', async () => {
    const d = await ok('detail', { id: E.e1 });
    expect(d.items.map((i: any) => [i.position, i.itemKind, i.itemId])).toEqual([[1, 'contract', C1], [2, 'contract', C2]]);
    expect(d.downloads.map((x: any) => x.loginName)).toEqual(['demo9', 'demo6']);
    const missing = await call('detail', { id: demoId('none') });
    expect([missing.status, missing.message]).toEqual([404, '导出记录不存在']);
    const bad = await call('detail', {});
    expect(bad.status).toBe(400);
  });
  it('the Excel export of the filtered log, logged with its row count', async () => {
    const { res, ws } = await s.download(`${S}/export`, { keyword: KW }, tokens.demo1!);
    expect(res.statusCode).toBe(200);
    expect(ws!.rowCount).toBe(6);
    const header = ws!.getRow(1).values as unknown[];
    const col = (h: string) => header.indexOf(h);
    const last = ws!.getRow(6).values as unknown[];
    expect([last[col('状态')], last[col('下载次数')], last[col('SHA-256')]]).toEqual(['已清理', 2, `sha-${E.e1}`]);
    const log = await db().selectFrom('file_export_logs').selectAll().where('category', '=', '投标文件导出日志').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect([log.login_name, log.row_count, log.description]).toEqual(['demo1', 5, `导出投标文件导出日志 5 条（关键字 ${KW}）`]);
  });
});

describe('a purged export', () => {
  it('is not downloadable: the retention message, and no download is logged', async () => {
    const actor = (await fileExportActorOf(db(), user('demo6')))!;
    const before = (await db().selectFrom('file_export_logs').select('id').where('kind', '=', 'download').execute()).length;
    await expect(s.app.tenderExports.exports.download(E.e1, actor)).rejects.toThrow(EXPORT_PURGED_MESSAGE);
    await expect(s.app.tenderExports.exports.download(E.e4, actor)).rejects.toThrow('该导出已失败，没有可下载的文件');
    expect((await db().selectFrom('file_export_logs').select('id').where('kind', '=', 'download').execute()).length).toBe(before);
  });
});
