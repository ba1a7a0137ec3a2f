/**
 * Issue 14: the accounting gateway (会计系统) that 进项转出 pushes vouchers through (and reimbursement will):
 * the simulator checks 借贷平衡, numbers vouchers per month (记-0001 …), answers a repeat of the same voucher
 * id with the same number, and can be told to fail; the HTTP client (ACCOUNTING_MODE=http) against a local
 * fake accounting service; the configuration from the environment; one sync log row (system 2) per call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSystem } from '@zhyy/shared';
import { ACCOUNTING_SIM_DOWN, accountingConfigFromEnv, accountingSimControl, AccountingMethods, createAccountingGateway, simPeriodClosed, type Voucher, type VoucherReversal } from '../src/integrations/accounting/index.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let fake: http.Server;
let base = '';
const posted = new Map<string, string>();
/** The fake side's reversals: reversal id → { voucher number, the original's id, the request's path }. */
const reversed = new Map<string, { no: string; reverses: string; path: string }>();

beforeAll(async () => {
  s = await startTestServer({ demo: false });
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer tok') return res.writeHead(401).end(JSON.stringify({ code: '401', message: 'bad token' }));
      if (req.method === 'GET' && req.url!.includes('/periods/')) {
        const p = decodeURIComponent(req.url!.split('/').pop()!);
        return res.end(JSON.stringify({ code: '0', data: { period: p, closed: p < '202610' } }));
      }
      if (req.method === 'GET') {
        const id = decodeURIComponent(req.url!.split('/').pop()!);
        const no = posted.get(id);
        return no ? res.end(JSON.stringify({ code: '0', data: { voucherNo: no, period: '202611', ...(id.startsWith('dated-') ? { date: '2026-11-20' } : {}) } })) : res.writeHead(404).end(JSON.stringify({ code: 'NOT_FOUND', message: '无此凭证' }));
      }
      if (req.url!.endsWith('/reversal')) {
        const r = JSON.parse(body) as VoucherReversal;
        if (!posted.has(r.reverses)) return res.end(JSON.stringify({ code: 'NOT_FOUND', message: '原凭证不存在，无法冲销' }));
        if (!reversed.has(r.id)) reversed.set(r.id, { no: `记-${String(900 + reversed.size + 1)}`, reverses: r.reverses, path: req.url! });
        posted.set(r.id, reversed.get(r.id)!.no);
        return res.end(JSON.stringify({ code: '0', data: { voucherNo: reversed.get(r.id)!.no, period: r.period, reversedVoucherNo: posted.get(r.reverses), reversedPeriod: '202611' } }));
      }
      const v = JSON.parse(body) as Voucher;
      if (v.summary.includes('已结账')) return res.end(JSON.stringify({ code: 'E3001', message: '会计期间已结账，不能制单' }));
      if (!posted.has(v.id)) posted.set(v.id, `记-${String(posted.size + 1).padStart(4, '0')}`);
      res.end(JSON.stringify({ code: '0', message: 'ok', data: { voucherNo: posted.get(v.id), period: v.period } }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await s?.close();
  fake?.close();
});

const voucher = (over: Partial<Voucher> = {}, amount = 12_345): Voucher => ({
  id: randomUUID(), date: '2026-11-20', period: '202611', summary: '进项转出：发票12345678（异常凭证，免税项目）', maker: '张会计', sourceType: 'incomeTransferOut', sourceNo: '12345678',
  entries: [
    { dc: 'debit', accountCode: '6401', accountName: '主营业务成本', amount },
    { dc: 'credit', accountCode: '22210103', accountName: '应交税费—应交增值税（进项税额转出）', amount },
  ],
  ...over,
});
const logs = (ref: string) =>
  s.db.kysely.selectFrom('sync_logs').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'sync_logs.id').selectAll('sync_logs').where('f.ref', '=', ref).orderBy('sync_logs.created_at').execute();

describe('configuration', () => {
  it('defaults to the simulator; http needs the URL and token', () => {
    // The simulator answers after a short delay, as i8 does (none under tests).
    expect(accountingConfigFromEnv({})).toEqual({ mode: 'simulator', delayMs: 800 });
    expect(accountingConfigFromEnv({ NODE_ENV: 'test' })).toEqual({ mode: 'simulator', delayMs: 0 });
    expect(accountingConfigFromEnv({ ACCOUNTING_SIM_DELAY_MS: '50' })).toEqual({ mode: 'simulator', delayMs: 50 });
    expect(() => accountingConfigFromEnv({ ACCOUNTING_MODE: 'http' })).toThrow('ACCOUNTING_MODE=http needs ACCOUNTING_URL, ACCOUNTING_TOKEN');
    expect(() => accountingConfigFromEnv({ ACCOUNTING_MODE: 'ftp' })).toThrow('ACCOUNTING_MODE must be simulator or http');
    expect(accountingConfigFromEnv({ ACCOUNTING_MODE: 'http', ACCOUNTING_URL: 'http://x', ACCOUNTING_TOKEN: 't', ACCOUNTING_TIMEOUT_MS: '3000' })).toEqual({ mode: 'http', url: 'http://x', token: 't', timeoutMs: 3000 });
  });
});

describe('simulator', () => {
  const gw = () => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });

  it('numbers vouchers per month, answers a repeat with the same number, and logs each call', async () => {
    const a = voucher({ period: '203001' });
    const b = voucher({ period: '203001' });
    const c = voucher({ period: '203002' });
    expect((await gw().pushVoucher(a)).voucherNo).toBe('记-0001');
    expect((await gw().pushVoucher(b)).voucherNo).toBe('记-0002');
    expect((await gw().pushVoucher(c)).voucherNo).toBe('记-0001');
    const again = await Promise.all([gw().pushVoucher(a), gw().pushVoucher(a)]);
    expect(again.map((x) => x.voucherNo)).toEqual(['记-0001', '记-0001']);
    // The question by the idempotency key answers the voucher's date too (the settling jobs record it).
    expect(await gw().voucherState(b.id)).toEqual({ status: 'posted', voucherNo: '记-0002', period: '203001', date: '2026-11-20' });
    expect(await gw().voucherState(randomUUID())).toEqual({ status: 'notFound' });
    const rows = await logs(a.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.system === SyncSystem.accounting && r.type === AccountingMethods.push && r.status === 0)).toBe(true);
    expect(rows[0]!.memo).toContain('凭证号 203001 记-0001');
  });

  it('concurrent pushes of new vouchers get distinct numbers without gaps', async () => {
    const vs = Array.from({ length: 6 }, () => voucher({ period: '203105' }));
    const nos = (await Promise.all(vs.map((v) => gw().pushVoucher(v)))).map((a) => a.voucherNo).sort();
    expect(nos).toEqual(['记-0001', '记-0002', '记-0003', '记-0004', '记-0005', '记-0006']);
  });

  it('refuses an unbalanced voucher, and fails when told to (logged as failures)', async () => {
    const bad = voucher({ entries: [{ dc: 'debit', accountCode: '6401', accountName: '主营业务成本', amount: 100 }, { dc: 'credit', accountCode: '22210103', accountName: '进项税额转出', amount: 99 }] });
    await expect(gw().pushVoucher(bad)).rejects.toThrow('会计系统拒绝凭证：借贷不平衡（借方1.00元，贷方0.99元）');
    accountingSimControl.failNext(1);
    const v = voucher({ period: '203201' });
    await expect(gw().pushVoucher(v)).rejects.toThrow(ACCOUNTING_SIM_DOWN);
    expect((await gw().pushVoucher(v)).voucherNo).toBe('记-0001');
    const rows = await logs(v.id);
    expect(rows.map((r) => r.status).sort()).toEqual([0, 1]);
    expect((await logs(bad.id))[0]!.status).toBe(1);
  });
});

describe('simulator: closed periods and the accountant deleting a voucher', () => {
  const gw = () => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });

  it('by the demo rule a month is closed once the month after it has ended; the control overrides it', async () => {
    const now = new Date('2026-11-23T04:00:00Z');
    expect(simPeriodClosed('202611', now)).toBe(false);
    expect(simPeriodClosed('202610', now)).toBe(false);
    expect(simPeriodClosed('202609', now)).toBe(true);
    expect(simPeriodClosed('202512', new Date('2026-01-05T04:00:00Z'))).toBe(false);
    expect(simPeriodClosed('202511', new Date('2026-01-05T04:00:00Z'))).toBe(true);
    accountingSimControl.closePeriod('202611');
    expect(simPeriodClosed('202611', now)).toBe(true);
    expect(await gw().periodState('202611')).toEqual({ period: '202611', closed: true });
    accountingSimControl.reset();
    expect(simPeriodClosed('202611', now)).toBe(false);
  });

  it('no voucher is made in a closed period (a repeat of one already made still answers)', async () => {
    const v = voucher({ period: '203301' });
    const made = await gw().pushVoucher(v);
    accountingSimControl.closePeriod('203301');
    try {
      await expect(gw().pushVoucher(voucher({ period: '203301' }))).rejects.toThrow('会计系统拒绝凭证：会计期间 2033年01月 已结账，不能制单');
      expect((await gw().pushVoucher(v)).voucherNo).toBe(made.voucherNo);
      await expect(gw().simulator!.deleteVoucher(v.id)).rejects.toThrow(`会计期间 2033年01月 已结账，不能删除凭证 ${made.voucherNo}`);
    } finally {
      accountingSimControl.reset();
    }
  });

  it('the accountant deletes a voucher: it is unknown afterwards; logged', async () => {
    const v = voucher({ period: '203401' });
    const made = await gw().pushVoucher(v);
    expect(await gw().simulator!.deleteVoucher(v.id)).toEqual({ deleted: true, voucherNo: made.voucherNo, period: '203401' });
    expect(await gw().voucherState(v.id)).toEqual({ status: 'notFound' });
    expect((await gw().simulator!.deleteVoucher(v.id)).deleted).toBe(false);
    expect((await logs(v.id)).map((r) => r.type)).toContain(AccountingMethods.simDelete);
    // The number is not given again.
    expect((await gw().pushVoucher(voucher({ period: '203401' }))).voucherNo).toBe('记-0002');
  });
});

describe('simulator: 红字冲销 (issue 32 item 3)', () => {
  const gw = () => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', delayMs: 0 });
  const reversal = (reverses: string, over: Partial<VoucherReversal> = {}): VoucherReversal => ({
    id: `${reverses}-R`, reverses, date: '2035-02-03', period: '203502', summary: `注销 ${reverses} 号凭证`, maker: '张会计', sourceType: 'incomeTransferOut', sourceNo: '12345678', ...over,
  });
  type Row = { id: string; period: string; voucher_no: string; body: string; reverses: string };
  const row = (id: string) => s.db.kysely.withTables<{ accountingsim_vouchers: Row }>().selectFrom('accountingsim_vouchers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('books the red voucher in its own open period although the original period is closed: same subjects, negative amounts, a reference; once', async () => {
    const v = voucher({ period: '203501' });
    const made = await gw().pushVoucher(v);
    accountingSimControl.closePeriod('203501');
    try {
      const a = await gw().reverseVoucher(reversal(v.id));
      expect(a).toEqual({ id: `${v.id}-R`, voucherNo: '记-0001', period: '203502', reversed: { voucherNo: made.voucherNo, period: '203501' } });
      const red = await row(`${v.id}-R`);
      expect(red.reverses).toBe(v.id);
      const body = JSON.parse(red.body) as { entries: Voucher['entries']; reverses: unknown };
      expect(body.entries.map((e) => [e.dc, e.accountCode, e.amount])).toEqual(v.entries.map((e) => [e.dc, e.accountCode, -e.amount]));
      expect(body.reverses).toEqual({ id: v.id, voucherNo: made.voucherNo, period: '203501' });
      // The same reversal id again: the same voucher. Another id for the same original, or a reversal of the red voucher: refused.
      expect(await gw().reverseVoucher(reversal(v.id))).toEqual(a);
      await expect(gw().reverseVoucher(reversal(v.id, { id: randomUUID() }))).rejects.toThrow(`会计系统拒绝冲销：原凭证 ${made.voucherNo} 已被冲销（冲销凭证 203502 记-0001）`);
      await expect(gw().reverseVoucher(reversal(`${v.id}-R`))).rejects.toThrow('本身是冲销凭证');
      // The original stays; once reversed it cannot be deleted, even with its period open again.
      expect((await gw().voucherState(v.id)).status).toBe('posted');
      accountingSimControl.openPeriod('203501');
      await expect(gw().simulator!.deleteVoucher(v.id)).rejects.toThrow(`凭证 ${made.voucherNo} 已被冲销（冲销凭证 203502 记-0001），不能删除`);
      expect((await logs(`${v.id}-R`)).map((r) => r.type)).toContain(AccountingMethods.reverse);
    } finally {
      accountingSimControl.reset();
    }
  });

  it('refuses a reversal into a closed period and of an unknown voucher; concurrent reversals make one voucher', async () => {
    const v = voucher({ period: '203601' });
    await gw().pushVoucher(v);
    accountingSimControl.closePeriod('203602');
    try {
      await expect(gw().reverseVoucher(reversal(v.id, { period: '203602' }))).rejects.toThrow('会计系统拒绝冲销：会计期间 2036年02月 已结账，不能制单');
    } finally {
      accountingSimControl.reset();
    }
    await expect(gw().reverseVoucher(reversal(randomUUID()))).rejects.toThrow('会计系统中没有原凭证');
    const all = await Promise.all(Array.from({ length: 8 }, () => gw().reverseVoucher(reversal(v.id, { period: '203603' }))));
    expect(new Set(all.map((a) => a.voucherNo)).size).toBe(1);
    const n = await s.db.kysely.withTables<{ accountingsim_vouchers: Row }>().selectFrom('accountingsim_vouchers').select('id').where('reverses', '=', v.id).execute();
    expect(n).toHaveLength(1);
  });
});

describe('HTTP client', () => {
  const gw = (token = 'tok') => createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'http', url: base, token, timeoutMs: 2000 });

  it('pushes with the bearer token; a repeat of the same id answers the same number; looks a voucher up', async () => {
    const v = voucher();
    const a = await gw().pushVoucher(v);
    expect(a).toEqual({ id: v.id, voucherNo: posted.get(v.id), period: '202611' });
    expect((await gw().pushVoucher(v)).voucherNo).toBe(a.voucherNo);
    expect(await gw().voucherState(v.id)).toEqual({ status: 'posted', voucherNo: a.voucherNo, period: '202611' });
    expect(await gw().voucherState(randomUUID())).toEqual({ status: 'notFound' });
    expect((await logs(v.id)).length).toBe(3);
    // The voucher date, when the accounting side tells it.
    const d = voucher({ id: `dated-${randomUUID()}` });
    await gw().pushVoucher(d);
    expect(await gw().voucherState(d.id)).toEqual({ status: 'posted', voucherNo: posted.get(d.id), period: '202611', date: '2026-11-20' });
  });

  it('reverses by POST /vouchers/{original}/reversal: the reversal id is the idempotency key; refusals in Chinese', async () => {
    const v = voucher();
    const made = await gw().pushVoucher(v);
    const r: VoucherReversal = { id: `${v.id}-R`, reverses: v.id, date: '2026-11-25', period: '202611', summary: '注销凭证', maker: '张会计', sourceType: 'reimbursement', sourceNo: 'BX2026110001' };
    const a = await gw().reverseVoucher(r);
    expect(a).toEqual({ id: r.id, voucherNo: reversed.get(r.id)!.no, period: '202611', reversed: { voucherNo: made.voucherNo, period: '202611' } });
    expect(reversed.get(r.id)!.path).toBe(`/vouchers/${v.id}/reversal`);
    expect((await gw().reverseVoucher(r)).voucherNo).toBe(a.voucherNo);
    expect([...reversed.values()].filter((x) => x.reverses === v.id)).toHaveLength(1);
    expect(await gw().voucherState(r.id)).toEqual({ status: 'posted', voucherNo: a.voucherNo, period: '202611' });
    await expect(gw().reverseVoucher({ ...r, id: randomUUID(), reverses: randomUUID() })).rejects.toThrow('原凭证不存在，无法冲销');
    expect((await logs(r.id)).filter((x) => x.type === AccountingMethods.reverse)).toHaveLength(2);
  });

  it('asks whether a period is closed; has no simulated accountant', async () => {
    expect(await gw().periodState('202609')).toEqual({ period: '202609', closed: true });
    expect(await gw().periodState('202611')).toEqual({ period: '202611', closed: false });
    expect(gw().simulator).toBeUndefined();
    expect((await logs('202609')).map((r) => r.type)).toContain(AccountingMethods.period);
  });

  it("shows the accounting side's refusal, a bad token and an unreachable server in Chinese", async () => {
    await expect(gw().pushVoucher(voucher({ summary: '期间已结账' }))).rejects.toThrow('会计期间已结账，不能制单');
    await expect(gw('wrong').pushVoucher(voucher())).rejects.toThrow('会计系统拒绝了接口凭据，请核对ACCOUNTING_TOKEN');
    const down = createAccountingGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'http', url: 'http://127.0.0.1:1', token: 'tok', timeoutMs: 2000 });
    await expect(down.pushVoucher(voucher())).rejects.toThrow('无法连接会计系统，请稍后重试');
  });
});
