/** Issue 7: apportionment in headless Chromium — demo5 moves part of an allocation to another project and sees it in the history of the change page and of the ledger; demo11 only reads. */
import { describe, expect, it } from 'vitest';
import { newSession, signIn, useBrowser } from './browser';

useBrowser();

describe('project-change (issue 7)', () => {
  it('demo5 moves 1,000.00 元 of an allocation to another project; both the change page and the ledger show it', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo5');
    await page.goto('/invoice/invoiceaccount/project-change');
    const picker = page.getByTestId('allocation-picker');
    const search = page.getByPlaceholder('项目名称或发票号码');
    await search.fill('无锡地铁');
    await search.press('Enter');
    const row = picker.locator('tbody tr').filter({ hasText: '90,000.00' }).first();
    await row.waitFor();
    const invoiceNo = (await row.locator('td').nth(1).innerText()).trim();
    await row.click();

    await page.getByTestId('change-target').click();
    // By its code: a name fragment also finds the tender area's projects, listed before it.
    await page.keyboard.type('XM2026-002');
    await page.getByTitle('XM2026-002 溧水经济开发区道路改造').click();
    const amount = page.getByTestId('change-amount');
    await amount.fill('1000');
    const reason = `端到端：部分工程量属于溧水项目 ${Date.now()}`;
    await page.getByTestId('change-reason').fill(reason);
    await page.getByTestId('change-submit').click();
    // Under load the first click can land while the dialog is still zooming in: click again until the
    // change is done, never while the button is already submitting (a loading antd button).
    const confirm = page.getByRole('button', { name: '确认变更' });
    const done = page.getByText('项目变更成功');
    await confirm.waitFor();
    await expect
      .poll(
        async () => {
          if (await done.isVisible()) return true;
          if ((await confirm.isVisible()) && !/ant-btn-loading/.test((await confirm.getAttribute('class')) ?? '')) await confirm.click({ timeout: 2_000 }).catch(() => undefined);
          return done.isVisible();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);

    const history = page.getByTestId('change-history');
    const entry = history.locator('tbody tr').filter({ hasText: reason });
    await entry.waitFor();
    expect(await entry.innerText()).toContain('无锡地铁5号线配套工程');
    expect(await entry.innerText()).toContain('溧水经济开发区道路改造');
    expect(await entry.innerText()).toContain('1,000.00');
    expect(await entry.innerText()).toContain(invoiceNo);

    // The project ledger: the invoice now has a 1,000.00 allocation on 溧水, and its drawer holds the change.
    await page.goto('/invoice/invoiceaccount/invoice-item-apportionment');
    const ledger = page.getByTestId('ledger-project');
    await ledger.getByPlaceholder('发票号码或购方').fill(invoiceNo);
    await ledger.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => ledger.locator('tbody tr').filter({ hasText: '溧水经济开发区道路改造' }).filter({ hasText: '1,000.00' }).count()).toBeGreaterThan(0);
    await ledger.locator('tbody tr').filter({ hasText: '溧水经济开发区道路改造' }).first().getByTestId('open-allocation').click();
    const drawer = page.getByTestId('allocation-history');
    await drawer.waitFor();
    await expect.poll(() => drawer.innerText()).toContain(reason);
    await context.close();
  });

  it('demo11 reads the change page and the history but cannot change', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo11');
    await page.goto('/invoice/invoiceaccount/project-change');
    await page.getByText('项目变更需由开票人员办理').waitFor();
    await page.getByTestId('allocation-picker').locator('tbody tr').first().click();
    expect(await page.getByTestId('change-submit').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('change-history').locator('tbody tr').count()).toBeGreaterThan(0);
    await context.close();
  });
});
