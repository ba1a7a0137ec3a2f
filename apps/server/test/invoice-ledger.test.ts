/** The ledger (issue 7): filters, sorts, pages, totals (summary and direct), export, print, permissions. */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceColour, InvoiceKind, InvoiceStatus, OperationLogType } from '@zhyy/shared';
import { seedLarge } from '../src/seed/large.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let t5: string;
let t11: string;
let t3: string;
const LARGE = 2500;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.invoiceJob.stop();
  await seedLarge(s.db, { invoices: LARGE, batch: 1000 });
  [t5, t11, t3] = await Promise.all([s.login('demo5'), s.login('demo11'), s.login('demo3')]);
});
afterAll(() => s?.close());

/** The expected answer computed independently: every issued invoice, filtered in JS. */
async function all() {
  const rows = await s.db.kysely.selectFrom('invoices').selectAll().where('issue_date', 'is not', null).execute();
  return rows.map((r) => ({ ...r, amount_incl: Number(r.amount_incl), amount_excl: Number(r.amount_excl), tax: Number(r.tax) }));
}
const sums = (rows: Array<{ amount_excl: number; tax: number; amount_incl: number }>) => ({
  count: rows.length,
  amountExcl: rows.reduce((a, r) => a + r.amount_excl, 0),
  tax: rows.reduce((a, r) => a + r.tax, 0),
  amountIncl: rows.reduce((a, r) => a + r.amount_incl, 0),
});
/** The totals of a filter: what is in force, and the 已作废 invoices apart. */
const sum = (rows: Array<{ status: number; amount_excl: number; tax: number; amount_incl: number }>) => ({
  ...sums(rows.filter((r) => r.status !== InvoiceStatus.cancelled)),
  voided: sums(rows.filter((r) => r.status === InvoiceStatus.cancelled)),
});

describe('/api/invoice/list', () => {
  it('lists every issued invoice, newest issue day first, with the totals of the whole set', async () => {
    const expected = await all();
    expect(expected.length).toBeGreaterThan(LARGE);
    const a = await s.call('/api/invoice/list', { pageSize: 50 }, t11);
    expect(a.code).toBe(20000);
    expect(a.r.total).toBe(expected.length);
    expect(a.r.totals).toEqual(sum(expected));
    expect(a.r.items).toHaveLength(50);
    const days = a.r.items.map((i: { issueDate: string }) => i.issueDate);
    expect(days).toEqual([...days].sort().reverse());
    expect(a.r.items.every((i: { status: number }) => [InvoiceStatus.created, InvoiceStatus.cancelled, InvoiceStatus.canceling].includes(i.status as 2))).toBe(true);
  });

  it('answers each filter like an independent filter of the same rows', async () => {
    const rows = await all();
    const some = rows.find((r) => r.order_no.startsWith('LG') && r.contract_id)!;
    const cases: Array<[Record<string, unknown>, (r: (typeof rows)[number]) => boolean]> = [
      [{ colour: InvoiceColour.red }, (r) => r.colour === 2],
      [{ kind: InvoiceKind.s, status: InvoiceStatus.cancelled }, (r) => r.kind === 2 && r.status === 3],
      [{ source: 1, issueFrom: '2024-01-01', issueTo: '2024-06-30' }, (r) => r.source === 1 && r.issue_date! >= '2024-01-01' && r.issue_date! <= '2024-06-30'],
      [{ buyerName: some.buyer_name.slice(0, 4) }, (r) => r.buyer_name.includes(some.buyer_name.slice(0, 4))],
      [{ buyerId: some.buyer_id }, (r) => r.buyer_id === some.buyer_id],
      [{ number: some.invoice_no }, (r) => r.invoice_no === some.invoice_no || r.digital_no === some.invoice_no || r.order_no === some.invoice_no],
      [{ projectId: some.project_id }, (r) => r.project_id === some.project_id],
      [{ contractId: some.contract_id }, (r) => r.contract_id === some.contract_id],
      [{ amountMin: 100_000_00, amountMax: 500_000_00 }, (r) => r.amount_incl >= 100_000_00 && r.amount_incl <= 500_000_00],
      [{ creator: some.created_by_name, colour: 1 }, (r) => r.created_by_name === some.created_by_name && r.colour === 1],
    ];
    for (const [filter, keep] of cases) {
      const want = rows.filter(keep);
      const a = await s.call('/api/invoice/list', { ...filter, pageSize: 500 }, t5);
      expect(a.code, JSON.stringify(filter)).toBe(20000);
      expect(a.r.totals, JSON.stringify(filter)).toEqual(sum(want));
      const ids = a.r.items.map((i: { id: string }) => i.id);
      const allowed = new Set(want.map((r) => r.id));
      expect(ids.every((id: string) => allowed.has(id)), JSON.stringify(filter)).toBe(true);
      expect(ids.length, JSON.stringify(filter)).toBe(Math.min(500, want.length));
      expect(want.length, JSON.stringify(filter)).toBeGreaterThan(0);
    }
  });

  it('sorts by each column with the id as tie-break, and a deep page is the same slice as the full order', async () => {
    const rows = await all();
    const want = [...rows].sort((x, y) => x.amount_incl - y.amount_incl || (x.id < y.id ? -1 : 1)).map((r) => r.id);
    const page = await s.call('/api/invoice/list', { sort: { field: 'amountIncl', order: 'ascend' }, pageIndex: 40, pageSize: 50 }, t5);
    expect(page.r.items.map((i: { id: string }) => i.id)).toEqual(want.slice(39 * 50, 40 * 50));
    // Deep pages are read from the nearer end of the index: the last (partial) page and the one before it.
    const last = Math.ceil(want.length / 50);
    for (const n of [last, last - 1, 21]) {
      const p = await s.call('/api/invoice/list', { sort: { field: 'amountIncl', order: 'ascend' }, pageIndex: n, pageSize: 50 }, t5);
      expect(p.r.items.map((i: { id: string }) => i.id), `page ${n}`).toEqual(want.slice((n - 1) * 50, n * 50));
    }
    const beyond = await s.call('/api/invoice/list', { pageIndex: last + 5, pageSize: 50 }, t5);
    expect(beyond.r.items).toEqual([]);
    expect(beyond.r.total).toBe(want.length);
    const byBuyer = await s.call('/api/invoice/list', { sort: { field: 'buyerName', order: 'descend' }, pageSize: 100 }, t5);
    const names = byBuyer.r.items.map((i: { buyerName: string }) => i.buyerName);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)));
  });

  it('keeps the totals exact after a change (touched days from the invoices, the rest from the summary)', async () => {
    const before = await s.call('/api/invoice/list', { kind: InvoiceKind.c }, t5);
    const paper = await s.db.kysely.selectFrom('invoices').select(['id', 'amount_incl']).where('kind', '=', InvoiceKind.c).where('status', '=', InvoiceStatus.created).where('order_no', 'like', 'LG%').executeTakeFirstOrThrow();
    await s.db.kysely.updateTable('invoices').set({ status: InvoiceStatus.cancelled, updated_at: new Date().toISOString() }).where('id', '=', paper.id).execute();
    const after = await s.call('/api/invoice/list', { kind: InvoiceKind.c, status: InvoiceStatus.cancelled }, t5);
    const want = sum((await all()).filter((r) => r.kind === InvoiceKind.c && r.status === InvoiceStatus.cancelled));
    expect(after.r.totals).toEqual(want);
    const again = await s.call('/api/invoice/list', { kind: InvoiceKind.c }, t5);
    expect(again.r.totals).toEqual(sum((await all()).filter((r) => r.kind === InvoiceKind.c)));
    // The voided invoice left the totals in force and joined the voided ones; the rows are the same.
    expect(again.r.totals.count).toBe(before.r.totals.count - 1);
    expect(again.r.totals.amountIncl).toBe(before.r.totals.amountIncl - Number(paper.amount_incl));
    expect(again.r.totals.voided.count).toBe(before.r.totals.voided.count + 1);
    expect(again.r.total).toBe(before.r.total);
  });

  it('counts in 筛选结果合计 only what is in force: 已作废 invoices are shown apart and can be filtered to', async () => {
    // A buyer whose only invoices are two voided ones: nothing in force, two voided apart.
    const rows = await all();
    const [x, y] = rows.filter((r) => r.status === InvoiceStatus.created && r.order_no.startsWith('LG'));
    const buyerId = rows.find((r) => r.buyer_id)!.buyer_id!;
    await s.db.kysely.updateTable('invoices').set({ buyer_id: null, updated_at: new Date().toISOString() }).where('buyer_id', '=', buyerId).execute();
    await s.db.kysely.updateTable('invoices').set({ status: InvoiceStatus.cancelled, buyer_id: buyerId, updated_at: new Date().toISOString() }).where('id', 'in', [x!.id, y!.id]).execute();
    const a = await s.call('/api/invoice/list', { buyerId, pageSize: 50 }, t5);
    expect(a.code).toBe(20000);
    expect(a.r.total).toBe(2);
    expect(a.r.items).toHaveLength(2);
    expect(a.r.totals).toEqual({
      count: 0, amountExcl: 0, tax: 0, amountIncl: 0,
      voided: { count: 2, amountExcl: x!.amount_excl + y!.amount_excl, tax: x!.tax + y!.tax, amountIncl: x!.amount_incl + y!.amount_incl },
    });
    // The same through the day summary (no buyer filter), and filtered to 已作废.
    const whole = await s.call('/api/invoice/list', { pageSize: 10 }, t5);
    expect(whole.r.totals).toEqual(sum(await all()));
    const voided = await s.call('/api/invoice/list', { status: InvoiceStatus.cancelled, pageSize: 10 }, t5);
    const want = (await all()).filter((r) => r.status === InvoiceStatus.cancelled);
    expect(voided.r.totals).toEqual(sum(want));
    expect(voided.r.totals.count).toBe(0);
    expect(voided.r.total).toBe(want.length);
  });

  it('refuses bad filters with Chinese messages', async () => {
    expect((await s.call('/api/invoice/list', { issueFrom: '2025-02-01', issueTo: '2025-01-01' }, t5)).message).toContain('开票日期起不能晚于止');
    expect((await s.call('/api/invoice/list', { amountMin: 10, amountMax: 1 }, t5)).message).toContain('金额下限不能大于上限');
    expect((await s.call('/api/invoice/list', { colour: 3 }, t5)).message).toContain('发票颜色不正确');
    expect((await s.call('/api/invoice/list', { issueFrom: '2025/01/01' }, t5)).message).toContain('日期格式须为YYYY-MM-DD');
  });

  it('finds buyers to pick by name or tax number', async () => {
    const b = await s.db.kysely.selectFrom('invoice_buyers').select(['id', 'name', 'tax_no']).where('name', 'like', '%建设工程%').executeTakeFirstOrThrow();
    const byName = await s.call('/api/invoice/ledger-buyers', { keyword: '建设工程' }, t11);
    expect(byName.r.length).toBeGreaterThan(0);
    expect(byName.r.every((x: { name: string }) => x.name.includes('建设工程'))).toBe(true);
    const byTax = await s.call('/api/invoice/ledger-buyers', { keyword: b.tax_no!.slice(2, 12) }, t11);
    expect(byTax.r.map((x: { id: string }) => x.id)).toContain(b.id);
    expect((await s.call('/api/invoice/ledger-buyers', {}, t5)).r).toHaveLength(30);
  });

  it('offers the projects and contracts to filter by', async () => {
    const a = await s.call('/api/invoice/ledger-options', {}, t11);
    expect(a.r.projects.length).toBeGreaterThan(150);
    expect(a.r.contracts[0]).toEqual({ id: expect.any(String), code: expect.any(String), name: expect.any(String) });
  });
});

describe('export and print', () => {
  it('streams the whole filtered set as xlsx and logs it (type 80)', async () => {
    const filter = { colour: InvoiceColour.red, sort: { field: 'amountIncl', order: 'ascend' } };
    const res = await s.app.inject({ method: 'POST', url: '/api/invoice/export', headers: { 'content-type': 'application/json', 'x-token': t11 }, payload: JSON.stringify(filter) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const want = (await all()).filter((r) => r.colour === 2).sort((x, y) => x.amount_incl - y.amount_incl || (x.id < y.id ? -1 : 1));
    expect(ws.rowCount).toBe(want.length + 1);
    expect(ws.getRow(1).getCell(1).value).toBe('开票日期');
    expect(ws.getRow(1).getCell(16).value).toBe('价税合计（元）');
    const second = ws.getRow(2);
    expect(second.getCell(9).value).toBe(want[0]!.order_no);
    expect(second.getCell(16).value).toBe(want[0]!.amount_incl / 100);
    expect(ws.getRow(want.length + 1).getCell(9).value).toBe(want.at(-1)!.order_no);
    const log = await s.db.kysely.selectFrom('operation_logs').selectAll().where('type', '=', OperationLogType.export).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(log.description).toBe(`导出销项发票台账 ${want.length} 条（红字）`);
    expect(log.login_name).toBe('demo11');
  });

  it('exports more rows than one keyset batch in order', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/invoice/export', headers: { 'content-type': 'application/json', 'x-token': t5 }, payload: '{}' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const total = (await all()).length;
    expect(ws.rowCount).toBe(total + 1);
    const orders = new Set<string>();
    ws.eachRow((row, n) => n > 1 && orders.add(String(row.getCell(9).value)));
    expect(orders.size).toBe(total);
  });

  it('prints the first rows with the totals and logs a print (type 75)', async () => {
    const a = await s.call('/api/invoice/print', { source: 2 }, t11);
    expect(a.r.rows).toHaveLength(500);
    expect(a.r.truncated).toBe(true);
    expect(a.r.totals.count + a.r.totals.voided.count).toBe((await all()).filter((r) => r.source === 2).length);
    expect(a.r.totals).toEqual(sum((await all()).filter((r) => r.source === 2)));
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('type', '=', OperationLogType.print).executeTakeFirstOrThrow();
    expect(log.description).toBe('打印销项发票台账 500 条（来源 i8）');
  });
});

describe('permissions', () => {
  it('role 3 (system) may not read the ledger', async () => {
    for (const url of ['/api/invoice/list', '/api/invoice/export', '/api/invoice/print', '/api/invoiceredconfirm/digital-electric-red-ledger']) {
      const a = await s.call(url, {}, t3);
      expect(a.status, url).toBe(403);
      expect(a.message).toBe('权限不足');
    }
  });

  it('the summary table is only a cache: dropping its rows changes nothing', async () => {
    const a = await s.call('/api/invoice/list', { colour: 1 }, t5);
    await sql`delete from invoice_ledger_days`.execute(s.db.kysely);
    await s.db.kysely.updateTable('app_meta').set({ value: '' }).where('key', '=', 'invoice_ledger_days').execute();
    const b = await s.call('/api/invoice/list', { colour: 1 }, t5);
    expect(b.r.totals).toEqual(a.r.totals);
  });
});
