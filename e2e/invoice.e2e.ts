/**
 * Outgoing invoices: demo5 issues an invoice from an approved 开票申请 (一键开票), sees it become
 * 开票成功 and opens its PDF in the file viewer through a signed link.
 */
import { describe, expect, it } from 'vitest';
import { InvoiceStatus } from '@zhyy/shared';
import { newSession, signIn, useBrowser } from './browser';

useBrowser();

describe('一键开票', () => {
  it('demo5 issues an approved request and opens its PDF', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo5');
    await page.goto('/invoice/nuonuo/invoice-request-billing');
    const list = page.getByTestId('invoice-billing');
    // An approved 开票申请 of the demo company (source MIS) for 江苏长江路桥建设有限公司.
    const row = list.locator('tr', { hasText: '江苏长江路桥建设有限公司' }).filter({ hasText: InvoiceStatus.label(InvoiceStatus.none) }).first();
    await row.waitFor();
    const orderNo = (await row.locator('td a').first().innerText()).trim();
    await row.locator('input[type=checkbox]').check();
    await list.getByRole('button', { name: '一键开票' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText(/成功 1 张/).waitFor();

    // It leaves 待开票; the 开票中 tab refreshes it until the simulator has issued it.
    await list.getByRole('tab', { name: '已开票' }).click();
    const issued = list.locator('tr', { hasText: orderNo });
    for (let i = 0; i < 20 && !(await issued.isVisible()); i++) {
      await list.getByRole('tab', { name: '开票中' }).click();
      await list.getByRole('button', { name: '刷新开票结果' }).click();
      await page.waitForTimeout(1000);
      await list.getByRole('tab', { name: '已开票' }).click();
      await page.waitForTimeout(300);
    }
    await issued.getByText(InvoiceStatus.label(InvoiceStatus.created)).waitFor();

    // Its PDF opens in the file viewer (a new tab) through a short-lived signed link.
    await issued.locator('td a', { hasText: orderNo }).click();
    const drawer = page.getByTestId('invoice-drawer');
    await drawer.waitFor();
    const pdfItem = drawer.locator('.ant-list-item', { hasText: '.pdf' });
    const [viewer] = await Promise.all([context.waitForEvent('page'), pdfItem.getByRole('button', { name: '查看' }).click()]);
    await viewer.waitForURL(/\/file\/view\//);
    await viewer.getByTestId('file-view').waitFor();
    const src = await viewer.locator('iframe').getAttribute('src');
    expect(src).toMatch(/^\/signed\/invoice-file\//);
    const res = await viewer.request.get(src!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
