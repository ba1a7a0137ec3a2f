import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceColour, InvoiceStatus, OperationLogType } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';
import { buyer, entryBody, instantSimulator } from './invoice-helpers.js';

let s: TestServer;
let demo1: string;
let demo5: string;
let demo11: string;
const P = (key: string) => demoId(`project:${key}`);
const C = (code: string) => demoId(`contract:${code}`);

const download = (url: string, body: unknown, token: string) => s.download(url, body, token);

/** A created blue invoice of the demo (by project) with its red one when asked. */
async function createdInvoice(where: { colour: number; project?: string }) {
  let q = s.db.kysely.selectFrom('invoices').selectAll().where('status', '=', InvoiceStatus.created).where('colour', '=', where.colour);
  if (where.project) q = q.where('project_id', '=', P(where.project));
  return q.orderBy('amount_incl', 'desc').executeTakeFirstOrThrow();
}

beforeAll(async () => {
  s = await startTestServer();
  demo1 = await s.login('demo1');
  demo5 = await s.login('demo5');
  demo11 = await s.login('demo11');
});
afterAll(() => s.close());

describe('default allocations and the ledgers', () => {
  it('an invoice issued through the tax service gets its project and contract allocations when it becomes created (2)', async () => {
    await instantSimulator(s);
    const body = { ...entryBody(await buyer(s, '南京市城市建设投资控股（集团）有限责任公司')), projectId: P('njnz'), contractId: C('HJ-HT-2026-022') };
    const id = (await s.call('/api/invoice/save', body, demo5)).r.id as string;
    expect((await s.call('/api/invoice/apportionment/detail', { invoiceId: id }, demo5)).r.project).toEqual([]);
    await s.call('/api/invoice/request-billing', { ids: [id] }, demo5);
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [id] }, demo5);
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: id }, demo5)).r;
    expect(d.invoice.status).toBe(InvoiceStatus.created);
    expect(d.project).toMatchObject([{ targetId: P('njnz'), amountIncl: d.invoice.amountIncl, tax: d.invoice.tax, amountExcl: d.invoice.amountExcl, issueDate: d.invoice.issueDate }]);
    expect(d.contract).toMatchObject([{ targetId: C('HJ-HT-2026-022'), amountIncl: d.invoice.amountIncl }]);
    expect(d.history.map((h: { action: string }) => h.action)).toEqual(['default', 'default']);
  });

  it('every created invoice with a project is allocated to it in full; the red one negatively against its blue one', async () => {
    const red = await createdInvoice({ colour: InvoiceColour.red });
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: red.id }, demo11)).r;
    expect(d.invoice.amountIncl).toBeLessThan(0);
    expect(d.project.length).toBeGreaterThan(0);
    expect(d.project.reduce((a: number, x: { amountIncl: number }) => a + x.amountIncl, 0)).toBe(Number(red.amount_incl));
    for (const x of d.project) expect(x.amountIncl).toBeLessThan(0);
    const blue = (await s.call('/api/invoice/apportionment/detail', { invoiceId: red.blue_invoice_id }, demo11)).r;
    expect(d.project.map((x: { targetId: string }) => x.targetId)).toEqual(blue.project.map((x: { targetId: string }) => x.targetId));
    expect(d.history[0]).toMatchObject({ action: 'default', userName: '系统' });
  });

  it('the project ledger lists allocations with filters and the totals of the filtered set; role 11 reads it', async () => {
    const all = await s.call('/api/invoice/invoice-item-apportionment/list', { pageSize: 100 }, demo11);
    expect(all.code).toBe(20000);
    expect(all.r.total).toBe(all.r.items.length);
    expect(all.r.totals.amountIncl).toBe(all.r.items.reduce((a: number, x: { amountIncl: number }) => a + x.amountIncl, 0));
    const one = await s.call('/api/invoice/invoice-item-apportionment/list', { targetId: P('temp1') }, demo11);
    expect(one.r.total).toBeGreaterThan(0);
    for (const x of one.r.items) expect(x).toMatchObject({ targetId: P('temp1'), targetTemp: true });
    const reds = await s.call('/api/invoice/invoice-item-apportionment/list', { colour: 2 }, demo1);
    expect(reds.r.total).toBeGreaterThan(0);
    expect(reds.r.totals.amountIncl).toBeLessThan(0);
    const none = await s.call('/api/invoice/invoice-item-apportionment/list', { from: '2000-01-01', to: '2000-12-31' }, demo1);
    expect(none.r).toMatchObject({ total: 0, items: [], totals: { amountIncl: 0 } });
    expect((await s.call('/api/invoice/contract-apportionment/list', { target: 'HJ-HT-2026-011' }, demo11)).r.items.every((x: { targetCode: string }) => x.targetCode === 'HJ-HT-2026-011')).toBe(true);
  });
});

describe('setting and splitting (the sum rule)', () => {
  it('splits an invoice between two projects; refuses a split off by more than 0.01 元; accepts 0.01 元', async () => {
    const inv = await createdInvoice({ colour: InvoiceColour.blue, project: 'wxdt' });
    const incl = Number(inv.amount_incl);
    const tax = Number(inv.tax);
    const half = Math.floor(incl / 2);
    const halfTax = Math.floor(tax / 2);
    const items = (delta: number) => [
      { targetId: P('wxdt'), amountIncl: half, tax: halfTax, amountExcl: half - halfTax },
      { targetId: P('njnz'), amountIncl: incl - half + delta, tax: tax - halfTax, amountExcl: incl - half + delta - (tax - halfTax) },
    ];
    const off = await s.call('/api/invoice/apportionment/set', { invoiceId: inv.id, dim: 'project', items: items(2), reason: '按工作量拆分' }, demo5);
    expect([off.status, off.code]).toEqual([400, 30000]);
    expect(off.message).toContain('差额不能超过0.01元');
    const within = await s.call('/api/invoice/apportionment/set', { invoiceId: inv.id, dim: 'project', items: items(1), reason: '按工作量拆分' }, demo5);
    expect(within.code).toBe(20000);
    const ok = await s.call('/api/invoice/apportionment/set', { invoiceId: inv.id, dim: 'project', items: items(0), reason: '按工作量拆分' }, demo5);
    expect(ok.message).toBe('分摊已保存');
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: inv.id }, demo5)).r;
    expect(d.project.map((x: { targetId: string; amountIncl: number }) => [x.targetId, x.amountIncl]).sort()).toEqual([[P('njnz'), incl - half], [P('wxdt'), half]].sort());
    expect(d.history[0]).toMatchObject({ action: 'set', reason: '按工作量拆分', after: [{ targetId: P('wxdt'), amountIncl: half }, { targetId: P('njnz'), amountIncl: incl - half }] });
    expect(d.history[0].userName).not.toBe('');
  });

  it('refuses negative amounts on a blue invoice, unknown targets, duplicates, excl + tax ≠ total, and role 11', async () => {
    const inv = await createdInvoice({ colour: InvoiceColour.blue, project: 'jbgl' });
    const incl = Number(inv.amount_incl);
    const tax = Number(inv.tax);
    const set = (items: unknown[], token = demo5) => s.call('/api/invoice/apportionment/set', { invoiceId: inv.id, dim: 'project', items, reason: '核对调整' }, token);
    const whole = { targetId: P('jbgl'), amountIncl: incl, tax, amountExcl: incl - tax };
    expect((await set([{ ...whole, amountIncl: -incl, amountExcl: -incl - tax }])).message).toContain('蓝字发票的分摊金额须为正数');
    expect((await set([{ ...whole, targetId: demoId('project:none') }])).message).toBe('所选项目不存在');
    expect((await set([{ ...whole, amountExcl: whole.amountExcl - 5 }])).message).toContain('不含税金额与税额之和须等于价税合计');
    expect((await set([whole, whole])).message).toContain('重复出现');
    expect((await s.call('/api/invoice/apportionment/set', { invoiceId: inv.id, dim: 'project', items: [whole], reason: '' }, demo5)).message).toContain('变更原因');
    const refused = await set([whole], demo11);
    expect([refused.status, refused.code, refused.message]).toEqual([403, 30000, '权限不足']);
    expect((await set([whole])).code).toBe(20000);
  });

  it('a red invoice allocates negatively, only against its blue one’s targets and within their amounts', async () => {
    const red = await createdInvoice({ colour: InvoiceColour.red });
    const incl = Number(red.amount_incl);
    const tax = Number(red.tax);
    const set = (items: unknown[]) => s.call('/api/invoice/apportionment/set', { invoiceId: red.id, dim: 'project', items, reason: '红字冲减调整' }, demo5);
    const blue = (await s.call('/api/invoice/apportionment/detail', { invoiceId: red.blue_invoice_id }, demo5)).r;
    const target = blue.project[0].targetId as string;
    expect((await set([{ targetId: target, amountIncl: -incl, tax: -tax, amountExcl: -(incl - tax) }])).message).toContain('红字发票的分摊金额须为负数');
    const other = [P('jbgl'), P('lsdl'), P('szhb'), P('wxdt'), P('njnz')].find((p) => !blue.project.some((x: { targetId: string }) => x.targetId === p))!;
    expect((await set([{ targetId: other, amountIncl: incl, tax, amountExcl: incl - tax }])).message).toContain('红字发票只能冲减其蓝字发票已分摊的项目');
    expect((await set([{ targetId: target, amountIncl: incl, tax, amountExcl: incl - tax }])).code).toBe(20000);
    // The blue invoice can no longer leave that target with less than the red invoice takes from it.
    const bi = await s.db.kysely.selectFrom('invoices').selectAll().where('id', '=', red.blue_invoice_id!).executeTakeFirstOrThrow();
    const away = await s.call('/api/invoice/apportionment/set', { invoiceId: bi.id, dim: 'project', items: [{ targetId: other, amountIncl: Number(bi.amount_incl), tax: Number(bi.tax), amountExcl: Number(bi.amount_excl) }], reason: '整体转出' }, demo5);
    expect(away.message).toContain('该发票的红字发票已冲减');
  });
});

describe('project-change and contract-change', () => {
  it('moves part of an allocation to another project, records who and why, visible from both ledgers', async () => {
    // The demo splits the largest 溧水 invoice 7:3 with 南京南站; part of the 南京南站 share goes back.
    const inv = await createdInvoice({ colour: InvoiceColour.blue, project: 'lsdl' });
    const before = (await s.call('/api/invoice/apportionment/detail', { invoiceId: inv.id }, demo5)).r.project;
    const a = before.find((x: { targetId: string }) => x.targetId === P('njnz'));
    const lsdl = before.find((x: { targetId: string }) => x.targetId === P('lsdl')).amountIncl as number;
    const body = { allocationId: a.id, toTargetId: P('lsdl'), amountIncl: 10_000, reason: '部分工程量属于溧水项目' };
    const denied = await s.call('/api/invoice/project-change', body, demo11);
    expect([denied.status, denied.message]).toEqual([403, '权限不足']);
    expect((await s.call('/api/invoice/project-change', { ...body, amountIncl: Math.abs(a.amountIncl) + 1 }, demo5)).message).toContain('超过该分摊的金额');
    expect((await s.call('/api/invoice/project-change', { ...body, toTargetId: P('njnz') }, demo5)).message).toBe('变更后的对象与原对象相同');
    expect((await s.call('/api/invoice/project-change', { ...body, reason: ' ' }, demo5)).message).toContain('变更原因');
    const moved = await s.call('/api/invoice/project-change', body, demo5);
    expect(moved.message).toBe('项目变更成功');
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: inv.id }, demo11)).r;
    expect(d.project.find((x: { targetId: string }) => x.targetId === P('lsdl')).amountIncl).toBe(lsdl + 10_000);
    expect(d.project.find((x: { targetId: string }) => x.targetId === P('njnz')).amountIncl).toBe(a.amountIncl - 10_000);
    expect(d.project.reduce((t: number, x: { amountIncl: number }) => t + x.amountIncl, 0)).toBe(Number(inv.amount_incl));
    const h = d.history[0];
    expect(h).toMatchObject({ action: 'move', dim: 'project', fromName: '南京南站片区雨污分流', toName: '溧水经济开发区道路改造', amountIncl: 10_000, reason: '部分工程量属于溧水项目' });
    expect(h.userName).toBeTruthy();
    const changes = await s.call('/api/invoice/apportionment/changes', { dim: 'project', keyword: '溧水项目' }, demo11);
    expect(changes.r.items[0]).toMatchObject({ invoiceId: inv.id, toName: '溧水经济开发区道路改造' });
    const log = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description']).where('description', 'like', '项目变更%部分工程量属于溧水项目%').executeTakeFirst();
    expect(log?.type).toBe(OperationLogType.edit);
  });

  it('moves a whole contract allocation; the old contract disappears from the invoice', async () => {
    const row = (await s.call('/api/invoice/contract-apportionment/list', { targetId: C('HJ-HT-2026-011') }, demo5)).r.items[0];
    expect(row).toBeDefined();
    const denied = await s.call('/api/invoice/contract-change', { allocationId: row.id, toTargetId: C('HJ-JL-2026-005'), amountIncl: row.amountIncl, reason: '改列监理合同' }, demo11);
    expect(denied.status).toBe(403);
    expect((await s.call('/api/invoice/contract-change', { allocationId: row.id, toTargetId: C('HJ-JL-2026-005'), amountIncl: row.amountIncl, reason: '改列监理合同' }, demo5)).message).toBe('订单变更成功');
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: row.invoiceId }, demo5)).r;
    expect(d.contract.map((x: { targetId: string }) => x.targetId)).toEqual([C('HJ-JL-2026-005')]);
    expect(d.history.find((x: { dim: string }) => x.dim === 'contract')).toMatchObject({ action: 'move', toName: '江北新区综合管廊二期监理咨询合同' });
    expect((await s.call('/api/invoice/contract-change', { allocationId: row.id, toTargetId: C('HJ-HT-2026-011'), amountIncl: 1, reason: '再次变更' }, demo5)).message).toContain('分摊记录不存在');
  });

  it('lookups of targets for every reader', async () => {
    const t = await s.call('/api/invoice/apportionment/targets', { dim: 'project', keyword: '临时', realOnly: false }, demo11);
    expect(t.r.map((x: { temp: boolean }) => x.temp)).toEqual([true]);
    expect((await s.call('/api/invoice/apportionment/targets', { dim: 'project', keyword: '临时', realOnly: true }, demo11)).r).toEqual([]);
  });
});

describe('exports', () => {
  it('exports the filtered project ledger with its rows and amounts in 元, and logs it (type 80)', async () => {
    const list = (await s.call('/api/invoice/invoice-item-apportionment/list', { target: '临时项目', pageSize: 100 }, demo11)).r;
    const { res, ws } = await download('/api/invoice/invoice-item-apportionment/export', { target: '临时项目' }, demo11);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(7).value).toBe('项目名称');
    expect(ws!.rowCount - 1).toBe(list.total);
    expect(ws!.getRow(2).getCell(7).value).toBe('临时项目-江宁区零星维修');
    const sum = Array.from({ length: ws!.rowCount - 1 }, (_, i) => Number(ws!.getRow(i + 2).getCell(10).value));
    expect(Math.round(sum.reduce((a, b) => a + b, 0) * 100)).toBe(list.totals.amountIncl);
    const log = await s.db.kysely.selectFrom('operation_logs').select(['type', 'description']).where('description', 'like', '导出项目分摊台账%').executeTakeFirstOrThrow();
    expect(log.type).toBe(OperationLogType.export);
  });

  it('exports the contract ledger', async () => {
    const { res, ws } = await download('/api/invoice/contract-apportionment/export', {}, demo5);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(7).value).toBe('合同名称');
    expect(ws!.rowCount - 1).toBe((await s.call('/api/invoice/contract-apportionment/list', {}, demo5)).r.total);
  });
});
