/**
 * Issue 16, entering cost orders: save (new and edit), copy last month, re-price, import and its template,
 * the project-management sync, and the PMS interface settings. Rules: numbers CB{yyyyMM}{seq}, the price
 * of the order's month copied onto each line, half-up 分 arithmetic, one live order per month, department
 * and project (also for requests at once), audited / invalid orders and closed months immutable, every
 * change logged, entry only for roles 1, 16, 17. The fixtures (departments, projects, prices) are the
 * test's own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shanghaiMonthOf, shiftMonth, SyncSystem } from '@zhyy/shared';
import { createPmsGateway, PMS_FAIL_TRIGGER, PMS_SIM_UNKNOWN_ITEM, pmsSimControl, type PmsOrder } from '../src/integrations/pms/index.js';
import { exclusive } from '../src/db/index.js';
import { deptMonthKey, uniqueBroken } from '../src/modules/cost/order/store.js';
import { newId } from '../src/platform/ids.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const tok: Record<string, string> = {};
const k = () => s.db.kysely;
const now = new Date().toISOString();

const dept = { a: newId(), b: newId(), closed: newId() };
const proj = { p1: newId(), p2: newId(), p3: newId(), p4: newId(), p5: newId(), p6: newId(), fail: newId() };
const DEPT_NAMES = { a: '成本测试一部', b: '成本测试二部', closed: '成本测试结账部' };
const PROJECTS: Array<[string, string, string]> = [
  [proj.p1, 'CT-001', '成本测试项目一'], [proj.p2, 'CT-002', '成本测试项目二'], [proj.p3, 'CT-003', '成本测试项目三'],
  [proj.p4, 'CT-004', '成本测试项目四'], [proj.p5, 'CT-005', '成本测试项目五'], [proj.p6, 'CT-006', '成本测试项目六'],
  [proj.fail, 'CT-FAIL', `成本${PMS_FAIL_TRIGGER}项目`],
];

async function price(itemCode: string, spec: string, unit: string, unitPrice: string, taxRate: string, validFrom: string, validTo: string | null, itemName = `测试${itemCode}`, category = 'labour') {
  const id = newId();
  await k().insertInto('cost_prices').values({ id, item_code: itemCode, item_name: itemName, category, spec, unit, unit_price: unitPrice, tax_rate: taxRate, valid_from: validFrom, valid_to: validTo, updated_by: '', created_at: now, updated_at: now }).execute();
  return id;
}

const price0 = { rgOld: '', rgNew: '' };
beforeAll(async () => {
  s = await startTestServer();
  for (const login of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20']) tok[login] = await s.login(login);
  for (const [key, id] of Object.entries(dept)) await k().insertInto('departments').values({ id, parent_id: null, name: DEPT_NAMES[key as keyof typeof dept], sort: 90, manager_id: null, created_at: now, updated_at: now }).execute();
  await k().insertInto('projects').values(PROJECTS.map(([id, code, name]) => ({ id, code, name, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }))).execute();
  // 人工 高级: 350.5 until June 2026, 380 from July.
  price0.rgOld = await price('ZT-RG01', '高级', '工日', '350.5', '0.03', '2026-01-01', '2026-06-30', '测试人工');
  price0.rgNew = await price('ZT-RG01', '高级', '工日', '380', '0.03', '2026-07-01', null, '测试人工');
  await price('ZT-JX01', '', '台班', '1234.56789', '0.13', '2020-01-01', null, '测试机械', 'equipment');
  await price('ZT-FW01', '', '项', '0.005', '0.06', '2020-01-01', null, '测试服务', 'service');
  await price('ZT-FLT', '', '个', '1.005', '0.13', '2020-01-01', null, '测试材料', 'material');
  // Introduced mid-month: it prices the whole of March 2026.
  await price('ZT-CL01', 'Φ12', '吨', '0.33333333', '0.13', '2026-03-15', null, '测试钢筋', 'material');
}, 120_000);
afterAll(async () => {
  pmsSimControl.reset();
  await s?.close();
});

const line = (itemCode: string, quantity: string, spec = '', unit = '工日', remark?: string) => ({ itemCode, spec, unit, quantity, ...(remark ? { remark } : {}) });
const rg = (quantity: string) => line('ZT-RG01', quantity, '高级', '工日');
const body = (month: string, deptId: string, projectId: string, lines = [rg('1')], extra: Record<string, unknown> = {}) => ({ month, deptId, projectId, lines, ...extra });
const save = (b: unknown, who = 'demo16') => s.call('/api/cost-order/save', b, tok[who]);
const orderOf = (id: string) => k().selectFrom('cost_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const linesOf = (id: string) => k().selectFrom('cost_order_lines').selectAll().where('order_id', '=', id).orderBy('line_no').execute();
const logsOf = (id: string) => k().selectFrom('cost_order_logs').selectAll().where('order_id', '=', id).orderBy('created_at').execute();

async function xlsx(rows: unknown[][], header: string[] = ['月份', '部门', '项目编码', '成本项编码', '规格', '单位', '数量', '备注']): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('导入');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describe('who may enter orders', () => {
  const entryCalls: Array<[string, () => unknown]> = [
    ['/api/cost-order/save', () => body('2026-01', dept.a, proj.p6)],
    ['/api/cost-order/copy-last-month', () => ({ month: '2026-02', deptId: dept.a, projectId: proj.p6 })],
    ['/api/cost-order/reprice', () => ({ id: newId() })],
    ['/api/cost-order/import', () => ({ file: 'AAAA' })],
    ['/api/cost-order/import-template', () => ({})],
    ['/api/cost-order/pms-sync', () => ({ month: '2026-01' })],
  ];

  it('roles 18 and 19 read the ledger but get 403 权限不足 on every entry call; 20 is not on the ledger at all', async () => {
    for (const who of ['demo18', 'demo19', 'demo20']) {
      for (const [url, b] of entryCalls) {
        const a = await s.call(url, b(), tok[who]);
        expect([url, who, a.status, a.code, a.message]).toEqual([url, who, 403, 30000, '权限不足']);
      }
    }
    expect(await k().selectFrom('cost_orders').select('id').where('project_id', '=', proj.p6).execute()).toHaveLength(0);
  });

  it('roles 1, 16, 17 and admin enter orders', async () => {
    const months = { demo1: '2026-01', demo16: '2026-02', demo17: '2026-03', admin: '2026-04' } as const;
    for (const [who, month] of Object.entries(months)) {
      const a = await save(body(month, dept.a, proj.p6), who);
      expect([who, a.code, a.message]).toEqual([who, 20000, `成本单 ${a.r.orderNo} 已保存`]);
    }
    const t = await s.call('/api/cost-order/import-template', {}, tok.demo17);
    expect(t.status).toBe(200);
  });

  it('the PMS interface settings are for roles 1 and 17 only', async () => {
    for (const url of ['/api/cost-setting/pms', '/api/cost-setting/pms-test']) {
      for (const who of ['demo16', 'demo18', 'demo19', 'demo20']) expect((await s.call(url, {}, tok[who])).status).toBe(403);
      expect((await s.call(url, {}, tok.demo17)).code).toBe(20000);
      expect((await s.call(url, {}, tok.demo1)).code).toBe(20000);
    }
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'simulator' }, tok.demo16)).status).toBe(403);
  });
});

describe('a new order', () => {
  it('is numbered CB{yyyyMM}{seq}, awaits audit, copies the price of its month onto each line, and is logged with the user', async () => {
    const a = await save(body('2026-05', dept.a, proj.p1, [rg('2.5'), line('ZT-JX01', '3.3333', '', '台班', '夜间'), line('ZT-FW01', '1', '', '项')], { remark: '五月现场' }), 'demo16');
    expect(a.code).toBe(20000);
    expect(a.r).toEqual({ id: expect.any(String), orderNo: expect.stringMatching(/^CB202605\d{4}$/) });
    const o = await orderOf(a.r.id);
    expect(o).toMatchObject({
      order_no: a.r.orderNo, month: '2026-05', dept_id: dept.a, dept_name: '成本测试一部', project_id: proj.p1, project_code: 'CT-001', project_name: '成本测试项目一',
      source: 'entry', state: 0, remark: '五月现场', pms_ref: '', line_count: 3, created_by: '朱琳',
    });
    const ls = await linesOf(a.r.id);
    expect(ls.map((l) => [l.line_no, l.item_code, l.item_name, l.category, l.spec, l.unit, l.quantity, l.unit_price, l.tax_rate, l.price_from, l.price_to, l.remark])).toEqual([
      [1, 'ZT-RG01', '测试人工', 'labour', '高级', '工日', '2.5', '350.5', '0.03', '2026-01-01', '2026-06-30', ''],
      [2, 'ZT-JX01', '测试机械', 'equipment', '', '台班', '3.3333', '1234.56789', '0.13', '2020-01-01', null, '夜间'],
      [3, 'ZT-FW01', '测试服务', 'service', '', '项', '1', '0.005', '0.06', '2020-01-01', null, ''],
    ]);
    expect(ls[0]!.price_id).toBe(price0.rgOld);
    // 2.5 × 350.5 = 876.25 元; 3.3333 × 1234.56789 = 4115.185147737 元 → 411519 分; 1 × 0.005 元 = 0.5 分 → 1 分 (half-up).
    expect(ls.map((l) => [Number(l.amount), Number(l.tax)])).toEqual([[87625, 2629], [411519, 53497], [1, 0]]);
    expect([Number(o.amount), Number(o.tax)]).toEqual([87625 + 411519 + 1, 2629 + 53497 + 0]);
    const logs = await logsOf(a.r.id);
    expect(logs.map((l) => [l.action, l.user_name])).toEqual([['create', '朱琳']]);
    expect(logs[0]!.message).toBe('手工录入新建，共 3 行，金额 4991.45 元，税额 561.26 元');
  });

  it('rounds half-up on real numbers (no binary floating point): 1.005 元 is 101 分', async () => {
    const a = await save(body('2026-05', dept.a, proj.p2, [line('ZT-FLT', '1', '', '个'), line('ZT-FLT', '0.0001', '', '个'), line('ZT-JX01', '0.0001', '', '台班')]));
    const ls = await linesOf(a.r.id);
    // 1.005 × 100 = 100.49999… in binary floating point; exactly 100.5 → 101. 0.0001 × 1.005 元 = 0.01005 分 → 0.
    // 0.0001 × 1234.56789 元 = 12.3456789 分 → 12; its tax 12 × 13% = 1.56 → 2.
    expect(ls.map((l) => [Number(l.amount), Number(l.tax)])).toEqual([[101, 13], [0, 0], [12, 2]]);
    const o = await orderOf(a.r.id);
    expect([Number(o.amount), Number(o.tax), o.line_count]).toEqual([113, 15, 3]);
  });

  it('a price introduced mid-month prices the whole month; quantities are kept in plain form', async () => {
    const a = await save(body('2026-03', dept.a, proj.p1, [line('ZT-CL01', '7.0', 'Φ12', '吨'), line('ZT-CL01', '007.50', 'Φ12', '吨')]));
    const ls = await linesOf(a.r.id);
    expect(ls.map((l) => [l.quantity, l.unit_price, l.price_from, Number(l.amount), Number(l.tax)])).toEqual([
      ['7', '0.33333333', '2026-03-15', 233, 30],
      ['7.5', '0.33333333', '2026-03-15', 250, 33],
    ]);
    expect((await save(body('2026-02', dept.a, proj.p1, [line('ZT-CL01', '1', 'Φ12', '吨')]))).message).toBe('第1行 ZT-CL01 Φ12 吨 在2026年2月没有有效价格');
  });

  it('refuses a line without a price for the month, an unknown department or project, and bad input, in Chinese', async () => {
    const a = await save(body('2026-05', dept.a, proj.p3, [rg('1'), line('ZT-NONE', '1'), line('ZT-RG01', '1', '普通')]));
    expect([a.status, a.code, a.message]).toEqual([400, 30000, '第2行 ZT-NONE 工日 在2026年5月没有有效价格；第3行 ZT-RG01 普通 工日 在2026年5月没有有效价格']);
    expect((await save(body('2026-05', newId(), proj.p3))).message).toBe('所选部门不存在');
    expect((await save(body('2026-05', dept.a, newId()))).message).toBe('所选项目不存在');
    expect((await save(body('2026-13', dept.a, proj.p3))).message).toContain('月份格式须为YYYY-MM');
    expect((await save(body('2026-05', dept.a, proj.p3, [rg('0')]))).message).toContain('数量须大于0');
    expect((await save(body('2026-05', dept.a, proj.p3, [rg('1.23456')]))).message).toContain('数量须为不超过4位小数的正数');
    expect((await save(body('2026-05', dept.a, proj.p3, []))).message).toContain('请至少填写一行成本明细');
    expect(await k().selectFrom('cost_orders').select('id').where('project_id', '=', proj.p3).where('month', '=', '2026-05').execute()).toHaveLength(0);
  });

  it('numbers the month one after the other; a refused save takes no number', async () => {
    const a = await save(body('2026-08', dept.b, proj.p1));
    await save(body('2026-08', dept.b, proj.p1)); // refused: a second live order
    const b = await save(body('2026-08', dept.b, proj.p2));
    const c = await save(body('2026-09', dept.b, proj.p1));
    const seq = (no: string) => Number(no.slice(8));
    expect(seq(b.r.orderNo)).toBe(seq(a.r.orderNo) + 1);
    expect(c.r.orderNo.slice(0, 8)).toBe('CB202609');
    const many = await Promise.all([proj.p3, proj.p4, proj.p5, proj.p6].map((p) => save(body('2026-08', dept.b, p))));
    const nos = many.map((x) => seq(x.r.orderNo)).sort((x, y) => x - y);
    expect(nos).toEqual([seq(b.r.orderNo) + 1, seq(b.r.orderNo) + 2, seq(b.r.orderNo) + 3, seq(b.r.orderNo) + 4]);
  });
});

describe('one live order per month, department and project', () => {
  it('refuses a second one naming the first; an invalid one does not count', async () => {
    const a = await save(body('2026-04', dept.b, proj.p1));
    const again = await save(body('2026-04', dept.b, proj.p1), 'demo17');
    expect([again.status, again.message]).toEqual([400, `该部门该项目2026年4月已有成本单 ${a.r.orderNo}`]);
    await k().updateTable('cost_orders').set({ state: 2, invalid_reason: '测试作废' }).where('id', '=', a.r.id).execute();
    const b = await save(body('2026-04', dept.b, proj.p1), 'demo17');
    expect(b.code).toBe(20000);
    expect(b.r.orderNo).not.toBe(a.r.orderNo);
  });

  it('lets exactly one of several creations at once in, the others refused naming it', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => save(body('2026-06', dept.b, proj.p2, [rg(String(i + 1))]), i % 2 ? 'demo16' : 'demo17')));
    const won = all.filter((x) => x.code === 20000);
    expect(won).toHaveLength(1);
    for (const x of all.filter((y) => y.code !== 20000)) expect([x.status, x.code, x.message]).toEqual([400, 30000, `该部门该项目2026年6月已有成本单 ${won[0]!.r.orderNo}`]);
    expect(await k().selectFrom('cost_orders').select('id').where('month', '=', '2026-06').where('dept_id', '=', dept.b).where('project_id', '=', proj.p2).execute()).toHaveLength(1);
    expect(await k().selectFrom('cost_order_lines').select('id').where('order_id', '=', won[0]!.r.id).execute()).toHaveLength(1);
  });

  it("tells the database's refusals apart on this engine (the live-order index, the PMS ref, anything else)", async () => {
    const a = await save(body('2025-12', dept.b, proj.p6, [line('ZT-JX01', '1', '', '台班')]));
    const o = await orderOf(a.r.id);
    const copy = (over: Record<string, unknown>) => ({ ...o, id: newId(), order_no: `CB202512${Math.floor(Math.random() * 1e6)}`, ...over });
    const err = async (row: unknown) => k().insertInto('cost_orders').values(row as typeof o).execute().then(() => null, (e: unknown) => e);
    expect(uniqueBroken(await err(copy({})))).toBe('live');
    await k().updateTable('cost_orders').set({ pms_ref: 'PMS-UQ-1' }).where('id', '=', a.r.id).execute();
    expect(uniqueBroken(await err(copy({ project_id: proj.p5, pms_ref: 'PMS-UQ-1' })))).toBe('pms');
    expect(uniqueBroken(await err(copy({ project_id: proj.p5, order_no: o.order_no })))).toBe('no');
    expect(uniqueBroken(await err(copy({ id: o.id, project_id: proj.p5 })))).toBe(null);
    expect(uniqueBroken(new Error('UNIQUE constraint failed: cost_orders.month'))).toBe(null);
  });

  it('two copies of last month at once: one order', async () => {
    await save(body('2026-01', dept.b, proj.p5, [rg('3')]));
    const all = await Promise.all([1, 2, 3].map(() => s.call('/api/cost-order/copy-last-month', { month: '2026-02', deptId: dept.b, projectId: proj.p5 }, tok.demo16)));
    expect(all.filter((x) => x.code === 20000)).toHaveLength(1);
    expect(await k().selectFrom('cost_orders').select('id').where('month', '=', '2026-02').where('dept_id', '=', dept.b).where('project_id', '=', proj.p5).execute()).toHaveLength(1);
  });

  it('an edit that moves an order onto a live one is refused', async () => {
    const a = await save(body('2026-07', dept.a, proj.p1));
    const b = await save(body('2026-07', dept.a, proj.p2));
    const moved = await save({ ...body('2026-07', dept.a, proj.p1), id: b.r.id });
    expect(moved.message).toBe(`该部门该项目2026年7月已有成本单 ${a.r.orderNo}`);
    expect((await orderOf(b.r.id)).project_id).toBe(proj.p2);
  });
});

describe('editing and re-pricing', () => {
  it('an edit keeps the price its lines were made with; only new items take the current price; logged', async () => {
    const a = await save(body('2026-09', dept.a, proj.p3, [rg('10'), line('ZT-FW01', '100', '', '项')]));
    // The list changes after the order was made.
    await k().updateTable('cost_prices').set({ unit_price: '400' }).where('id', '=', price0.rgNew).execute();
    await k().updateTable('cost_prices').set({ unit_price: '0.01' }).where('item_code', '=', 'ZT-FW01').execute();
    try {
      const e = await save({ ...body('2026-09', dept.a, proj.p3, [rg('12'), line('ZT-FLT', '2', '', '个', '新增')], { remark: '改' }), id: a.r.id }, 'demo17');
      expect(e.r).toEqual({ id: a.r.id, orderNo: a.r.orderNo });
      const ls = await linesOf(a.r.id);
      expect(ls.map((l) => [l.item_code, l.quantity, l.unit_price, Number(l.amount), Number(l.tax), l.remark])).toEqual([
        ['ZT-RG01', '12', '380', 456000, 13680, ''],
        ['ZT-FLT', '2', '1.005', 201, 26, '新增'],
      ]);
      const o = await orderOf(a.r.id);
      expect([Number(o.amount), Number(o.tax), o.line_count, o.remark, o.state]).toEqual([456201, 13706, 2, '改', 0]);
      const logs = await logsOf(a.r.id);
      expect(logs.map((l) => [l.action, l.user_name])).toEqual([['create', '朱琳'], ['edit', '胡军']]);
      expect(logs[1]!.message).toBe('修改：明细已修改（2 行）；金额 3800.50 元 → 4562.01 元，税额 114.03 元 → 137.06 元；备注已修改');

      // 重新取价 changes the lines only when asked.
      const r = await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo16);
      expect([r.code, r.message, r.r]).toEqual([20000, '已重新取价，1 行价格变更', { id: a.r.id, orderNo: a.r.orderNo, changed: 1 }]);
      const after = await linesOf(a.r.id);
      expect(after.map((l) => [l.item_code, l.unit_price, Number(l.amount), Number(l.tax)])).toEqual([['ZT-RG01', '400', 480000, 14400], ['ZT-FLT', '1.005', 201, 26]]);
      expect([Number((await orderOf(a.r.id)).amount), Number((await orderOf(a.r.id)).tax)]).toEqual([480201, 14426]);
      const rl = (await logsOf(a.r.id)).at(-1)!;
      expect([rl.action, rl.user_name, rl.message]).toEqual(['reprice', '朱琳', '重新取价：1 行价格变更（ZT-RG01 高级 工日 单价 380 → 400），金额 4562.01 元 → 4802.01 元，税额 137.06 元 → 144.26 元']);
      const again = await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo16);
      expect([again.message, again.r.changed]).toEqual(['价格无变化', 0]);
      expect(await logsOf(a.r.id)).toHaveLength(3);
    } finally {
      await k().updateTable('cost_prices').set({ unit_price: '380' }).where('id', '=', price0.rgNew).execute();
      await k().updateTable('cost_prices').set({ unit_price: '0.005' }).where('item_code', '=', 'ZT-FW01').execute();
    }
  });

  it('an edit may move the order to another department or project but never to another month', async () => {
    const a = await save(body('2026-10', dept.a, proj.p4));
    expect((await save({ ...body('2026-11', dept.a, proj.p4), id: a.r.id })).message).toBe('成本单的月份不能修改（单号按月份编制），请作废后按新月份录入');
    const e = await save({ ...body('2026-10', dept.b, proj.p5), id: a.r.id });
    expect(e.code).toBe(20000);
    expect(await orderOf(a.r.id)).toMatchObject({ dept_id: dept.b, dept_name: '成本测试二部', project_id: proj.p5, project_code: 'CT-005' });
    expect((await logsOf(a.r.id)).at(-1)!.message).toBe('修改：部门 成本测试一部 → 成本测试二部；项目 成本测试项目四 → 成本测试项目五');
    expect((await save({ ...body('2026-10', dept.a, proj.p4), id: newId() })).message).toBe('成本单不存在');
    expect((await s.call('/api/cost-order/reprice', { id: newId() }, tok.demo16)).message).toBe('成本单不存在');
  });

  it('audited and invalid orders are immutable: no edit, no re-pricing', async () => {
    const a = await save(body('2026-02', dept.a, proj.p2, [rg('5')]));
    const before = await linesOf(a.r.id);
    await k().updateTable('cost_orders').set({ state: 1, audited_by: '胡军', audited_at: now }).where('id', '=', a.r.id).execute();
    const e = await save({ ...body('2026-02', dept.a, proj.p2, [rg('9')]), id: a.r.id });
    expect([e.status, e.message]).toEqual([400, '成本单已审核，不能修改']);
    expect((await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo17)).message).toBe('成本单已审核，不能修改');
    await k().updateTable('cost_orders').set({ state: 2 }).where('id', '=', a.r.id).execute();
    expect((await save({ ...body('2026-02', dept.a, proj.p2, [rg('9')]), id: a.r.id })).message).toBe('成本单已作废，不能修改');
    expect((await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo17)).message).toBe('成本单已作废，不能修改');
    expect(await linesOf(a.r.id)).toEqual(before);
    expect((await logsOf(a.r.id)).map((l) => l.action)).toEqual(['create']);
  });

  it('re-pricing is refused when a line has no price for the month any more', async () => {
    const a = await save(body('2026-05', dept.b, proj.p6, [line('ZT-FLT', '1', '', '个')]));
    await k().updateTable('cost_prices').set({ valid_from: '2026-06-01' }).where('item_code', '=', 'ZT-FLT').execute();
    try {
      expect((await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo16)).message).toBe('ZT-FLT 个 在2026年5月没有有效价格，不能重新取价');
    } finally {
      await k().updateTable('cost_prices').set({ valid_from: '2020-01-01' }).where('item_code', '=', 'ZT-FLT').execute();
    }
  });
});

describe('a closed month', () => {
  it('refuses new orders, edits, re-pricing, copies and imports of the department and month', async () => {
    const a = await save(body('2026-03', dept.closed, proj.p1, [rg('1')]));
    await save(body('2026-02', dept.closed, proj.p2, [rg('1')]));
    await k().insertInto('cost_closings').values({ dept_id: dept.closed, month: '2026-03', closed_by: '胡军', closed_at: now }).execute();
    expect((await save(body('2026-03', dept.closed, proj.p3))).message).toBe('成本测试结账部2026年3月已结账，不能新增成本单');
    expect((await save({ ...body('2026-03', dept.closed, proj.p1, [rg('2')]), id: a.r.id })).message).toBe('成本测试结账部2026年3月已结账，成本单不能修改');
    expect((await s.call('/api/cost-order/reprice', { id: a.r.id }, tok.demo16)).message).toBe('成本测试结账部2026年3月已结账，成本单不能修改');
    expect((await s.call('/api/cost-order/copy-last-month', { month: '2026-03', deptId: dept.closed, projectId: proj.p2 }, tok.demo16)).message).toBe('成本测试结账部2026年3月已结账，不能新增成本单');
    // Moving an order of an open month into the closed department-month is a new order there: refused.
    const b = await save(body('2026-03', dept.a, proj.p5));
    expect((await save({ ...body('2026-03', dept.closed, proj.p5), id: b.r.id })).message).toBe('成本测试结账部2026年3月已结账，不能新增成本单');
    const imp = await s.call('/api/cost-order/import', { file: await xlsx([['2026-03', '成本测试结账部', 'CT-004', 'ZT-RG01', '高级', '工日', 1, '']]) }, tok.demo16);
    expect(imp.r).toEqual({ total: 1, succeeded: 0, failed: 1, rows: [{ row: 2, ok: false, message: '成本测试结账部2026年3月已结账，不能新增成本单' }] });
    expect(Number((await linesOf(a.r.id))[0]!.quantity)).toBe(1);
    // Another month of the same department is open.
    expect((await save(body('2026-04', dept.closed, proj.p3))).code).toBe(20000);
  });
});

describe('closing and entering wait for each other', () => {
  it('a closing run under the department-month key sees an order made meanwhile, or the order sees the closing', async () => {
    let made: ReturnType<typeof save> | undefined;
    await exclusive(s.db, deptMonthKey(dept.b, '2026-12'), async (trx) => {
      made = save(body('2026-12', dept.b, proj.p1));
      // The save starts now and must wait for this transaction.
      await new Promise((r) => setTimeout(r, 300));
      const open = await trx.selectFrom('cost_orders').select('id').where('dept_id', '=', dept.b).where('month', '=', '2026-12').execute();
      expect(open).toHaveLength(0);
      await trx.insertInto('cost_closings').values({ dept_id: dept.b, month: '2026-12', closed_by: '胡军', closed_at: now }).execute();
    });
    expect((await made!).message).toBe('成本测试二部2026年12月已结账，不能新增成本单');
  });
});

describe('copy last month', () => {
  it("makes this month's order from last month's lines, priced for this month, and logs where it came from", async () => {
    const prev = await save(body('2026-06', dept.a, proj.p5, [rg('4'), line('ZT-JX01', '2', '', '台班', '吊装')], { remark: '六月' }));
    const c = await s.call('/api/cost-order/copy-last-month', { month: '2026-07', deptId: dept.a, projectId: proj.p5 }, tok.demo17);
    expect([c.code, c.message]).toEqual([20000, `已复制上月成本单，新建 ${c.r.orderNo}`]);
    expect(c.r.orderNo).toMatch(/^CB202607\d{4}$/);
    const o = await orderOf(c.r.id);
    expect(o).toMatchObject({ month: '2026-07', dept_id: dept.a, project_id: proj.p5, source: 'entry', state: 0, remark: '六月', line_count: 2, created_by: '胡军' });
    const ls = await linesOf(c.r.id);
    // 人工 takes July's price (380), not June's (350.5).
    expect(ls.map((l) => [l.item_code, l.quantity, l.unit_price, l.price_id, Number(l.amount), l.remark])).toEqual([
      ['ZT-RG01', '4', '380', price0.rgNew, 152000, ''],
      ['ZT-JX01', '2', '1234.56789', expect.any(String), 246914, '吊装'],
    ]);
    expect((await logsOf(c.r.id))[0]!.message).toBe(`复制上月成本单 ${prev.r.orderNo} 新建，按2026年7月价格取价，共 2 行，金额 3989.14 元，税额 366.59 元`);
    // Once more: the month has its order.
    expect((await s.call('/api/cost-order/copy-last-month', { month: '2026-07', deptId: dept.a, projectId: proj.p5 }, tok.demo17)).message).toBe(`该部门该项目2026年7月已有成本单 ${c.r.orderNo}`);
  });

  it('is refused when last month has no live order', async () => {
    const a = await s.call('/api/cost-order/copy-last-month', { month: '2026-10', deptId: dept.a, projectId: proj.p6 }, tok.demo16);
    expect([a.status, a.message]).toEqual([400, '成本测试一部在成本测试项目六2026年9月没有成本单，无法复制']);
    const inv = await save(body('2026-09', dept.a, proj.p6));
    await k().updateTable('cost_orders').set({ state: 2 }).where('id', '=', inv.r.id).execute();
    expect((await s.call('/api/cost-order/copy-last-month', { month: '2026-10', deptId: dept.a, projectId: proj.p6 }, tok.demo16)).message).toBe('成本测试一部在成本测试项目六2026年9月没有成本单，无法复制');
  });
});

describe('import', () => {
  it('groups rows into orders by month, department and project; a group with a bad row fails as a whole with each reason', async () => {
    const existing = await save(body('2026-01', dept.b, proj.p3));
    const file = await xlsx([
      // Group 1 (two rows, a Date cell for the month and a numeric quantity): imported.
      [new Date(Date.UTC(2026, 0, 1)), '成本测试一部', 'CT-001', 'ZT-RG01', '高级', '工日', 2.5, '一组'],
      ['2026-01', '成本测试一部', 'CT-001', 'ZT-FLT', '', '个', '1', ''],
      // Group 2: one bad quantity, one item without price, one good row: none imported.
      ['2026/01', '成本测试一部', 'CT-002', 'ZT-RG01', '高级', '工日', '1.23456', ''],
      ['2026年1月', '成本测试一部', 'CT-002', 'ZT-NONE', '', '工日', '1', ''],
      ['202601', '成本测试一部', 'CT-002', 'ZT-RG01', '高级', '工日', '3', ''],
      // Group 3: unknown department; group 4: unknown project; group 5: an order already there.
      ['2026-01', '不存在的部门', 'CT-001', 'ZT-RG01', '高级', '工日', '1', ''],
      ['2026-01', '成本测试一部', 'NO-SUCH', 'ZT-RG01', '高级', '工日', '1', ''],
      ['2026-01', '成本测试二部', 'CT-003', 'ZT-RG01', '高级', '工日', '1', ''],
      // A row without month; an empty row is skipped.
      ['', '成本测试一部', 'CT-004', 'ZT-RG01', '高级', '工日', '1', ''],
      [],
      // Group 6: another month of the same department and project as group 1: its own order.
      ['2026-02', '成本测试一部', 'CT-001', 'ZT-JX01', '', '台班', '0.5', ''],
    ]);
    const a = await s.call('/api/cost-order/import', { file }, tok.demo16);
    expect([a.code, a.message]).toEqual([20000, '导入完成：成功 3 行，失败 7 行']);
    const made = await k().selectFrom('cost_orders').selectAll().where('source', '=', 'import').where('dept_id', '=', dept.a).orderBy('month').execute();
    expect(made.map((o) => [o.month, o.project_code, o.line_count, o.state, o.created_by])).toEqual([['2026-01', 'CT-001', 2, 0, '朱琳'], ['2026-02', 'CT-001', 1, 0, '朱琳']]);
    expect(a.r).toEqual({
      total: 10, succeeded: 3, failed: 7,
      rows: [
        { row: 2, ok: true, message: `已导入成本单 ${made[0]!.order_no}` },
        { row: 3, ok: true, message: `已导入成本单 ${made[0]!.order_no}` },
        { row: 4, ok: false, message: '数量须为不超过4位小数的正数' },
        { row: 5, ok: false, message: 'ZT-NONE 工日 在2026年1月没有有效价格' },
        { row: 6, ok: false, message: '同组（同月份、部门、项目）其他行有误，本单未导入' },
        { row: 7, ok: false, message: '部门"不存在的部门"不存在' },
        { row: 8, ok: false, message: '项目编码"NO-SUCH"不存在' },
        { row: 9, ok: false, message: `该部门该项目2026年1月已有成本单 ${existing.r.orderNo}` },
        { row: 10, ok: false, message: '请填写月份' },
        { row: 12, ok: true, message: `已导入成本单 ${made[1]!.order_no}` },
      ],
    });
    expect((await linesOf(made[0]!.id)).map((l) => [l.item_code, l.quantity, Number(l.amount), l.remark])).toEqual([['ZT-RG01', '2.5', 87625, '一组'], ['ZT-FLT', '1', 101, '']]);
    const log = await logsOf(made[0]!.id);
    expect(log.map((l) => [l.action, l.user_name, l.message])).toEqual([['import', '朱琳', 'Excel导入新建（第2、3行），共 2 行，金额 877.26 元，税额 26.42 元']]);
    expect(await k().selectFrom('cost_orders').select('id').where('month', '=', '2026-01').where('dept_id', '=', dept.a).where('project_id', '=', proj.p2).execute()).toHaveLength(0);
  });

  it('refuses a file that is not a sheet of cost lines', async () => {
    expect((await s.call('/api/cost-order/import', { file: Buffer.from('not excel').toString('base64') }, tok.demo16)).message).toBe('文件不是有效的Excel（.xlsx）文件');
    expect((await s.call('/api/cost-order/import', { file: await xlsx([['2026-01', 'x']], ['月份', '部门']) }, tok.demo16)).message).toBe('表头须包含：月份、部门、项目编码、成本项编码、规格、单位、数量、备注（缺少项目编码、成本项编码、单位、数量）');
    expect((await s.call('/api/cost-order/import', { file: await xlsx([]) }, tok.demo16)).message).toBe('文件中没有成本明细行（第一行为表头：月份、部门、项目编码、成本项编码、规格、单位、数量、备注）');
    expect((await s.call('/api/cost-order/import', { file: '' }, tok.demo16)).message).toContain('请选择文件');
    // Sheet read, not one row saved: a refusal, 30000 naming each row and its reason, never 20000 (issue 27 item 8).
    const none = await s.call('/api/cost-order/import', { file: await xlsx([['2026-01', '不存在的部门', 'CT-001', 'ZT-RG01', '高级', '工日', '1', ''], ['', '成本测试一部', 'CT-004', 'ZT-RG01', '高级', '工日', '1', '']]) }, tok.demo16);
    expect(none.code).toBe(30000);
    expect(none.message).toBe('2 行均未导入：第2行 部门"不存在的部门"不存在；第3行 请填写月份');
    expect(none.r).toMatchObject({ total: 2, succeeded: 0, failed: 2 });
  });

  it('the template has the import columns and a sheet of instructions; its columns read back', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/cost-order/import-template', headers: { 'content-type': 'application/json', 'x-token': tok.demo16 }, payload: '{}' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('成本单导入模板.xlsx'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['成本单导入', '填写说明']);
    expect((wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['月份', '部门', '项目编码', '成本项编码', '规格', '单位', '数量', '备注']);
    expect(wb.worksheets[0]!.rowCount).toBe(1);
    // 填写说明 ends with example rows under the import's headers (issue 31).
    const help: string[][] = [];
    wb.worksheets[1]!.eachRow((row) => help.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const at = help.findIndex((t) => t.join('|') === '月份|部门|项目编码|成本项编码|规格|单位|数量|备注');
    expect(at).toBeGreaterThan(0);
    expect(help.slice(at + 1).length).toBeGreaterThanOrEqual(1);
    for (const e of help.slice(at + 1)) expect(e[0]).toMatch(/^\d{4}-\d{2}$/);
    // Filled in, the template imports.
    wb.worksheets[0]!.addRow(['2026-11', '成本测试二部', 'CT-006', 'ZT-RG01', '高级', '工日', '1', '']);
    const a = await s.call('/api/cost-order/import', { file: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') }, tok.demo16);
    expect(a.r.succeeded).toBe(1);
  });
});

describe('project-management sync', () => {
  /** A month 13–23 months back (older than the demo's orders) whose simulated answer has an order of the 测试失败 project. */
  let month = '';
  let expected: PmsOrder[] = [];
  /** Other months of that range, for the tests that need a month not synced yet. */
  let others: string[] = [];
  const gw = () => createPmsGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });

  beforeAll(async () => {
    const current = shanghaiMonthOf(new Date());
    for (let back = 13; back <= 23 && !month; back++) {
      const m = shiftMonth(current, -back);
      const orders = await gw().monthlyOrders(m);
      if (orders.some((o) => o.projectCode === 'CT-FAIL') && orders.some((o) => o.projectCode !== 'CT-FAIL')) [month, expected] = [m, orders];
    }
    others = Array.from({ length: 11 }, (_, i) => shiftMonth(current, -13 - i)).filter((m) => m !== month);
  });

  it('takes the month in as orders awaiting audit (source pms, one per PMS ref), reports each PMS order, and fails the bad one with its reason', async () => {
    expect(month).not.toBe('');
    const bad = expected.filter((o) => o.projectCode === 'CT-FAIL');
    const a = await s.call('/api/cost-order/pms-sync', { month }, tok.demo16);
    expect(a.code).toBe(20000);
    expect(a.r.created).toBe(expected.length - bad.length);
    expect(a.r.skipped).toBe(0);
    expect(a.r.failed).toEqual(bad.map((o) => ({ ref: o.ref, message: `第${o.lines.length}行 ${PMS_SIM_UNKNOWN_ITEM} 项 在${Number(month.slice(0, 4))}年${Number(month.slice(5))}月没有有效价格` })));
    expect(a.r.orders.map((x: { ref: string }) => x.ref)).toEqual(expected.map((o) => o.ref));
    expect(a.message).toBe(`同步完成：新建 ${a.r.created} 张，跳过 0 张，失败 ${bad.length} 张`);
    const made = await k().selectFrom('cost_orders').selectAll().where('month', '=', month).where('source', '=', 'pms').execute();
    expect(made).toHaveLength(a.r.created);
    const first = expected.find((o) => o.projectCode !== 'CT-FAIL')!;
    const o = made.find((x) => x.pms_ref === first.ref)!;
    expect(o).toMatchObject({ dept_name: first.deptName, project_code: first.projectCode, state: 0, line_count: first.lines.length, created_by: '朱琳' });
    const ls = await linesOf(o.id);
    expect(ls.map((l) => [l.item_code, l.spec, l.unit, l.quantity])).toEqual(first.lines.map((l) => [l.itemCode, l.spec, l.unit, l.quantity]));
    expect(Number(o.amount)).toBe(ls.reduce((sum, l) => sum + Number(l.amount), 0));
    const log = await logsOf(o.id);
    expect(log.map((l) => [l.action, l.user_name])).toEqual([['pms', '朱琳']]);
    expect(log[0]!.message).toContain(`项目管理系统推送（编号 ${first.ref}）同步新建`);
    const sync = await k().selectFrom('sync_logs').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'sync_logs.id').select(['system', 'type', 'status']).where('f.ref', '=', month).execute();
    expect(sync).toContainEqual({ system: SyncSystem.pms, type: 'pmsCostMonthlyOrders', status: 0 });
  });

  it('is idempotent: again (also twice at once) it skips what it took', async () => {
    const both = await Promise.all([s.call('/api/cost-order/pms-sync', { month }, tok.demo17), s.call('/api/cost-order/pms-sync', { month }, tok.demo16)]);
    for (const b of both) {
      expect(b.r.created).toBe(0);
      expect(b.r.skipped).toBe(expected.filter((o) => o.projectCode !== 'CT-FAIL').length);
    }
    expect(await k().selectFrom('cost_orders').select('id').where('month', '=', month).where('source', '=', 'pms').execute()).toHaveLength(both[0]!.r.skipped);
  });

  it('two first syncs at once take every order once', async () => {
    const m = others[0]!;
    const want = (await gw().monthlyOrders(m)).filter((o) => o.projectCode !== 'CT-FAIL');
    const both = await Promise.all([s.call('/api/cost-order/pms-sync', { month: m }, tok.demo17), s.call('/api/cost-order/pms-sync', { month: m }, tok.demo16)]);
    expect(both.map((b) => b.code)).toEqual([20000, 20000]);
    expect(both[0]!.r.created + both[1]!.r.created).toBe(want.length);
    expect(both[0]!.r.skipped + both[1]!.r.skipped).toBe(want.length);
    const made = await k().selectFrom('cost_orders').select(['pms_ref', 'order_no']).where('month', '=', m).where('source', '=', 'pms').execute();
    expect(made.map((x) => x.pms_ref).sort()).toEqual(want.map((o) => o.ref).sort());
    expect(new Set(made.map((x) => x.order_no)).size).toBe(made.length);
  });

  it('a PMS order whose department-project already has an entered order fails naming it; a month without orders says so', async () => {
    const m = others[1]!;
    const orders = (await gw().monthlyOrders(m)).filter((o) => o.projectCode !== 'CT-FAIL');
    expect(orders.length).toBeGreaterThan(0);
    const target = orders[0]!;
    const d = await k().selectFrom('departments').select('id').where('name', '=', target.deptName).executeTakeFirstOrThrow();
    const p = await k().selectFrom('projects').select('id').where('code', '=', target.projectCode).executeTakeFirstOrThrow();
    const entered = await save(body(m, d.id, p.id, [line('ZT-JX01', '1', '', '台班')]));
    expect(entered.code).toBe(20000);
    const a = await s.call('/api/cost-order/pms-sync', { month: m }, tok.demo16);
    expect(a.r.orders.find((x: { ref: string }) => x.ref === target.ref)).toEqual({ ref: target.ref, outcome: 'failed', orderId: null, orderNo: '', message: `该部门该项目${Number(m.slice(0, 4))}年${Number(m.slice(5))}月已有成本单 ${entered.r.orderNo}` });
    const future = await s.call('/api/cost-order/pms-sync', { month: shanghaiMonthOf(new Date()) }, tok.demo16);
    expect([future.code, future.r.created, future.r.orders]).toEqual([20000, 0, []]);
    expect(future.message).toContain('没有成本单');
  });

  it('a PMS that cannot be reached: the sync is refused in Chinese, nothing is made, the failure is in the sync log', async () => {
    const m = others[2]!;
    const before = await k().selectFrom('cost_orders').select('id').where('month', '=', m).execute();
    pmsSimControl.down();
    try {
      const a = await s.call('/api/cost-order/pms-sync', { month: m }, tok.demo16);
      expect([a.status, a.code, a.message]).toEqual([502, 30000, `从项目管理系统获取${Number(m.slice(0, 4))}年${Number(m.slice(5))}月成本单失败：无法连接项目管理系统，请稍后重试`]);
      const t = await s.call('/api/cost-setting/pms-test', {}, tok.demo17);
      expect(t.r).toEqual({ ok: false, message: '连接失败：无法连接项目管理系统，请稍后重试' });
    } finally {
      pmsSimControl.reset();
    }
    expect(await k().selectFrom('cost_orders').select('id').where('month', '=', m).execute()).toHaveLength(before.length);
    const failed = await k().selectFrom('sync_logs').select(['status', 'memo']).where('system', '=', SyncSystem.pms).where('status', '=', 1).execute();
    expect(failed.length).toBeGreaterThan(0);
    expect((await s.call('/api/cost-setting/pms-test', {}, tok.demo17)).r).toEqual({ ok: true, message: '连接成功（模拟器）' });
  });
});

describe('the PMS interface in 成本设置', () => {
  let fake: http.Server;
  let base = '';
  const month = '2026-01';
  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer pms-secret') return res.writeHead(401).end(JSON.stringify({ code: '401', message: 'unauthorized' }));
      const u = new URL(req.url!, 'http://x');
      if (u.pathname === '/api/ping') return res.end(JSON.stringify({ code: '0', message: 'PMS 在线' }));
      if (u.pathname === '/api/cost-orders') {
        const orders = u.searchParams.get('month') === month ? [{ ref: 'HTTP-0001', deptName: '成本测试二部', projectCode: 'CT-004', projectName: '成本测试项目四', lines: [{ itemCode: 'ZT-RG01', spec: '高级', unit: '工日', quantity: 3 }] }] : [];
        return res.end(JSON.stringify({ code: '0', message: 'ok', data: { month: u.searchParams.get('month'), orders } }));
      }
      res.writeHead(404).end(JSON.stringify({ code: 'NOT_FOUND' }));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/api`;
  });
  afterAll(() => fake?.close());

  it('shows the environment default, refuses an incomplete http setting, keeps the credential out of the view, and syncs through it', async () => {
    expect((await s.call('/api/cost-setting/pms', {}, tok.demo17)).r).toEqual({ mode: 'simulator', url: '', timeoutMs: 15000, tokenSet: false, source: 'env' });
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'http', url: '' }, tok.demo17)).message).toBe('请填写项目管理系统接口地址');
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'http', url: 'ftp://pms', token: 'x' }, tok.demo17)).message).toBe('接口地址须以 http:// 或 https:// 开头');
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'http', url: base }, tok.demo17)).message).toBe('请填写项目管理系统接口密钥');
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'http', url: base, timeoutMs: 10 }, tok.demo17)).message).toContain('超时至少1000毫秒');
    const saved = await s.call('/api/cost-setting/pms-save', { mode: 'http', url: base, token: 'wrong', timeoutMs: 5000 }, tok.demo17);
    expect(saved.r).toEqual({ mode: 'http', url: base, timeoutMs: 5000, tokenSet: true, source: 'setting' });
    expect(saved.raw).not.toContain('wrong');
    expect((await s.call('/api/cost-setting/pms-test', {}, tok.demo17)).r).toEqual({ ok: false, message: '连接失败：项目管理系统拒绝了接口凭据，请核对接口密钥（成本设置或PMS_COST_API_TOKEN）' });
    await s.call('/api/cost-setting/pms-save', { mode: 'http', url: base, token: 'pms-secret', timeoutMs: 5000 }, tok.demo17);
    // A save without the credential keeps the stored one.
    expect((await s.call('/api/cost-setting/pms-save', { mode: 'http', url: base, timeoutMs: 6000 }, tok.demo1)).r.tokenSet).toBe(true);
    expect((await s.call('/api/cost-setting/pms-test', {}, tok.demo17)).r).toEqual({ ok: true, message: '连接成功：PMS 在线' });
    const a = await s.call('/api/cost-order/pms-sync', { month }, tok.demo16);
    expect([a.r.created, a.r.skipped, a.r.failed]).toEqual([1, 0, []]);
    const o = await k().selectFrom('cost_orders').selectAll().where('pms_ref', '=', 'HTTP-0001').executeTakeFirstOrThrow();
    expect(o).toMatchObject({ month, dept_id: dept.b, project_id: proj.p4, source: 'pms', state: 0, amount: 105150, tax: 3155 });
    expect((await s.call('/api/cost-order/pms-sync', { month }, tok.demo16)).r.skipped).toBe(1);
    const back = await s.call('/api/cost-setting/pms-save', { mode: 'simulator' }, tok.demo17);
    expect(back.r).toEqual({ mode: 'simulator', url: '', timeoutMs: 15000, tokenSet: true, source: 'setting' });
    const logs = await k().selectFrom('operation_logs').select('description').where('description', 'like', '修改项目管理系统接口%').execute();
    expect(logs.map((l) => l.description)).toContain(`修改项目管理系统接口：接口 ${base}（超时5000毫秒），密钥已更新`);
  });
});

describe('the project choices of the cost pages', () => {
  it('lists projects by code or name for every cost role (ledger, audit, summary, settings) and refuses others', async () => {
    for (const who of ['demo16', 'demo18', 'demo19', 'demo20', 'demo17']) {
      const a = await s.call('/api/cost-order/projects', { keyword: 'XM2026-001' }, tok[who]);
      expect(a.code, `${who}: ${a.message}`).toBe(20000);
      expect((a.r as Array<{ code: string }>).map((p) => p.code)).toEqual(['XM2026-001']);
    }
    const all = await s.call('/api/cost-order/projects', {}, tok.demo18);
    expect((all.r as unknown[]).length).toBeGreaterThan(1);
    expect((all.r as unknown[]).length).toBeLessThanOrEqual(50);
    const other = await s.call('/api/cost-order/projects', {}, await s.login('demo5'));
    expect(other.status).toBe(403);
    expect(other.message).toBe('权限不足');
  });
});
