/**
 * Issue 29 (海关缴款书, after item 8): customs notices are collected from the tax service by their own call — the
 * simulator holds the notices entered for the company — into the pool as documents of kind customs (缴款书号码 as the
 * number), merged on a second collection; and 导入勾选 finds a notice by its 缴款书号码 (its own column, or one in the
 * 发票号码 column) and ticks it through the customs call. Both databases.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterCustomsNotices, IncomeMethods, TaxErrorCode, TaxGatewayError, type IncomeTaxGateway } from '../src/integrations/tax/index.js';
import { collectMessage, collectWindow } from '../src/modules/income/intake/collect.js';
import type { TestServer } from './helpers.js';
import { D, startTicking, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';
import { collectAndWait, OUR, SUPPLIER } from './income-helpers.js';

let s: TestServer;
let t13: string;
let period: TickPeriodFacts;
beforeAll(async () => {
  ({ s, t13, period } = await startTicking());
  await s.app.incomeJob.stop();
});
afterAll(() => s?.close());
const { inWindow } = tickHelpers(() => ({ s, t13, period }));

const A = '220120261000912345-L01';
const B = '220120261000912346-L01';
const VOID = '220120261000912347-L01';
const customs = (no: string) => s.db.kysely.selectFrom('income_invoices').selectAll().where('kind', '=', 'customs').where('invoice_no', '=', no).execute();

async function tickSheet(header: string[], rows: string[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('勾选');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describe('海关缴款书: collected by their own call, ticked from an imported sheet', () => {
  let day = '';

  it('the collection brings the notices the service holds for the company into the pool, and says how many', async () => {
    day = inWindow();
    const payer = { name: OUR.name, taxNumber: OUR.taxNo };
    await enterCustomsNotices({ db: s.db, synclog: s.app.synclog }, [
      { noticeNo: A, fillDate: day, customsName: '中华人民共和国南京海关', customsCode: '2201', payer, dutiablePrice: 10_000_000, tax: 1_300_000 },
      { noticeNo: B, fillDate: day, customsName: '中华人民共和国南京海关', customsCode: '2201', payer, dutiablePrice: 200_000, tax: 26_000 },
      { noticeNo: VOID, fillDate: day, customsName: '中华人民共和国上海海关', customsCode: '2200', payer, dutiablePrice: 50_000, tax: 6_500, state: 2 },
      // Another company's notice is not answered.
      { noticeNo: '220120261000912348-L01', fillDate: day, customsName: '中华人民共和国南京海关', payer: { name: SUPPLIER.name, taxNumber: SUPPLIER.taxNo }, dutiablePrice: 1, tax: 1 },
    ]);
    const before = Number((await s.db.kysely.selectFrom('sync_logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', IncomeMethods.customsCollect).executeTakeFirstOrThrow()).n);
    const r = await collectAndWait(s, { from: day, to: day }, t13);
    expect(r.message).toContain('（其中海关缴款书 3 份）');
    const [a] = await customs(A);
    expect(a).toMatchObject({ kind: 'customs', invoice_code: '', digital_no: '', issue_date: day, seller_name: '中华人民共和国南京海关', seller_tax_no: '', buyer_name: OUR.name, buyer_tax_no: OUR.taxNo, source: 1, invoice_state: 0 });
    expect([Number(a!.amount_excl), Number(a!.tax), Number(a!.amount_incl)]).toEqual([10_000_000, 1_300_000, 11_300_000]);
    expect((await customs(VOID))[0]!.invoice_state).toBe(2);
    expect(await customs('220120261000912348-L01')).toEqual([]);
    // One exchange of its own, logged with its Chinese name.
    const after = Number((await s.db.kysely.selectFrom('sync_logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', IncomeMethods.customsCollect).executeTakeFirstOrThrow()).n);
    expect(after - before).toBe(1);
  });

  it('a second collection of the window merges them: no second row', async () => {
    const r = await collectAndWait(s, { from: day, to: day }, t13);
    expect(r.message).toContain('（其中海关缴款书 3 份）');
    expect(await customs(A)).toHaveLength(1);
    expect(await customs(B)).toHaveLength(1);
  });

  it('导入勾选 finds a notice by its 缴款书号码 (its own column, or in 发票号码), refuses an unknown one, then ticks through the customs call', async () => {
    const unknown = await s.call(`${D}/import`, { file: await tickSheet(['缴款书号码', '有效税额'], [[A, '13000.00'], ['220120261000999999-L01', '']]), vatUsage: 1 }, t13);
    expect(unknown.code).toBe(30000);
    expect(unknown.r.rows.map((r: { row: number; message: string }) => [r.row, r.message])).toEqual([[2, '其他行有误，本次未勾选'], [3, '票池中没有该海关缴款书']]);
    const mixed = await s.call(`${D}/import`, { file: await tickSheet(['缴款书号码', '发票号码', '有效税额'], [[A, '12345678', '']]), vatUsage: 1 }, t13);
    expect(mixed.r.rows[0].message).toBe('海关缴款书号码不正确（只能包含字母、数字和短横线，且同一行不能再填发票代码或号码）');

    const [a] = await customs(A);
    const [b] = await customs(B);
    const good = await s.call(`${D}/import`, { file: await tickSheet(['缴款书号码', '发票代码', '发票号码', '有效税额'], [[A, '', '', '12000.00'], ['', '', B, '']]), vatUsage: 1 }, t13);
    expect(good.code, good.message).toBe(20000);
    expect(good.r.rows).toEqual([
      { row: 2, invoiceNumber: A, invoiceId: a!.id, effectiveTax: 1_200_000, ok: true, message: '勾选成功' },
      { row: 3, invoiceNumber: B, invoiceId: b!.id, effectiveTax: null, ok: true, message: '勾选成功' },
    ]);
    const ticked = await s.db.kysely.selectFrom('income_invoices').select(['id', 'tick_state', 'effective_tax']).where('id', 'in', [a!.id, b!.id]).orderBy('invoice_no').execute();
    expect(ticked.map((t) => [t.tick_state, Number(t.effective_tax)])).toEqual([[1, 1_200_000], [1, 26_000]]);
    const sent = await s.db.kysely.selectFrom('sync_logs').select('request').where('type', '=', IncomeMethods.customsTick).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(JSON.parse(sent.request ?? "{}").list.map((i: { jkshm: string }) => i.jkshm).sort()).toEqual([A, B]);
  });
});

describe('a customs call the service refuses', () => {
  it('does not undo the invoices of the window: the result and its message say the notices were not collected', async () => {
    const gateway = {
      collectIncoming: async () => ({ invoices: [], total: 0 }),
      collectCustoms: async () => {
        throw new TaxGatewayError(TaxErrorCode.invalid, '未知方法 nuonuo.OpeMplatform.queryCustomsPayment', IncomeMethods.customsCollect);
      },
    } as unknown as IncomeTaxGateway;
    const r = await collectWindow(s.db.kysely, gateway, '2026-01-05', '2026-01-05', { ctx: { userId: null, userName: '测试' } });
    expect(r).toMatchObject({ total: 0, created: 0, failed: 0, customsError: '未知方法 nuonuo.OpeMplatform.queryCustomsPayment' });
    expect(collectMessage(r)).toBe('采集完成：税务端 0 张，新增 0 张，合并 0 张；海关缴款书未采集：未知方法 nuonuo.OpeMplatform.queryCustomsPayment');
  });
});
