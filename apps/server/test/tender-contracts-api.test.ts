/**
 * Issue 17, contracts and projects (/api/tender/contract/*, /api/tender/project/*): every call and who
 * may make it. Reading contracts is for the /tender group; adding for 1, 4, 6 (demo7 and demo23 get
 * 权限不足); editing for 1, 4, 6, 7, 8 (demo23 gets 权限不足); projects for 1 and 4 (demo6 gets 权限不足).
 * Every change lands in the contract's or project's history. The registered-manager rule is refused with
 * the other project named, also when two assignments race (one wins). 框架合同开票统计 counts only
 * invoices in force, red ones netted; its 已开票 is what was issued on the orders, invoices on the frame
 * itself show apart (框架合同直接开票) and never make 未开票 negative; the totals add up over the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSTRUCTOR_KINDS, ContractType, InvoiceColour, InvoiceStatus, Messages, OperationLogType, ProjectState, type FrameStatisticRow } from '@zhyy/shared';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
import { newId } from '../src/platform/ids.js';
import '../src/modules/tender/tables.js';
import '../src/modules/invoice/apportionment/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const WHO = ['admin', 'demo1', 'demo4', 'demo5', 'demo6', 'demo7', 'demo8', 'demo9', 'demo15', 'demo16', 'demo23'];

beforeAll(async () => {
  s = await startTestServer();
  for (const n of WHO) tokens[n] = await s.login(n);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who: string) => s.call(`/api/tender/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who: string) => {
  const a = await call(path, body, who);
  expect(a.code, `${who} ${path}: ${a.message}`).toBe(20000);
  return a.r;
};
const refused = async (path: string, body: unknown, who: string, status: number, message?: string | RegExp) => {
  const a = await call(path, body, who);
  expect(a.status, `${who} ${path}: ${a.message}`).toBe(status);
  expect(a.code).toBe(30000);
  if (typeof message === 'string') expect(a.message).toBe(message);
  else if (message) expect(a.message).toMatch(message);
  return a;
};
const userId = async (login: string) => (await db().selectFrom('users').select('id').where('login_name', '=', login).executeTakeFirstOrThrow()).id;

let seq = 0;
const now = new Date().toISOString();
/** A contract allocation of an invoice (as the apportionment pages write them). */
const alloc = (invoiceId: string, target: string, incl: number) => ({
  id: newId(), invoice_id: invoiceId, dim: 'contract', target_id: target, amount_excl: incl, tax: 0, amount_incl: incl, issue_date: '2026-01-10', created_by: null, created_by_name: '', created_at: now, updated_at: now,
});
const contract = (over: Record<string, unknown> = {}) => ({
  contractType: ContractType.single, code: `T-HT-${process.pid}-${++seq}`, name: `测试合同${seq}`, customer: '南京测试客户有限公司', amount: 12_345_600, signedOn: '2025-03-01',
  workFrom: '2025-03-10', workTo: '2025-12-31', acceptedOn: '2026-01-15', remark: '', ...over,
});

describe('contracts', () => {
  let frameId = '';
  let orderId = '';
  let singleId = '';

  it('the group reads the list; others get 权限不足', async () => {
    for (const who of ['demo1', 'demo4', 'demo5', 'demo6', 'demo7', 'demo8', 'demo9', 'demo15', 'demo23']) {
      const r = await ok('contract/list', { pageIndex: 1, pageSize: 5 }, who);
      expect(r.total).toBeGreaterThan(0);
    }
    await refused('contract/list', {}, 'demo16', 403, Messages.forbidden);
  });

  it('roles 1, 4, 6 add frame, order and single contracts; 7 and 23 get 权限不足', async () => {
    const f = await ok('contract/add', contract({ contractType: ContractType.frame, name: '测试框架协议', amount: 500_000_00 }), 'demo6');
    frameId = f.id;
    expect(f.missingPages).toBe(5);
    const o = await ok('contract/add', contract({ contractType: ContractType.order, frameId, amount: 120_000_00 }), 'demo4');
    orderId = o.id;
    expect(o.frameId).toBe(frameId);
    expect(o.missingPages).toBe(2);
    singleId = (await ok('contract/add', contract(), 'demo1')).id;
    await refused('contract/add', contract(), 'demo7', 403, Messages.forbidden);
    await refused('contract/add', contract(), 'demo23', 403, Messages.forbidden);
    await refused('contract/add', contract(), 'demo8', 403, Messages.forbidden);
    const log = await db().selectFrom('operation_logs').select(['type', 'description', 'login_name']).where('record_kind', '=', 'contract').where('record_id', '=', frameId).execute();
    expect(log).toEqual([{ type: OperationLogType.add, description: expect.stringContaining('新增框架合同'), login_name: 'demo6' }]);
  });

  it('refuses what does not hold, in Chinese', async () => {
    await refused('contract/add', contract({ contractType: ContractType.order }), 'demo6', 400, /订单合同须选择所属框架合同/);
    await refused('contract/add', contract({ contractType: ContractType.order, frameId: singleId }), 'demo6', 400, '所选合同不是框架合同，请选择框架合同');
    await refused('contract/add', contract({ frameId }), 'demo6', 400, /只有订单合同属于框架合同/);
    await refused('contract/add', contract({ workFrom: '2025-05-01', workTo: '2025-04-01' }), 'demo6', 400, /工期结束日期不能早于开始日期/);
    await refused('contract/add', contract({ name: '' }), 'demo6', 400, /请填写合同名称/);
    const dup = await db().selectFrom('contracts').select(['code', 'name']).where('id', '=', singleId).executeTakeFirstOrThrow();
    await refused('contract/add', contract({ code: dup.code }), 'demo6', 409, `合同编号${dup.code}已被「${dup.name}」使用`);
    await refused('contract/add', contract({ projectId: newId() }), 'demo6', 400, '所选项目不存在，请重新选择');
  });

  it('roles 1, 4, 6, 7, 8 edit; 23 and 5 get 权限不足; the detail shows the history', async () => {
    const cur = await ok('contract/detail', { id: singleId }, 'demo7');
    const body = { ...contract(), id: singleId, code: cur.code, name: cur.name, amount: 99_000_00 };
    await ok('contract/edit', body, 'demo7');
    await ok('contract/edit', { ...body, acceptedOn: '2026-02-01' }, 'demo8');
    await refused('contract/edit', body, 'demo23', 403, Messages.forbidden);
    await refused('contract/edit', body, 'demo5', 403, Messages.forbidden);
    const d = await ok('contract/detail', { id: singleId }, 'demo23');
    expect(d.amount).toBe(99_000_00);
    expect(d.acceptedOn).toBe('2026-02-01');
    expect(d.history.map((h: { loginName: string }) => h.loginName)).toEqual(['demo8', 'demo7', 'demo1']);
    expect(d.history[1].description).toContain('合同金额：123,456.00元 → 99,000.00元');
    expect(d.history[0].description).toContain('竣工验收日期：2026-01-15 → 2026-02-01');
    await refused('contract/edit', { ...body, id: newId() }, 'demo7', 404, '合同不存在或已删除');
  });

  it('a frame with orders keeps its type; its detail lists the orders', async () => {
    const f = await ok('contract/detail', { id: frameId }, 'demo9');
    expect(f.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);
    await refused('contract/edit', { ...contract(), id: frameId, code: f.code, contractType: ContractType.single }, 'demo6', 400, '该框架合同下有 1 个订单合同，不能改为其他类型');
  });

  it('an order added while its frame is turned into a single contract: never both (no order under a non-frame)', async () => {
    for (let round = 0; round < 4; round++) {
      // Codes outside the T-HT- set the other tests filter on.
      const code = (what: string) => `RACE-${process.pid}-${round}-${what}`;
      const f = await ok('contract/add', contract({ contractType: ContractType.frame, code: code('F'), name: `竞争框架${round}` }), 'demo6');
      const [edit, add] = await Promise.all([
        call('contract/edit', { ...contract(), id: f.id, code: f.code, contractType: ContractType.single }, 'demo6'),
        call('contract/add', contract({ contractType: ContractType.order, code: code('O'), frameId: f.id }), 'demo4'),
      ]);
      expect(edit.status).toBeLessThan(500);
      expect(add.status).toBeLessThan(500);
      expect([edit.code, add.code]).not.toEqual([20000, 20000]);
      const orphans = await db()
        .selectFrom('contracts as o')
        .innerJoin('contracts as p', 'p.id', 'o.parent_id')
        .select('o.id')
        .where('o.parent_id', '=', f.id)
        .where('p.contract_type', '<>', ContractType.frame)
        .execute();
      expect(orphans).toEqual([]);
    }
  });

  it('pages: the edit roles upload, the group reads; completeness follows the stored pages', async () => {
    const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const upload = async (who: string, kind: number) => {
      const res = await s.app.inject({ method: 'POST', url: `/api/tender/attachment/upload?ownerKind=contract&ownerId=${orderId}&kind=${kind}&name=${encodeURIComponent('页.pdf')}`, headers: { 'content-type': 'application/octet-stream', 'x-token': tokens[who]! }, payload: PDF });
      return { status: res.statusCode, ...res.json() };
    };
    expect((await upload('demo23', 2310)).status).toBe(403);
    // An order takes its own pages only: a single contract's cover would sit in no slot of the order.
    const wrong = await upload('demo7', 2211);
    expect([wrong.status, wrong.message]).toEqual([400, '单项合同封面不是订单合同的附件页']);
    expect((await upload('demo7', 2310)).code).toBe(20000);
    let d = await ok('contract/detail', { id: orderId }, 'demo23');
    expect([d.presentPages, d.missingPages]).toEqual([[2310], 1]);
    const page = await upload('demo8', 2901);
    expect(page.code).toBe(20000);
    // Page uploads are part of the contract's history.
    expect((await ok('contract/detail', { id: orderId }, 'demo9')).history.map((h: { description: string }) => h.description).filter((x: string) => x.startsWith('上传投标附件'))).toHaveLength(2);
    d = await ok('contract/detail', { id: orderId }, 'demo9');
    expect(d.missingPages).toBe(0);
    expect((await ok('contract/list', { complete: 'complete', keyword: 'T-HT-' }, 'demo6')).items.map((r: { id: string }) => r.id)).toEqual([orderId]);
    expect((await call('attachment/list', { ownerKind: 'contract', ownerIds: [orderId] }, 'demo23')).r).toHaveLength(2);
    expect((await call('attachment/list', { ownerKind: 'contract', ownerIds: [orderId] }, 'demo16')).status).toBe(403);
    expect((await call('attachment/delete', { id: page.r.id }, 'demo7')).code).toBe(20000);
    expect((await ok('contract/detail', { id: orderId }, 'demo1')).missingPages).toBe(1);
  });

  it('filters the list by type, customer, dates and completeness, and exports it', async () => {
    const byType = await ok('contract/list', { contractType: ContractType.order, keyword: 'T-HT-', pageSize: 50 }, 'demo6');
    expect(byType.items.map((r: { id: string }) => r.id)).toEqual([orderId]);
    const complete = await ok('contract/list', { complete: 'complete', pageSize: 5 }, 'demo6');
    expect(complete.total).toBe(0);
    const incomplete = await ok('contract/list', { complete: 'incomplete', pageSize: 5 }, 'demo6');
    const all = await ok('contract/list', { pageSize: 5 }, 'demo6');
    expect(incomplete.total).toBe(all.total);
    expect(all.items.every((r: { missingPages: number }) => r.missingPages > 0)).toBe(true);
    const signed = await ok('contract/list', { signedFrom: '2025-03-01', signedTo: '2025-03-01', keyword: 'T-HT-', pageSize: 50 }, 'demo6');
    expect(signed.total).toBe(3);
    const { res, ws } = await s.download('/api/tender/contract/export', { keyword: 'T-HT-' }, tokens.demo23!);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('合同编号');
    expect(ws!.rowCount).toBe(4);
    const log = await db().selectFrom('file_export_logs').selectAll().where('category', '=', '合同台账').execute();
    expect(log.length).toBe(1);
    await refused('contract/export', {}, 'demo16', 403);
  });

  it('offers frame contracts, projects and staff to the editors', async () => {
    const frames = await ok('contract/options', { contractType: ContractType.frame, keyword: 'T-HT-' }, 'demo7');
    expect(frames.map((f: { id: string }) => f.id)).toEqual([frameId]);
    expect((await ok('project/options', {}, 'demo6')).length).toBeGreaterThan(0);
    expect((await ok('contract/users', { keyword: 'demo7' }, 'demo4'))[0].loginName).toBe('demo7');
    await refused('contract/options', {}, 'demo16', 403);
    // The staff list (names, login names, departments) is for the editors, not the readers of the list.
    expect((await ok('contract/users', { keyword: 'demo4' }, 'demo7'))[0].loginName).toBe('demo4');
    for (const reader of ['demo5', 'demo9', 'demo15', 'demo23']) await refused('contract/users', {}, reader, 403);
  });

  it('the manager picker lists today\'s 注册建造师 first and marked, the built-in 系统管理员 last (issue 31)', async () => {
    const all: { loginName: string; registered: boolean }[] = await ok('contract/users', {}, 'demo4');
    const admin = await ok('contract/users', { keyword: 'admin' }, 'demo4');
    expect(admin.map((u: { loginName: string }) => u.loginName)).toContain('admin');
    expect(all[0]!.loginName).not.toBe('admin');
    const flags = all.map((u) => u.registered);
    expect(flags.some(Boolean)).toBe(true);
    // Every registered one before every other one.
    expect(flags.indexOf(false)).toBeGreaterThan(flags.lastIndexOf(true));
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const holders = await db()
      .selectFrom('tender_certificates as c')
      .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select('u.login_name')
      .where('k.name', 'in', [...CONSTRUCTOR_KINDS])
      .where('c.valid_from', '<=', day)
      .where((eb) => eb.or([eb('c.valid_to', 'is', null), eb('c.valid_to', '>=', day)]))
      .execute();
    const registered = new Set(holders.map((h) => h.login_name));
    for (const u of all) expect(u.registered, u.loginName).toBe(registered.has(u.loginName));
  });

  it('框架合同开票统计: orders against the invoices in force on them; invoices on the frame itself apart', async () => {
    const invoices = await db().selectFrom('invoices').select(['id', 'status', 'issue_date']).execute();
    const inForce = invoices.find((i) => i.status === InvoiceStatus.created)!;
    const other = invoices.find((i) => i.status !== InvoiceStatus.created)!;
    await db().insertInto('invoice_allocations').values([alloc(inForce.id, orderId, 30_000_00), alloc(inForce.id, frameId, 6_000_00), alloc(other.id, orderId, 50_000_00)]).execute();
    const r = await ok('contract/frame-statistic', { keyword: 'T-HT-' }, 'demo1');
    // 已开票 is the order's 30,000 only: the 6,000 on the frame is 框架合同直接开票, the 50,000 is not in force.
    expect(r.items).toEqual([expect.objectContaining({ id: frameId, frameAmount: 500_000_00, orderCount: 1, orderAmount: 120_000_00, invoiced: 30_000_00, frameInvoiced: 6_000_00, remaining: 90_000_00, percentBp: 2500 })]);
    expect(r.totals).toEqual({ frameAmount: 500_000_00, orderAmount: 120_000_00, invoiced: 30_000_00, frameInvoiced: 6_000_00, remaining: 90_000_00, orderCount: 1 });
    expect(r.chart).toEqual([{ name: r.items[0].code, orderAmount: 120_000_00, invoiced: 30_000_00 }]);
    const all = await ok('contract/frame-statistic', { pageSize: 500 }, 'demo1');
    const sum = (f: (x: FrameStatisticRow) => number) => all.items.reduce((a: number, x: FrameStatisticRow) => a + f(x), 0);
    expect(all.totals).toEqual({ frameAmount: sum((x) => x.frameAmount), orderAmount: sum((x) => x.orderAmount), invoiced: sum((x) => x.invoiced), frameInvoiced: sum((x) => x.frameInvoiced), remaining: sum((x) => x.remaining), orderCount: sum((x) => x.orderCount) });
    // The detail's 已开票 is everything issued on the frame and its orders.
    const d = await ok('contract/detail', { id: frameId }, 'demo1');
    expect(d.invoiced).toBe(36_000_00);
    const { res, ws } = await s.download('/api/tender/contract/frame-statistic/export', { keyword: 'T-HT-' }, tokens.demo1!);
    expect(res.statusCode).toBe(200);
    expect([7, 8, 9, 10].map((c) => ws!.getRow(1).getCell(c).value)).toEqual(['订单已开票（元）', '框架合同直接开票（元）', '订单未开票（元）', '订单开票比例']);
    expect([7, 8, 9, 10].map((c) => ws!.getRow(2).getCell(c).value)).toEqual([30_000, 6_000, 90_000, '25.00%']);
    // The page's 合计 row is the file's last row, with the same figures (issue 31 item 17).
    const page = await ok('contract/frame-statistic', { keyword: 'T-HT-' }, 'demo1');
    const last = ws!.getRow(ws!.rowCount);
    expect(ws!.rowCount).toBe(page.total + 2);
    expect(last.getCell(1).value).toBe(`合计（${page.total} 个）`);
    expect([4, 5, 6, 7, 8, 9, 10].map((c) => last.getCell(c).value)).toEqual([
      page.totals.frameAmount / 100, page.totals.orderCount, page.totals.orderAmount / 100, page.totals.invoiced / 100, page.totals.frameInvoiced / 100, page.totals.remaining / 100, '25.00%',
    ]);
  });

  it('框架合同开票统计: a frame invoiced beyond its orders never makes 未开票 negative; red invoices net', async () => {
    const blue = await db()
      .selectFrom('invoices as i')
      .selectAll('i')
      .where('i.status', '=', InvoiceStatus.created)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('invoice_allocations as a').select('a.id').whereRef('a.invoice_id', '=', 'i.id').where('a.target_id', 'in', [frameId, orderId]))))
      .orderBy('i.id')
      .executeTakeFirstOrThrow();
    // A red invoice in force (created, negative) on the order, and one not in force (failed) that does not count.
    const red = (status: number) => ({ ...blue, id: newId(), order_no: `R${process.pid}${++seq}`.slice(0, 20), colour: InvoiceColour.red, status, request_work_id: null, red_confirm_id: null, serial_no: null, blue_invoice_id: blue.id, amount_excl: -10_000_00, tax: 0, amount_incl: -10_000_00 });
    const [r1, r2] = [red(InvoiceStatus.created), red(22)];
    await db().insertInto('invoices').values([r1, r2]).execute();
    await db().insertInto('invoice_allocations').values([alloc(blue.id, frameId, 200_000_00), alloc(r1.id, orderId, -10_000_00), alloc(r2.id, orderId, -40_000_00)]).execute();
    const r = await ok('contract/frame-statistic', { keyword: 'T-HT-' }, 'demo1');
    expect(r.items).toEqual([expect.objectContaining({ id: frameId, orderAmount: 120_000_00, invoiced: 20_000_00, frameInvoiced: 206_000_00, remaining: 100_000_00, percentBp: 1667 })]);
    expect(r.totals).toEqual(expect.objectContaining({ invoiced: 20_000_00, frameInvoiced: 206_000_00, remaining: 100_000_00 }));
    expect(r.chart).toEqual([{ name: r.items[0].code, orderAmount: 120_000_00, invoiced: 20_000_00 }]);
  });
});

describe('projects', () => {
  let mgr = '';
  let p1 = '';
  const project = (over: Record<string, unknown> = {}) => ({ code: `T-XM-${process.pid}-${++seq}`, name: `测试项目${seq}`, customer: '测试客户', location: '南京市', amount: 0, state: ProjectState.building, ...over });

  // 注册建造师 comes from a valid 一级/二级建造师 certificate of the manager (CONSTRUCTOR_KINDS).
  let certNo = 0;
  const giveConstructorCert = async (uid: string, validTo: string | null = null) =>
    ok('certificate/save', { userId: uid, kindId: certKindId('jz2'), speciality: '市政公用工程', certNo: `JZ-T-${process.pid}-${++certNo}`, validFrom: '2020-01-01', ...(validTo ? { validTo } : { permanent: true }) }, 'demo1');
  /** An active staff user without any 建造师 certificate. */
  const plainUser = async () => {
    const u = await db()
      .selectFrom('users as u')
      .select('u.id')
      .where('u.status', '=', 1)
      .where('u.login_name', 'like', 'demo%')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('tender_certificates as c').innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id').select('c.id').whereRef('c.user_id', '=', 'u.id').where('k.name', 'in', [...CONSTRUCTOR_KINDS]))))
      // Nor leading any project yet: registration binds every active project of the person.
      .where((eb) => eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.manager_id', '=', 'u.id'))))
      .orderBy('u.login_name')
      .executeTakeFirstOrThrow();
    return u.id;
  };

  beforeAll(async () => {
    mgr = await userId('demo9');
    // demo9 leads no project in the seed of this test (registration binds all of a person's active projects).
    await db().updateTable('projects').set({ manager_id: null, manager_registered: 0 }).where('manager_id', '=', mgr).execute();
    await giveConstructorCert(mgr);
  });

  it('roles 1 and 4 manage projects; 6 gets 权限不足', async () => {
    const a = await ok('project/save', project({ managerId: mgr, managerRegistered: true, startDate: '2025-01-01' }), 'demo4');
    p1 = a.id;
    expect(a.managerName).toBeTruthy();
    await ok('project/list', { keyword: a.code }, 'demo1');
    await refused('project/list', {}, 'demo6', 403, Messages.forbidden);
    await refused('project/save', project(), 'demo6', 403, Messages.forbidden);
    await refused('project/detail', { id: p1 }, 'demo23', 403, Messages.forbidden);
    const edited = await ok('project/save', { ...project({ managerId: mgr, managerRegistered: true }), id: p1, code: a.code, name: '测试项目（改）', location: '苏州市' }, 'demo1');
    expect(edited.location).toBe('苏州市');
    const d = await ok('project/detail', { id: p1 }, 'demo4');
    expect(d.history.map((h: { type: number }) => h.type)).toEqual([OperationLogType.edit, OperationLogType.add]);
    expect(d.history[0].description).toContain('苏州市');
    expect(d.contracts).toEqual([]);
    await refused('project/save', project({ code: a.code }), 'demo4', 409, `项目编号${a.code}已被「测试项目（改）」使用`);
  });

  it('a registered manager may not lead two active projects; the other is named', async () => {
    const code = (await db().selectFrom('projects').select('code').where('id', '=', p1).executeTakeFirstOrThrow()).code;
    await refused('project/save', project({ managerId: mgr, managerRegistered: true }), 'demo4', 409, new RegExp(`已担任在建项目「${code} 测试项目（改）」的项目经理`));
    // Finished projects and unregistered managers are not bound.
    await ok('project/save', project({ managerId: mgr, managerRegistered: true, state: ProjectState.finished }), 'demo4');
    await ok('project/save', project({ managerId: await plainUser() }), 'demo4');
  });

  it('注册建造师 is derived from a valid 建造师 certificate, whatever the body says', async () => {
    const plain = await plainUser();
    const a = await ok('project/save', project({ managerId: plain, managerRegistered: true }), 'demo4');
    expect(a.managerRegistered).toBe(false);
    // An expired 二级建造师 certificate does not count.
    await giveConstructorCert(plain, '2023-12-31');
    expect((await ok('project/save', { ...project({ managerId: plain }), id: a.id, code: a.code, name: a.name }, 'demo4')).managerRegistered).toBe(false);
    await giveConstructorCert(plain);
    const b = await ok('project/save', { ...project({ managerId: plain, managerRegistered: false }), id: a.id, code: a.code, name: a.name }, 'demo4');
    expect(b.managerRegistered).toBe(true);
    // Now bound by the rule: a second active project with them is refused.
    await refused('project/save', project({ managerId: plain }), 'demo4', 409, new RegExp(`已担任在建项目「${a.code} ${a.name}」的项目经理`));
  });

  it('a certificate gained after the first assignment binds too: the stale flag of the first project does not let a second through', async () => {
    const plain = await plainUser();
    const a = await ok('project/save', project({ managerId: plain }), 'demo4');
    expect(a.managerRegistered).toBe(false);
    await giveConstructorCert(plain);
    await refused('project/save', project({ managerId: plain }), 'demo4', 409, new RegExp(`已担任在建项目「${a.code} ${a.name}」的项目经理`));
  });

  it('two assignments at the same moment: one wins, the other is refused naming it', async () => {
    const other = await userId('demo15');
    await db().updateTable('projects').set({ manager_id: null, manager_registered: 0 }).where('manager_id', '=', other).execute();
    await giveConstructorCert(other);
    const a = await ok('project/save', project(), 'demo4');
    const b = await ok('project/save', project(), 'demo4');
    const answers = await Promise.all([a, b].map((p) => call('project/save', { ...project({ managerId: other, managerRegistered: true }), id: p.id, code: p.code, name: p.name }, 'demo4')));
    expect(answers.map((x) => x.code).sort()).toEqual([20000, 30000]);
    const lost = answers.find((x) => x.code === 30000)!;
    const won = [a, b][answers.findIndex((x) => x.code === 20000)]!;
    expect(lost.status).toBe(409);
    expect(lost.message).toContain(`「${won.code} ${won.name}」`);
    const n = await db().selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('manager_id', '=', other).where('manager_registered', '=', 1).where('state', 'in', [1, 2]).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  it('shows a project with its contracts and invoices, and exports the list', async () => {
    const withInvoices = await db().selectFrom('invoices').select('project_id').where('project_id', 'is not', null).where('status', '=', InvoiceStatus.created).executeTakeFirstOrThrow();
    const d = await ok('project/detail', { id: withInvoices.project_id }, 'demo1');
    expect(d.invoices.length).toBeGreaterThan(0);
    expect(d.contracts.length).toBeGreaterThan(0);
    const states = await ok('project/list', { state: ProjectState.finished, pageSize: 500 }, 'demo4');
    expect(states.items.every((p: { state: number }) => p.state === ProjectState.finished)).toBe(true);
    const { res, ws } = await s.download('/api/tender/project/export', { keyword: 'T-XM-' }, tokens.demo4!);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('项目编号');
    expect(ws!.rowCount).toBeGreaterThan(4);
    await refused('project/export', {}, 'demo6', 403);
  });
});
