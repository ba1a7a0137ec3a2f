/**
 * Issue 14, ticking (勾选) on the server, the batches: /api/income/deduction/… — the candidates of 抵扣勾选
 * and 退税勾选, tick and undo as all-or-nothing batches (a refusal by the tax service leaves every invoice of
 * the batch unticked, here and at the service), exclusive usage, the effective tax, the 疑点 confirmation,
 * 异常凭证, the sync log, and revoking a signing of a ticked invoice. Roles 1 and 13; 14 and 16 get 权限不足.
 * (The period and the setting: income-deduction-period.test.ts; import and the log: income-deduction-import.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICK_CONFIRM_MESSAGE } from '@zhyy/shared';
import { IncomeMethods } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import type { TestServer } from './helpers.js';
import { D, startTicking, tickHelpers, ZERO, type TickPeriodFacts } from './income-deduction-helpers.js';
import { signDocs } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
let period: TickPeriodFacts;
beforeAll(async () => {
  ({ s, t1, t13, t14, t16, period } = await startTicking());
});
afterAll(() => s?.close());
const { fresh, facts, simTick, tick } = tickHelpers(() => ({ s, t13, period }));
let sellerSerial = 0;

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

  it('effective tax: a positive amount of at most the tax, to the fen; else refused (30000) naming the invoice, nothing saved', async () => {
    // Issue 27: 999999 was saved as the full tax, −5 as 0.00, "abc" as the full tax, all answered 勾选成功.
    const a = await fresh();
    const over = await tick({ items: [{ id: a.id, effectiveTax: 999999 }] });
    expect([over.status, over.code, over.message]).toEqual([400, 30000, `勾选失败：发票${a.no}，有效税额须大于0且不超过发票税额（9.00元）`]);
    expect(over.r).toMatchObject({ done: false, refused: 1, outcomes: [{ invoiceId: a.id, ok: false, message: '有效税额须大于0且不超过发票税额（9.00元）' }] });
    for (const [eff, words] of [[-5, '有效税额须大于0'], [0, '有效税额须大于0'], ['abc', '有效税额须为数字'], [12.5, '有效税额须精确到分'], [null, '有效税额须为数字']] as const) {
      const r = await tick({ items: [{ id: a.id, effectiveTax: eff }] });
      expect([r.status, r.code], String(eff)).toEqual([400, 30000]);
      expect(r.message).toContain(words);
    }
    expect(await facts(a.id)).toMatchObject({ tick_state: 0, effective_tax: null });
    const log = await s.call(`${D}/log`, { number: a.no }, t13);
    expect(log.r.items.map((x: { result: number; message: string }) => [x.result, x.message])).toEqual([[0, '有效税额须大于0且不超过发票税额（9.00元）']]);
    const fine = await tick({ items: [{ id: a.id, effectiveTax: 899 }] });
    expect([fine.code, fine.message]).toEqual([20000, '勾选成功1张']);
    expect(Number((await facts(a.id)).effective_tax)).toBe(899);
    expect(Number((await simTick(a.no))!.effective_tax)).toBe(899);
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
    // A refusal is never answered 20000 (issue 27): 30000 with the batch's words and each invoice's outcome.
    expect([r.status, r.code]).toEqual([400, 30000]);
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
    expect(both.filter((x) => x.r.done)).toHaveLength(1);
    for (const x of both.filter((y) => !y.r.done)) {
      expect(x.code).toBe(30000);
      expect(x.r.outcomes[0].message).toMatch(/请刷新后重试|无需重复勾选/);
    }
    expect(await facts(a.id)).toMatchObject({ tick_state: 1, vat_usage: 1 });
    expect(await simTick(a.no)).toBeDefined();
  });

  it('twenty concurrent ticks of one invoice: one success in the answers and in the log, the others failed or 无变化, whichever engine', async () => {
    // Issue 27: on SQLite all twenty answered 勾选成功 and logged twenty successes (PostgreSQL: 1 and 19 failures).
    const a = await fresh();
    const out = await Promise.all(Array.from({ length: 20 }, (_, i) => tick({ items: [{ id: a.id }] }, i % 2 ? t1 : t13)));
    const done = out.filter((x) => x.code === 20000);
    expect(done).toHaveLength(1);
    expect(done[0]!.message).toBe('勾选成功1张');
    for (const x of out.filter((y) => y.code !== 20000)) {
      expect(x.code).toBe(30000);
      expect(x.r.done).toBe(false);
      expect(x.message).toMatch(/^勾选失败：发票\d{20}，(已勾选为抵扣（有效税额9\.00元），无需重复勾选|发票 \d{20} 的勾选状态已变化，请刷新后重试)$/);
    }
    const log = (await s.call(`${D}/log`, { number: a.no, pageSize: 50 }, t13)).r.items as Array<{ result: number; message: string; batchId: string }>;
    expect(log).toHaveLength(20);
    expect(log.filter((x) => x.result === 1)).toHaveLength(1);
    expect(log.find((x) => x.result === 1)!.batchId).toBe(done[0]!.r.batchId);
    // What each answer said is what its log row says.
    for (const x of out.filter((y) => y.code !== 20000)) {
      const row = log.find((l) => l.batchId === x.r.batchId)!;
      expect([row.result === 2 ? 'unchanged' : 'failed', row.message]).toEqual([x.r.unchanged ? 'unchanged' : 'failed', x.r.outcomes[0].message]);
    }
    expect(await facts(a.id)).toMatchObject({ tick_state: 1, vat_usage: 1 });
    expect(Number((await facts(a.id)).effective_tax)).toBe(900);
    // A batch that mixes a new invoice with one already ticked so: the new one ticked, the other left 无变化.
    const b = await fresh();
    const mixed = await tick({ items: [{ id: a.id, effectiveTax: 900 }, { id: b.id }] });
    expect([mixed.code, mixed.message]).toEqual([20000, '勾选成功1张，1张已按此勾选（无变化）']);
    expect(mixed.r.outcomes.map((o: { ok: boolean; message: string }) => [o.ok, o.message])).toEqual([[true, '已勾选为抵扣（有效税额9.00元），无需重复勾选'], [true, '勾选成功']]);
    expect((await s.call(`${D}/log`, { batchId: mixed.r.batchId }, t13)).r.items.map((x: { result: number }) => x.result).sort()).toEqual([1, 2]);
  }, 30_000);

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

describe('revoking a signing of a ticked invoice', () => {
  it('is refused with 该发票已勾选，不能撤销签收', async () => {
    const a = await fresh();
    const signed = await s.call('/api/income/entry/sign', { invoiceIds: [a.id], docType: 'reimbursement', docNo: (await signDocs(s)).reimbursement }, t14);
    expect(signed.code, signed.message).toBe(20000);
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
    const r = await s.call('/api/income/entry/revoke/add', { invoiceId: a.id, reason: '勾选后撤销签收' }, t14);
    expect(r.message).toBe('该发票已勾选，不能撤销签收');
    expect((await s.call(`${D}/untick`, { ids: [a.id] }, t13)).r.done).toBe(true);
    expect((await s.call('/api/income/entry/revoke/add', { invoiceId: a.id, reason: '撤销后撤销签收' }, t14)).code).toBe(20000);
  });
});
