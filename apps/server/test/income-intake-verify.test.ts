/**
 * Issue 13, intake: "Verification (查验) Through the tax gateway: 专票 by code, number, date and amount
 * excluding tax; 普票 by the last 6 digits of the check code; 数电 by number, date and total. Possible
 * from the day after issue, for the last 5 years, at most 5 times per invoice per day (refused with the
 * reason beyond that). Idempotent and retryable: a failed call leaves no half record and can simply be
 * repeated. The result fills the invoice's face (lines included) and its state; a mismatch between
 * what was entered or recognised and what the tax service says is flagged." — /api/income/pool/verify
 * and /verify-history (the pool pages: roles 1, 13).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IncomeVerifyState } from '@zhyy/shared';
import { TaxErrorCode, TaxGatewayError, type IncomingInvoice, type TaxGateway } from '../src/integrations/tax/index.js';
import { poolKindOf } from '../src/modules/income/intake/collect.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import type { TestServer } from './helpers.js';
import { collectAndWait, shanghaiDay, startIncomeServer } from './income-helpers.js';

let s: TestServer;
let t13: string;
let later: IncomingInvoice[];
/** The pool numbers (数电 number, else 发票号码) of the invoices the tax simulator holds for the collected window. */
let collected: string[];
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
  await collectAndWait(s, { from: shanghaiDay(-12), to: shanghaiDay(-10) }, t13);
  const gateway = await new InvoiceSettings(s.app).gateway();
  // Only these: the demo's own collected invoices are not the simulator's, which would answer 查无此票 for them.
  collected = (await gateway.collectIncoming({ from: shanghaiDay(-12), to: shanghaiDay(-10), pageSize: 500 })).invoices.map((i) => i.allElectronicNo || i.invoiceNo);
  // Invoices not collected: entered by hand in the tests below.
  later = (await gateway.collectIncoming({ from: shanghaiDay(-25), to: shanghaiDay(-25), pageSize: 500 })).invoices;
});
afterAll(() => s?.close());

/** An invoice collected above of one of these kinds, not yet verified. */
async function pooled(kinds: string[], skip = 0) {
  return s.db.kysely
    .selectFrom('income_invoices')
    .selectAll()
    .where('source', '=', 1)
    .where('kind', 'in', kinds)
    .where('verify_state', '=', 0)
    .where((eb) => eb.or([eb('digital_no', 'in', collected), eb('invoice_no', 'in', collected)]))
    .orderBy('id')
    .offset(skip)
    .limit(1)
    .executeTakeFirstOrThrow();
}
const verify = (ids: string[], token = t13) => s.call('/api/income/pool/verify', { ids }, token);
const row = (id: string) => s.db.kysely.selectFrom('income_invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const history = (id: string) => s.call('/api/income/pool/verify-history', { id }, t13);

/** Enters a tax invoice by hand (as a user would type it), with changes. */
async function enter(inv: IncomingInvoice, over: Record<string, unknown> = {}) {
  const digital = inv.invoiceNo.length === 20;
  const a = await s.call('/api/income/pool/save', {
    kind: poolKindOf(inv.kind), invoiceCode: inv.invoiceCode, invoiceNo: digital ? '' : inv.invoiceNo, digitalNo: inv.allElectronicNo, issueDate: inv.issueDate,
    sellerName: inv.seller.name, sellerTaxNo: inv.seller.taxNumber, buyerName: inv.buyer.name, buyerTaxNo: inv.buyer.taxNumber,
    amountExcl: inv.amountExcludingTax, tax: inv.tax, amountIncl: inv.total, checkCode: inv.checkCode, ...over,
  }, t13);
  if (a.code !== 20000) throw new Error(a.message);
  return a.r.id as string;
}

describe('each kind by its own fields', () => {
  it('数电 by number, date and total: 查验一致, the verification time and a history record', async () => {
    const r = await pooled(['81', '82']);
    const a = await verify([r.id]);
    expect(a.code).toBe(20000);
    expect(a.message).toBe('查验成功，发票信息一致');
    expect(a.r).toMatchObject({ matched: 1, mismatched: 0, failed: 0 });
    expect(a.r.results[0]).toMatchObject({ id: r.id, ok: true, outcome: 'match', verifyState: IncomeVerifyState.match, checksToday: 1, fields: [] });
    const after = await row(r.id);
    expect(after.verify_state).toBe(IncomeVerifyState.match);
    expect(after.verified_at).not.toBeNull();
    const h = await history(r.id);
    expect(h.r).toHaveLength(1);
    expect(h.r[0]).toMatchObject({ outcome: 'match', message: '查验成功，发票信息一致', fields: [], checksToday: 1 });
    const me = await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo13').executeTakeFirstOrThrow();
    expect(h.r[0].userName).toBe(me.name);
  });

  it('专票 by code, number, date and amount excluding tax; 普票 by the check code’s last 6 digits — one call for both', async () => {
    const special = await pooled(['01', '08', '85']);
    const ordinary = await pooled(['04', '10', '14', '86']);
    const a = await verify([special.id, ordinary.id]);
    expect(a.r.results.map((x: { ok: boolean; outcome: string }) => [x.ok, x.outcome])).toEqual([[true, 'match'], [true, 'match']]);
    expect(a.message).toBe('查验 2 张：一致 2 张，不一致 0 张');
    const logs = await s.db.kysely.selectFrom('sync_logs').select('request').where('type', '=', 'nuonuo.OpeMplatform.invoiceInspection').orderBy('created_at', 'desc').limit(2).execute();
    const sent = logs.map((l) => JSON.parse(l.request as string));
    expect(sent.some((q) => q.amountExcludingTax === Number(special.amount_excl) && q.invoiceCode === special.invoice_code)).toBe(true);
    expect(sent.some((q) => q.checkCodeLast6 === ordinary.check_code.slice(-6) && q.amountExcludingTax === undefined)).toBe(true);
  });
});

describe('what the tax service says against what was entered', () => {
  it('a seller name entered wrongly: the face is filled from the tax service (lines included) and flagged 查验不一致', async () => {
    const inv = later.find((i) => i.kind === '81' && i.lines.length > 0)!;
    const id = await enter(inv, { sellerName: '录错的销方名称有限公司' });
    const a = await verify([id]);
    expect(a.r.results[0]).toMatchObject({ ok: true, outcome: 'match', verifyState: IncomeVerifyState.mismatch });
    expect(a.r.results[0].fields).toEqual([{ field: 'sellerName', label: '销方名称', entered: '录错的销方名称有限公司', tax: inv.seller.name }]);
    expect(a.message).toBe('查验成功，但票面与税务端不一致：销方名称（已按税务端更新）');
    const d = (await s.call('/api/income/pool/detail', { id }, t13)).r;
    expect(d.sellerName).toBe(inv.seller.name);
    expect(d.lines.map((l: { amount: number }) => l.amount)).toEqual(inv.lines.map((l) => l.amountExcludingTax));
    expect(d.abnormalFlags).toContain('verifyMismatch');
    const ab = await s.call('/api/income/pool/abnormal', { abnormalFlag: 'verifyMismatch', number: inv.allElectronicNo, pageSize: 10 }, t13);
    expect(ab.r.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(d.history.some((h: { kind: string; message: string }) => h.kind === 'verify' && h.message.includes('销方名称：录错的销方名称有限公司 → '))).toBe(true);
  });

  it('a total entered wrongly: 信息不一致 naming the field, flagged; 查无此票 is flagged too', async () => {
    const inv = later.filter((i) => i.kind === '81')[1]!;
    const id = await enter(inv, { amountExcl: inv.amountExcludingTax + 100, amountIncl: inv.total + 100 });
    const a = await verify([id]);
    expect(a.r.results[0]).toMatchObject({ ok: true, outcome: 'mismatch', message: '信息不一致：价税合计与税务端不符', verifyState: IncomeVerifyState.mismatch });
    expect(a.r.results[0].fields).toEqual([{ field: 'total', label: '价税合计', entered: ((inv.total + 100) / 100).toFixed(2), tax: '' }]);
    expect((await row(id)).verify_state).toBe(IncomeVerifyState.mismatch);

    const other = later.filter((i) => i.kind === '81')[2]!;
    const invented = `${other.allElectronicNo.slice(0, 12)}${other.allElectronicNo.slice(12) === '00000000' ? '11111111' : '00000000'}`;
    const id2 = await enter(other, { digitalNo: invented });
    const b = await verify([id2]);
    expect(b.r.results[0]).toMatchObject({ ok: true, outcome: 'notFound', message: '查无此票', verifyState: IncomeVerifyState.mismatch });
    const ab = await s.call('/api/income/pool/abnormal', { abnormalFlag: 'verifyMismatch', pageSize: 100 }, t13);
    expect(ab.r.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([id, id2]));
  });
});

describe('the service’s limits, failures and retries', () => {
  it('the 6th verification of an invoice in a day is refused with the service’s message and leaves no record', async () => {
    const r = await pooled(['81', '82'], 3);
    for (let n = 1; n <= 5; n++) expect((await verify([r.id])).r.results[0]).toMatchObject({ ok: true, checksToday: n });
    const sixth = await verify([r.id]);
    expect(sixth.code).toBe(20000);
    expect(sixth.r.results[0]).toEqual({ id: r.id, ok: false, message: '该发票今日查验次数已达上限（5次），请明日再查', fields: [] });
    expect(sixth.message).toBe('该发票今日查验次数已达上限（5次），请明日再查');
    expect((await history(r.id)).r).toHaveLength(5);
  });

  it('a transport failure leaves no half record (state, time, history unchanged); the retry succeeds', async () => {
    const r = await pooled(['81', '82'], 5);
    const original = InvoiceSettings.prototype.gateway;
    // The request reaches the service (it counts the check) but the answer is lost on the way back.
    const spy = vi.spyOn(InvoiceSettings.prototype, 'gateway').mockImplementationOnce(async function (this: InvoiceSettings) {
      const real = await original.call(this);
      return new Proxy(real, {
        get(target, key, recv) {
          if (key === 'verifyIncoming') return async (...args: Parameters<TaxGateway['verifyIncoming']>) => {
            await target.verifyIncoming(...args);
            throw new TaxGatewayError(TaxErrorCode.transport, '税务端连接中断，请稍后重试');
          };
          return Reflect.get(target, key, recv);
        },
      });
    });
    const failed = await verify([r.id]);
    spy.mockRestore();
    expect(failed.r.results[0]).toEqual({ id: r.id, ok: false, message: '税务端连接中断，请稍后重试', fields: [] });
    expect(failed.r.failed).toBe(1);
    const still = await row(r.id);
    expect([still.verify_state, still.verified_at, still.updated_at]).toEqual([r.verify_state, r.verified_at, r.updated_at]);
    expect((await history(r.id)).r).toEqual([]);
    const events = await s.db.kysely.selectFrom('income_events').select('id').where('invoice_id', '=', r.id).where('kind', '=', 'verify').execute();
    expect(events).toEqual([]);

    const retry = await verify([r.id]);
    expect(retry.r.results[0]).toMatchObject({ ok: true, outcome: 'match', checksToday: 2 });
    expect((await history(r.id)).r).toHaveLength(1);
  });

  it('a failure while recording the answer rolls all of it back (face, lines, state, history); the retry records it', async () => {
    // One the tests above have not entered (which of the day's invoices have several lines changes with the date).
    const used = new Set([later.find((i) => i.kind === '81' && i.lines.length > 0), ...later.filter((i) => i.kind === '81').slice(1, 3)].map((i) => i?.invoiceNo));
    const inv = later.filter((i) => i.kind === '81' && i.lines.length > 1 && !used.has(i.invoiceNo))[0]!;
    const id = await enter(inv, { sellerName: '录错的另一个销方有限公司' });
    const before = await row(id);
    const db = s.db.kysely;
    const original = db.transaction.bind(db);
    // The transaction that records the answer does all its writes, then the connection fails before the commit
    // (other transactions, such as the simulator's count of the day, go through).
    const spy = vi.spyOn(db, 'transaction').mockImplementation(() => {
      const t = original();
      return { execute: (fn: (trx: any) => Promise<unknown>) => t.execute(async (trx) => {
        const r = await fn(trx);
        const written = await trx.selectFrom('income_verifications').select('id').where('invoice_id', '=', id).executeTakeFirst();
        if (written) throw new Error('connection lost before commit');
        return r;
      }) } as unknown as ReturnType<typeof db.transaction>;
    });
    const failed = await verify([id]);
    spy.mockRestore();
    expect(failed.status).toBe(500);
    const after = await row(id);
    expect([after.seller_name, after.verify_state, after.verified_at]).toEqual([before.seller_name, 0, null]);
    expect(await db.selectFrom('income_invoice_lines').select('id').where('invoice_id', '=', id).execute()).toEqual([]);
    expect((await history(id)).r).toEqual([]);
    const retry = await verify([id]);
    expect(retry.r.results[0]).toMatchObject({ ok: true, outcome: 'match', verifyState: IncomeVerifyState.mismatch, checksToday: 2 });
    expect((await row(id)).seller_name).toBe(inv.seller.name);
    expect((await history(id)).r).toHaveLength(1);
  });

  it('refused before sending: issued today; unknown invoices and 公路客票 answered per invoice', async () => {
    const today = [...later].reverse().find((i) => ['82', '01', '04', '10'].includes(i.kind))!;
    const id = await enter(today, { issueDate: shanghaiDay(0), digitalNo: today.allElectronicNo || '', invoiceNo: today.allElectronicNo ? '' : today.invoiceNo });
    const a = await verify([id, '00000000-0000-4000-8000-000000000000']);
    expect(a.r.results.map((x: { ok: boolean; message: string }) => [x.ok, x.message])).toEqual([[false, '发票开具当日不能查验，请于开票次日起查验'], [false, '发票不存在']]);
    expect((await row(id)).verify_state).toBe(0);
    const old = [...later].reverse().filter((i) => ['82', '01', '04', '10'].includes(i.kind))[1]!;
    const sixYears = `${Number(shanghaiDay(0).slice(0, 4)) - 6}-06-15`;
    const oldId = await enter(old, { issueDate: sixYears });
    expect((await verify([oldId])).r.results[0]).toEqual({ id: oldId, ok: false, message: '只能查验最近5年内开具的发票', fields: [] });
    const road = await s.db.kysely.selectFrom('income_invoices').select('id').where('kind', '=', 'road').executeTakeFirstOrThrow();
    expect((await verify([road.id])).r.results[0].message).toBe('公路、水路等客票不支持查验');
    const customs = await s.db.kysely.selectFrom('income_invoices').select('id').where('kind', '=', 'customs').executeTakeFirstOrThrow();
    expect((await verify([customs.id])).r.results[0].message).toBe('海关缴款书和代扣代缴完税凭证不支持发票查验');
  });
});

describe('permissions', () => {
  it('roles 14 and 16 get 权限不足 on verify and verify-history; an empty selection is refused in Chinese', async () => {
    const r = await pooled(['81', '82'], 7);
    for (const n of ['demo14', 'demo16']) {
      const t = await s.login(n);
      for (const [url, body] of [['/api/income/pool/verify', { ids: [r.id] }], ['/api/income/pool/verify-history', { id: r.id }]] as const) {
        const a = await s.call(url, body, t);
        expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
      }
    }
    expect((await verify([])).message).toBe('参数错误：请选择要查验的发票');
    expect((await verify([r.id], await s.login('demo1'))).r.results[0].ok).toBe(true);
  });
});
