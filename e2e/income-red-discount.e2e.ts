/**
 * Issue 29 items 1 and 2 in the browser: demo13 uploads a 数电专票 with a discount line (折扣行), a supplier's blue
 * 数电专票 and the red one reversing part of it (fixtures of apps/server/test/fixtures/income), saves the three to the
 * pool, and sees them there: the red invoice tagged 红字 with its minus signs, the seller's totals netting
 * (10,900.00 − 1,090.00 = 9,810.00), the discount line on the detail, the red invoice linked to its blue one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dismissReminder, newSession, signIn, useBrowser } from './browser';

useBrowser();

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/test/fixtures/income');
const FILES = ['invoice-sd-discount.xml', 'invoice-sd-blue.xml', 'invoice-sd-red.xml'];
const BLUE_NO = '25322000000104862417';
const RED_NO = '25322000000104869953';
const DISCOUNT_NO = '25322000000104861208';

describe('折扣行与红字发票', () => {
  it('demo13 uploads a discount-line invoice and a red invoice and sees them in the pool with totals that net', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    await page.goto('/invoice-entry/edit/new');
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor();
    await panel.locator('input[type=file]').setInputFiles(FILES.map((f) => path.join(SAMPLES, f)));
    await expect.poll(() => panel.locator('[data-testid="upload-file"][data-state="recognised"]').count(), { timeout: 30_000 }).toBe(3);
    const card = (name: string) => panel.locator(`[data-testid="upload-file"][data-file="${name}"]`);
    // The red invoice's figures and the blue number it states, as recognised.
    expect(await card('invoice-sd-red.xml').locator('input[id$="_amountIncl"]').inputValue()).toBe('-1090.00');
    expect(await card('invoice-sd-red.xml').locator('input[id$="_blueInvoiceNo"]').inputValue()).toBe(BLUE_NO);
    for (const name of FILES) {
      await card(name).getByTestId('upload-save').click();
      await expect.poll(async () => ((await card(name).getByTestId('upload-saved').count()) ? card(name).getByTestId('upload-saved').innerText() : ''), { timeout: 15_000 }).toContain('已加入票池');
    }

    // The seller's two invoices in the pool: the red one tagged, its figures negative, the totals net.
    await page.goto('/income/invoicePool/list');
    const list = page.getByTestId('income-pool');
    const totals = list.getByTestId('pool-totals');
    await totals.waitFor();
    await list.getByTestId('pool-more-filters').click();
    await list.locator('#income-pool-all_sellerTaxNo').fill('91320105MA2B7LQ3K6');
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => totals.innerText()).toContain('（2 张）');
    expect(await totals.innerText()).toContain('9,810.00');
    const rows = list.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    const red = rows.filter({ hasText: RED_NO });
    expect(await red.getByTestId('red-invoice-tag').innerText()).toBe('红字');
    expect(await red.innerText()).toContain('-1,090.00');
    expect(await rows.filter({ hasText: BLUE_NO }).getByTestId('red-invoice-tag').count()).toBe(0);

    // The red invoice's detail links its blue one.
    await red.getByTestId('pool-detail-link').click();
    const detail = page.getByTestId('pool-detail');
    await detail.waitFor();
    const blueLink = detail.getByTestId('pool-blue-invoice').getByRole('link', { name: BLUE_NO });
    await blueLink.waitFor();
    await blueLink.click();
    await page.getByTestId('pool-red-invoices').getByRole('link', { name: RED_NO }).waitFor();

    // The discount-line invoice: its detail shows the 折扣行 with its minus sign under a positive total.
    await page.goto('/income/invoicePool/list');
    await list.locator('#income-pool-all_number').fill(DISCOUNT_NO);
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => totals.innerText()).toContain('（1 张）');
    expect(await totals.innerText()).toContain('30,510.00');
    await rows.first().getByTestId('pool-detail-link').click();
    const lines = page.getByTestId('pool-lines');
    await lines.waitFor();
    expect(await lines.getByTestId('discount-line').innerText()).toBe('折扣行');
    expect(await lines.innerText()).toContain('-2,000.00');
  });
});
