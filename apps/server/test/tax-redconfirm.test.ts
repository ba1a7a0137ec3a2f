/** Red-letter confirmations in the simulator: our applications, buyers' applications, the automatic red invoice. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxGatewayError, seedBuyerRedConfirm, type RedConfirmApplyRequest, type TaxGateway, type TaxInvoiceResult } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { startTestServer, type TestServer } from './helpers.js';
import { DELAY, SELLER_TAX, TestClock, request, simulator } from './tax-helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ demo: false });
});
afterAll(async () => {
  await s.close();
});

let seq = 0;
async function blue(gw: TaxGateway, clock: TestClock, buyerName = '广州市喆堃建设有限公司', kind: 9 | 10 | 1 = 9): Promise<TaxInvoiceResult> {
  const sub = await gw.submitInvoice(request(`RB-${++seq}`, { kind, buyer: { name: buyerName, taxNumber: '91440101MA5CM2K81U' } }));
  clock.advance(2 * DELAY);
  const [r] = await gw.queryInvoices([sub.serialNo]);
  expect(r!.status).toBe(2);
  return r!;
}

function apply(b: TaxInvoiceResult, over: Partial<RedConfirmApplyRequest> = {}): RedConfirmApplyRequest {
  seq += 1;
  return { billNo: `HZ-${seq}`, blueInvoiceNo: b.invoiceNo!, blueIssueDate: b.issuedAt!.slice(0, 10), blueKind: 9, redReason: 2, vatUsage: 1, sellerTaxNumber: SELLER_TAX, buyerName: '广州市喆堃建设有限公司', redOrderNo: `HO-${seq}`, ...over };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return (err as Error).message;
}

describe('our applications', () => {
  it('15 applying → 02 awaiting the buyer → 04 confirmed, and the red invoice is issued automatically', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const b = await blue(gw, clock);
    const c = await gw.applyRedConfirm(apply(b));
    expect(c).toMatchObject({ state: '15', stateMessage: '申请中', applicant: 0, awaitingUs: false, amountExcludingTax: -1_300_050, tax: -108_003 });
    expect(c.lines.map((l) => l.blueLineNo)).toEqual([1, 2]);
    clock.advance(DELAY);
    let [q] = await gw.queryRedConfirms({ billIds: [c.billId] });
    expect(q).toMatchObject({ state: '02', stateMessage: '销方录入待购方确认' });
    expect(q!.confirmNo).toMatch(/^\d{20}$/);
    expect(q!.redSerialNo).toBeUndefined();
    clock.advance(DELAY);
    [q] = await gw.queryRedConfirms({ billIds: [c.billId] });
    expect(q!.state).toBe('04');
    expect(q!.redSerialNo).toMatch(/^\d{20}$/);
    clock.advance(2 * DELAY);
    const [red] = await gw.queryInvoices([q!.redSerialNo!]);
    expect(red).toMatchObject({ status: 2, colour: 2, kind: 9, orderNo: c.billNo.replace('HZ', 'HO'), amountExcludingTax: -1_300_050, tax: -108_003, amountIncludingTax: -1_408_053 });
    expect(red!.files[0]!.type).toBe('pdf');
    [q] = await gw.queryRedConfirms({ billIds: [c.billId] });
    expect(q!.redInvoiceNo).toBe(red!.invoiceNo);
  });

  it('goes to 01 without confirmation when the buyer did not deduct (VAT usage 4)', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const c = await gw.applyRedConfirm(apply(await blue(gw, clock), { vatUsage: 4 }));
    clock.advance(DELAY);
    const [q] = await gw.queryRedConfirms({ billIds: [c.billId] });
    expect(q).toMatchObject({ state: '01', stateMessage: '无需确认' });
    expect(q!.redSerialNo).toBeDefined();
  });

  it('reverses chosen lines only, and refuses more than what remains of the blue invoice', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const b = await blue(gw, clock);
    const part = await gw.applyRedConfirm(apply(b, { lines: [{ blueLineNo: 2, amountExcludingTax: -100_000 }] }));
    expect(part).toMatchObject({ amountExcludingTax: -100_000, tax: -6_000, lines: [{ blueLineNo: 2, goodsName: '*现代服务*技术咨询', taxRate: '0.06' }] });
    expect(await refusal(gw.applyRedConfirm(apply(b)))).toBe('冲红金额超过蓝字发票剩余可冲红金额');
    expect(await refusal(gw.applyRedConfirm(apply(b, { lines: [{ blueLineNo: 3 }] })))).toBe('蓝字发票没有第3行明细或明细重复');
    const rest = await gw.applyRedConfirm(apply(b, { lines: [{ blueLineNo: 1 }, { blueLineNo: 2, amountExcludingTax: -200_050, tax: -12_003 }] }));
    expect(rest.amountExcludingTax + rest.tax).toBe(-1_408_053 + 106_000);
  });

  it('returns the same confirmation for a repeated bill number', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const req = apply(await blue(gw, clock));
    const a = await gw.applyRedConfirm(req);
    const b = await gw.applyRedConfirm(req);
    expect(b.billId).toBe(a.billId);
    // Asked by our bill number (the settling job's question after a crash): that one application, or none.
    expect((await gw.queryRedConfirms({ billNos: [req.billNo] })).map((c) => c.billId)).toEqual([a.billId]);
    expect(await gw.queryRedConfirms({ billNos: ['HZ-never-sent'] })).toEqual([]);
  });

  it('refuses paper and unknown blue invoices', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const paper = await blue(gw, clock, '广州市喆堃建设有限公司', 1);
    expect(await refusal(gw.applyRedConfirm(apply(paper)))).toBe('只有数电发票可以申请红字确认单');
    expect(await refusal(gw.applyRedConfirm(apply(paper, { blueInvoiceNo: '26112000000999999999' })))).toBe('税务端未找到号码为 26112000000999999999 的蓝字发票');
  });

  it('ends 05 when the buyer refuses, 07 after 72 hours without answer, 16 when the bureau refuses', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const refused = await gw.applyRedConfirm(apply(await blue(gw, clock, '测试拒绝贸易公司')));
    const silent = await gw.applyRedConfirm(apply(await blue(gw, clock, '测试超时贸易公司')));
    const failed = await gw.applyRedConfirm(apply(await blue(gw, clock, '测试申请失败贸易公司')));
    clock.advance(2 * DELAY);
    const states = async () => Object.fromEntries((await gw.queryRedConfirms({ billIds: [refused.billId, silent.billId, failed.billId] })).map((c) => [c.billId, c.state]));
    expect(await states()).toMatchObject({ [refused.billId]: '05', [silent.billId]: '02', [failed.billId]: '16' });
    expect((await gw.queryRedConfirms({ billIds: [failed.billId] }))[0]!.failCause).toContain('税局校验未通过');
    clock.advance(72 * 3600_000);
    expect((await states())[silent.billId]).toBe('07');
  });

  it('withdraws at 02 (→ 08) and refuses withdrawing while applying or once confirmed', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const c = await gw.applyRedConfirm(apply(await blue(gw, clock)));
    expect(await refusal(gw.cancelRedConfirm(c.billId))).toBe('确认单申请中，请稍后再撤销');
    clock.advance(DELAY);
    expect(await gw.cancelRedConfirm(c.billId)).toMatchObject({ state: '08', stateMessage: '作废（发起方已撤销）' });
    clock.advance(DELAY);
    expect((await gw.queryRedConfirms({ billIds: [c.billId] }))[0]!.state).toBe('08');
    const d = await gw.applyRedConfirm(apply(await blue(gw, clock)));
    clock.advance(2 * DELAY);
    expect(await refusal(gw.cancelRedConfirm(d.billId))).toBe('确认单已确认并已开具红字发票，不能撤销');
    expect(await refusal(gw.confirmRedConfirm(d.billId, true))).toBe('该确认单当前状态（购销双方已确认）不是待我方确认');
  });
});

describe('two advances at once', () => {
  it('issue one red invoice when two reads move the same confirmation to 04 together', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const c = await gw.applyRedConfirm(apply(await blue(gw, clock)));
    clock.advance(2 * DELAY);
    const reads = await Promise.all(Array.from({ length: 4 }, () => gw.queryRedConfirms({ billIds: [c.billId] })));
    const serials = new Set(reads.map((r) => r[0]!.redSerialNo));
    expect(reads.map((r) => r[0]!.state)).toEqual(['04', '04', '04', '04']);
    expect(serials.size).toBe(1);
    const order = (await simDb(s.db).selectFrom('taxsim_invoices').select('order_no').where('serial_no', '=', [...serials][0]!).executeTakeFirstOrThrow()).order_no;
    expect(Number((await simDb(s.db).selectFrom('taxsim_invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('order_no', '=', order).executeTakeFirstOrThrow()).n)).toBe(1);
  });
});

describe('buyers\u2019 applications', () => {
  it('await us at 03; confirming gives 04 and the red invoice, refusing gives 06', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const deps = { db: s.db, synclog: s.app.synclog, clock };
    const b1 = await blue(gw, clock);
    const b2 = await blue(gw, clock);
    const since = clock.now().toISOString();
    const one = await seedBuyerRedConfirm(deps, { blueInvoiceNo: b1.invoiceNo!, sellerTaxNumber: SELLER_TAX, redReason: 1, vatUsage: 1 }, { delayMs: DELAY });
    const two = await seedBuyerRedConfirm(deps, { blueInvoiceNo: b2.invoiceNo!, sellerTaxNumber: SELLER_TAX, redReason: 4, lines: [{ blueLineNo: 1 }] }, { delayMs: DELAY });
    expect(one).toMatchObject({ state: '03', applicant: 1, awaitingUs: true, billNo: '' });
    const waiting = await gw.refreshRedConfirms(since);
    expect(waiting.filter((c) => c.awaitingUs).map((c) => c.billId).sort()).toEqual([one.billId, two.billId].sort());
    expect((await gw.queryRedConfirms({ awaitingUs: true, since })).length).toBe(2);
    expect(await refusal(gw.cancelRedConfirm(one.billId))).toBe('只能撤销我方发起的红字确认单');

    const accepted = await gw.confirmRedConfirm(one.billId, true);
    expect(accepted).toMatchObject({ state: '04', awaitingUs: false });
    const refused = await gw.confirmRedConfirm(two.billId, false);
    expect(refused).toMatchObject({ state: '06', stateMessage: '作废（销方拒绝）' });
    expect(refused.redSerialNo).toBeUndefined();
    expect(await refusal(gw.confirmRedConfirm(one.billId, false))).toBe('该确认单当前状态（购销双方已确认）不是待我方确认');
    clock.advance(2 * DELAY);
    const [red] = await gw.queryInvoices([accepted.redSerialNo!]);
    expect(red).toMatchObject({ status: 2, colour: 2, amountIncludingTax: -b1.amountIncludingTax! });
    expect((await gw.queryRedConfirms({ awaitingUs: true, since })).length).toBe(0);
  });

  it('void 07 when not confirmed within 72 hours', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const b = await blue(gw, clock);
    const c = await seedBuyerRedConfirm({ db: s.db, synclog: s.app.synclog, clock }, { blueInvoiceNo: b.invoiceNo!, sellerTaxNumber: SELLER_TAX, redReason: 3 });
    clock.advance(72 * 3600_000 - 1);
    expect((await gw.queryRedConfirms({ billIds: [c.billId] }))[0]!.state).toBe('03');
    clock.advance(1);
    expect((await gw.queryRedConfirms({ billIds: [c.billId] }))[0]).toMatchObject({ state: '07', awaitingUs: false });
    expect(await refusal(gw.confirmRedConfirm(c.billId, true))).toContain('不是待我方确认');
  });
});
