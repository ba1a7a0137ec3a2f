/**
 * Issue 29 items 3, 6 and 8 on the server: a 数电 toll invoice (dtoll) is recognised from its XML and
 * saved; tolls, 数电 railway e-tickets and 数电 air itineraries are ticked with the tax stated on them
 * (公告2024年第8号, 第9号) and the passenger transport computation (公告2019年第39号) no longer holds them,
 * while a paper rail ticket stays computed and cannot be ticked; a 海关进口增值税专用缴款书 (公告2019年第45号)
 * is entered with its 缴款书号码, 填发日期 and 税款金额, listed under its own kind, and ticked and unticked
 * through the tax service's own customs call.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_TICKABLE_MESSAGE, type TransportRow } from '@zhyy/shared';
import { createTaxGateway, IncomeMethods, registerKnownIncoming } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { D, startTicking, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';
import { b64, entry, nextDigital, OUR } from './income-helpers.js';

let s: TestServer;
let t13: string;
let period: TickPeriodFacts;
beforeAll(async () => {
  ({ s, t13, period } = await startTicking());
});
afterAll(() => s?.close());
const { inWindow, fresh, facts, simTick, tick } = tickHelpers(() => ({ s, t13, period }));

const known = (key: string, kind: string, issueDate: string, tax: number) => registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key, kind, issueDate, tax }]);
const verified = (id: string) => s.db.kysely.updateTable('income_invoices').set({ verify_state: 1, verified_at: new Date().toISOString() }).where('id', '=', id).execute();
const syncCount = async (type: string) => Number((await s.db.kysely.selectFrom('sync_logs').select(s.db.kysely.fn.countAll().as('n')).where('type', '=', type).executeTakeFirstOrThrow()).n);
const lastSync = (type: string) => s.db.kysely.selectFrom('sync_logs').select(['memo']).where('type', '=', type).orderBy('created_at', 'desc').executeTakeFirstOrThrow();

/** A rail e-ticket of 56.00 stating 4.62 (56.00 ÷ 1.09 × 9 %), 数电 (20-digit number) or paper (its ticket number). */
async function railTicket(digital: boolean, day: string, serial: number) {
  const no = nextDigital();
  const a = await s.call('/api/income/pool/save', entry({
    kind: 'rail', digitalNo: digital ? no : '', invoiceNo: digital ? '' : `E${no.slice(2)}`, issueDate: day, sellerName: '中国铁路上海局集团有限公司', sellerTaxNo: '',
    amountExcl: 5_138 + serial, tax: 462, amountIncl: 5_600 + serial, remark: `乘车（机）人：测试旅客庚；出行日期：${day}`,
    lines: [{ name: '*运输服务*铁路旅客运输服务', spec: '', unit: '张', quantity: '1', unitPrice: '', amount: 5_138 + serial, taxRate: '0.09', tax: 462 }],
  }), t13);
  expect(a.code, a.message).toBe(20000);
  return { id: a.r.id as string, no };
}

describe('数电 toll invoice (dtoll)', () => {
  it('its XML is recognised as a 数电 toll and saved with the kind; the kind demands the 20-digit number', async () => {
    const xml = readFileSync(new URL('./fixtures/income/invoice-sd-toll.xml', import.meta.url));
    const r = await s.call('/api/income/pool/upload-recognise', { fileName: 'toll.xml', content: b64(xml) }, t13);
    expect(r.code, r.message).toBe(20000);
    expect(r.r.draft).toMatchObject({ kind: 'dtoll', digitalNo: '26322000000211304587', amountExcl: 38_835, tax: 1_165, amountIncl: 40_000 });
    const day = inWindow();
    const no = nextDigital();
    const save = (over: Record<string, unknown>) =>
      s.call('/api/income/pool/save', entry({ ...r.r.draft, buyerName: OUR.name, buyerTaxNo: OUR.taxNo, issueDate: day, digitalNo: no, files: [], ...over }), t13);
    expect((await save({ digitalNo: '' })).message).toBe('数电发票须填写20位数电发票号码');
    const a = await save({});
    expect(a.code, a.message).toBe(20000);
    const row = await s.db.kysely.selectFrom('income_invoices').select(['kind', 'digital_no', 'tax', 'amount_incl']).where('id', '=', a.r.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'dtoll', digital_no: no, tax: 1_165, amount_incl: 40_000 });
    // Ticked like any 扣税凭证 (公告2019年第45号), once verified and known to the service.
    await verified(a.r.id);
    await known(no, 'dtoll', day, 1_165);
    const t = await tick({ items: [{ id: a.r.id, effectiveTax: 1_165 }] });
    expect(t.r, t.message).toMatchObject({ done: true, count: 1 });
    expect(await facts(a.r.id)).toMatchObject({ vat_usage: 1, tick_state: 1, effective_tax: 1_165 });
  });
});

describe('数电 rail and air tickets: ticked with their stated tax, no longer computed', () => {
  it('a 数电 railway e-ticket ticks with its 4.62; a paper rail ticket cannot be ticked', async () => {
    const day = inWindow();
    const e = await railTicket(true, day, 1);
    const paper = await railTicket(false, day, 2);
    await Promise.all([verified(e.id), verified(paper.id)]);
    await known(e.no, 'rail', day, 462);
    const list = await s.call(`${D}/list`, { kind: 'rail', sellerName: '中国铁路上海局集团有限公司' }, t13);
    expect(list.code, list.message).toBe(20000);
    const ids = list.r.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(e.id);
    expect(ids).not.toContain(paper.id);
    expect((await tick({ items: [{ id: e.id, effectiveTax: 463 }] })).r.outcomes[0].message).toBe('有效税额须大于0且不超过发票税额（4.62元）');
    const t = await tick({ items: [{ id: e.id, effectiveTax: 462 }] });
    expect(t.r, t.message).toMatchObject({ done: true, count: 1 });
    expect(await facts(e.id)).toMatchObject({ vat_usage: 1, tick_state: 1, effective_tax: 462 });
    expect(await simTick(e.no)).toMatchObject({ usage: 1, effective_tax: 462 });
    const refused = await tick({ items: [{ id: paper.id }] });
    expect(refused.r).toMatchObject({ done: false, refused: 1 });
    expect(refused.r.outcomes[0].message).toBe(NOT_TICKABLE_MESSAGE);

    // The passenger transport computation of the month: the paper ticket by the formula, the 数电 one not at all.
    const month = day.slice(0, 7).replace('-', '');
    const tr = await s.call('/api/income/transport/list', { period: month, transportKind: 'rail', pageSize: 500 }, t13);
    expect(tr.code, tr.message).toBe(20000);
    const rows = tr.r.items as TransportRow[];
    expect(rows.map((i) => i.id)).not.toContain(e.id);
    expect(rows.find((i) => i.id === paper.id)).toMatchObject({ basis: 5_602, formulaTax: 463, formula: '票面金额 56.02 ÷ 1.09 × 9%' });
    // No 数电 rail or air ticket is computed in the demo's months either.
    const all = await s.call('/api/income/transport/list', { period: month, pageSize: 500 }, t13);
    expect(all.r.items.filter((i: TransportRow) => (i.transportKind === 'rail' || i.transportKind === 'air') && i.digitalNo)).toEqual([]);
  });

  it('a 数电 air itinerary (1,000.00 fare + 50.00 fuel + 50.00 民航发展基金) ticks with its stated 86.70', async () => {
    const day = inWindow();
    const no = nextDigital();
    const line = (name: string, amount: number, taxRate: string, tax: number) => ({ name, spec: '', unit: '张', quantity: '1', unitPrice: '', amount, taxRate, tax });
    const a = await s.call('/api/income/pool/save', entry({
      kind: 'air', digitalNo: no, issueDate: day, sellerName: '中国东方航空股份有限公司', sellerTaxNo: '', amountExcl: 101_330, tax: 8_670, amountIncl: 110_000, remark: `乘车（机）人：测试旅客辛；出行日期：${day}`,
      lines: [line('*运输服务*国内航空旅客运输服务', 91_743, '0.09', 8_257), line('*运输服务*燃油附加费', 4_587, '0.09', 413), line('民航发展基金', 5_000, '0', 0)],
    }), t13);
    expect(a.code, a.message).toBe(20000);
    await verified(a.r.id);
    await known(no, 'air', day, 8_670);
    expect((await tick({ items: [{ id: a.r.id, effectiveTax: 8_671 }] })).r.outcomes[0].message).toBe('有效税额须大于0且不超过发票税额（86.70元）');
    const t = await tick({ items: [{ id: a.r.id, effectiveTax: 8_670 }] });
    expect(t.r, t.message).toMatchObject({ done: true, count: 1 });
    expect(await simTick(no)).toMatchObject({ usage: 1, effective_tax: 8_670 });
    const tr = await s.call('/api/income/transport/list', { period: day.slice(0, 7).replace('-', ''), transportKind: 'air', pageSize: 500 }, t13);
    expect(tr.r.items.map((i: TransportRow) => i.id)).not.toContain(a.r.id);
  });
});

describe('海关进口增值税专用缴款书: entered, listed under its kind, ticked through its own call', () => {
  const NOTICE = '530120261000123456-L01';
  it('entry with 缴款书号码, 填发日期 and 税款金额; a candidate without 查验; ticked and unticked by the customs call', async () => {
    const day = inWindow();
    const a = await s.call('/api/income/pool/save', entry({
      kind: 'customs', digitalNo: '', invoiceCode: '', invoiceNo: NOTICE, issueDate: day, sellerName: '中华人民共和国南京海关', sellerTaxNo: '',
      // 完税价格 10,000.00, 税款金额 1,300.00 (13 %).
      amountExcl: 1_000_000, tax: 130_000, amountIncl: 1_130_000, lines: [],
    }), t13);
    expect(a.code, a.message).toBe(20000);
    const list = await s.call(`${D}/list`, { kind: 'customs', number: NOTICE }, t13);
    expect(list.code, list.message).toBe(20000);
    expect(list.r.items.map((i: { id: string; kind: string; invoiceNo: string; tax: number; issueDate: string }) => [i.id, i.kind, i.invoiceNo, i.tax, i.issueDate])).toEqual([[a.r.id, 'customs', NOTICE, 130_000, day]]);

    // Unknown to the service (not in the customs data): refused by the customs call, nothing recorded.
    const invoiceCalls = await syncCount(IncomeMethods.tick);
    const unknown = await tick({ items: [{ id: a.r.id, effectiveTax: 130_000 }] });
    expect(unknown.r.outcomes[0].message).toBe('税务端无此发票信息');
    expect(await facts(a.r.id)).toMatchObject({ tick_state: 0 });

    await known(NOTICE, 'customs', day, 130_000);
    const customsCalls = await syncCount(IncomeMethods.customsTick);
    const t = await tick({ items: [{ id: a.r.id, effectiveTax: 130_000 }] });
    expect(t.r, t.message).toMatchObject({ done: true, count: 1 });
    expect(await facts(a.r.id)).toMatchObject({ vat_usage: 1, tick_state: 1, effective_tax: 130_000, tick_period: period.period });
    expect(await simTick(NOTICE)).toMatchObject({ usage: 1, effective_tax: 130_000, period: period.period });
    // Its own call: one more customs exchange, none of the invoices' tick call.
    expect(await syncCount(IncomeMethods.customsTick)).toBe(customsCalls + 1);
    expect(await syncCount(IncomeMethods.tick)).toBe(invoiceCalls);
    expect((await lastSync(IncomeMethods.customsTick)).memo).toBe(`税款所属期 ${period.period} 海关缴款书勾选抵扣 1 张：成功 1 张，拒绝 0 张`);

    const u = await s.call(`${D}/untick`, { ids: [a.r.id] }, t13);
    expect(u.r, u.message).toMatchObject({ done: true, count: 1 });
    expect(await facts(a.r.id)).toMatchObject({ tick_state: 0 });
    expect(await simTick(NOTICE)).toBeUndefined();
    expect((await lastSync(IncomeMethods.customsUntick)).memo).toBe(`税款所属期 ${period.period} 撤销海关缴款书抵扣勾选 1 张：成功 1 张，拒绝 0 张`);
  });

  it('a batch of a 专票 and a customs notice: each through its call, all or nothing — a refused notice takes the 专票 back at the service', async () => {
    const day = inWindow();
    // Different sums: the same seller, day and total would be flagged 疑似重复.
    const save = (no: string, price: number) =>
      s.call('/api/income/pool/save', entry({ kind: 'customs', digitalNo: '', invoiceCode: '', invoiceNo: no, issueDate: day, sellerName: '中华人民共和国上海海关', sellerTaxNo: '', amountExcl: price, tax: (price * 13) / 100, amountIncl: price + (price * 13) / 100, lines: [] }), t13);
    const good = await save('220120261000654321-L01', 200_000);
    const unknownNotice = await save('220120261000654322-L01', 300_000);
    expect([good.code, unknownNotice.code]).toEqual([20000, 20000]);
    await known('220120261000654321-L01', 'customs', day, 26_000);
    const special = await fresh({ sellerName: '混合批次测试供应商有限公司' });
    const calls = [await syncCount(IncomeMethods.tick), await syncCount(IncomeMethods.customsTick), await syncCount(IncomeMethods.untick)];
    const refused = await tick({ items: [{ id: special.id }, { id: unknownNotice.r.id }] });
    expect(refused.r).toMatchObject({ done: false, count: 0 });
    expect(refused.r.outcomes.map((o: { message: string }) => o.message)).toEqual(['同批有发票被税务端拒绝，本批均未勾选', '税务端无此发票信息']);
    expect(await simTick(special.no)).toBeUndefined();
    expect([await syncCount(IncomeMethods.tick), await syncCount(IncomeMethods.customsTick), await syncCount(IncomeMethods.untick)]).toEqual([calls[0]! + 1, calls[1]! + 1, calls[2]! + 1]);
    const ok = await tick({ items: [{ id: special.id }, { id: good.r.id }] });
    expect(ok.r, ok.message).toMatchObject({ done: true, count: 2 });
    expect([(await simTick(special.no))?.effective_tax, (await simTick('220120261000654321-L01'))?.effective_tax]).toEqual([900, 26_000]);
  });

  it('a customs notice has no rebate use: the customs call refuses 出口退税', async () => {
    const sim = createTaxGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator', simulator: { delayMs: 0 } });
    await expect(sim.tickCustoms({ period: period.period, usage: 2, items: [{ noticeNo: NOTICE, fillDate: inWindow(), effectiveTax: 1 }] })).rejects.toThrow('海关缴款书只能勾选为抵扣或不抵扣');
  });
});
