import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceStatus, OperationLogType } from '@zhyy/shared';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let demo1: string;
let demo5: string;
let demo11: string;
const P = (key: string) => demoId(`project:${key}`);
const C = (code: string) => demoId(`contract:${code}`);
const sum = (xs: Array<{ amountIncl: number }>) => xs.reduce((a, x) => a + x.amountIncl, 0);

const download = (url: string, body: unknown, token: string) => s.download(url, body, token);
const column = (ws: ExcelJS.Worksheet, c: number) => Array.from({ length: ws.rowCount - 1 }, (_, i) => ws.getRow(i + 2).getCell(c).value);

beforeAll(async () => {
  s = await startTestServer();
  demo1 = await s.login('demo1');
  demo5 = await s.login('demo5');
  demo11 = await s.login('demo11');
});
afterAll(() => s.close());

describe('permissions', () => {
  it('every statistics call is refused to role 11 and open to roles 1 and 5', async () => {
    for (const url of ['/api/invoice/apportionment-statistics', '/api/invoice/temp-project', '/api/invoice/contract-statistics-list', '/api/invoice/temp-contract-list',
      '/api/invoice/export-apportionment-statistics', '/api/invoice/export-temp-project', '/api/invoice/export-contract-statistics-list', '/api/invoice/export-temp-contract-list']) {
      const a = await s.call(url, {}, demo11);
      expect([url, a.status, a.code, a.message]).toEqual([url, 403, 30000, '权限不足']);
      expect((await s.call(url, {}, demo5)).status).toBe(200);
      expect((await s.call(url, {}, demo1)).status).toBe(200);
    }
    for (const url of ['/api/invoice/temp-project/match', '/api/invoice/temp-contract/match']) {
      expect((await s.call(url, { invoiceId: P('x'), allocationId: null, toTargetId: P('jbgl') }, demo11)).status).toBe(403);
    }
  });
});

describe('apportionment by project and month', () => {
  it('groups project allocations of created invoices by project and month, totals equal the ledger', async () => {
    const a = (await s.call('/api/invoice/apportionment-statistics', { pageSize: 100 }, demo5)).r;
    expect(a.items.length).toBe(a.total);
    expect(a.totals.amountIncl).toBe(sum(a.items));
    const ledger = (await s.call('/api/invoice/invoice-item-apportionment/list', { pageSize: 1 }, demo5)).r;
    expect(a.totals.amountIncl).toBe(ledger.totals.amountIncl);
    expect(sum(a.chart.map((c: { value: number }) => ({ amountIncl: c.value })))).toBe(a.totals.amountIncl);
    const month = a.items[0].month as string;
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    const only = (await s.call('/api/invoice/apportionment-statistics', { fromMonth: month, toMonth: month, keyword: '溧水' }, demo5)).r;
    expect(only.items.every((x: { month: string; projectName: string }) => x.month === month && x.projectName.includes('溧水'))).toBe(true);
    expect((await s.call('/api/invoice/apportionment-statistics', { fromMonth: '2026-13' }, demo5)).message).toContain('月份格式应为YYYY-MM');
  });

  it('exports it', async () => {
    const a = (await s.call('/api/invoice/apportionment-statistics', { pageSize: 100 }, demo5)).r;
    const { res, ws } = await download('/api/invoice/export-apportionment-statistics', {}, demo5);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).values).toEqual([undefined, '月份', '项目编号', '项目名称', '发票张数', '不含税金额', '税额', '价税合计']);
    expect(ws!.rowCount - 1).toBe(a.total);
    expect(Math.round((column(ws!, 7) as number[]).reduce((x, y) => x + y, 0) * 100)).toBe(a.totals.amountIncl);
  });
});

describe('temporary projects', () => {
  it('lists allocations on temporary projects, matches one to a real project, and it leaves the list', async () => {
    const t = (await s.call('/api/invoice/temp-project', {}, demo5)).r;
    expect(t.total).toBeGreaterThan(0);
    expect(t.items.every((x: { targetId: string }) => x.targetId === P('temp1'))).toBe(true);
    expect(t.totals.amountIncl).toBe(sum(t.items));
    const { ws } = await download('/api/invoice/export-temp-project', {}, demo1);
    expect(ws!.rowCount - 1).toBe(t.total);
    expect(column(ws!, 5)[0]).toBe('临时项目-江宁区零星维修');
    const row = t.items[0];
    expect((await s.call('/api/invoice/temp-project/match', { invoiceId: row.invoiceId, allocationId: row.allocationId, toTargetId: P('temp1') }, demo5)).message).toBe('变更后的对象与原对象相同');
    const m = await s.call('/api/invoice/temp-project/match', { invoiceId: row.invoiceId, allocationId: row.allocationId, toTargetId: P('njnz'), reason: '已立项：南京南站片区雨污分流' }, demo5);
    expect(m.message).toBe('已匹配到正式项目');
    const after = (await s.call('/api/invoice/temp-project', {}, demo5)).r;
    expect(after.total).toBe(t.total - 1);
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: row.invoiceId }, demo5)).r;
    expect(d.history[0]).toMatchObject({ action: 'match', fromName: '临时项目-江宁区零星维修', toName: '南京南站片区雨污分流', reason: '已立项：南京南站片区雨污分流' });
    const again = await s.call('/api/invoice/temp-project/match', { invoiceId: row.invoiceId, allocationId: row.allocationId, toTargetId: P('njnz') }, demo5);
    expect(again.code).toBe(30000);
  });
});

describe('contracts', () => {
  it('reports invoiced against the contract amount, the remaining amount and the percentage', async () => {
    const c = (await s.call('/api/invoice/contract-statistics-list', { pageSize: 100 }, demo5)).r;
    // Every real contract: the invoice seed's seven and the tender seed's (issue 17).
    const real = await s.db.kysely.selectFrom('contracts').select((eb) => eb.fn.countAll<number>().as('n')).where('is_temp', '=', 0).executeTakeFirstOrThrow();
    expect(Number(real.n)).toBeGreaterThan(7);
    expect(c.total).toBe(Number(real.n));
    const row = c.items.find((x: { contractId: string }) => x.contractId === C('HJ-HT-2026-011'));
    const alloc = (await s.call('/api/invoice/contract-apportionment/list', { targetId: C('HJ-HT-2026-011'), pageSize: 100 }, demo5)).r;
    expect(row.invoiced).toBe(alloc.totals.amountIncl);
    expect(row.invoiced).toBeGreaterThan(0);
    expect(row.remaining).toBe(row.contractAmount - row.invoiced);
    expect(row.percentBp).toBe(Math.round((row.invoiced * 10000) / row.contractAmount));
    expect(c.totals.amountIncl).toBe(c.items.reduce((a: number, x: { invoiced: number }) => a + x.invoiced, 0));
    expect(c.totals.remaining).toBe(c.totals.contractAmount - c.totals.amountIncl);
    expect(c.chart[0]).toMatchObject({ name: c.items[0].contractName, value: c.items[0].invoiced });
    const frames = (await s.call('/api/invoice/contract-statistics-list', { contractType: 1 }, demo5)).r;
    expect(frames.items.map((x: { contractCode: string }) => x.contractCode)).toContain('HJ-KJ-2026-002');
    expect(frames.items.every((x: { contractType: number }) => x.contractType === 1)).toBe(true);
    expect((await s.call('/api/invoice/contract-statistics-list', { overOnly: true }, demo5)).r.total).toBe(0);
    const { ws } = await download('/api/invoice/export-contract-statistics-list', { keyword: '综合管廊二期' }, demo5);
    expect(ws!.getRow(1).getCell(9).value).toBe('开票比例(%)');
    expect(column(ws!, 1).sort()).toEqual(['HJ-HT-2026-011', 'HJ-JL-2026-005']);
    const log = await s.db.kysely.selectFrom('operation_logs').select('type').where('description', 'like', '导出合同开票统计%').executeTakeFirstOrThrow();
    expect(log.type).toBe(OperationLogType.export);
  });

  it('lists invoices not fully allocated to real contracts with the unmatched part, and matches one', async () => {
    const t = (await s.call('/api/invoice/temp-contract-list', { pageSize: 100 }, demo5)).r;
    expect(t.total).toBeGreaterThan(0);
    expect(t.totals.amountIncl).toBe(sum(t.items));
    const created = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', InvoiceStatus.created).execute();
    expect(t.total).toBeLessThanOrEqual(created.length);
    const { ws } = await download('/api/invoice/export-temp-contract-list', {}, demo5);
    expect(ws!.rowCount - 1).toBe(t.total);
    const blue = t.items.find((x: { colour: number }) => x.colour === 1);
    const m = await s.call('/api/invoice/temp-contract/match', { invoiceId: blue.invoiceId, allocationId: null, toTargetId: C('HJ-HT-2026-022'), reason: '' }, demo5);
    expect(m.message).toBe('已匹配到合同');
    const after = (await s.call('/api/invoice/temp-contract-list', { pageSize: 100 }, demo5)).r;
    expect(after.items.some((x: { invoiceId: string }) => x.invoiceId === blue.invoiceId)).toBe(false);
    expect(after.total).toBe(t.total - 1);
    const d = (await s.call('/api/invoice/apportionment/detail', { invoiceId: blue.invoiceId }, demo5)).r;
    expect(d.contract).toHaveLength(1);
    expect(d.contract[0]).toMatchObject({ targetId: C('HJ-HT-2026-022'), amountIncl: d.invoice.amountIncl });
    expect((await s.call('/api/invoice/temp-contract/match', { invoiceId: blue.invoiceId, allocationId: null, toTargetId: C('HJ-HT-2026-022') }, demo5)).message).toBe('该发票已全部分摊到正式合同');
  });
});
