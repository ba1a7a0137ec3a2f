/**
 * 发票池 (issue 13, the pool screens): demo13 opens 进项票池, filters it to one kind, exports it (a download
 * whose rows re-read with ExcelJS match the totals), opens an invoice's detail, then opens 异常票池 and
 * sees its count match the sidebar badge and role 13's reminder (abnormalInvoicePoolCount). 采集: demo13
 * collects a short window, watches the background task's progress to its final message, and verifies
 * one of the collected invoices from its detail.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { describe, expect, inject, it } from 'vitest';
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

    // 异常票池 (its tab on the worklist page): its count, its totals and the sidebar badge agree (every
    // flagged demo invoice has an open case).
    await page.goto('/income/invoicePool/abnormal');
    await page.getByTestId('abnormal-tabs').getByRole('tab', { name: '异常票池' }).click();
    const abnormal = page.getByTestId('income-pool-abnormal');
    const banner = page.getByTestId('abnormal-count');
    await expect.poll(async () => /待处理的异常发票 (\d+) 张/.exec(await banner.innerText())?.[1]).toBeTruthy();
    const n = Number(/待处理的异常发票 (\d+) 张/.exec(await banner.innerText())![1]);
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
    // The warning (an empty buyer tax number is not the company's) opens with the message, a moment later.
    if (await warning.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await warning.getByRole('button').last().click();
      await warning.waitFor({ state: 'hidden' });
    }
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

  it('demo13 collects a short window, sees the progress finish with the message, and verifies a collected invoice from its detail', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    await page.goto('/income/invoicePool/list');
    const list = page.getByTestId('income-pool');
    await list.getByTestId('pool-totals').waitFor();
    const startedAt = new Date().toISOString();
    // One day, three days ago (Asia/Shanghai): some 60 invoices of the tax simulator.
    const day = new Date(Date.now() + 8 * 3600_000 - 3 * 86_400_000).toISOString().slice(0, 10);

    await list.getByTestId('pool-collect').click();
    const dialog = page.locator('.ant-modal', { hasText: '从税务数字账户采集进项发票' });
    await dialog.getByTestId('collect-form').waitFor();
    const inputs = dialog.locator('.ant-picker-input input');
    // Typed into the range picker; under load a keystroke during its animation can be lost: check and retry.
    for (let attempt = 0; attempt < 4; attempt++) {
      for (const i of [0, 1]) {
        await inputs.nth(i).click();
        await inputs.nth(i).fill(day);
        await inputs.nth(i).press('Enter');
      }
      await page.waitForTimeout(300);
      if ((await inputs.nth(0).inputValue()) === day && (await inputs.nth(1).inputValue()) === day) break;
    }
    expect([await inputs.nth(0).inputValue(), await inputs.nth(1).inputValue()]).toEqual([day, day]);
    await dialog.getByTestId('collect-start').click();
    // The progress view, then the final message; the task's counts are those of the message.
    await dialog.getByTestId('collect-progress').waitFor();
    const message = dialog.getByTestId('collect-message');
    await message.waitFor({ timeout: 60_000 });
    const text = await message.innerText();
    expect(text).toMatch(/^采集完成：税务端 (\d+) 张，新增 (\d+) 张，合并 (\d+) 张/);
    const [, total, created, merged] = /税务端 (\d+) 张，新增 (\d+) 张，合并 (\d+) 张/.exec(text)!.map(Number);
    expect(total).toBeGreaterThan(0);
    expect(created! + merged!).toBeLessThanOrEqual(total!);
    expect(await dialog.getByTestId('collect-percent').innerText()).toContain('100%');
    const counts = await dialog.getByTestId('collect-counts').innerText();
    expect(counts.replace(/\s+/g, '')).toContain(`税务端张数${total}`);
    await dialog.getByTestId('collect-close').click();
    await dialog.waitFor({ state: 'hidden' });

    // One of the invoices that arrived (a 数电 one: verified by number, date and total) from its detail.
    const db = new Database(path.join(inject('dataDir'), 'platform.db'), { readonly: true });
    let id: string | undefined;
    try {
      // Arrived or merged by this collection (a run on the same data merges), not yet verified.
      id = (db.prepare(`select i.id from income_invoices i where i.issue_date = ? and i.kind in ('81', '82') and i.verify_state = 0
        and exists (select 1 from income_events e where e.invoice_id = i.id and e.kind in ('arrive', 'merge') and e.created_at >= ?) order by i.id limit 1`).get(day, startedAt) as { id: string } | undefined)?.id;
    } finally {
      db.close();
    }
    expect(id).toBeDefined();
    await page.goto(`/income/invoicePool/detail/${id}`);
    const detail = page.getByTestId('pool-detail');
    await detail.waitFor();
    await expect.poll(() => detail.getByTestId('pool-verify-sign').innerText()).toContain('未查验');
    await detail.getByTestId('pool-verify').click();
    const result = page.getByTestId('verify-result');
    await result.waitFor();
    expect(await result.getByTestId('verify-word').innerText()).toBe('一致');
    expect(await result.innerText()).toContain('查验成功，发票信息一致');
    await page.getByTestId('verify-close').click();
    // The detail and its history show it.
    await expect.poll(() => detail.getByTestId('pool-verifications').innerText()).toContain('查验成功，发票信息一致');
    await expect.poll(() => detail.getByTestId('pool-verify-sign').innerText()).toContain('查验一致');
  });
});
