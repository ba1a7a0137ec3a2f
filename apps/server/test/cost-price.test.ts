/**
 * Issue 16, the price list (/api/cost-price/*): list, options for a month, an item's timeline, save (new
 * and edit), delete, Excel import (per row), export and template. Overlapping windows are refused by the
 * database's trigger and answered 409 naming the window met; a window order lines were priced from
 * keeps its price, rate, item, spec and unit, must keep touching those orders' months, and cannot be
 * deleted. Roles 1, 17 and admin change the list; 16, 18, 19 read it (权限不足 on changes); 20, 21, 22
 * get 权限不足 on all of it. The fixtures (a department, a project, orders and lines) are this file's own.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, OperationLogType } from '@zhyy/shared';
import { newId } from '../src/platform/ids.js';
import { readPriceSheet } from '../src/modules/cost/price/sheet.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';
import { clearCostTables } from './cost-audit-fixture.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const P = '/api/cost-price';
const db = () => s.db.kysely;
const now = new Date().toISOString();
const DEPT = newId();
const PROJECT = newId();

beforeAll(async () => {
  s = await startTestServer();
  await clearCostTables(s);
  for (const n of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22']) tokens[n] = await s.login(n);
  await db().insertInto('departments').values({ id: DEPT, parent_id: null, name: '成本价格测试部', sort: 999, manager_id: null, created_at: now, updated_at: now }).execute();
  await db().insertInto('projects').values({ id: PROJECT, code: 'XM-CP', name: '成本价格测试项目', customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }).execute();
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who = 'demo17') => s.call(`${P}/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who = 'demo17') => {
  const a = await call(path, body, who);
  expect(a.code, a.message).toBe(20000);
  return a;
};
const refused = async (path: string, body: unknown, message: string | RegExp, status = 400, who = 'demo17') => {
  const a = await call(path, body, who);
  expect(a.code, JSON.stringify(a.r)).toBe(30000);
  expect(a.status).toBe(status);
  if (typeof message === 'string') expect(a.message).toBe(message);
  else expect(a.message).toMatch(message);
  return a;
};
const price = (itemCode: string, validFrom: string, validTo: string | null, over: Record<string, unknown> = {}) => ({
  itemCode, itemName: `测试项${itemCode}`, category: 'labour', spec: '', unit: '工日', unitPrice: '350.5', taxRate: '0.03', validFrom, validTo, ...over,
});
const save = async (body: Record<string, unknown>, who = 'demo17') => (await ok('save', body, who)).r;
const logs = (text: string) => db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('description', 'like', `%${text}%`).orderBy('created_at').execute();

let orderSeq = 0;
/** An order of `month` with one line priced from window `priceId` (inserted directly: the order module is not under test here). */
async function orderUsing(priceId: string, month: string, state = 0) {
  const p = await db().selectFrom('cost_prices').selectAll().where('id', '=', priceId).executeTakeFirstOrThrow();
  const id = newId();
  const project = newId();
  await db().insertInto('projects').values({ id: project, code: `XM-CP${++orderSeq}`, name: `项目${orderSeq}`, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }).execute();
  await db().insertInto('cost_orders').values({
    id, order_no: `CB${month.replace('-', '')}9${String(orderSeq).padStart(3, '0')}`, month, dept_id: DEPT, dept_name: '成本价格测试部', project_id: project, project_code: `XM-CP${orderSeq}`, project_name: `项目${orderSeq}`,
    source: 'entry', state, invalid_reason: '', amount: 35_050, tax: 1_052, line_count: 1, remark: '', pms_ref: '', audited_by: '', audited_at: null, created_by_id: null, created_by: '测试', created_at: now, updated_at: now,
  }).execute();
  await db().insertInto('cost_order_lines').values({
    id: newId(), order_id: id, line_no: 1, price_id: priceId, item_code: p.item_code, item_name: p.item_name, category: p.category, spec: p.spec, unit: p.unit, quantity: '1',
    unit_price: p.unit_price, tax_rate: p.tax_rate, amount: 35_050, tax: 1_052, price_from: p.valid_from, price_to: p.valid_to, remark: '',
  }).execute();
  return id;
}

async function sheet(rows: unknown[][], header = ['成本项编码', '成本项名称', '费用类别', '规格', '单位', '不含税单价（元）', '税率', '生效日期', '失效日期']) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('价格表');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describe('permissions', () => {
  it('roles 1, 17 and admin change the list; 16, 18, 19 read it but get 权限不足 on changes', async () => {
    for (const who of ['admin', 'demo1', 'demo17']) {
      const r = await save(price(`P-${who}`, '2026-01-01', null), who);
      expect(r.itemCode).toBe(`P-${who}`);
      await ok('delete', { id: r.id }, who);
      expect((await s.download(`${P}/template`, {}, tokens[who]!)).res.statusCode).toBe(200);
    }
    const mine = await save(price('P-READ', '2026-01-01', null));
    const file = await sheet([['P-READ2', '读者', '人工', '', '工日', '1', '3%', '2026-01-01', '']]);
    for (const who of ['demo16', 'demo18', 'demo19']) {
      expect((await ok('list', {}, who)).r.total).toBeGreaterThan(0);
      await ok('options', { month: '2026-05' }, who);
      expect((await ok('timeline', { itemCode: 'P-READ', unit: '工日' }, who)).r).toHaveLength(1);
      expect((await s.download(`${P}/export`, {}, tokens[who]!)).res.statusCode).toBe(200);
      for (const [path, body] of [['save', price('P-NO', '2026-01-01', null)], ['save', { ...price('P-READ', '2026-01-01', null), id: mine.id }], ['delete', { id: mine.id }], ['import', { file }], ['template', {}]] as const) {
        const a = await call(path, body, who);
        expect(a.status, `${who} ${path}`).toBe(403);
        expect(a.message).toBe(Messages.forbidden);
      }
    }
    for (const who of ['demo20', 'demo21', 'demo22']) {
      for (const [path, body] of [['list', {}], ['options', { month: '2026-05' }], ['timeline', { itemCode: 'P-READ', unit: '工日' }], ['export', {}], ['save', price('P-NO', '2026-01-01', null)], ['delete', { id: mine.id }], ['import', { file }], ['template', {}]] as const) {
        const a = await call(path, body, who);
        expect(a.status, `${who} ${path}`).toBe(403);
        expect(a.message).toBe(Messages.forbidden);
      }
    }
    expect((await s.call(`${P}/list`, {})).status).toBe(401);
    expect(await db().selectFrom('cost_prices').select('id').where('item_code', 'in', ['P-NO', 'P-READ2']).execute()).toEqual([]);
    expect((await db().selectFrom('cost_prices').select('unit_price').where('id', '=', mine.id).executeTakeFirstOrThrow()).unit_price).toBe('350.5');
  });
});

describe('save', () => {
  it('adds a window with the caller and the time, in plain decimal form; logs it', async () => {
    const r = await save(price('S-1', '2026-01-01', '', { itemName: '普工', unitPrice: '0280.12345600', spec: '初级' }));
    expect(r).toMatchObject({ itemCode: 'S-1', itemName: '普工', category: 'labour', spec: '初级', unit: '工日', unitPrice: '280.123456', taxRate: '0.03', validFrom: '2026-01-01', validTo: null, usedCount: 0, updatedBy: '胡军' });
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    const log = (await logs('新增成本价格：S-1 普工 初级'))[0];
    expect(log).toMatchObject({ type: OperationLogType.add, login_name: 'demo17' });
    expect(log!.description).toContain('不含税单价 280.123456 元，税率 3%，有效期 2026-01-01 至 长期');
  });

  it('validates every field with a Chinese message', async () => {
    await refused('save', price('S-2', '2026-01-01', null, { unitPrice: '1.123456789' }), /不含税单价须为不超过8位小数的正数/);
    await refused('save', price('S-2', '2026-01-01', null, { unitPrice: '0' }), /不含税单价须大于0/);
    // The shared list of rates (issue 27): 5% is one, 0.5 is not.
    await refused('save', price('S-2', '2026-01-01', null, { taxRate: '0.5' }), /税率不正确/);
    await refused('save', price('S-2', '2026-01-01', null, { category: 'food' }), /费用类别不正确/);
    await refused('save', price('S-2', '2026-03-01', '2026-02-28'), /失效日期不能早于生效日期/);
    await refused('save', price('S-2', '2026-02-30', null), /不是有效的日期/);
    await refused('save', price('S 2', '2026-01-01', null), /成本项编码为1至30位/);
    await refused('save', price('S-2', '2026-01-01', null, { unit: '' }), /请填写单位/);
    await refused('save', price('S-2', '2026-01-01', null, { itemName: ' ' }), /请填写成本项名称/);
    await refused('save', { ...price('S-2', '2026-01-01', null), id: newId() }, '价格不存在或已删除', 404);
    expect(await db().selectFrom('cost_prices').select('id').where('item_code', '=', 'S-2').execute()).toEqual([]);
  });

  it('refuses a window overlapping another of the same item, spec and unit with 409 naming it; adjacent windows and other specs are fine', async () => {
    await save(price('O-1', '2026-01-01', null));
    await refused('save', price('O-1', '2026-06-01', '2026-06-30'), '与已有价格有效期重叠（2026-01-01 至 长期）', 409);
    await refused('save', price('O-1', '2025-01-01', null), '与已有价格有效期重叠（2026-01-01 至 长期）', 409);
    // The day before is fine, as is another spec or unit.
    await save(price('O-1', '2025-01-01', '2025-12-31'));
    await save(price('O-1', '2026-06-01', null, { spec: '高级' }));
    await save(price('O-1', '2026-06-01', null, { unit: '月' }));
    await refused('save', price('O-1', '2025-12-31', '2025-12-31', { unitPrice: '1' }), '与已有价格有效期重叠（2025-01-01 至 2025-12-31）', 409);
    expect(await db().selectFrom('cost_prices').select('id').where('item_code', '=', 'O-1').execute()).toHaveLength(4);
  });

  it('an edit that makes a window overlap is refused naming the other; an edit of itself is not an overlap', async () => {
    const a = await save(price('O-2', '2026-01-01', '2026-03-31'));
    const b = await save(price('O-2', '2026-04-01', null));
    await refused('save', { ...price('O-2', '2026-01-01', '2026-04-01'), id: a.id }, '与已有价格有效期重叠（2026-04-01 至 长期）', 409);
    const edited = await save({ ...price('O-2', '2026-01-01', '2026-03-31', { unitPrice: '360', itemName: '改名' }), id: a.id }, 'demo1');
    expect(edited).toMatchObject({ id: a.id, unitPrice: '360', itemName: '改名', updatedBy: '王建国' });
    // Close b, then a may be extended into the gap.
    await save({ ...price('O-2', '2026-05-01', null), id: b.id });
    expect((await save({ ...price('O-2', '2026-01-01', '2026-04-30'), id: a.id })).validTo).toBe('2026-04-30');
    const log = (await logs('修改成本价格：O-2'))[0]!;
    expect(log.type).toBe(OperationLogType.edit);
    expect(log.description).toContain('→');
  });

  it('of two overlapping saves at once exactly one is in; the other is told which window it met', async () => {
    const answers = await Promise.all([call('save', price('O-3', '2026-01-01', null, { unitPrice: '1' })), call('save', price('O-3', '2026-05-01', null, { unitPrice: '2' }))]);
    expect(answers.map((a) => a.code).sort()).toEqual([20000, 30000]);
    const lost = answers.find((a) => a.code === 30000)!;
    const won = answers.find((a) => a.code === 20000)!;
    expect(lost.status).toBe(409);
    expect(lost.message).toBe(`与已有价格有效期重叠（${won.r.validFrom} 至 长期）`);
    expect(await db().selectFrom('cost_prices').select('id').where('item_code', '=', 'O-3').execute()).toHaveLength(1);
  });
});

describe('windows used by order lines', () => {
  let used: any;
  it('count their lines; keep price, rate, item, spec and unit', async () => {
    used = await save(price('U-1', '2026-01-01', null, { unitPrice: '350.50' }));
    await orderUsing(used.id, '2026-03');
    await orderUsing(used.id, '2026-05', 2);
    expect((await ok('timeline', { itemCode: 'U-1', unit: '工日' })).r[0].usedCount).toBe(2);
    const body = { ...price('U-1', '2026-01-01', null), id: used.id };
    await refused('save', { ...body, unitPrice: '351' }, '已被成本单引用的价格不能修改单价或税率，请新增一个有效期');
    await refused('save', { ...body, taxRate: '0.06' }, '已被成本单引用的价格不能修改单价或税率，请新增一个有效期');
    await refused('save', { ...body, itemCode: 'U-2' }, '已被成本单引用的价格不能修改成本项编码、规格或单位，请新增一个有效期');
    await refused('save', { ...body, spec: '高级' }, '已被成本单引用的价格不能修改成本项编码、规格或单位，请新增一个有效期');
    await refused('save', { ...body, unit: '月' }, '已被成本单引用的价格不能修改成本项编码、规格或单位，请新增一个有效期');
    // The same price written differently, and the name and category, may change.
    const r = await save({ ...body, unitPrice: '350.500', itemName: '普工（改）', category: 'other' });
    expect(r).toMatchObject({ unitPrice: '350.5', itemName: '普工（改）', category: 'other', usedCount: 2 });
  });

  it('their days must keep touching the months of the orders using them', async () => {
    const body = { ...price('U-1', '2026-01-01', null), id: used.id };
    await refused('save', { ...body, validTo: '2026-04-30' }, '该价格已被2026年5月的成本单引用，有效期须覆盖这些月份');
    await refused('save', { ...body, validFrom: '2026-06-01' }, '该价格已被2026年3月、2026年5月的成本单引用，有效期须覆盖这些月份');
    await refused('save', { ...body, validTo: '2026-02-28' }, '该价格已被2026年3月、2026年5月的成本单引用，有效期须覆盖这些月份');
    // Any day of the month will do: the order's price was copied when it was made.
    const r = await save({ ...body, validFrom: '2026-03-31', validTo: '2026-05-01' });
    expect(r).toMatchObject({ validFrom: '2026-03-31', validTo: '2026-05-01', unitPrice: '350.5' });
    // A new window after it carries a new price.
    expect((await save(price('U-1', '2026-05-02', null, { unitPrice: '380' }))).unitPrice).toBe('380');
  });

  it('cannot be deleted; an unused one can (once)', async () => {
    await refused('delete', { id: used.id }, '该价格已被 2 行成本明细引用，不能删除；可缩短其有效期，再新增一个有效期');
    const free = await save(price('U-3', '2026-01-01', null));
    await ok('delete', { id: free.id });
    await refused('delete', { id: free.id }, '价格不存在或已删除', 404);
    await refused('delete', { id: 'x' }, /ID格式不正确/);
    expect((await logs('删除成本价格：U-3'))[0]).toMatchObject({ type: OperationLogType.delete, login_name: 'demo17' });
    expect(await db().selectFrom('cost_prices').select('id').where('id', '=', used.id).execute()).toHaveLength(1);
  });
});

describe('reading', () => {
  beforeAll(async () => {
    await save(price('R-A', '2025-01-01', '2025-12-31', { itemName: '挖掘机台班', category: 'equipment', unit: '台班', unitPrice: '1200' }));
    await save(price('R-A', '2026-01-01', '2026-04-14', { itemName: '挖掘机台班', category: 'equipment', unit: '台班', unitPrice: '1250' }));
    await save(price('R-A', '2026-04-20', null, { itemName: '挖掘机台班', category: 'equipment', unit: '台班', unitPrice: '1300' }));
    await save(price('R-B', '2026-02-10', null, { itemName: '皮卡车', category: 'vehicle', unit: '公里', unitPrice: '2.85', spec: '双排' }));
    await save(price('R-B', '2026-01-01', '2026-01-31', { itemName: '皮卡车', category: 'vehicle', unit: '公里', unitPrice: '2.8', spec: '双排' }));
  });

  it('list: keyword (code, name, spec), category, in force on a day, paging and sorting', async () => {
    const byKeyword = (await ok('list', { keyword: '挖掘机', pageSize: 50 })).r;
    expect(byKeyword.total).toBe(3);
    // Newest window first within an item.
    expect(byKeyword.items.map((r: any) => r.validFrom)).toEqual(['2026-04-20', '2026-01-01', '2025-01-01']);
    expect((await ok('list', { keyword: '双排' })).r.total).toBe(2);
    expect((await ok('list', { keyword: 'r-b' })).r.total).toBe(2);
    expect((await ok('list', { category: 'vehicle' })).r.items.every((r: any) => r.category === 'vehicle')).toBe(true);
    const on = (await ok('list', { keyword: 'R-', on: '2026-04-16' })).r;
    expect(on.items.map((r: any) => `${r.itemCode}:${r.unitPrice}`)).toEqual(['R-B:2.85']);
    expect((await ok('list', { keyword: 'R-', on: '2026-01-31' })).r.items.map((r: any) => `${r.itemCode}:${r.unitPrice}`)).toEqual(['R-A:1250', 'R-B:2.8']);
    const page2 = (await ok('list', { keyword: 'R-', pageIndex: 2, pageSize: 2 })).r;
    expect(page2.total).toBe(5);
    expect(page2.items).toHaveLength(2);
    const sorted = (await ok('list', { keyword: 'R-', sort: { field: 'validFrom', order: 'ascend' } })).r.items.map((r: any) => r.validFrom);
    expect(sorted).toEqual([...sorted].sort());
    await refused('list', { pageSize: 501 }, /每页最多500条/);
    await refused('list', { on: '2026-13-01' }, /生效于/);
  });

  it('timeline: every window of the item, spec and unit, oldest first', async () => {
    const t = (await ok('timeline', { itemCode: 'R-A', unit: '台班' }, 'demo18')).r;
    expect(t.map((r: any) => [r.validFrom, r.validTo, r.unitPrice])).toEqual([['2025-01-01', '2025-12-31', '1200'], ['2026-01-01', '2026-04-14', '1250'], ['2026-04-20', null, '1300']]);
    expect((await ok('timeline', { itemCode: 'R-B', unit: '公里' })).r).toEqual([]);
    expect((await ok('timeline', { itemCode: 'R-B', spec: '双排', unit: '公里' })).r).toHaveLength(2);
  });

  it('options: one window per item, spec and unit for the month (in force on the 1st, else the first starting within it)', async () => {
    const of = async (month: string) => new Map((await ok('options', { month, keyword: 'R-' }, 'demo16')).r.map((r: any) => [r.itemCode, r.unitPrice]));
    expect(await of('2025-06')).toEqual(new Map([['R-A', '1200']]));
    expect(await of('2026-01')).toEqual(new Map([['R-A', '1250'], ['R-B', '2.8']]));
    // R-B has no price on 1 February; the window starting on the 10th prices the month.
    expect(await of('2026-02')).toEqual(new Map([['R-A', '1250'], ['R-B', '2.85']]));
    // R-A: in force on 1 April is the 1250 window.
    expect(await of('2026-04')).toEqual(new Map([['R-A', '1250'], ['R-B', '2.85']]));
    expect(await of('2026-05')).toEqual(new Map([['R-A', '1300'], ['R-B', '2.85']]));
    expect(await of('2024-12')).toEqual(new Map());
    const all = (await ok('options', { month: '2026-02' })).r;
    const keys = all.map((r: any) => `${r.itemCode}|${r.spec}|${r.unit}`);
    expect(new Set(keys).size).toBe(keys.length);
    await refused('options', { month: '2026-2' }, /月份格式须为YYYY-MM/);
  });
});

describe('import', () => {
  it('refuses what is not a price sheet', async () => {
    await refused('import', { file: Buffer.from('not excel').toString('base64') }, '文件不是有效的Excel（.xlsx）文件');
    await refused('import', { file: await sheet([['I-0', 'x', '人工', '', '工日', '1', '3%']], ['成本项编码', '成本项名称', '费用类别', '规格', '单位', '单价', '税率']) }, '表头缺少：不含税单价、生效日期（请使用导入模板）');
    await refused('import', { file: await sheet([]) }, '文件中没有价格行（第一行为表头，请使用导入模板）');
    await refused('import', { file: '' }, /请选择文件/);
    // Sheet read, not one row saved: a refusal, 30000 naming each row and its reason, never 20000 (issue 27 item 8).
    const none = await call('import', { file: await sheet([['I-3', '油费', '燃料', '', '升', '7.5', '13%', '2026-01-01', ''], ['I-5', '测量', '专业服务', '', '次', '500', '17%', '2026-01-01', '']]) }, 'demo17');
    expect(none.code).toBe(30000);
    expect(none.r).toMatchObject({ total: 2, succeeded: 0, failed: 2 });
    expect(none.message).toBe(`2 行均未导入：第2行 ${none.r.rows[0].message}；第3行 ${none.r.rows[1].message}`);
    expect(none.r.rows.map((x: { ok: boolean }) => x.ok)).toEqual([false, false]);
  });

  it('saves the good rows and reports every row: format errors, repeats and overlaps within the file and with the list', async () => {
    await save(price('I-EXIST', '2026-01-01', null, { itemName: '已有', unitPrice: '10' }));
    const file = await sheet([
      ['I-1', '钢筋工', '人工', '中级', '工日', '420.12345678', '3%', '2026-01-01', ''], // 2 ok
      ['I-1', '钢筋工', '人工', '中级', '工日', '430', '3%', '2026-01-01', ''], // 3 repeat of 2
      ['I-1', '钢筋工', '人工', '中级', '工日', '440', '0.03', '2026-06-01', '2026-06-30'], // 4 overlaps 2
      ['I-1', '钢筋工', '人工', '中级', '工日', '400', 0.03, new Date(Date.UTC(2025, 0, 1)), '2025-12-31'], // 5 ok (date cell, rate number)
      ['I-2', '搅拌车', 'equipment', '', '台班', 980, '13%', '2026/3/1', '长期'], // 6 ok (code as category, number price, slashes)
      ['I-3', '油费', '燃料', '', '升', '7.5', '13%', '2026-01-01', ''], // 7 bad category
      ['I-4', '吊车', '机械设备', '', '台班', '1.123456789', '13%', '2026-01-01', ''], // 8 bad price
      ['I-5', '测量', '专业服务', '', '次', '500', '17%', '2026-01-01', ''], // 9 bad rate
      ['I-6', '测量', '专业服务', '', '次', '500', '6%', '2026-02-30', ''], // 10 bad day
      ['I-EXIST', '已有', '人工', '', '工日', '12', '3%', '2026-03-01', ''], // 11 overlaps the list
      ['I-EXIST', '已有', '人工', '', '工日', '10', '3%', '2026-01-01', ''], // 12 identical to the list: skipped
      [],
      ['I-7', '', '其他', '', '项', '1', '0', '2026-01-01', '2025-12-31'], // 14 no name
      ['I-8', '杂项', '其他', '', '项', '1', '0%', '2026-01-01', '2025-12-31'], // 15 to before from
    ]);
    const a = await ok('import', { file });
    expect(a.message).toBe('导入完成：成功 4 行，失败 9 行');
    expect(a.r).toMatchObject({ total: 13, succeeded: 4, failed: 9 });
    expect(a.r.rows).toEqual([
      { row: 2, ok: true, message: '导入成功' },
      { row: 3, ok: false, message: '与第2行重复' },
      { row: 4, ok: false, message: '与第2行的有效期重叠（2026-01-01 至 长期）' },
      { row: 5, ok: true, message: '导入成功' },
      { row: 6, ok: true, message: '导入成功' },
      { row: 7, ok: false, message: '费用类别不正确' },
      { row: 8, ok: false, message: '不含税单价须为不超过8位小数的正数' },
      { row: 9, ok: false, message: '税率不正确（可填 0、1%、1.5%、3%、5%、6%、9%、13%（免税、不征税按0））' },
      { row: 10, ok: false, message: '生效日期不是有效的日期' },
      { row: 11, ok: false, message: '与已有价格有效期重叠（2026-01-01 至 长期）' },
      { row: 12, ok: true, message: '与已有价格相同，已跳过' },
      { row: 14, ok: false, message: '请填写成本项名称' },
      { row: 15, ok: false, message: '失效日期不能早于生效日期' },
    ]);
    const saved = await db().selectFrom('cost_prices').selectAll().where('item_code', 'in', ['I-1', 'I-2', 'I-EXIST']).orderBy('item_code').orderBy('valid_from').execute();
    expect(saved.map((r) => [r.item_code, r.spec, r.unit_price, r.tax_rate, r.valid_from, r.valid_to, r.category, r.updated_by])).toEqual([
      ['I-1', '中级', '400', '0.03', '2025-01-01', '2025-12-31', 'labour', '胡军'],
      ['I-1', '中级', '420.12345678', '0.03', '2026-01-01', null, 'labour', '胡军'],
      ['I-2', '', '980', '0.13', '2026-03-01', null, 'equipment', '胡军'],
      ['I-EXIST', '', '10', '0.03', '2026-01-01', null, 'labour', '胡军'],
    ]);
    expect((await logs('导入成本价格：共 13 行，成功 4 行，失败 9 行'))[0]).toMatchObject({ type: OperationLogType.import, login_name: 'demo17' });
  });
});

describe('export and template', () => {
  it('exports the filtered list with the template’s columns first; re-importing it changes nothing', async () => {
    const { res, ws } = await s.download(`${P}/export`, { keyword: 'R-A' }, tokens.demo18!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain('.xlsx');
    const header = (ws!.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['成本项编码', '成本项名称', '费用类别', '规格', '单位', '不含税单价（元）', '税率', '生效日期', '失效日期', '引用明细行数', '更新人', '更新时间']);
    const rows = [];
    for (let i = 2; i <= ws!.rowCount; i++) rows.push((ws!.getRow(i).values as unknown[]).slice(1, 10));
    expect(rows).toEqual([
      ['R-A', '挖掘机台班', '机械设备', undefined, '台班', '1300', '3%', '2026-04-20', undefined],
      ['R-A', '挖掘机台班', '机械设备', undefined, '台班', '1250', '3%', '2026-01-01', '2026-04-14'],
      ['R-A', '挖掘机台班', '机械设备', undefined, '台班', '1200', '3%', '2025-01-01', '2025-12-31'],
    ]);
    expect((await logs('导出成本价格表 3 条（关键字 R-A）'))[0]).toMatchObject({ type: OperationLogType.export, login_name: 'demo18' });

    const all = await s.download(`${P}/export`, {}, tokens.demo17!);
    const total = (await ok('list', {})).r.total;
    expect(all.ws!.rowCount).toBe(total + 1);
    const again = await ok('import', { file: Buffer.from(all.res.rawPayload).toString('base64') });
    expect(again.r).toMatchObject({ total, succeeded: total, failed: 0 });
    expect(again.r.rows.every((r: any) => r.message === '与已有价格相同，已跳过')).toBe(true);
    expect((await ok('list', {})).r.total).toBe(total);
  });

  it('the template is the header row of the import', async () => {
    const { res, ws } = await s.download(`${P}/template`, {}, tokens.demo1!);
    expect(res.statusCode).toBe(200);
    expect((ws!.getRow(1).values as unknown[]).slice(1)).toEqual(['成本项编码', '成本项名称', '费用类别', '规格', '单位', '不含税单价（元）', '税率', '生效日期', '失效日期']);
    expect(ws!.rowCount).toBe(1);
    // The second sheet: each column explained, and example rows under the same headers that read as prices (issue 31).
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['价格表', '填写说明']);
    const help = wb.worksheets[1]!;
    const texts: string[][] = [];
    help.eachRow((row) => texts.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const at = texts.findIndex((t) => t[0] === '成本项编码' && t[1] === '成本项名称');
    expect(at).toBeGreaterThan(0);
    const examples = texts.slice(at + 1);
    expect(examples.length).toBeGreaterThanOrEqual(1);
    const filled = new ExcelJS.Workbook();
    const sheet = filled.addWorksheet('价格表');
    sheet.addRow(texts[at]!);
    for (const e of examples) sheet.addRow(e);
    const read = await readPriceSheet(Buffer.from(await filled.xlsx.writeBuffer()));
    expect(read.map((r) => r.message)).toEqual(examples.map(() => ''));
    expect(read.every((r) => r.window)).toBe(true);
  });
});
