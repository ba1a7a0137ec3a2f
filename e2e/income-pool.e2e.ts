/**
 * 发票池 (issue 13, the pool screens): demo13 opens 进项票池, filters it to one kind, exports it (a download
 * whose rows re-read with ExcelJS match the totals), opens an invoice's detail, then opens 异常票池 and
 * sees its count match the sidebar badge and role 13's reminder (abnormalInvoicePoolCount).
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sidebarBadgeText } from '@zhyy/shared';
import { dismissReminder, newSession, pickOption, signIn, useBrowser } from './browser';

useBrowser();

const countOf = async (text: Promise<string>) => Number(/（(\d+) 张）/.exec(await text)?.[1]);
const KIND = '数电发票（增值税专用发票）';

describe('发票池', () => {
  it('demo13 filters the pool, exports it, opens a detail and the abnormal list', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo13');
    // Role 13's daily reminder (the shell's): it names the count the abnormal list must show.
    const reminded = await dismissReminder(page);
    await page.goto('/income/invoicePool/list');
    const list = page.getByTestId('income-pool');
    const totals = list.getByTestId('pool-totals');
    await totals.waitFor();
    const all = await countOf(totals.innerText());
    expect(all).toBeGreaterThan(20);

    // Filter to one kind: every row is of it, and the totals count fewer.
    await pickOption(page, list.locator('#income-pool-all_kind'), KIND);
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => countOf(totals.innerText())).toBeLessThan(all);
    const filtered = await countOf(totals.innerText());
    expect(filtered).toBeGreaterThan(0);
    const rows = list.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(Math.min(20, filtered));
    for (const text of await rows.allInnerTexts()) expect(text).toContain(KIND);

    // Export the filtered set: a download whose sheet holds exactly those rows.
    const [download] = await Promise.all([page.waitForEvent('download'), list.getByTestId('export-button').click()]);
    expect(download.suggestedFilename()).toMatch(/^进项票池-\d{8}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(fs.readFileSync(await download.path())).buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('发票种类');
    expect(ws.rowCount).toBe(filtered + 1);
    for (let i = 2; i <= ws.rowCount; i++) expect(ws.getRow(i).getCell(1).value).toBe(KIND);

    // Open the first invoice: its face, lines and history.
    const no = (await rows.first().getByTestId('pool-detail-link').innerText()).trim();
    await rows.first().getByTestId('pool-detail-link').click();
    const detail = page.getByTestId('pool-detail');
    await detail.waitFor();
    expect(await detail.locator('.ant-card-head-title').first().innerText()).toContain(no);
    await detail.getByTestId('pool-lines').waitFor();
    await detail.getByTestId('pool-history').getByText('进入票池').first().waitFor();

    // 异常票池: its count, its totals and the sidebar badge agree.
    await page.goto('/income/invoicePool/abnormal');
    const abnormal = page.getByTestId('income-pool-abnormal');
    const banner = page.getByTestId('abnormal-count');
    await expect.poll(async () => /共有异常发票 (\d+) 张/.exec(await banner.innerText())?.[1]).toBeTruthy();
    const n = Number(/共有异常发票 (\d+) 张/.exec(await banner.innerText())![1]);
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(reminded);
    await expect.poll(() => countOf(abnormal.getByTestId('pool-totals').innerText())).toBe(n);
    const item = page.locator('.side-link', { hasText: '异常票池' });
    await expect.poll(async () => (await item.getByTestId('sidebar-badge').innerText()).trim()).toBe(sidebarBadgeText(n));
    // Every row carries at least one abnormal flag.
    const abnormalRows = abnormal.locator('tbody tr.ant-table-row');
    await expect.poll(() => abnormalRows.count()).toBe(Math.min(20, n));
    expect(await abnormalRows.locator('[data-testid="abnormal-flags"]').count()).toBe(await abnormalRows.count());
  });

  it('demo13 enters a paper invoice: the client check in the server\'s words, then 已加入票池, then a merge', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    await page.goto('/income/invoicePool/list');
    const list = page.getByTestId('income-pool');
    await list.getByTestId('pool-totals').waitFor();
    const enter = async (total: string, lineTax?: string) => {
      await list.getByTestId('pool-entry').click();
      const drawer = page.locator('.ant-drawer', { hasText: '手工录入纸质发票' });
      await drawer.waitFor();
      await pickOption(page, drawer.locator('#income-entry_kind'), '增值税专用发票');
      await drawer.locator('#income-entry_issueDate').fill('2026-11-02');
      await drawer.locator('#income-entry_issueDate').press('Enter');
      await drawer.locator('#income-entry_invoiceCode').fill('3200261130');
      await drawer.locator('#income-entry_invoiceNo').fill('88880001');
      await drawer.locator('#income-entry_sellerName').fill('南京恒达建材有限公司');
      await drawer.locator('#income-entry_buyerName').fill('华建工程技术服务有限公司');
      await drawer.locator('#income-entry_amountExcl').fill('1000');
      await drawer.locator('#income-entry_tax').fill('130');
      await drawer.locator('#income-entry_amountIncl').fill(total);
      if (lineTax !== undefined) {
        await drawer.getByRole('button', { name: /添加明细/ }).click();
        await drawer.getByLabel('项目名称').fill('*建筑材料*钢筋');
        await drawer.getByLabel('明细金额').fill('1000');
        await drawer.getByLabel('明细税额').fill(lineTax);
      }
      await drawer.getByTestId('entry-save').click();
      return drawer;
    };
    // 金额 + 税额 ≠ 价税合计, and a line whose tax is not the face's: said in the drawer before anything is sent.
    const drawer = await enter('1131', '129');
    await expect.poll(() => drawer.getByTestId('entry-problems').innerText()).toContain('金额与税额之和不等于价税合计');
    expect(await drawer.getByTestId('entry-problems').innerText()).toContain('明细税额合计与发票税额不一致');
    await drawer.locator('#income-entry_amountIncl').fill('1130');
    await drawer.getByLabel('明细税额').fill('130');
    await drawer.getByTestId('entry-save').click();
    await page.locator('.ant-message', { hasText: '已加入票池' }).waitFor();
    const warning = page.locator('.ant-modal-confirm', { hasText: '已加入票池，请注意' });
    if (await warning.isVisible()) await warning.getByRole('button').last().click();
    // The list shows it, entered by hand.
    await list.locator('#income-pool-all_number').fill('88880001');
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => countOf(list.getByTestId('pool-totals').innerText())).toBe(1);
    expect(await list.locator('tbody tr.ant-table-row').first().innerText()).toContain('手工录入');
    // Its detail holds the line typed.
    await list.getByTestId('pool-detail-link').first().click();
    await page.getByTestId('pool-lines').getByText('*建筑材料*钢筋').waitFor();
    await page.goto('/income/invoicePool/list');
    await list.getByTestId('pool-totals').waitFor();
    // The same invoice again: merged into the first, in the server's words.
    await enter('1130');
    await page.locator('.ant-message', { hasText: '该发票已在票池中，本次手工录入已合并到原记录' }).waitFor();
    await list.locator('#income-pool-all_number').fill('88880001');
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => countOf(list.getByTestId('pool-totals').innerText())).toBe(1);
  });
});
