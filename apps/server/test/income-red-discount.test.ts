/**
 * Issue 29 items 1 and 2: a 数电专票 with a discount line (折扣行) and a supplier's red 数电专票 (−1,000.00 / −90.00),
 * uploaded as their XML (fixtures/income/invoice-sd-discount.xml, invoice-sd-blue.xml, invoice-sd-red.xml), saved,
 * seen in the pool with totals that net; the red invoice linked to the blue one it reverses whichever arrives first;
 * a red invoice neither tickable nor a ticking candidate; the face rule refusing what cannot be right.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeFaceMessages } from '@zhyy/shared';
import { registerKnownIncoming } from '../src/integrations/tax/index.js';
import { RED_NOT_TICKABLE } from '../src/modules/income/deduction/rules.js';
import type { TestServer } from './helpers.js';
import { creditCode, entry, startIncomeServer } from './income-helpers.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/income');
const file = (name: string) => ({ fileName: name, content: fs.readFileSync(path.join(dir, name)).toString('base64') });

const DISCOUNT_NO = '25322000000104861208';
const BLUE_NO = '25322000000104862417';
const RED_NO = '25322000000104869953';
const SELLER_TAX_NO = '91320105MA2B7LQ3K6';

let s: TestServer;
let t13: string;
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
});
afterAll(() => s?.close());

/** Recognise one fixture and save the draft as recognised, with the same file. */
async function upload(name: string) {
  const a = await s.call('/api/income/pool/upload-recognise', file(name), t13);
  expect(a.code, a.message).toBe(20000);
  const saved = await s.call('/api/income/pool/upload-save', { ...a.r.draft, files: [file(name)] }, t13);
  return { recognised: a.r, saved };
}
const detail = async (id: string) => (await s.call('/api/income/pool/detail', { id }, t13)).r;
const totals = async (filter: Record<string, unknown> = {}) => (await s.call('/api/income/pool/list', { pageIndex: 1, pageSize: 10, ...filter }, t13)).r;

describe('a discount line (折扣行)', () => {
  it('the XML is recognised with the negative line and saved (no 金额不能为负数); the detail keeps the three lines', async () => {
    const before = (await totals()).totals;
    const { recognised, saved } = await upload('invoice-sd-discount.xml');
    expect(recognised.draft).toMatchObject({ kind: '81', digitalNo: DISCOUNT_NO, amountExcl: 2_700_000, tax: 351_000, amountIncl: 3_051_000 });
    expect(recognised.draft.lines.map((l: { amount: number; tax: number }) => [l.amount, l.tax])).toEqual([[2_000_000, 260_000], [-200_000, -26_000], [900_000, 117_000]]);
    expect(recognised.warnings).toEqual([]);
    expect(saved.code, saved.message).toBe(20000);
    expect(saved.r.outcome).toBe('created');
    const d = await detail(saved.r.id);
    expect(d).toMatchObject({ digitalNo: DISCOUNT_NO, amountExcl: 2_700_000, tax: 351_000, amountIncl: 3_051_000, blueInvoiceNo: '', blue: null, reds: [] });
    expect(d.lines.map((l: { amount: number }) => l.amount)).toEqual([2_000_000, -200_000, 900_000]);
    // The unfiltered pool's totals (from the summary) grew by exactly the invoice's net figures.
    const after = (await totals()).totals;
    expect([after.count - before.count, after.amountExcl - before.amountExcl, after.tax - before.tax, after.amountIncl - before.amountIncl]).toEqual([1, 2_700_000, 351_000, 3_051_000]);
  });

  it('lines that do not add up to the face are refused in Chinese; so is a discount line before its line', async () => {
    const { recognised } = { recognised: (await s.call('/api/income/pool/upload-recognise', file('invoice-sd-discount.xml'), t13)).r };
    const noDiscount = { ...recognised.draft, digitalNo: '25322000000104861299', amountExcl: 2_900_000, amountIncl: 3_251_000 };
    const a = await s.call('/api/income/pool/save', noDiscount, t13);
    expect([a.status, a.code, a.message]).toEqual([400, 30000, IncomeFaceMessages.linesAmount]);
    const [l1, l2, l3] = recognised.draft.lines;
    const b = await s.call('/api/income/pool/save', { ...recognised.draft, digitalNo: '25322000000104861299', lines: [l2, l1, l3] }, t13);
    expect([b.status, b.message]).toEqual([400, '第1行为折扣行，须紧随被折扣的明细行，且折扣金额和税额不能超过该行']);
    const c = await s.call('/api/income/pool/save', entry({ amountExcl: -10_000, tax: 20_000, amountIncl: 10_000, lines: [] }), t13);
    expect([c.status, c.message]).toEqual([400, IncomeFaceMessages.blueNegative]);
  });
});

describe('a red invoice received (红字发票)', () => {
  let redId = '';
  let blueId = '';

  it('the red XML arrives before its blue invoice: saved with negative amounts and the blue number it states, linked to nothing yet', async () => {
    const { recognised, saved } = await upload('invoice-sd-red.xml');
    expect(recognised.draft).toMatchObject({ kind: '81', digitalNo: RED_NO, amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, blueInvoiceNo: BLUE_NO });
    expect(recognised.fields.find((f: { key: string }) => f.key === 'blueInvoiceNo')).toEqual({ key: 'blueInvoiceNo', label: '对应蓝字发票号码', value: BLUE_NO, source: 'xml', sourceLabel: 'XML' });
    expect(saved.code, saved.message).toBe(20000);
    redId = saved.r.id;
    expect(await detail(redId)).toMatchObject({ amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, blueInvoiceNo: BLUE_NO, blue: null, reds: [], abnormalFlags: [] });
  });

  it('the blue invoice arriving later is linked both ways, with the link in both histories', async () => {
    const { saved } = await upload('invoice-sd-blue.xml');
    expect(saved.code, saved.message).toBe(20000);
    blueId = saved.r.id;
    const red = await detail(redId);
    expect(red.blue).toEqual({ id: blueId, number: BLUE_NO, issueDate: '2025-05-12', amountIncl: 1_090_000 });
    expect(red.history.map((h: { kind: string; message: string }) => [h.kind, h.message])).toContainEqual(['red-link', `红字发票，冲减蓝字发票 ${BLUE_NO}`]);
    const blue = await detail(blueId);
    expect(blue.reds).toEqual([{ id: redId, number: RED_NO, issueDate: '2025-06-20', amountIncl: -109_000 }]);
    expect(blue.history.map((h: { kind: string; message: string }) => [h.kind, h.message])).toContainEqual(['red-link', `收到红字发票 ${RED_NO}（价税合计 -1,090.00元），冲减本发票`]);
    // The blue invoice now stands as the tax account reports it: 部分红冲, flagged, its case on the 异常处理 worklist.
    expect(blue).toMatchObject({ invoiceState: 7, abnormalFlags: ['red'] });
    expect(blue.history.map((h: { kind: string; message: string }) => [h.kind, h.message])).toContainEqual(['state', '收到红字发票：发票状态「正常」→「部分红冲」']);
    const cases = await s.db.kysely.selectFrom('income_abnormal_cases').select(['flag', 'state']).where('invoice_id', '=', blueId).execute();
    expect(cases).toEqual([{ flag: 'red', state: 'open' }]);
  });

  it('the pool lists both; the totals net (10,900.00 − 1,090.00 = 9,810.00), from the invoices and from the summary alike', async () => {
    const bySeller = await totals({ sellerTaxNo: SELLER_TAX_NO });
    expect(bySeller.items.map((r: { digitalNo: string; amountIncl: number; blueInvoiceNo: string }) => [r.digitalNo, r.amountIncl, r.blueInvoiceNo]).sort()).toEqual([
      [BLUE_NO, 1_090_000, ''],
      [RED_NO, -109_000, BLUE_NO],
    ]);
    expect(bySeller.totals).toEqual({ count: 2, amountExcl: 900_000, tax: 81_000, amountIncl: 981_000 });
    // A kind and a date range are answered from the summary table: the red invoice's negative figures are in it.
    const summary = await totals({ kind: '81', issueFrom: '2025-05-12', issueTo: '2025-06-20' });
    const exact = await s.db.kysely
      .selectFrom('income_invoices')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_incl').as('incl')])
      .where('kind', '=', '81')
      .where('issue_date', '>=', '2025-05-12')
      .where('issue_date', '<=', '2025-06-20')
      .executeTakeFirstOrThrow();
    expect([summary.totals.count, summary.totals.amountIncl]).toEqual([Number(exact.n), Number(exact.incl)]);
  });

  it('a red invoice is not a ticking candidate (its blue twin of the same window is), ticking it is refused; a partly reversed blue invoice is ticked with its net tax', async () => {
    const p = (await s.call('/api/income/deduction/period', {}, t13)).r as { windowFrom: string; windowTo: string };
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const day = new Date(Date.parse(`${p.windowTo < today ? p.windowTo : today}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    const line = (amount: number, tax: number) => [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: amount < 0 ? '-1' : '1', unitPrice: '100.00', amount, taxRate: '0.09', tax }];
    const blue = await s.call('/api/income/pool/save', entry({ issueDate: day, amountExcl: 10_000, tax: 900, amountIncl: 10_900, lines: line(10_000, 900) }), t13);
    const red = await s.call('/api/income/pool/save', entry({ issueDate: day, amountExcl: -10_000, tax: -900, amountIncl: -10_900, lines: line(-10_000, -900) }), t13);
    expect([blue.code, red.code]).toEqual([20000, 20000]);
    await s.db.kysely.updateTable('income_invoices').set({ verify_state: 1 }).where('id', 'in', [blue.r.id, red.r.id, redId]).execute();
    const numberOf = async (id: string) => (await detail(id)).digitalNo as string;
    const listed = async (id: string) => (await s.call('/api/income/deduction/list', { pageIndex: 1, pageSize: 10, number: await numberOf(id) }, t13)).r.total;
    expect([await listed(blue.r.id), await listed(red.r.id)]).toEqual([1, 0]);
    for (const id of [red.r.id, redId]) {
      const tick = await s.call('/api/income/deduction/tick', { vatUsage: 1, items: [{ id }] }, t13);
      expect(tick.code).toBe(30000);
      expect(tick.message).toContain(RED_NOT_TICKABLE);
    }
    // A red invoice reversing half of the blue one (−50.00 / −4.50): the blue one is ticked with its net tax, 4.50.
    const blueNo = await numberOf(blue.r.id);
    const half = (n: number) => s.call('/api/income/pool/save', entry({ issueDate: day, amountExcl: -5_000, tax: -450, amountIncl: -5_450, lines: line(-5_000, -450), blueInvoiceNo: blueNo, remark: `半数冲红${n}` }), t13);
    expect((await half(1)).code).toBe(20000);
    expect((await detail(blue.r.id)).invoiceState).toBe(7);
    await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key: blueNo, kind: '81', issueDate: day, tax: 900, riskLevel: '01' }]);
    // The ticking list shows the printed tax and, beside it, the net tax that is the default and the ceiling.
    const row = (await s.call('/api/income/deduction/list', { pageIndex: 1, pageSize: 10, number: blueNo }, t13)).r.items[0];
    expect([row.tax, row.netTax]).toEqual([900, 450]);
    const over = await s.call('/api/income/deduction/tick', { vatUsage: 1, items: [{ id: blue.r.id, effectiveTax: 900 }], confirmed: true }, t13);
    expect(over.code).toBe(30000);
    expect(over.message).toContain('有效税额须大于0且不超过发票税额（4.50元）');
    const net = await s.call('/api/income/deduction/tick', { vatUsage: 1, items: [{ id: blue.r.id }], confirmed: true }, t13);
    expect(net.code, net.message).toBe(20000);
    const ticked = await s.db.kysely.selectFrom('income_invoices').select(['tick_state', 'effective_tax']).where('id', '=', blue.r.id).executeTakeFirstOrThrow();
    expect([Number(ticked.tick_state), Number(ticked.effective_tax)]).toEqual([1, 450]);
    // The other half: 全额红冲 — the ticked invoice's 已红冲 case is on the worklist for its transfer-out.
    expect((await half(2)).code).toBe(20000);
    expect((await detail(blue.r.id)).invoiceState).toBe(8);
    const cases = await s.db.kysely.selectFrom('income_abnormal_cases').select(['flag', 'state']).where('invoice_id', '=', blue.r.id).execute();
    expect(cases).toEqual([{ flag: 'red', state: 'open' }]);
  });

  it('only a red invoice names a blue one; a red face with a positive tax is refused', async () => {
    const a = await s.call('/api/income/pool/save', entry({ blueInvoiceNo: BLUE_NO }), t13);
    expect([a.status, a.message]).toEqual([400, IncomeFaceMessages.blueNoOnBlue]);
    const b = await s.call('/api/income/pool/save', entry({ amountExcl: -10_000, tax: 900, amountIncl: -9_100, lines: [] }), t13);
    expect([b.status, b.message]).toEqual([400, IncomeFaceMessages.redPositive]);
  });

  it('a red invoice of another seller naming a blue invoice\u2019s number links nothing and leaves the blue one as it was', async () => {
    const blue = await s.call('/api/income/pool/save', entry(), t13);
    expect(blue.code, blue.message).toBe(20000);
    const blueNo = (await detail(blue.r.id)).digitalNo as string;
    const other = { sellerName: '另一家供应商有限公司', sellerTaxNo: creditCode('91320106MA1TE8TAC') };
    const red = await s.call('/api/income/pool/save', entry({ ...other, amountExcl: -10_000, tax: -900, amountIncl: -10_900, lines: [], blueInvoiceNo: blueNo }), t13);
    expect(red.code, red.message).toBe(20000);
    expect((await detail(blue.r.id)).invoiceState).toBe(0);
    const row = await s.db.kysely.selectFrom('income_invoices').select(['blue_id', 'blue_no']).where('id', '=', red.r.id).executeTakeFirstOrThrow();
    expect([row.blue_id, row.blue_no]).toEqual([null, blueNo]);
  });
});
