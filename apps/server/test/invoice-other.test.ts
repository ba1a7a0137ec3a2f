/** Cancellation, red-letter confirmations, buyers, settings, the entry form's lookups, the sync log, the badge counts and permissions. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMPTY_ID, InvoiceKind, InvoiceStatus, TaxPolicy } from '@zhyy/shared';
import { TEST_DEMO, type TestServer } from './helpers.js';
import { buyer, invoice, newRequest, startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
let t11: string;
let t3: string;
const S = InvoiceStatus;

beforeAll(async () => {
  // The reference lookups are checked against the invoice seed's projects and contracts alone (no tender demo).
  s = await startInvoiceServer({ demoOptions: { ...TEST_DEMO, tenderFrames: 0 } });
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

  it('a submitted confirmation is asked about within seconds, not at the 5-minute refresh (issue 12 #21)', async () => {
    await s.app.invoiceJob.tick(); // the periodic refresh runs on the first round; the next one is 5 minutes away
    const blueId = await newRequest(s, t5, '江苏长江路桥建设有限公司');
    await s.call('/api/invoice/request-billing', { ids: [blueId] }, t5);
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [blueId] }, t5);
    const c = await s.call('/api/invoiceredconfirm/create', { blueInvoiceId: blueId }, t5);
    expect(c.code).toBe(20000);
    expect((await s.call('/api/invoiceredconfirm/save', { id: c.r.id, redReason: 1, vatUsage: 4, lines: [] }, t5)).code).toBe(20000);
    // The clock stands still from the submission on (only Date is faked; I/O timers run), so a slow
    // machine cannot make the first poll due before the test moves the clock itself.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect((await s.call('/api/invoiceredconfirm/apply', { id: c.r.id }, t5)).code).toBe(20000);
      const state = async () => (await s.call('/api/invoiceredconfirm/detail', { id: c.r.id }, t5)).r.state as string;
      expect(await state()).toBe('15');
      await s.app.invoiceJob.tick();
      expect(await state()).toBe('15'); // not yet due: the first poll is 3 s after the submission
      vi.setSystemTime(Date.now() + 3200);
      await s.app.invoiceJob.tick();
      expect(await state()).toBe('01');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an application cut short by a crash is settled by asking the tax service by our bill number (issue 27 item 6)', async () => {
    const issued = async (buyerName: string) => {
      const id = await newRequest(s, t5, buyerName);
      await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
      for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [id] }, t5);
      const c = await s.call('/api/invoiceredconfirm/create', { blueInvoiceId: id }, t5);
      expect(c.code, c.message).toBe(20000);
      expect((await s.call('/api/invoiceredconfirm/save', { id: c.r.id, redReason: 1, vatUsage: 4, lines: [] }, t5)).code).toBe(20000);
      return c.r.id as number;
    };
    const row = (id: number) => s.db.kysely.selectFrom('invoice_red_confirms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const old = new Date(Date.now() - 3 * 60_000).toISOString();
    const atService = async (id: number) => (await (s.db.kysely as any).selectFrom('taxsim_red_confirms').select('bill_id').where('bill_no', '=', (await row(id)).bill_no).execute()).length as number;
    // Reached the service, then the server died before recording its answer: 申请中 with no billId.
    const reached = await issued('江苏长江路桥建设有限公司');
    expect((await s.call('/api/invoiceredconfirm/apply', { id: reached }, t5)).code).toBe(20000);
    await s.db.kysely.updateTable('invoice_red_confirms').set({ state: '15', bill_id: null, confirm_no: '', next_poll_at: null, updated_at: old }).where('id', '=', reached).execute();
    // Claimed, then the server died before calling the service.
    const lost = await issued('无锡新城发展集团有限公司');
    await s.db.kysely.updateTable('invoice_red_confirms').set({ state: '15', updated_at: old }).where('id', '=', lost).execute();
    // One still within the grace is left alone.
    const young = await issued('苏州工业园区市政工程管理有限公司');
    await s.db.kysely.updateTable('invoice_red_confirms').set({ state: '15' }).where('id', '=', young).execute();
    await s.app.invoiceJob.tick();
    const a = await row(reached);
    expect(a.bill_id).toBeTruthy();
    expect(a.state).not.toBe('16');
    expect(await atService(reached)).toBe(1);
    const b = await row(lost);
    expect([b.state, b.message, b.bill_id]).toEqual(['16', '申请中断：税务端未收到该红字确认单申请，请重新提交', null]);
    expect(await atService(lost)).toBe(0);
    expect((await row(young)).state).toBe('15');
    // From 申请失败 the application is submitted again: one application at the service.
    expect((await s.call('/api/invoiceredconfirm/apply', { id: lost }, t5)).code).toBe(20000);
    expect((await row(lost)).bill_id).toBeTruthy();
    expect(await atService(lost)).toBe(1);
    await s.db.kysely.updateTable('invoice_red_confirms').set({ state: '00' }).where('id', '=', young).execute();
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

describe('the entry form: buyer detail, creation settings, project and contract lookups', () => {
  const NO_SUCH_ID = '00000000-0000-4000-8000-000000000001';
  const codes = (rows: Array<{ code: string }>) => rows.map((r) => r.code);

  it('buyer/detail gives the whole buyer with its invoice count; refuses a bad or unknown id', async () => {
    const b = await buyer(s, '江苏长江路桥建设有限公司');
    const a = await s.call('/api/invoice/buyer/detail', { id: b.id }, t5);
    expect(a.code).toBe(20000);
    expect(a.r).toMatchObject({
      id: b.id, name: '江苏长江路桥建设有限公司', taxNo: '91320100MA1XK3PQ2K', bank: '中国银行南京分行营业部', email: 'finance@cjlq.example.cn',
      defaultKind: InvoiceKind.bs, mobile: '', remark: '',
    });
    const n = await s.db.kysely.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('buyer_id', '=', b.id).executeTakeFirstOrThrow();
    expect(a.r.invoiceCount).toBe(Number(n.n));
    expect(a.r.invoiceCount).toBeGreaterThan(0);
    const paper = await s.call('/api/invoice/buyer/detail', { id: (await buyer(s, '南京恒信机械租赁有限公司')).id }, t5);
    expect(paper.r).toMatchObject({ name: '南京恒信机械租赁有限公司', defaultKind: InvoiceKind.c, bank: '招商银行南京分行' });
    expect(paper.r.taxNo).toMatch(/^91320113MA1P9W2Q0[0-9A-Z]$/);

    const bad = await s.call('/api/invoice/buyer/detail', { id: 'abc' }, t5);
    expect([bad.status, bad.code, bad.message]).toEqual([400, 30000, '参数错误：ID格式不正确']);
    const none = await s.call('/api/invoice/buyer/detail', { id: NO_SUCH_ID }, t5);
    expect([none.status, none.code, none.message]).toEqual([404, 30000, '购方不存在或已删除']);
    const body = { id: EMPTY_ID, name: '南京临时删除测试有限公司', taxNo: '', address: '', phone: '', bank: '', account: '', email: '', mobile: '', defaultKind: InvoiceKind.pc, remark: '' };
    const made = await s.call('/api/invoice/buyer/save', body, t5);
    expect((await s.call('/api/invoice/buyer/detail', { id: made.r.id }, t5)).r).toMatchObject({ name: '南京临时删除测试有限公司', taxNo: '', invoiceCount: 0 });
    await s.call('/api/invoice/buyer/delete', { id: made.r.id }, t5);
    expect((await s.call('/api/invoice/buyer/detail', { id: made.r.id }, t5)).message).toBe('购方不存在或已删除');
  });

  it('creation-setting gives the seller, the default people and kind and every tax code, and no secret', async () => {
    const a = await s.call('/api/invoice/creation-setting', {}, t5);
    expect(a.code).toBe(20000);
    expect(Object.keys(a.r).sort()).toEqual(['checker', 'clerk', 'defaultKind', 'gatewayMode', 'payee', 'sellerName', 'sellerTaxNo', 'taxCodes']);
    expect(a.r).toMatchObject({ sellerName: '华建工程技术服务有限公司', sellerTaxNo: '91320100MA1HJGC7XE', clerk: '刘芳', payee: '周敏', checker: '陈静', defaultKind: InvoiceKind.bs, gatewayMode: 'simulator' });
    expect(a.r.taxCodes).toHaveLength(12);
    expect(a.r.taxCodes[0]).toEqual({ code: '3050200000000000000', name: '工程服务', shortName: '建筑服务', taxRate: '0.09', policy: TaxPolicy.none });
    expect(a.r.taxCodes.find((c: { name: string }) => c.name === '其他建筑服务（简易计税）')).toMatchObject({ taxRate: '0.03', policy: TaxPolicy.simplified });
    expect(a.raw).not.toMatch(/appSecret|appKey/);
    // It follows the settings page.
    await s.db.kysely.updateTable('invoice_settings').set({ payee: '王磊' }).execute();
    expect((await s.call('/api/invoice/creation-setting', {}, t5)).r.payee).toBe('王磊');
    await s.db.kysely.updateTable('invoice_settings').set({ payee: '周敏' }).execute();
  });

  it('projects are found by code or name and by customer, newest code first', async () => {
    const all = await s.call('/api/invoice/projects', {}, t5);
    expect(codes(all.r)).toEqual(['XM2026-005', 'XM2026-004', 'XM2026-003', 'XM2026-002', 'XM2026-001', 'LS2026-001']);
    expect(all.r[4]).toMatchObject({ name: '江北新区综合管廊二期', customer: '南京市城市建设投资控股（集团）有限责任公司', amount: 86_000_000_00, source: 2 });
    expect(codes((await s.call('/api/invoice/projects', { keyword: '管廊' }, t5)).r)).toEqual(['XM2026-001']);
    expect(codes((await s.call('/api/invoice/projects', { keyword: 'LS2026' }, t5)).r)).toEqual(['LS2026-001']);
    expect(codes((await s.call('/api/invoice/projects', { customer: '城市建设投资' }, t5)).r)).toEqual(['XM2026-005', 'XM2026-001']);
    expect(codes((await s.call('/api/invoice/projects', { keyword: '雨污', customer: '无锡' }, t5)).r)).toEqual([]);
    // Blank filters are no filters.
    expect((await s.call('/api/invoice/projects', { keyword: '  ', customer: '' }, t5)).r).toHaveLength(6);
    const long = await s.call('/api/invoice/projects', { keyword: '项'.repeat(101) }, t5);
    expect([long.status, long.message]).toEqual([400, '参数错误：关键字不能超过100个字符']);
  });

  it('answers at most 50 projects', async () => {
    const at = new Date().toISOString();
    const extra = Array.from({ length: 55 }, (_, i) => ({ id: `00000000-0000-4000-8000-0000000100${String(i).padStart(2, '0')}`, code: `PG2026-${String(i).padStart(3, '0')}`, name: `批量测试项目${i}`, customer: '批量测试客户', amount: 0, source: 2, is_temp: 0, created_at: at, updated_at: at }));
    await s.db.kysely.insertInto('projects').values(extra).execute();
    try {
      const a = await s.call('/api/invoice/projects', { customer: '批量测试客户' }, t5);
      expect(a.r).toHaveLength(50);
      expect([a.r[0].code, a.r[49].code]).toEqual(['PG2026-054', 'PG2026-005']);
    } finally {
      await s.db.kysely.deleteFrom('projects').where('customer', '=', '批量测试客户').execute();
    }
  });

  it('contracts are found by code or name, customer and project; a bad project id is refused', async () => {
    const all = await s.call('/api/invoice/contracts', {}, t5);
    expect(all.r).toHaveLength(7);
    const jbgl = all.r.find((c: { code: string }) => c.code === 'HJ-HT-2026-011');
    expect(jbgl).toMatchObject({ name: '江北新区综合管廊二期施工总承包合同', customer: '南京市城市建设投资控股（集团）有限责任公司', amount: 86_000_000_00, source: 2 });
    const project = (await s.call('/api/invoice/projects', { keyword: 'XM2026-001' }, t5)).r[0];
    expect(jbgl.projectId).toBe(project.id);
    expect(codes((await s.call('/api/invoice/contracts', { projectId: project.id }, t5)).r)).toEqual(['HJ-JL-2026-005', 'HJ-HT-2026-011']);
    expect(codes((await s.call('/api/invoice/contracts', { projectId: project.id, keyword: '监理' }, t5)).r)).toEqual(['HJ-JL-2026-005']);
    expect(codes((await s.call('/api/invoice/contracts', { keyword: 'HJ-DD' }, t5)).r)).toEqual(['HJ-DD-2026-031']);
    const wx = (await s.call('/api/invoice/contracts', { customer: '无锡新城' }, t5)).r;
    expect(wx.map((c: { code: string; amount: number }) => [c.code, c.amount])).toEqual([['HJ-KJ-2026-002', 45_600_000_00], ['HJ-DD-2026-031', 9_800_000_00]]);
    expect((await s.call('/api/invoice/contracts', { projectId: NO_SUCH_ID }, t5)).r).toEqual([]);
    const bad = await s.call('/api/invoice/contracts', { projectId: 'XM2026-001' }, t5);
    expect([bad.status, bad.code, bad.message]).toEqual([400, 30000, '参数错误：项目ID格式不正确']);
  });

  it('are 403 权限不足 for demo11 (read-only) and demo3 (no invoice role)', async () => {
    const b = await buyer(s, '江苏长江路桥建设有限公司');
    const calls: Array<[string, unknown]> = [['/api/invoice/buyer/detail', { id: b.id }], ['/api/invoice/creation-setting', {}], ['/api/invoice/projects', {}], ['/api/invoice/contracts', {}]];
    for (const [url, body] of calls) {
      for (const token of [t11, t3]) {
        const a = await s.call(url, body, token);
        expect([url, a.status, a.code, a.message, a.r]).toEqual([url, 403, 30000, '权限不足', undefined]);
      }
      expect((await s.call(url, body)).status).toBe(401);
    }
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
