/** Cancellation, red-letter confirmations, buyers, settings, the sync log, the badge counts and permissions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ID, InvoiceKind, InvoiceStatus } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { instantSimulator, invoice } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
let t11: string;
let t3: string;
const S = InvoiceStatus;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.invoiceJob.stop();
  await instantSimulator(s);
  [t5, t11, t3] = await Promise.all([s.login('demo5'), s.login('demo11'), s.login('demo3')]);
});
afterAll(() => s?.close());

describe('税控作废', () => {
  it('cancels a paper invoice of this month (2 → 31 → 3) and refuses a 数电 one', async () => {
    const list = await s.call('/api/invoice/list-for-cancellation', { tab: 'candidates' }, t5);
    expect(list.r.items.length).toBeGreaterThan(0);
    const paper = list.r.items[0];
    expect([InvoiceKind.c, InvoiceKind.s]).toContain(paper.kind);
    const a = await s.call('/api/invoice/invoice-cancellation', { ids: [paper.id], reason: '开具错误' }, t5);
    expect(a.r.succeeded).toBe(1);
    await s.call('/api/invoice/invoice-cancellation/refresh', { ids: [paper.id] }, t5);
    expect((await invoice(s, paper.id)).status).toBe(S.cancelled);
    const digital = await s.db.kysely.selectFrom('invoices').select('id').where('kind', '=', InvoiceKind.bs).where('status', '=', S.created).where('colour', '=', 1).executeTakeFirstOrThrow();
    const d = await s.call('/api/invoice/invoice-cancellation', { ids: [digital.id], reason: '开具错误' }, t5);
    expect(d.r.results[0].message).toBe('数电发票不能作废，请开具红字发票冲销');
    const again = await s.call('/api/invoice/invoice-cancellation', { ids: [paper.id], reason: '再来' }, t5);
    expect(again.r.results[0].message).toBe('发票当前状态为「已作废」，不能作废');
  });

  it('is-invalid gives up a cancellation in progress (31 → 2) with a reason', async () => {
    const canceling = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', S.canceling).executeTakeFirstOrThrow();
    expect((await s.call('/api/invoice/invoice-cancellation/is-invalid', { id: canceling.id, reason: '税务端无响应' }, t5)).code).toBe(20000);
    expect((await invoice(s, canceling.id)).status).toBe(S.created);
    const twice = await s.call('/api/invoice/invoice-cancellation/is-invalid', { id: canceling.id, reason: '税务端无响应' }, t5);
    expect(twice.message).toBe('发票当前状态为「开票成功」，不能撤回作废');
  });
});

describe('数电红字确认单', () => {
  it('applies against a blue invoice for chosen lines and links the red invoice (negative amounts)', async () => {
    const cands = await s.call('/api/invoiceredconfirm/blue-candidates', {}, t5);
    const blue = cands.r.items[0];
    const c = await s.call('/api/invoiceredconfirm/create', { blueInvoiceId: blue.id }, t5);
    expect(Number.isInteger(c.r.id)).toBe(true);
    const dup = await s.call('/api/invoiceredconfirm/create', { blueInvoiceId: blue.id }, t5);
    expect(dup.message).toContain('已有进行中的红字确认单');
    const detail = await s.call('/api/invoiceredconfirm/detail', { id: c.r.id }, t5);
    const first = detail.r.blueLines[0];
    const half = -Math.round(first.amountIncl / 2);
    expect((await s.call('/api/invoiceredconfirm/save', { id: c.r.id, redReason: 4, vatUsage: 4, lines: [{ lineNo: 1, amountIncl: half }] }, t5)).code).toBe(20000);
    const applied = await s.call('/api/invoiceredconfirm/apply', { id: c.r.id }, t5);
    expect(applied.code).toBe(20000);
    await s.call('/api/invoiceredconfirm/refresh', {}, t5);
    const row = await s.db.kysely.selectFrom('invoice_red_confirms').selectAll().where('id', '=', c.r.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('01');
    expect(row.red_invoice_id).toBeTruthy();
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [row.red_invoice_id] }, t5);
    const red = await invoice(s, row.red_invoice_id!);
    expect([red.colour, red.status, red.blue_invoice_id, Number(red.amount_incl)]).toEqual([2, S.created, blue.id, half]);
    const back = await s.call('/api/invoice/detail', { id: blue.id }, t11);
    expect(back.r.reds.map((r: { id: string }) => r.id)).toContain(red.id);
    const noMore = await s.call('/api/invoiceredconfirm/save', { id: c.r.id, redReason: 4, vatUsage: 4, lines: [] }, t5);
    expect(noMore.message).toBe('红字确认单当前状态为「无需确认」，不能修改');
  });

  it('confirms a buyer application awaiting us; refuses illegal moves', async () => {
    const list = await s.call('/api/invoiceredconfirm/list', { direction: 'buyer', state: '03' }, t5);
    const theirs = list.r.items[0];
    expect(theirs).toBeTruthy();
    expect((await s.call('/api/invoiceredconfirm/cancel', { id: theirs.id }, t5)).message).toBe('红字确认单当前状态为「购方录入待销方确认」，不能撤销');
    const ok = await s.call('/api/invoiceredconfirm/confirm', { id: theirs.id }, t5);
    expect(ok.code).toBe(20000);
    expect((await s.call('/api/invoiceredconfirm/confirm', { id: theirs.id }, t5)).code).toBe(30000);
    const draft = (await s.call('/api/invoiceredconfirm/list', { state: '00' }, t5)).r.items[0];
    expect((await s.call('/api/invoiceredconfirm/cancel', { id: draft.id }, t5)).code).toBe(20000);
    expect((await s.call('/api/invoiceredconfirm/detail', { id: 'x' }, t5)).status).toBe(400);
  });
});

describe('buyers and settings', () => {
  it('checks the tax number and refuses duplicates', async () => {
    const body = { id: EMPTY_ID, name: '南京新建测试有限公司', taxNo: '91350100M000100Y43', address: '', phone: '', bank: '', account: '', email: '', mobile: '', defaultKind: 9, remark: '' };
    const a = await s.call('/api/invoice/buyer/save', body, t5);
    expect(a.code).toBe(20000);
    const dup = await s.call('/api/invoice/buyer/save', { ...body, name: '另一家' }, t5);
    expect([dup.status, dup.message]).toEqual([409, '税号 91350100M000100Y43 已登记为购方「南京新建测试有限公司」，不能重复添加']);
    const bad = await s.call('/api/invoice/buyer/save', { ...body, taxNo: '91350100M000100Y44' }, t5);
    expect(bad.message).toContain('税号校验位不正确');
    expect((await s.call('/api/invoice/buyer/list', { keyword: '新建测试' }, t5)).r.total).toBe(1);
    expect((await s.call('/api/invoice/buyer/delete', { id: a.r.id }, t5)).code).toBe(20000);
  });

  it('never sends the Nuonuo secret back, and keeps it when left blank', async () => {
    const v = (await s.call('/api/invoice/setting/get', {}, t5)).r;
    const body = { ...v, gatewayMode: 'simulator', appKey: 'key1', appSecret: 'TOP-SECRET', gatewayTaxNo: '', nuonuoUrl: '', simulatorDelayMs: 0, simulatorFailureRate: 0 };
    delete body.appSecretSet; delete body.updatedAt; delete body.updatedBy;
    const saved = await s.call('/api/invoice/setting/save', body, t5);
    expect(saved.code).toBe(20000);
    expect(saved.raw).not.toContain('TOP-SECRET');
    expect(saved.r.appSecretSet).toBe(true);
    await s.call('/api/invoice/setting/save', { ...body, appSecret: '' }, t5);
    expect((await s.db.kysely.selectFrom('invoice_settings').select('app_secret').executeTakeFirstOrThrow()).app_secret).toBe('TOP-SECRET');
    const codes = await s.call('/api/invoice/tax-codes', { keyword: '工程' }, t5);
    expect(codes.r.length).toBeGreaterThan(0);
  });
});

describe('sync log, counts and permissions', () => {
  it('filters the tax sync log by invoice, with the bodies', async () => {
    const inv = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', S.created).executeTakeFirstOrThrow();
    const a = await s.call('/api/invoice/invoice-synclog-details', { invoiceId: inv.id }, t5);
    expect(a.r.total).toBeGreaterThan(0);
    const d = await s.call('/api/invoice/invoice-synclog-detail', { id: a.r.items[0].id }, t5);
    expect(d.r.request).toBeTruthy();
    expect((await s.call('/api/invoice/invoice-synclog-details', { status: 1 }, t5)).code).toBe(20000);
  });

  it('counts only what the caller may see', async () => {
    const five = (await s.call('/api/invoice/billing-cancellation-count', {}, t5)).r;
    expect(Object.keys(five)).toHaveLength(9);
    expect(five.requestBillingCount + five.requestDigitalElectricInvoiceCount).toBeGreaterThan(0);
    const eleven = (await s.call('/api/invoice/billing-cancellation-count', {}, t11)).r;
    expect(Object.values(eleven).every((n) => n === 0)).toBe(true);
  });

  it('demo11 reads the detail but every change is 403 权限不足; demo3 gets nothing', async () => {
    const inv = await s.db.kysely.selectFrom('invoices').select('id').executeTakeFirstOrThrow();
    expect((await s.call('/api/invoice/detail', { id: inv.id }, t11)).code).toBe(20000);
    const changes: Array<[string, unknown]> = [
      ['/api/invoice/save', {}], ['/api/invoice/request-billing', { ids: [inv.id] }], ['/api/invoice/request-billing/refresh', {}],
      ['/api/invoice/request-billing/is-invalid', { id: inv.id, reason: 'x' }], ['/api/invoice/retry-creation', { id: inv.id }],
      ['/api/invoice/invoice-cancellation', { ids: [inv.id], reason: 'x' }], ['/api/invoice/invoice-cancellation/refresh', {}],
      ['/api/invoice/invoice-cancellation/is-invalid', { id: inv.id, reason: 'x' }], ['/api/invoice/buyer/save', {}], ['/api/invoice/buyer/delete', { id: inv.id }],
      ['/api/invoice/setting/save', {}], ['/api/invoiceredconfirm/create', { blueInvoiceId: inv.id }], ['/api/invoiceredconfirm/apply', { id: 1 }],
      ['/api/invoiceredconfirm/confirm', { id: 1 }], ['/api/invoiceredconfirm/refuse', { id: 1, reason: 'x' }], ['/api/invoiceredconfirm/cancel', { id: 1 }],
      ['/api/invoiceredconfirm/refresh', {}], ['/api/invoiceredconfirm/save', {}],
    ];
    for (const [url, body] of changes) {
      const a = await s.call(url, body, t11);
      expect([url, a.status, a.message]).toEqual([url, 403, '权限不足']);
    }
    expect((await s.call('/api/invoice/detail', { id: inv.id }, t3)).status).toBe(403);
  });
});
