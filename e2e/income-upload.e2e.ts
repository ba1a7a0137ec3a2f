/**
 * 进项发票编辑 (issue 13, upload and recognition): demo13 opens /invoice-entry/edit/new, chooses the three
 * samples at once (the 数电 invoice as XML, as PDF and its QR code as PNG), sees each recognised with its
 * number and where each field came from, corrects a field, saves the XML (已加入票池), then saves the PDF of the
 * same invoice (merged into it, one file more), and switches to 手工录入.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dismissReminder, newSession, signIn, useBrowser } from './browser';

useBrowser();

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/test/fixtures/income');
const FILES = ['invoice-sd.xml', 'invoice-sd.pdf', 'invoice-sd-qr.png'];
const NUMBER = '25322000000104857316';

describe('进项发票编辑：上传识别', () => {
  it('demo13 uploads three files at once, corrects one, saves it to the pool, and the same invoice again merges', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    // From 进项发票登记's 登记发票.
    await page.goto('/invoice-entry/list');
    await page.getByTestId('entry-register').click();
    await page.waitForURL('**/invoice-entry/edit/new');
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor();
    await page.getByText('上传发票', { exact: true }).waitFor();

    await panel.locator('input[type=file]').setInputFiles(FILES.map((f) => path.join(SAMPLES, f)));
    const cards = panel.getByTestId('upload-file');
    await expect.poll(() => cards.count()).toBe(3);
    await expect.poll(() => panel.locator('[data-testid="upload-file"][data-state="recognised"]').count(), { timeout: 30_000 }).toBe(3);
    expect(await panel.getByTestId('upload-progress-text').innerText()).toBe('识别完成：共 3 个文件，已识别 3 个');

    const card = (name: string) => panel.locator(`[data-testid="upload-file"][data-file="${name}"]`);
    // Each file's number, and where it came from.
    for (const name of FILES) {
      expect(await card(name).locator('input[id$="_digitalNo"]').inputValue()).toBe(NUMBER);
      expect(await card(name).getByTestId('upload-state').innerText()).toBe('已识别');
    }
    expect(await card('invoice-sd.xml').getByTestId('source-mark-digitalNo').innerText()).toBe('识别自XML');
    expect(await card('invoice-sd.xml').getByTestId('source-mark-sellerName').innerText()).toBe('识别自XML');
    expect(await card('invoice-sd-qr.png').getByTestId('source-mark-digitalNo').innerText()).toBe('识别自二维码');
    expect(await card('invoice-sd-qr.png').getByTestId('source-mark-amountIncl').innerText()).toBe('识别自二维码');
    expect(await card('invoice-sd.pdf').getByTestId('source-mark-sellerName').innerText()).toMatch(/^识别自/);
    // The image is previewed.
    await card('invoice-sd-qr.png').locator('img').first().waitFor();

    // One field corrected (the remark the file does not hold is added; a recognised field changed is marked).
    const xml = card('invoice-sd.xml');
    const seller = xml.locator('input[id$="_sellerName"]');
    const recognisedSeller = await seller.inputValue();
    await seller.fill(`${recognisedSeller}（更正）`);
    await expect.poll(() => xml.getByTestId('source-mark-sellerName').innerText()).toBe('与识别值不同（XML）');
    await seller.fill(recognisedSeller);
    await expect.poll(() => xml.getByTestId('source-mark-sellerName').innerText()).toBe('识别自XML');
    await xml.locator('input[id$="_remark"]').fill('上传识别（浏览器测试）');

    await xml.getByTestId('upload-save').click();
    const saved = xml.getByTestId('upload-saved');
    await saved.waitFor();
    expect(await saved.innerText()).toContain('已加入票池');
    await page.locator('.ant-message', { hasText: '已加入票池' }).waitFor();

    // The PDF of the same invoice: merged into it, with its file.
    const pdf = card('invoice-sd.pdf');
    await pdf.getByTestId('upload-save').click();
    await expect.poll(async () => (await pdf.getByTestId('upload-saved').count()) ? pdf.getByTestId('upload-saved').innerText() : '').toContain('该发票已在票池中，本次上传已合并到原记录');
    expect(await pdf.getByTestId('upload-saved').innerText()).toContain('新增文件1个');

    // The saved invoice opens in the pool with the two files.
    await saved.getByTestId('invoice-link').click();
    const detail = page.getByTestId('pool-detail');
    await detail.waitFor();
    expect(await detail.locator('.ant-card-head-title').first().innerText()).toContain(NUMBER);
    await detail.getByText('invoice-sd.pdf').first().waitFor();
    await detail.getByText('invoice-sd.xml').first().waitFor();

    // The XML again on a new page: already in the pool, said before saving.
    await page.goto('/invoice-entry/edit/new');
    await page.getByTestId('upload-panel').locator('input[type=file]').setInputFiles(path.join(SAMPLES, 'invoice-sd.xml'));
    await expect.poll(async () => (await page.getByTestId('upload-in-pool').count()) ? page.getByTestId('upload-in-pool').innerText() : '', { timeout: 30_000 })
      .toContain(`该文件已在票池中（发票 ${NUMBER}）`);

    // 手工录入: the empty form of a paper invoice.
    await page.getByText('手工录入', { exact: true }).click();
    const manual = page.getByTestId('manual-entry');
    await manual.waitFor();
    expect(await manual.locator('#income-manual_sellerName').inputValue()).toBe('');
    await manual.getByTestId('manual-save').click();
    await manual.getByText('请选择发票种类').waitFor();
  });
});
