/**
 * 销项发票台账 (issue 7): demo11 (read-only) filters the ledger to red invoices, exports it (a download
 * whose rows re-read with ExcelJS match the totals), then opens a blue invoice's detail and its PDF.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { newSession, pickOption, signIn, useBrowser } from './browser';

useBrowser();

describe('销项发票台账', () => {
  it('demo11 filters, exports, and opens a detail and its PDF', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo11');
    await page.goto('/invoice/invoiceaccount/invoice-list');
    const ledger = page.getByTestId('invoice-ledger');
    const totals = ledger.getByTestId('ledger-totals');
    await totals.waitFor();
    const all = Number(/（(\d+) 张）/.exec(await totals.innerText())![1]);
    expect(all).toBeGreaterThan(1);

    // Filter to red invoices: every row is 红字 and the totals count them.
    await pickOption(page, ledger.locator('#invoice-ledger_colour'), '红字');
    await ledger.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => Number(/（(\d+) 张）/.exec(await totals.innerText())?.[1])).toBeLessThan(all);
    const reds = Number(/（(\d+) 张）/.exec(await totals.innerText())![1]);
    expect(reds).toBeGreaterThan(0);
    const voided = ledger.getByTestId('ledger-voided');
    const redVoided = (await voided.count()) ? Number(/（(\d+) 张/.exec(await voided.innerText())![1]) : 0;
    const rows = ledger.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(reds + redVoided);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('红字');
    expect(await totals.innerText()).toContain('-');

    // Export the filtered set: a download whose sheet holds exactly those rows.
    const [download] = await Promise.all([page.waitForEvent('download'), ledger.getByTestId('export-button').click()]);
    expect(download.suggestedFilename()).toMatch(/^销项发票台账-\d{8}\.xlsx$/);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(fs.readFileSync(file)).buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(reds + redVoided + 1);
    expect(ws.getRow(2).getCell(3).value).toBe('红字');

    // Back to every invoice; open a blue 数电 invoice that was issued, then its PDF in the file viewer.
    await ledger.getByRole('button', { name: /重\s*置/ }).click();
    await expect.poll(async () => Number(/（(\d+) 张）/.exec(await totals.innerText())?.[1])).toBe(all);
    // Pick a buyer by part of its name: every row is that buyer's.
    await ledger.locator('#invoice-ledger_buyerId').fill('长江路桥');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '江苏长江路桥建设有限公司' }).click();
    await ledger.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => Number(/（(\d+) 张）/.exec(await totals.innerText())?.[1])).toBeLessThan(all);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('江苏长江路桥建设有限公司');
    await ledger.getByRole('button', { name: /重\s*置/ }).click();
    await expect.poll(async () => Number(/（(\d+) 张）/.exec(await totals.innerText())?.[1])).toBe(all);
    const blue = rows.filter({ hasText: '数电专票' }).filter({ hasText: '开票成功' }).filter({ hasNotText: '红字' }).first();
    await blue.getByTestId('ledger-detail-link').click();
    const detail = page.getByTestId('ledger-detail');
    await detail.waitFor();
    await detail.getByText('开票明细').waitFor();
    await detail.getByText('税务端同步日志').waitFor();
    await detail.getByTestId('ledger-apportionment').locator('.ant-table-title', { hasText: '项目分摊' }).waitFor();
    expect(await detail.getByTestId('send-button').count()).toBe(0);
    const [viewer] = await Promise.all([context.waitForEvent('page'), detail.getByTestId('open-pdf').click()]);
    await viewer.waitForURL(/\/file\/view\//);
    await viewer.getByTestId('file-view').waitFor();
    const src = await viewer.locator('iframe').getAttribute('src');
    expect(src).toMatch(/^\/signed\/invoice-file\//);
    const res = await viewer.request.get(src!);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
