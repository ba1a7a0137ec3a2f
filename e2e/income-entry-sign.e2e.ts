/**
 * 发票签收 (issue 13): demo14 (档案管理员, role 14) chooses two waiting invoices on 进项发票登记, signs them
 * against a project (单据类型 项目, XM2026-001), sees each outcome with its archive number GD…, the summary
 * 签收成功2张，失败0张, the counts reloaded at once with two fewer waiting (the 签收归档 badge); both archive numbers are then found in 签收记录, and
 * the two invoices are no longer waiting.
 */
import { describe, expect, it } from 'vitest';
import { sidebarBadgeText } from '@zhyy/shared';
import { newSession, pickOption, signIn, useBrowser } from './browser';

useBrowser();

const countOf = async (text: Promise<string>) => Number(/（(\d+) 张）/.exec(await text)?.[1]);

describe('发票签收', () => {
  it('demo14 signs two waiting invoices against a project and finds both archive numbers in 签收记录', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo14');
    await page.goto('/invoice-entry/list');
    const list = page.getByTestId('entry-list');
    const totals = list.getByTestId('pool-totals');
    await totals.waitFor();
    const waiting = await countOf(totals.innerText());
    expect(waiting).toBeGreaterThan(2);
    // The badge of 签收归档 counts the same waiting invoices.
    const badge = page.locator('.side-link', { hasText: '签收归档' }).getByTestId('sidebar-badge');
    await expect.poll(async () => (await badge.innerText()).trim()).toBe(sidebarBadgeText(waiting));

    // Choose the first two rows.
    const rows = list.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    const numbers: string[] = [];
    for (const i of [0, 1]) {
      numbers.push((await rows.nth(i).getByTestId('pool-detail-link').innerText()).trim());
      await rows.nth(i).locator('.ant-table-selection-column input[type="checkbox"]').check();
    }
    const signButton = list.getByTestId('entry-sign');
    await expect.poll(() => signButton.innerText()).toContain('签收（2张）');
    await signButton.click();

    // The dialog: 单据类型 项目 and its number.
    const dialog = page.locator('.ant-modal', { has: page.getByTestId('sign-dialog') });
    await dialog.getByTestId('sign-dialog').waitFor();
    expect(await dialog.getByTestId('sign-dialog').innerText()).toContain('已选择 2 张发票');
    await pickOption(page, dialog.locator('#income-sign_docType'), '项目');
    await dialog.locator('#income-sign_docNo').fill('XM2026-001');
    // The sign call is a change: the counts reload at once, the waiting count two lower.
    const counts = page.waitForResponse(async (r) => r.url().endsWith('/api/invoice/billing-cancellation-count') && (await r.json()).r?.invoiceEntrySignCount === waiting - 2);
    await dialog.getByTestId('sign-submit').click();

    // Each invoice's outcome with its archive number, under the summary.
    const result = page.locator('.ant-modal', { has: page.getByTestId('sign-summary') });
    await result.getByTestId('sign-summary').waitFor();
    expect((await result.getByTestId('sign-summary').innerText()).trim()).toBe('签收成功2张，失败0张');
    const outcomes = result.getByTestId('sign-outcomes');
    const archiveNos = (await outcomes.getByTestId('sign-archive-no').allInnerTexts()).map((t) => t.trim());
    expect(archiveNos).toHaveLength(2);
    for (const no of archiveNos) expect(no).toMatch(/^GD\d{6}\d{4,}$/);
    expect(new Set(archiveNos).size).toBe(2);
    const outcomeText = await outcomes.innerText();
    for (const n of numbers) expect(outcomeText).toContain(n);
    await result.getByTestId('sign-result-close').click();
    await result.waitFor({ state: 'hidden' });

    // The list and the badge follow: two fewer waiting.
    await expect.poll(() => countOf(totals.innerText())).toBe(waiting - 2);
    await counts;
    await expect.poll(async () => (await badge.innerText()).trim()).toBe(sidebarBadgeText(waiting - 2));

    // 签收归档 → 签收记录: each archive number finds its invoice, signed against XM2026-001.
    await page.goto('/invoice-entry/sign/list');
    await page.getByTestId('entry-sign-waiting').getByTestId('pool-totals').waitFor();
    await page.getByRole('tab', { name: '签收记录' }).click();
    const records = page.getByTestId('entry-signings');
    await records.waitFor();
    const signedNumbers: string[] = [];
    for (const no of archiveNos) {
      await records.locator('#list-income-entry-signings_archiveNo').fill(no);
      await records.getByRole('button', { name: /查\s*询/ }).click();
      const found = records.locator('tbody tr.ant-table-row');
      await expect.poll(async () => (await found.allInnerTexts()).join('\n')).toContain(no);
      expect(await found.count()).toBe(1);
      const text = await found.first().innerText();
      expect(text).toContain('已签收');
      expect(text).toContain('XM2026-001');
      expect(text).toContain('项目');
      signedNumbers.push((await found.first().getByTestId('signing-invoice').innerText()).trim());
    }
    // The two archive numbers belong to the two invoices chosen, one each.
    expect(signedNumbers.sort()).toEqual([...numbers].sort());

    // Neither invoice is waiting any more.
    await page.getByRole('tab', { name: '待签收' }).click();
    const again = page.getByTestId('entry-sign-waiting');
    await again.locator('#income-entry-all_number').fill(numbers[0]!);
    await again.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => countOf(again.getByTestId('pool-totals').innerText())).toBe(0);
  });

  it('demo16 (role 16) reads the waiting list and the records but cannot sign', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo16');
    await page.goto('/invoice-entry/list');
    const list = page.getByTestId('entry-list');
    await list.getByTestId('pool-totals').waitFor();
    await expect.poll(() => list.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    expect(await list.getByTestId('entry-sign').count()).toBe(0);
    expect(await list.locator('.ant-table-selection-column').count()).toBe(0);
    await page.goto('/invoice-entry/sign/list');
    await page.getByTestId('entry-sign-waiting').getByTestId('pool-totals').waitFor();
    expect(await page.getByTestId('entry-sign-waiting').getByTestId('entry-sign').count()).toBe(0);
    await page.getByRole('tab', { name: '签收记录' }).click();
    await page.getByTestId('entry-signings').locator('.ant-table').waitFor();
  });
});
