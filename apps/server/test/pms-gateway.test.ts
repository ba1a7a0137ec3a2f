/**
 * Issue 16: the project-management gateway (项目管理系统) the cost orders arrive through. The simulator
 * answers, for a month that has ended and is at most 24 months back, deterministic orders of the
 * departments of 工程管理部 on the formal projects with items priced that month, and can be made to fail;
 * the HTTP client against a local fake PMS; the configuration from the environment; one sync log row
 * (system 5) per call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceForMonth, SyncSystem } from '@zhyy/shared';
import {
  createPmsGateway, PMS_SIM_DOWN, PMS_SIM_UNKNOWN_ITEM, PmsError, PmsMethods, pmsConfigFromEnv, pmsMonthAnswered, pmsSimControl, type PmsConfig,
} from '../src/integrations/pms/index.js';
import { newId } from '../src/platform/ids.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const k = () => s.db.kysely;
const at = new Date().toISOString();
const NOW = new Date('2026-11-23T04:00:00Z');
const ids = { eng: newId(), eng1: newId(), team: newId(), fin: newId() };

beforeAll(async () => {
  s = await startTestServer({ demo: false });
  const dept = (id: string, name: string, parent: string | null, sort: number) => ({ id, name, parent_id: parent, sort, manager_id: null, created_at: at, updated_at: at });
  await k().insertInto('departments').values([dept(ids.eng, '工程管理部', null, 1), dept(ids.eng1, '工程一部', ids.eng, 2), dept(ids.team, '一部一队', ids.eng1, 3), dept(ids.fin, '财务部', null, 4)]).execute();
  const project = (code: string, name: string, temp = 0) => ({ id: newId(), code, name, customer: '', amount: 0, source: 2, is_temp: temp, created_at: at, updated_at: at });
  await k().insertInto('projects').values([project('XM-A', '甲项目'), project('XM-B', '乙项目'), project('XM-C', '丙项目'), project('LS-1', '临时项目', 1), project('XM-F', '测试失败项目')]).execute();
  const price = (code: string, spec: string, unit: string, from: string, to: string | null) => ({
    id: newId(), item_code: code, item_name: code, category: 'labour', spec, unit, unit_price: '100', tax_rate: '0.03', valid_from: from, valid_to: to, updated_by: '', created_at: at, updated_at: at,
  });
  await k().insertInto('cost_prices').values([
    price('RG01', '高级', '工日', '2024-01-01', null), price('RG01', '普通', '工日', '2024-01-01', null), price('JX01', '', '台班', '2024-01-01', '2026-06-30'),
    price('JX01', '', '台班', '2026-07-01', null), price('CL01', '', '吨', '2024-01-01', null), price('CL02', '', '吨', '2024-01-01', null),
    // Only from mid-September 2026 (priceForMonth: it prices September).
    price('NEW1', '', '项', '2026-09-15', null),
    // Ended in 2025.
    price('OLD1', '', '项', '2024-01-01', '2025-06-30'),
  ]).execute();
});
afterAll(async () => {
  pmsSimControl.reset();
  await s?.close();
});

const sim = (now = NOW) => createPmsGateway({ db: s.db, synclog: s.app.synclog, now: () => now }, { mode: 'simulator' });
const logs = (ref: string) =>
  k().selectFrom('sync_logs').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'sync_logs.id').selectAll('sync_logs').where('f.ref', '=', ref).orderBy('sync_logs.created_at').execute();

describe('configuration', () => {
  it('defaults to the simulator; a URL alone means http; http needs the URL and the token', () => {
    expect(pmsConfigFromEnv({})).toEqual({ mode: 'simulator', delayMs: 500 });
    expect(pmsConfigFromEnv({ NODE_ENV: 'test' })).toEqual({ mode: 'simulator', delayMs: 0 });
    expect(pmsConfigFromEnv({ PMS_COST_SIM_DELAY_MS: '40' })).toEqual({ mode: 'simulator', delayMs: 40 });
    expect(pmsConfigFromEnv({ PMS_COST_API_URL: 'http://pms/api', PMS_COST_API_TOKEN: 't' })).toEqual({ mode: 'http', url: 'http://pms/api', token: 't', timeoutMs: 15000 });
    expect(pmsConfigFromEnv({ PMS_COST_MODE: 'http', PMS_COST_API_URL: 'http://pms', PMS_COST_API_TOKEN: 't', PMS_COST_TIMEOUT_MS: '3000' })).toEqual({ mode: 'http', url: 'http://pms', token: 't', timeoutMs: 3000 });
    expect(pmsConfigFromEnv({ PMS_COST_MODE: 'simulator', PMS_COST_API_URL: 'http://pms' })).toEqual({ mode: 'simulator', delayMs: 500 });
    expect(() => pmsConfigFromEnv({ PMS_COST_API_URL: 'http://pms' })).toThrow('PMS_COST_MODE=http needs PMS_COST_API_TOKEN');
    expect(() => pmsConfigFromEnv({ PMS_COST_MODE: 'http' })).toThrow('PMS_COST_MODE=http needs PMS_COST_API_URL, PMS_COST_API_TOKEN');
    expect(() => pmsConfigFromEnv({ PMS_COST_MODE: 'ftp' })).toThrow('PMS_COST_MODE must be simulator or http');
  });
});

describe('simulator', () => {
  it('answers only months that have ended and are at most 24 months back (Asia/Shanghai)', async () => {
    expect(pmsMonthAnswered('2026-10', NOW)).toBe(true);
    expect(pmsMonthAnswered('2026-11', NOW)).toBe(false);
    expect(pmsMonthAnswered('2027-01', NOW)).toBe(false);
    expect(pmsMonthAnswered('2024-11', NOW)).toBe(true);
    expect(pmsMonthAnswered('2024-10', NOW)).toBe(false);
    // 2026-10-31 16:30 UTC is already 1 November in Shanghai.
    expect(pmsMonthAnswered('2026-10', new Date('2026-10-31T16:30:00Z'))).toBe(true);
    expect(pmsMonthAnswered('2026-10', new Date('2026-10-31T15:30:00Z'))).toBe(false);
    expect(await sim().monthlyOrders('2026-11')).toEqual([]);
    expect(await sim().monthlyOrders('2024-10')).toEqual([]);
    expect((await sim().monthlyOrders('2024-11')).length).toBeGreaterThan(0);
    await expect(sim().monthlyOrders('2026-1')).rejects.toThrow('项目管理系统拒绝：月份格式须为YYYY-MM');
  });

  it('draws deterministic orders of the departments of 工程管理部 on the formal projects, with items priced that month', async () => {
    const months = ['2025-03', '2026-06', '2026-07', '2026-09', '2026-10'];
    const prices = await k().selectFrom('cost_prices').selectAll().execute();
    const seenDepts = new Set<string>();
    const seenProjects = new Set<string>();
    for (const month of months) {
      const a = await sim().monthlyOrders(month);
      expect(await sim().monthlyOrders(month)).toEqual(a);
      expect(a.length).toBeGreaterThan(0);
      expect(new Set(a.map((o) => o.ref)).size).toBe(a.length);
      expect(new Set(a.map((o) => `${o.deptName}|${o.projectCode}`)).size).toBe(a.length);
      for (const o of a) {
        expect(o.ref).toMatch(new RegExp(`^PMS${month.replace('-', '')}-[0-9A-F]{10}$`));
        seenDepts.add(o.deptName);
        seenProjects.add(o.projectCode);
        const normal = o.lines.filter((l) => l.itemCode !== PMS_SIM_UNKNOWN_ITEM);
        expect(normal.length).toBeGreaterThanOrEqual(3);
        expect(new Set(normal.map((l) => `${l.itemCode}|${l.spec}|${l.unit}`)).size).toBe(normal.length);
        for (const l of normal) {
          const windows = prices.filter((p) => p.item_code === l.itemCode && p.spec === l.spec && p.unit === l.unit).map((p) => ({ validFrom: p.valid_from, validTo: p.valid_to }));
          expect([month, l.itemCode, priceForMonth(windows, month) !== undefined]).toEqual([month, l.itemCode, true]);
          expect(l.quantity).toMatch(/^\d+(\.\d{1,2})?$/);
          expect(Number(l.quantity)).toBeGreaterThan(0);
        }
      }
    }
    expect([...seenDepts].sort()).toEqual(['一部一队', '工程一部', '工程管理部']);
    expect([...seenProjects].sort()).toEqual(['XM-A', 'XM-B', 'XM-C', 'XM-F']);
    const items = (month: string) => sim().monthlyOrders(month).then((a) => new Set(a.flatMap((o) => o.lines.map((l) => l.itemCode))));
    // OLD1 ended in June 2025; NEW1 prices September 2026 from the 15th on.
    expect((await items('2026-10')).has('OLD1')).toBe(false);
    expect((await items('2025-03')).has('NEW1')).toBe(false);
  });

  it("a 测试失败 project's order carries an item the price list does not hold", async () => {
    const all = (await Promise.all(['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06'].map((m) => sim().monthlyOrders(m)))).flat();
    const failing = all.filter((o) => o.projectCode === 'XM-F');
    expect(failing.length).toBeGreaterThan(0);
    for (const o of failing) expect(o.lines.at(-1)).toEqual({ itemCode: PMS_SIM_UNKNOWN_ITEM, spec: '', unit: '项', quantity: '1', remark: '模拟失败：成本项不在价格表中' });
    expect(all.filter((o) => o.projectCode !== 'XM-F').every((o) => o.lines.every((l) => l.itemCode !== PMS_SIM_UNKNOWN_ITEM))).toBe(true);
  });

  it('answers nothing without the departments, projects or prices to draw from', async () => {
    const other = await startTestServer({ demo: false });
    try {
      const gw = createPmsGateway({ db: other.db, synclog: other.app.synclog, now: () => NOW }, { mode: 'simulator' });
      expect(await gw.monthlyOrders('2026-10')).toEqual([]);
      await other.db.kysely.insertInto('departments').values({ id: newId(), name: '工程管理部', parent_id: null, sort: 0, manager_id: null, created_at: at, updated_at: at }).execute();
      await other.db.kysely.insertInto('projects').values({ id: newId(), code: 'P1', name: 'P1', customer: '', amount: 0, source: 2, is_temp: 0, created_at: at, updated_at: at }).execute();
      expect(await gw.monthlyOrders('2026-10')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('fails when told to (down, or the next n calls), in Chinese, logged as failures; answers a ping', async () => {
    expect(await sim().ping()).toEqual({ message: '项目管理系统（模拟器）已应答' });
    pmsSimControl.down();
    try {
      await expect(sim().monthlyOrders('2026-08')).rejects.toThrow(PMS_SIM_DOWN);
      await expect(sim().ping()).rejects.toBeInstanceOf(PmsError);
    } finally {
      pmsSimControl.up();
    }
    pmsSimControl.failNext(1);
    await expect(sim().monthlyOrders('2026-08')).rejects.toThrow('无法连接项目管理系统，请稍后重试');
    expect((await sim().monthlyOrders('2026-08')).length).toBeGreaterThan(0);
    const rows = await logs('2026-08');
    expect(rows.map((r) => [r.system, r.type, r.status])).toEqual([
      [SyncSystem.pms, PmsMethods.orders, 1],
      [SyncSystem.pms, PmsMethods.orders, 1],
      [SyncSystem.pms, PmsMethods.orders, 0],
    ]);
    expect(rows[0]!.memo).toBe(PMS_SIM_DOWN);
    expect(rows[2]!.memo).toMatch(/^取2026年8月成本单 \d+ 张$/);
  });
});

describe('HTTP client', () => {
  let fake: http.Server;
  let base = '';
  const seen: Array<{ url: string; auth: string | undefined; method: string | undefined }> = [];
  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      seen.push({ url: req.url!, auth: req.headers.authorization, method: req.method });
      const u = new URL(req.url!, 'http://x');
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
      if (u.pathname.includes('/hang')) return; // never answers
      if (req.headers.authorization !== 'Bearer pms-token') return send(401, { code: 'AUTH', message: 'token invalid' });
      if (u.pathname === '/pms/ping') return send(200, { code: '0', message: '项目管理系统 v3 在线' });
      if (u.pathname !== '/pms/cost-orders') return send(404, { code: 'NOT_FOUND' });
      const month = u.searchParams.get('month');
      if (month === '2026-01') return send(200, { code: 'E100', message: '该月数据尚未归档' });
      if (month === '2026-02') return send(500, '<html>Internal Server Error</html>');
      if (month === '2026-03') return send(200, { code: '0', data: {} });
      if (month === '2026-04') return send(200, { code: '0', data: { month: '2026-05', orders: [] } });
      return send(200, {
        code: '0', message: 'ok',
        data: {
          month,
          orders: [
            { ref: 'P-1', deptName: '工程一部', projectCode: 'XM-A', projectName: '甲项目', lines: [{ itemCode: 'RG01', spec: '高级', unit: '工日', quantity: 12.5, remark: '夜班' }, { itemCode: 'CL01', unit: '吨', quantity: '3.25' }] },
            { ref: 7, deptName: null, lines: 'x' },
          ],
        },
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/pms/`;
  });
  afterAll(() => {
    fake?.closeAllConnections();
    fake?.close();
  });

  const gw = (over: Partial<PmsConfig> = {}) => createPmsGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'http', url: base, token: 'pms-token', timeoutMs: 2000, ...over });

  it('asks for the month with the bearer token and reads the orders as text fields', async () => {
    const orders = await gw().monthlyOrders('2026-10');
    expect(seen.at(-1)).toEqual({ url: '/pms/cost-orders?month=2026-10', auth: 'Bearer pms-token', method: 'GET' });
    expect(orders).toEqual([
      { ref: 'P-1', deptName: '工程一部', projectCode: 'XM-A', projectName: '甲项目', lines: [{ itemCode: 'RG01', spec: '高级', unit: '工日', quantity: '12.5', remark: '夜班' }, { itemCode: 'CL01', spec: '', unit: '吨', quantity: '3.25', remark: '' }] },
      { ref: '7', deptName: '', projectCode: '', projectName: '', lines: [] },
    ]);
    expect(gw().mode).toBe('http');
    const rows = await logs('2026-10');
    expect(rows.at(-1)).toMatchObject({ system: SyncSystem.pms, type: PmsMethods.orders, status: 0, memo: '取2026年10月成本单 2 张' });
    expect(JSON.stringify(rows)).not.toContain('pms-token');
  });

  it('pings', async () => {
    expect(await gw().ping()).toEqual({ message: '项目管理系统 v3 在线' });
  });

  it("shows the PMS's refusal, a bad answer, a bad token, no answer in time and an unreachable server in Chinese", async () => {
    await expect(gw().monthlyOrders('2026-01')).rejects.toThrow('项目管理系统拒绝：该月数据尚未归档');
    await expect(gw().monthlyOrders('2026-02')).rejects.toThrow('项目管理系统应答无法识别（HTTP 500）');
    await expect(gw().monthlyOrders('2026-03')).rejects.toThrow('项目管理系统未返回成本单列表');
    await expect(gw().monthlyOrders('2026-04')).rejects.toThrow('项目管理系统返回的是2026-05的成本单，不是2026-04的');
    await expect(gw({ token: 'wrong' }).ping()).rejects.toThrow('项目管理系统拒绝了接口凭据，请核对接口密钥（成本设置或PMS_COST_API_TOKEN）');
    await expect(gw({ url: `${base}hang`, timeoutMs: 1000 }).ping()).rejects.toThrow('项目管理系统1秒内未应答，请稍后重试');
    const down = gw({ url: 'http://127.0.0.1:1' });
    const err = await down.monthlyOrders('2026-10').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PmsError);
    expect(err).toMatchObject({ message: '无法连接项目管理系统，请稍后重试', status: 502, serviceCode: 'TRANSPORT' });
    const failed = (await logs('2026-01')).at(-1)!;
    expect([failed.status, failed.memo]).toEqual([1, '项目管理系统拒绝：该月数据尚未归档']);
  });
});
