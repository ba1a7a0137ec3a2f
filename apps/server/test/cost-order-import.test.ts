/**
 * Issue 16, cost orders from elsewhere: the Excel import and its template, the project-management (PMS)
 * sync, the PMS interface settings in 成本设置 and the project choices of the cost pages. Split from
 * cost-order-entry.test.ts (same fixtures: cost-order-entry-fixture.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shanghaiMonthOf, shiftMonth, SyncSystem } from '@zhyy/shared';
import { createPmsGateway, PMS_SIM_UNKNOWN_ITEM, pmsSimControl, type PmsOrder } from '../src/integrations/pms/index.js';
import type { TestServer } from './helpers.js';
import { body, dept, entryHelpers, line, proj, startEntryServer, xlsx } from './cost-order-entry-fixture.js';

let s: TestServer;
const tok: Record<string, string> = {};
const { k, save, linesOf, logsOf } = entryHelpers(() => s, tok);

beforeAll(async () => {
  s = await startEntryServer(tok);
}, 120_000);
afterAll(async () => {
  pmsSimControl.reset();
  await s?.close();
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
