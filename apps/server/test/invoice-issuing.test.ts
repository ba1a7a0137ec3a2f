/** Issuing (一键开票), polling, idempotency, restart, retry and invalid marking through the API and the job. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMPTY_ID, InvoiceKind, InvoiceStatus } from '@zhyy/shared';
import { buildApp } from '../src/app.js';
import { FORCED_FAILURE, TaxErrorCode, TaxGatewayError } from '../src/integrations/tax/index.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import { toTaxRequest } from '../src/modules/invoice/issuing/taxmap.js';
import type { TestServer } from './helpers.js';
import { buyer, entryBody, invoice, newRequest, startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
let t11: string;
const S = InvoiceStatus;

beforeAll(async () => {
  s = await startInvoiceServer();
  t5 = await s.login('demo5');
  t11 = await s.login('demo11');
});
afterAll(() => s?.close());

describe('requests ready to issue', () => {
  it('lists the approved 开票申请 and entered requests; demo11 gets 权限不足', async () => {
    const a = await s.call('/api/invoice/list-for-creation', { tab: 'pending', pageSize: 100 }, t5);
    expect(a.code).toBe(20000);
    expect(a.r.items.some((i: { requestWorkId: number | null; source: number }) => i.requestWorkId !== null && i.source === 3)).toBe(true);
    expect(a.r.items.every((i: { status: number }) => i.status === S.none)).toBe(true);
    const denied = await s.call('/api/invoice/list-for-creation', {}, t11);
    expect([denied.status, denied.code, denied.message]).toEqual([403, 30000, '权限不足']);
  });

  it('refuses an entry that breaks the rules, with the Chinese reason', async () => {
    const b = entryBody(await buyer(s, '江苏长江路桥建设有限公司'));
    b.lines[0]!.tax += 10;
    const a = await s.call('/api/invoice/save', b, t5);
    expect(a.code).toBe(30000);
    expect(a.message).toContain('第1行：不含税金额加税额须等于含税金额');
    const bad = await s.call('/api/invoice/save', { ...entryBody(await buyer(s, '江苏长江路桥建设有限公司')), buyerTaxNo: '91320100MA1XK3PQ20' }, t5);
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('税号校验位不正确');
  });
});

describe('issuing', () => {
  it('issues one request, polls it to 开票成功 with its PDF, and writes the operation log', async () => {
    const id = await newRequest(s, t5, '江苏长江路桥建设有限公司');
    const a = await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
    expect(a.code).toBe(20000);
    expect(a.r.succeeded).toBe(1);
    expect((await invoice(s, id)).status).toBe(S.creating);
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [id] }, t5);
    const inv = await invoice(s, id);
    expect(inv.status).toBe(S.created);
    expect(inv.digital_no).toMatch(/^\d{20}$/);
    const d = await s.call('/api/invoice/detail', { id }, t5);
    const pdf = d.r.files.find((f: { format: string }) => f.format === 'pdf');
    expect(pdf).toBeTruthy();
    const link = await s.call('/api/invoice/file-link', { fileId: pdf.id }, t11);
    expect(link.code).toBe(20000);
    const file = await s.app.inject({ method: 'GET', url: link.r.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const forged = await s.app.inject({ method: 'GET', url: link.r.url.replace(/s=[^&]+/, 's=AAAA') });
    expect(forged.statusCode).toBe(403);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', `一键开票：${inv.order_no}%`).execute();
    expect(log).toHaveLength(1);
  });

  it('a tax-service callback is named 系统 in the operation log as on the invoice detail (issue 12 #18)', async () => {
    const id = await newRequest(s, t5, '江苏长江路桥建设有限公司');
    await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [id] }, t5);
    const inv = await invoice(s, id);
    expect(inv.status).toBe(S.created);
    const admin = await s.login('admin');
    const log = await s.call('/api/syslog/list', { text: `税务端回传：${inv.order_no}`, pageIndex: 1, pageSize: 10 }, admin);
    expect(log.code).toBe(20000);
    expect(log.r.items.length).toBe(1);
    expect(log.r.items[0]).toMatchObject({ userName: '系统', loginName: '' });
    const history = await s.call('/api/invoice/detail-history', { id }, t5);
    const callback = history.r.operations.find((o: { description: string }) => o.description.startsWith('税务端回传：'));
    expect(callback.userName).toBe('系统');
  });

  it('the same request issued twice at once yields one invoice at the tax service', async () => {
    const id = await newRequest(s, t5, '无锡新城发展集团有限公司');
    const [a, b] = await Promise.all([s.call('/api/invoice/request-billing', { ids: [id] }, t5), s.call('/api/invoice/request-billing', { ids: [id] }, t5)]);
    expect([a.r.succeeded, b.r.succeeded].sort()).toEqual([0, 1]);
    const inv = await invoice(s, id);
    const sims = await (s.db.kysely as any).selectFrom('taxsim_invoices').select('serial_no').where('order_no', '=', inv.order_no).execute();
    expect(sims).toHaveLength(1);
    const again = await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
    expect(again.r.results[0].ok).toBe(false);
    expect(again.r.results[0].message).toContain('开票中');
  });

  it('survives a restart during polling: nothing lost, nothing doubled', async () => {
    const id = await newRequest(s, t5, '苏州工业园区市政工程管理有限公司', InvoiceKind.pc);
    // Claimed, then the server "crashes" before the tax service answered (no serial number).
    await s.db.kysely.updateTable('invoices').set({ status: S.creating, next_poll_at: new Date(0).toISOString() }).where('id', '=', id).execute();
    const second = await buildApp(s.app.appConfig, s.db);
    await second.invoiceJob.stop();
    try {
      await Promise.all([second.invoiceJob.tick(), s.app.invoiceJob.tick()]);
      for (let i = 0; i < 4; i++) {
        await s.db.kysely.updateTable('invoices').set({ next_poll_at: new Date(0).toISOString() }).where('id', '=', id).where('status', 'in', [20, 21]).execute();
        await Promise.all([second.invoiceJob.tick(), s.app.invoiceJob.tick()]);
      }
    } finally {
      await second.close();
    }
    const inv = await invoice(s, id);
    expect(inv.status).toBe(S.created);
    const sims = await (s.db.kysely as any).selectFrom('taxsim_invoices').select('serial_no').where('order_no', '=', inv.order_no).execute();
    expect(sims).toHaveLength(1);
    const files = await s.db.kysely.selectFrom('invoice_files').select('format').where('invoice_id', '=', id).execute();
    expect(files.filter((f) => f.format === 'pdf')).toHaveLength(1);
  });

  it('submitted, then the server died before recording the serial number: the job finds it by the order number, one invoice (issue 27 item 6)', async () => {
    const id = await newRequest(s, t5, '苏州工业园区市政工程管理有限公司');
    await s.db.kysely.updateTable('invoices').set({ status: S.creating, next_poll_at: new Date(0).toISOString() }).where('id', '=', id).execute();
    const lines = await s.db.kysely.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute();
    const sent = await (await new InvoiceSettings(s.app).gateway()).submitInvoice(toTaxRequest(await invoice(s, id), lines));
    expect((await invoice(s, id)).serial_no).toBeNull();
    for (let i = 0; i < 4; i++) {
      await s.db.kysely.updateTable('invoices').set({ next_poll_at: new Date(0).toISOString() }).where('id', '=', id).where('status', 'in', [20, 21]).execute();
      await s.app.invoiceJob.tick();
    }
    const inv = await invoice(s, id);
    expect([inv.status, inv.serial_no]).toEqual([S.created, sent.serialNo]);
    const sims = await (s.db.kysely as any).selectFrom('taxsim_invoices').select('serial_no').where('order_no', '=', inv.order_no).execute();
    expect(sims).toHaveLength(1);
  });

  it('a request the tax service could not be reached for is pending, not refused: 20000, left 开票中 for the job (issue 27 item 8)', async () => {
    const id = await newRequest(s, t5, '苏州工业园区市政工程管理有限公司');
    const original = InvoiceSettings.prototype.gateway;
    const spy = vi.spyOn(InvoiceSettings.prototype, 'gateway').mockImplementation(async function (this: InvoiceSettings) {
      const real = await original.call(this);
      return new Proxy(real, {
        get: (target, key, recv) =>
          key === 'submitInvoice' ? async () => { throw new TaxGatewayError(TaxErrorCode.transport, '连接超时'); } : Reflect.get(target, key, recv),
      });
    });
    try {
      const a = await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
      expect(a.code).toBe(20000);
      expect(a.r.results[0]).toMatchObject({ id, ok: false, pending: true });
      expect(a.r.results[0].message).toContain('系统将自动重试');
    } finally {
      spy.mockRestore();
    }
    expect((await invoice(s, id)).status).toBe(S.creating);
    // A real refusal of every request is still 30000.
    const again = await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
    expect([again.code, again.message]).toEqual([30000, '发票当前状态为「开票中」，不能开票']);
  });

  it('22: corrected and resubmitted under a new order number; 24: re-issued on the same serial', async () => {
    // The simulator's trigger: a buyer whose name contains FORCED_FAILURE (the demo company has none).
    const trigger = `${FORCED_FAILURE}科技有限公司`;
    const made = await s.call('/api/invoice/buyer/save', { id: EMPTY_ID, name: trigger, taxNo: '91440101MA5CM2K81U', defaultKind: InvoiceKind.bs }, t5);
    expect(made.code).toBe(20000);
    const failing = await newRequest(s, t5, trigger);
    await s.call('/api/invoice/request-billing', { ids: [failing] }, t5);
    for (let i = 0; i < 3; i++) await s.call('/api/invoice/request-billing/refresh', { ids: [failing] }, t5);
    const f = await invoice(s, failing);
    expect(f.status).toBe(S.creationFailed);
    const list = await s.call('/api/invoice/list-for-retry-creation', { tab: 'creationFailed' }, t5);
    expect(list.r.items.find((i: { id: string }) => i.id === failing)?.failureCause).toBeTruthy();
    const ok = await buyer(s, '江苏华宁建材有限公司');
    const correction = { ...entryBody(ok), id: failing };
    const r = await s.call('/api/invoice/retry-creation', { id: failing, correction }, t5);
    expect(r.code).toBe(20000);
    const after = await invoice(s, failing);
    expect(after.order_no).not.toBe(f.order_no);
    expect(after.buyer_name).toBe('江苏华宁建材有限公司');
    expect(after.retry_count).toBe(1);
    // The failed first attempt's exchanges stay in the invoice's history under the new order number.
    const hist = await s.call('/api/invoice/detail-history', { id: failing }, t5);
    const synced = await s.db.kysely.selectFrom('sync_log_refs').select('sync_log_id').where('ref', '=', f.order_no).execute();
    expect(synced.length).toBeGreaterThan(0);
    const shown = new Set(hist.r.syncLogs.map((l: { id: string }) => l.id));
    for (const row of synced) expect(shown.has(row.sync_log_id)).toBe(true);
    const signFailed = (await s.db.kysely.selectFrom('invoices').select(['id', 'serial_no']).where('status', '=', S.signFailed).executeTakeFirstOrThrow());
    const r24 = await s.call('/api/invoice/retry-creation', { id: signFailed.id }, t5);
    expect(r24.code).toBe(20000);
    const again = await invoice(s, signFailed.id);
    expect([again.status, again.serial_no]).toEqual([S.creating, signFailed.serial_no]);
    const twice = await s.call('/api/invoice/retry-creation', { id: signFailed.id }, t5);
    expect(twice.code).toBe(30000);
  });

  it('marks a request invalid with a reason, and refuses it for an issued invoice', async () => {
    const id = await newRequest(s, t5, '上海同济工程咨询有限公司', InvoiceKind.pc);
    const none = await s.call('/api/invoice/request-billing/is-invalid', { id, reason: '' }, t5);
    expect(none.status).toBe(400);
    expect((await s.call('/api/invoice/request-billing/is-invalid', { id, reason: '业务取消' }, t5)).code).toBe(20000);
    expect((await invoice(s, id)).invalid).toBe(1);
    const issued = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', S.created).executeTakeFirstOrThrow();
    const refused = await s.call('/api/invoice/request-billing/is-invalid', { id: issued.id, reason: '试试' }, t5);
    expect(refused.message).toBe('发票当前状态为「开票成功」，不能置为无效');
    const again = await s.call('/api/invoice/request-billing', { ids: [id] }, t5);
    // Nothing submitted: a refusal, 30000 with the reason, the per-request answer beside it (issue 27 item 8).
    expect([again.code, again.message]).toEqual([30000, '该开票申请已置为无效']);
    expect(again.r.results[0].message).toBe('该开票申请已置为无效');
    // Two requests, neither submitted (one invalid, one an issued invoice): 30000 naming each with its reason.
    const both = await s.call('/api/invoice/request-billing', { ids: [id, issued.id] }, t5);
    expect(both.code).toBe(30000);
    expect(both.r).toMatchObject({ succeeded: 0, failed: 2 });
    expect(both.message).toBe(`2 张开票申请均未提交成功：${both.r.results.map((x: { orderNo: string; message: string }) => `${x.orderNo} ${x.message}`).join('；')}`);
    expect(both.r.results[0].message).toBe('该开票申请已置为无效');
  });
});
