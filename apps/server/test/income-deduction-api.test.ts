/**
 * Issue 14, ticking (勾选) on the server: /api/income/deduction/… — the period from the tax service, the
 * candidates of 抵扣勾选 and 退税勾选, tick and undo as all-or-nothing batches (a refusal by the tax
 * service leaves every invoice of the batch unticked, here and at the service), exclusive usage, the
 * effective tax, the 疑点 confirmation, 异常凭证, the deadline and the confirmed period, 先入账后勾选,
 * import from Excel with a result per row, the tick log and its export, the sync log, and revoking a
 * signing of a ticked invoice. Roles 1 and 13; 14 and 16 get 权限不足.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSystem, TICK_CONFIRM_MESSAGE } from '@zhyy/shared';
import { IncomeMethods, registerKnownIncoming } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, nextDigital } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
let period: { period: string; windowFrom: string; windowTo: string };
const D = '/api/income/deduction';
const ZERO = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  s = await startTestServer();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
  const p = await s.call(`${D}/period`, {}, t13);
  expect(p.code, p.message).toBe(20000);
  period = p.r;
});
afterAll(() => s?.close());

/** An issue day inside the period's window. */
const inWindow = () => {
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const end = period.windowTo < today ? period.windowTo : today;
  return new Date(Date.parse(`${end}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
};
let sellerSerial = 0;
let amountSerial = 0;

/**
 * A tickable pool invoice (数电专票, verified), entered through the pool and known to the simulated tax
 * service (unless `known: false`); `risk` also as the service sees it.
 */
async function fresh(o: { known?: boolean; risk?: '01' | '02' | '03'; tax?: number; booked?: boolean; sellerName?: string; kind?: string } = {}): Promise<{ id: string; no: string }> {
  const no = nextDigital();
  const tax = o.tax ?? 900;
  // A different amount each time: the same seller, day and total would be flagged 疑似重复.
  const excl = 10000 + ++amountSerial;
  const a = await s.call('/api/income/pool/save', entry({ digitalNo: no, issueDate: inWindow(), amountExcl: excl, tax, amountIncl: excl + tax, lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: (excl / 100).toFixed(2), amount: excl, taxRate: '0.09', tax }], ...(o.sellerName ? { sellerName: o.sellerName } : {}), ...(o.kind ? { kind: o.kind } : {}) }), t13);
  expect(a.code, a.message).toBe(20000);
  await s.db.kysely.updateTable('income_invoices').set({ verify_state: 1, verified_at: new Date().toISOString(), risk_level: o.risk ?? '01', booking_state: o.booked ? '02' : '01' }).where('id', '=', a.r.id).execute();
  if (o.known !== false) await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key: no, kind: o.kind ?? '81', issueDate: inWindow(), tax, riskLevel: o.risk ?? '01' }]);
  return { id: a.r.id, no };
}
const facts = (id: string) => s.db.kysely.selectFrom('income_invoices').select(['vat_usage', 'tick_state', 'effective_tax', 'deduct_reason', 'tick_period', 'ticked_by']).where('id', '=', id).executeTakeFirstOrThrow();
const simTick = (key: string) => simDb(s.db).selectFrom('taxsim_income_ticks').selectAll().where('invoice_key', '=', key).executeTakeFirst();
const tick = (body: Record<string, unknown>, t = t13, page = '') => s.call(`${D}/${page}tick`, { vatUsage: 1, ...body }, t);

describe('permissions: roles 1 and 13; 14 and 16 get 权限不足', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['period', {}], ['list', {}], ['tick', { items: [{ id: ZERO }], vatUsage: 1 }], ['untick', { ids: [ZERO] }], ['import', { file: 'eA==', vatUsage: 1 }],
    ['rebate-list', {}], ['rebate-tick', { items: [{ id: ZERO }], vatUsage: 2 }], ['rebate-untick', { ids: [ZERO] }], ['rebate-import', { file: 'eA==', vatUsage: 2 }],
    ['log', {}], ['log-export', {}], ['setting', {}], ['setting-save', { tickBookedOnly: false }],
  ];
  it.each(CALLS)('%s', async (path, body) => {
    for (const t of [t14, t16]) {
      const a = await s.call(`${D}/${path}`, body, t);
      expect(a.status).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    for (const t of [t1, t13]) expect((await s.call(`${D}/${path}`, body, t)).status).not.toBe(403);
  });
});

describe('the period', () => {
  it('comes from the tax service: period, deadline, window, statistics, sums', async () => {
    const a = await s.call(`${D}/period`, { scope: 'deduction' }, t13);
    expect(a.r.period).toMatch(/^\d{6}$/);
    expect(Date.parse(a.r.deadline)).toBeGreaterThan(Date.now());
    expect(a.r.deadlineText).toMatch(/^\d{4}-\d{2}-15 23:59:59$/);
    expect(a.r.windowFrom).toBe('2017-01-01');
    expect(a.r.windowTo.slice(0, 7).replace('-', '')).toBe(a.r.period);
    expect(a.r).toMatchObject({ statState: 0, open: true, closedReason: '', tickBookedOnly: false });
    expect(a.r.candidates.count).toBeGreaterThanOrEqual(0);
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['type', 'system']).where('type', '=', IncomeMethods.period).execute();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]!.system).toBe(SyncSystem.tax);
  });
});

describe('the demo', () => {
  it('has ticked invoices in the period and in past periods, and candidates waiting, consistent with the simulated service', async () => {
    const info = await s.call(`${D}/period`, {}, t13);
    expect(info.r.ticked.count).toBeGreaterThan(0);
    expect(info.r.candidates.count).toBeGreaterThan(info.r.ticked.count);
    const waiting = await s.call(`${D}/list`, { tickState: 0 }, t13);
    expect(waiting.r.total).toBeGreaterThan(0);
    const ticked = await s.call(`${D}/list`, { tickState: 1, tickPeriod: period.period, vatUsage: 1 }, t13);
    expect(ticked.r.total).toBeGreaterThan(0);
    expect((await s.call(`${D}/log`, {}, t13)).r.total).toBeGreaterThan(0);
    // A demo tick of this period can be undone (the service has it) and ticked again.
    const one = ticked.r.items[0];
    expect((await s.call(`${D}/untick`, { ids: [one.id] }, t13)).r.done).toBe(true);
    expect((await tick({ items: [{ id: one.id, effectiveTax: one.effectiveTax }] })).r.done).toBe(true);
  });
});

describe('candidates', () => {
  it('lists verified special and 数电专 invoices in the window, not ordinary ones, not unverified, with totals', async () => {
    const seller = `候选测试供应商${++sellerSerial}有限公司`;
    const ok = await fresh({ sellerName: seller });
    const plain = await fresh({ sellerName: seller, kind: '82' });
    const unverified = await fresh({ sellerName: seller });
    await s.db.kysely.updateTable('income_invoices').set({ verify_state: 0 }).where('id', '=', unverified.id).execute();
    const a = await s.call(`${D}/list`, { sellerName: seller }, t13);
    expect(a.code, a.message).toBe(20000);
    expect(a.r.items.map((r: { id: string }) => r.id)).toEqual([ok.id]);
    expect(a.r.totals).toMatchObject({ count: 1, tax: 900, effectiveTax: 0 });
    expect(a.r.items[0].abnormalFlags).toEqual([]);
    expect(a.r.items[0]).toMatchObject({ vatUsage: 0, tickState: 0, effectiveTax: null, needsConfirm: false });
    expect(plain.id).not.toBe(ok.id);
    expect((await s.call(`${D}/list`, { tickState: 3 }, t13)).message).toContain('勾选状态不正确');
  });
});

describe('ticking for deduction and undoing', () => {
  it('ticks with the full tax by default, records the facts, the log and the sync log; undo clears them', async () => {
    const a1 = await fresh();
    const a2 = await fresh({ tax: 1300 });
    const a = await tick({ items: [{ id: a1.id }, { id: a2.id, effectiveTax: 1000 }] });
    expect(a.code, a.message).toBe(20000);
    expect(a.message).toBe('勾选成功2张');
    expect(a.r).toMatchObject({ done: true, count: 2, refused: 0 });
    expect(await facts(a1.id)).toMatchObject({ vat_usage: 1, tick_state: 1, tick_period: period.period, ticked_by: expect.any(String) });
    expect(Number((await facts(a1.id)).effective_tax)).toBe(900);
    expect(Number((await facts(a2.id)).effective_tax)).toBe(1000);
    expect(Number((await simTick(a2.no))!.effective_tax)).toBe(1000);
    const log = await s.call(`${D}/log`, { batchId: a.r.batchId }, t13);
    expect(log.r.total).toBe(2);
    expect(log.r.items.every((r: { result: number; action: string }) => r.result === 1 && r.action === 'tick')).toBe(true);
    const sync = await s.db.kysely.selectFrom('sync_logs').select(['type', 'memo']).where('type', '=', IncomeMethods.tick).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(sync.memo).toContain('成功 2 张');
    const info = await s.call(`${D}/period`, {}, t13);
    expect(info.r.ticked.count).toBeGreaterThanOrEqual(2);

    const u = await s.call(`${D}/untick`, { ids: [a1.id, a2.id] }, t13);
    expect(u.r).toMatchObject({ done: true, count: 2 });
    expect(await facts(a1.id)).toMatchObject({ vat_usage: 0, tick_state: 0, effective_tax: null, tick_period: '' });
    expect(await simTick(a1.no)).toBeUndefined();
    const again = await s.call(`${D}/untick`, { ids: [a1.id] }, t13);
    expect(again.r.done).toBe(false);
    expect(again.r.outcomes[0].message).toBe('该发票未勾选，无需撤销');
  });

  it('effective tax between 0 and the tax', async () => {
    const a = await fresh();
    const r = await tick({ items: [{ id: a.id, effectiveTax: 901 }] });
    expect(r.r.done).toBe(false);
    expect(r.r.outcomes[0].message).toBe('有效税额须在0与发票税额之间');
    expect((await tick({ items: [{ id: a.id, effectiveTax: -1 }] })).message).toContain('有效税额不能为负数');
    expect((await tick({ items: [{ id: a.id, effectiveTax: 0 }] })).r.done).toBe(true);
  });

  it('non-deduction needs a reason and records it', async () => {
    const a = await fresh();
    expect((await tick({ items: [{ id: a.id }], vatUsage: 4 })).message).toContain('不抵扣勾选须选择不抵扣原因');
    const r = await tick({ items: [{ id: a.id }], vatUsage: 4, deductReason: 3 });
    expect(r.r.done).toBe(true);
    expect(await facts(a.id)).toMatchObject({ vat_usage: 4, deduct_reason: 3 });
  });
});

describe('exclusive usage', () => {
  it('an invoice ticked for deduction cannot be ticked for rebate, and leaves the rebate list', async () => {
    const a = await fresh({ sellerName: `用途测试供应商${++sellerSerial}有限公司` });
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
    const r = await tick({ items: [{ id: a.id }], vatUsage: 2 }, t13, 'rebate-');
    expect(r.r.done).toBe(false);
    expect(r.r.outcomes[0].message).toBe('该发票已勾选为抵扣，不能再勾选为出口退税');
    expect((await tick({ items: [{ id: a.id }], vatUsage: 4, deductReason: 1 })).r.outcomes[0].message).toBe('该发票已勾选为抵扣，不能再勾选为不抵扣');
    expect((await s.call(`${D}/rebate-list`, { number: a.no }, t13)).r.total).toBe(0);
    expect((await s.call(`${D}/list`, { number: a.no }, t13)).r.total).toBe(1);
    expect((await tick({ items: [{ id: a.id }], vatUsage: 1 }, t13, 'rebate-')).message).toBe('退税勾选不能勾选为抵扣');
    expect((await s.call(`${D}/rebate-untick`, { ids: [a.id] }, t13)).r.outcomes[0].message).toBe('该发票勾选为抵扣，请在抵扣勾选中撤销');
  });

  it('the simulated service refuses a usage other than the one it has', async () => {
    const a = await fresh();
    await simDb(s.db).insertInto('taxsim_income_ticks').values({ invoice_key: a.no, usage: 2, reason: null, effective_tax: 900, period: period.period, ticked_at: new Date().toISOString() }).execute();
    const r = await tick({ items: [{ id: a.id }] });
    expect(r.r.done).toBe(false);
    expect(r.r.outcomes[0].message).toBe('该发票已勾选为出口退税，不能再勾选为抵扣');
    expect((await facts(a.id)).tick_state).toBe(0);
  });
});

describe('all-or-nothing batches', () => {
  it('a batch with one invoice the tax service refuses leaves all unticked, here and at the service', async () => {
    const good1 = await fresh();
    const good2 = await fresh();
    const unknown = await fresh({ known: false });
    const r = await tick({ items: [{ id: good1.id }, { id: unknown.id }, { id: good2.id }] });
    expect(r.code).toBe(20000);
    expect(r.message).toBe('勾选失败：1张发票不能勾选，本批均未勾选');
    expect(r.r).toMatchObject({ done: false, refused: 1, count: 0 });
    expect(r.r.outcomes[1]).toMatchObject({ invoiceId: unknown.id, ok: false, message: '税务端无此发票信息' });
    expect(r.r.outcomes[0].message).toContain('本批均未勾选');
    for (const x of [good1, good2, unknown]) {
      expect((await facts(x.id)).tick_state).toBe(0);
      expect(await simTick(x.no)).toBeUndefined();
    }
    const log = await s.call(`${D}/log`, { batchId: r.r.batchId }, t13);
    expect(log.r.total).toBe(3);
    expect(log.r.items.every((x: { result: number }) => x.result === 0)).toBe(true);
    // The compensating undo is an exchange of its own in the sync log.
    const undo = await s.db.kysely.selectFrom('sync_logs').select('memo').where('type', '=', IncomeMethods.untick).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(undo.memo).toContain('成功 2 张');
  });

  it('an undo the tax service refuses for one invoice leaves all ticked, the others ticked again at the service', async () => {
    const a = await fresh();
    const b = await fresh({ tax: 700 });
    expect((await tick({ items: [{ id: a.id }, { id: b.id, effectiveTax: 500 }] })).r.done).toBe(true);
    // The service no longer has a's tick (changed at the bureau's side): it refuses that undo.
    await simDb(s.db).deleteFrom('taxsim_income_ticks').where('invoice_key', '=', a.no).execute();
    const u = await s.call(`${D}/untick`, { ids: [a.id, b.id] }, t13);
    expect(u.message).toBe('撤销失败：1张发票不能撤销，本批均未撤销');
    expect(u.r.outcomes.map((o: { message: string }) => o.message)).toEqual(['该发票未勾选，无需撤销', '同批有发票被税务端拒绝，本批均未撤销']);
    expect(await facts(b.id)).toMatchObject({ tick_state: 1, vat_usage: 1 });
    expect(Number((await simTick(b.no))!.effective_tax)).toBe(500);
    expect((await facts(a.id)).tick_state).toBe(1);
  });

  it('a failed batch that changed an effective tax puts the old one back at the service', async () => {
    const a = await fresh();
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
    const unknown = await fresh({ known: false });
    const r = await tick({ items: [{ id: a.id, effectiveTax: 100 }, { id: unknown.id }] });
    expect(r.r.done).toBe(false);
    expect(Number((await facts(a.id)).effective_tax)).toBe(900);
    expect(Number((await simTick(a.no))!.effective_tax)).toBe(900);
  });

  it('two concurrent batches of the same invoice: it ends ticked here and at the service', async () => {
    const a = await fresh();
    const both = await Promise.all([tick({ items: [{ id: a.id }] }), tick({ items: [{ id: a.id }] }, t1)]);
    expect(both.some((x) => x.r.done)).toBe(true);
    for (const x of both.filter((y) => !y.r.done)) expect(x.r.outcomes[0].message).toContain('请刷新后重试');
    expect(await facts(a.id)).toMatchObject({ tick_state: 1, vat_usage: 1 });
    expect(await simTick(a.no)).toBeDefined();
  });

  it('a local refusal stops the batch before the tax service', async () => {
    const good = await fresh();
    const before = await s.db.kysely.selectFrom('sync_logs').select(s.db.kysely.fn.countAll().as('n')).where('type', '=', IncomeMethods.tick).executeTakeFirstOrThrow();
    const r = await tick({ items: [{ id: good.id }, { id: ZERO }] });
    expect(r.r.outcomes[1].message).toBe('发票不存在');
    const after = await s.db.kysely.selectFrom('sync_logs').select(s.db.kysely.fn.countAll().as('n')).where('type', '=', IncomeMethods.tick).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await facts(good.id)).tick_state).toBe(0);
  });

  it('hundreds in one request; select all on the filtered set', async () => {
    const seller = `批量测试供应商${++sellerSerial}有限公司`;
    const many = [];
    for (let i = 0; i < 120; i++) many.push(await fresh({ sellerName: seller }));
    const r = await tick({ filter: { sellerName: seller } });
    expect(r.r).toMatchObject({ done: true, count: 120 });
    const list = await s.call(`${D}/list`, { sellerName: seller, tickState: 1, pageSize: 500 }, t13);
    expect(list.r.totals).toMatchObject({ count: 120, effectiveTax: 120 * 900 });
    const u = await s.call(`${D}/untick`, { filter: { sellerName: seller } }, t13);
    expect(u.r).toMatchObject({ done: true, count: 120 });
    expect((await tick({ filter: { sellerName: '没有这个供应商' } })).message).toBe('筛选结果中没有可勾选的发票');
    expect((await tick({})).message).toContain('请选择发票，或按筛选结果全选');
  }, 60_000);
});

describe('疑点 and 异常凭证', () => {
  it('a 疑点 invoice asks for confirmation, then ticks', async () => {
    const a = await fresh({ risk: '03' });
    const r = await tick({ items: [{ id: a.id }] });
    expect(r.message).toBe(TICK_CONFIRM_MESSAGE);
    expect(r.r).toMatchObject({ done: false, needConfirm: true });
    expect((await facts(a.id)).tick_state).toBe(0);
    expect((await tick({ items: [{ id: a.id }], confirmed: true })).r.done).toBe(true);
  });

  it('an 异常凭证 cannot be ticked for deduction, here and at the service; non-deduction after confirmation', async () => {
    const a = await fresh({ risk: '02' });
    const r = await tick({ items: [{ id: a.id }], confirmed: true });
    expect(r.r.outcomes[0].message).toBe('异常凭证不能勾选抵扣');
    // The service says the same when our copy does not know yet.
    await s.db.kysely.updateTable('income_invoices').set({ risk_level: '01' }).where('id', '=', a.id).execute();
    const srv = await tick({ items: [{ id: a.id }] });
    expect(srv.r.outcomes[0].message).toBe('异常凭证不能勾选抵扣');
    await s.db.kysely.updateTable('income_invoices').set({ risk_level: '02' }).where('id', '=', a.id).execute();
    expect((await tick({ items: [{ id: a.id }], vatUsage: 4, deductReason: 5 })).r.needConfirm).toBe(true);
    expect((await tick({ items: [{ id: a.id }], vatUsage: 4, deductReason: 5, confirmed: true })).r.done).toBe(true);
  });
});

describe('the deadline and the confirmed period', () => {
  it('past the deadline or once confirmed, ticking is refused with the reason', async () => {
    const a = await fresh();
    const sdb = simDb(s.db);
    const now = new Date();
    const month = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4)) - 2, 1)).toISOString().slice(0, 7).replace('-', '');
    const past = new Date(now.getTime() - 60_000).toISOString();
    for (const p of [last, month]) await sdb.insertInto('taxsim_income_periods').values({ period: p, deadline: past, stat_state: 0, updated_at: past }).execute();
    try {
      const info = await s.call(`${D}/period`, {}, t13);
      expect(info.r.open).toBe(false);
      expect(info.r.closedReason).toContain('勾选截止时间');
      const r = await tick({ items: [{ id: a.id }] });
      expect(r.code).not.toBe(20000);
      expect(r.message).toContain('勾选截止时间');
      await sdb.updateTable('taxsim_income_periods').set({ deadline: new Date(now.getTime() + 86_400_000).toISOString(), stat_state: 2 }).where('period', '=', month).execute();
      const c = await tick({ items: [{ id: a.id }] });
      expect(c.message).toBe(`税款所属期${month}的统计已确认，不能再勾选或撤销勾选`);
      expect((await facts(a.id)).tick_state).toBe(0);
    } finally {
      await sdb.deleteFrom('taxsim_income_periods').execute();
    }
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
  });
});

describe('先入账后勾选', () => {
  it('when on, only booked invoices may be ticked', async () => {
    const unbooked = await fresh();
    const booked = await fresh({ booked: true });
    expect((await s.call(`${D}/setting-save`, { tickBookedOnly: 'x' }, t13)).message).toContain('先入账后勾选须为是或否');
    expect((await s.call(`${D}/setting-save`, { tickBookedOnly: true }, t13)).code).toBe(20000);
    try {
      expect((await s.call(`${D}/setting`, {}, t13)).r).toEqual({ tickBookedOnly: true });
      expect((await tick({ items: [{ id: unbooked.id }] })).r.outcomes[0].message).toBe('已开启先入账后勾选，该发票未入账，不能勾选');
      expect((await tick({ items: [{ id: booked.id }] })).r.done).toBe(true);
    } finally {
      await s.call(`${D}/setting-save`, { tickBookedOnly: false }, t13);
    }
    expect((await tick({ items: [{ id: unbooked.id }] })).r.done).toBe(true);
  });
});

describe('rebate ticking', () => {
  it('export and agent rebate tick and undo on their page', async () => {
    const a = await fresh();
    const b = await fresh();
    expect((await tick({ items: [{ id: a.id }], vatUsage: 2 }, t13, 'rebate-')).r.done).toBe(true);
    expect((await tick({ items: [{ id: b.id }], vatUsage: 3 }, t13, 'rebate-')).r.done).toBe(true);
    expect(await facts(b.id)).toMatchObject({ vat_usage: 3, tick_state: 1 });
    expect((await tick({ items: [{ id: a.id, effectiveTax: 5 }], vatUsage: 2 }, t13, 'rebate-')).message).toContain('只有抵扣勾选可以填写有效税额');
    expect((await s.call(`${D}/rebate-list`, { number: a.no }, t13)).r.items[0]).toMatchObject({ vatUsage: 2, tickState: 1 });
    expect((await s.call(`${D}/rebate-untick`, { ids: [a.id, b.id] }, t13)).r.done).toBe(true);
  });
});

async function sheet(rows: Array<[string, string, string, string]>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('勾选');
  ws.addRow(['发票代码', '发票号码', '数电号码', '有效税额']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describe('import from Excel', () => {
  it('answers per row; one bad row and nothing is ticked; then a good file ticks', async () => {
    const a = await fresh();
    const b = await fresh();
    const bad = await s.call(`${D}/import`, { file: await sheet([['', '', a.no, '8.50'], ['', '', '99000000000000000001', ''], ['123', '456', '', '1'], ['', '', b.no, 'abc']]), vatUsage: 1 }, t13);
    expect(bad.code, bad.message).toBe(20000);
    expect(bad.r.done).toBe(false);
    expect(bad.r.rows.map((r: { row: number; ok: boolean; message: string }) => [r.row, r.ok, r.message])).toEqual([
      [2, false, '其他行有误，本次未勾选'],
      [3, false, '票池中没有该发票'],
      [4, false, '发票代码、号码不正确（数电发票填20位数电号码；其他发票填10或12位代码和8位号码）'],
      [5, false, '有效税额须为金额（元，最多两位小数）'],
    ]);
    expect((await facts(a.id)).tick_state).toBe(0);
    const good = await s.call(`${D}/import`, { file: await sheet([['', '', a.no, '8.50'], ['', '', b.no, '']]), vatUsage: 1 }, t13);
    expect(good.r.done).toBe(true);
    expect(good.r.rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    expect(Number((await facts(a.id)).effective_tax)).toBe(850);
    expect(Number((await facts(b.id)).effective_tax)).toBe(900);
    expect((await s.call(`${D}/import`, { file: Buffer.from('not excel').toString('base64'), vatUsage: 1 }, t13)).message).toBe('文件不是有效的Excel（.xlsx）文件');
    // A paper 专票 by code and number, the number typed as a number (leading zeros lost in Excel).
    const code = '3200261130';
    const paperId = (await fresh()).id;
    await s.db.kysely.updateTable('income_invoices').set({ kind: '01', digital_no: '', invoice_code: code, invoice_no: '00001234', ident: `${code}00001234` }).where('id', '=', paperId).execute();
    await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key: `${code}00001234`, kind: '01', issueDate: inWindow(), tax: 900 }]);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('勾选');
    ws.addRow(['发票代码', '发票号码', '有效税额']);
    ws.addRow([code, 1234, 9]);
    const paper = await s.call(`${D}/import`, { file: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64'), vatUsage: 1 }, t13);
    expect(paper.r.rows).toEqual([{ row: 2, invoiceNumber: `${code}00001234`, invoiceId: paperId, effectiveTax: 900, ok: true, message: '勾选成功' }]);
  });
});

describe('the tick log', () => {
  it('filters by who, when, invoice, purpose and result, pages, and exports', async () => {
    const a = await fresh();
    await tick({ items: [{ id: a.id }] });
    await s.call(`${D}/untick`, { ids: [a.id] }, t13);
    const all = await s.call(`${D}/log`, { number: a.no }, t13);
    expect(all.r.items.map((r: { action: string }) => r.action)).toEqual(['untick', 'tick']);
    expect(all.r.items[1]).toMatchObject({ vatUsage: 1, effectiveTax: 900, result: 1, period: period.period });
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const who = all.r.items[0].userName;
    expect((await s.call(`${D}/log`, { number: a.no, userName: who, from: today, to: today, action: 'tick', vatUsage: 1, result: 1 }, t13)).r.total).toBe(1);
    expect((await s.call(`${D}/log`, { number: a.no, result: 0 }, t13)).r.total).toBe(0);
    expect((await s.call(`${D}/log`, { number: a.no, from: '2001-01-01', to: '2001-01-02' }, t13)).r.total).toBe(0);
    expect((await s.call(`${D}/log`, { from: today, to: '2001-01-01' }, t13)).message).toContain('开始日期不能晚于结束日期');
    expect((await s.call(`${D}/log`, { pageSize: 1, pageIndex: 2, number: a.no }, t13)).r.items[0].action).toBe('tick');
    const { res, ws } = await s.download(`${D}/log-export`, { number: a.no }, t13);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('操作时间');
    expect(ws!.rowCount).toBe(3);
  });
});

describe('revoking a signing of a ticked invoice', () => {
  it('is refused with 该发票已勾选，不能撤销签收', async () => {
    const a = await fresh();
    const signed = await s.call('/api/income/entry/sign', { invoiceIds: [a.id], docType: 'reimbursement', docNo: `BX-TICK-${Date.now()}` }, t14);
    expect(signed.code, signed.message).toBe(20000);
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
    const r = await s.call('/api/income/entry/revoke/add', { invoiceId: a.id, reason: '勾选后撤销签收' }, t14);
    expect(r.message).toBe('该发票已勾选，不能撤销签收');
    expect((await s.call(`${D}/untick`, { ids: [a.id] }, t13)).r.done).toBe(true);
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: a.id, reason: '撤销后撤销签收' }, t14)).code).toBe(20000);
  });
});
