/**
 * Issue 14, ticking (勾选) on the server: import from Excel with a result per row (all or nothing), and the
 * tick log with its filters and its export. (The batches: income-deduction-tick.test.ts.)
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerKnownIncoming } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { D, sheet, startTicking, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';

let s: TestServer;
let t13: string;
let period: TickPeriodFacts;
beforeAll(async () => {
  ({ s, t13, period } = await startTicking());
});
afterAll(() => s?.close());
const { inWindow, fresh, facts, tick } = tickHelpers(() => ({ s, t13, period }));

describe('import from Excel', () => {
  it('answers per row; one bad row and nothing is ticked; then a good file ticks', async () => {
    const a = await fresh();
    const b = await fresh();
    const bad = await s.call(`${D}/import`, { file: await sheet([['', '', a.no, '8.50'], ['', '', '99000000000000000001', ''], ['123', '456', '', '1'], ['', '', b.no, 'abc']]), vatUsage: 1 }, t13);
    expect([bad.status, bad.code, bad.message]).toEqual([400, 30000, '导入未勾选：请按逐行结果修改后重新导入']);
    expect(bad.r.done).toBe(false);
    expect(bad.r.rows.map((r: { row: number; ok: boolean; message: string }) => [r.row, r.ok, r.message])).toEqual([
      [2, false, '其他行有误，本次未勾选'],
      [3, false, '票池中没有该发票'],
      [4, false, '发票代码、号码不正确（数电发票填20位数电号码；其他发票填10或12位代码和8位号码；海关缴款书填缴款书号码）'],
      [5, false, '有效税额须为金额（元，最多两位小数）'],
    ]);
    expect((await facts(a.id)).tick_state).toBe(0);
    // The rule of a tick's effective tax, per row: positive, at most the invoice's tax (9.00), to the 分.
    const amounts = await s.call(`${D}/import`, { file: await sheet([['', '', a.no, '0'], ['', '', b.no, '999999'], ['', '', a.no, '-5'], ['', '', b.no, '1.234']]), vatUsage: 1 }, t13);
    expect(amounts.code).toBe(30000);
    expect(amounts.r.rows.map((r: { row: number; message: string }) => [r.row, r.message])).toEqual([
      [2, '有效税额须大于0且不超过发票税额（9.00元）'],
      [3, '有效税额须大于0且不超过发票税额（9.00元）'],
      [4, '有效税额须为金额（元，最多两位小数）'],
      [5, '有效税额须为金额（元，最多两位小数）'],
    ]);
    expect((await facts(b.id)).tick_state).toBe(0);
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
