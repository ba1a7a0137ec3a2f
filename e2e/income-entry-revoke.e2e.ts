/**
 * 发票签收 (issue 13): demo13 revokes a signed invoice with a reason and finds it in 签收撤销 (the demo seed
 * has no signing records, so the test signs one through the API first); then allocates an invoice to two
 * projects in 项目分摊, moves part of one to a third project in 项目变更 and sees the change row.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { TOKEN_COOKIE_NAME, TOKEN_HEADER, type PoolPage, type SignAnswer } from '@zhyy/shared';
import { newSession, signIn, useBrowser } from './browser';

useBrowser();

/** Role 13's daily reminder (异常发票提醒) comes first. */
async function dismissReminder(page: Page): Promise<void> {
  const reminder = page.locator('.ant-modal-confirm', { hasText: '异常发票提醒' });
  await reminder.waitFor();
  await reminder.getByRole('button', { name: /稍后处理/ }).click();
  await reminder.waitFor({ state: 'hidden' });
}

async function call<T>(context: BrowserContext, path: string, body: unknown): Promise<{ code: number; message: string; r: T }> {
  const token = (await context.cookies()).find((c) => c.name === TOKEN_COOKIE_NAME)!.value;
  const res = await context.request.post(path, { data: body, headers: { [TOKEN_HEADER]: token } });
  return (await res.json()) as { code: number; message: string; r: T };
}

/** Picks an antd Select option by its text; verifies the field shows it and picks again if it did not take. */
async function pick(page: Page, select: Locator, typed: string, option: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await page.keyboard.type(typed);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option).click();
    const shown = await select.locator('.ant-select-content, .ant-select-selection-item').first().innerText().catch(() => '');
    if (shown.includes(option) || attempt === 3) {
      expect(shown).toContain(option);
      return;
    }
    await page.keyboard.press('Escape');
  }
}

/**
 * A waiting invoice (not signed, free), with the number it is searched by. 82 (数电普票) by default: an
 * ordinary invoice is never ticked for deduction, so income-deduction.e2e (which ticks the first 数电专票
 * it finds, on the same server) cannot make it unrevokable (该发票已勾选，不能撤销签收).
 */
async function waitingInvoice(context: BrowserContext, skip = 0, kind = '82'): Promise<{ id: string; no: string; amountIncl: number }> {
  const list = await call<PoolPage>(context, '/api/income/entry/list', { pageIndex: 1, pageSize: 20, kind });
  expect(list.code, list.message).toBe(20000);
  const r = list.r.items[skip]!;
  return { id: r.id, no: r.digitalNo || r.invoiceNo, amountIncl: r.amountIncl };
}

describe('发票签收: 签收撤销, 项目分摊, 项目变更', () => {
  it('demo13 revokes a signed invoice with a reason and finds it in 签收撤销', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    const inv = await waitingInvoice(context);
    const signed = await call<SignAnswer>(context, '/api/income/entry/sign', { invoiceIds: [inv.id], docType: 'project', docNo: 'XM2026-001' });
    expect(signed.code, signed.message).toBe(20000);
    const archiveNo = signed.r.outcomes[0]!.archiveNo;
    expect(archiveNo).toMatch(/^GD\d{10,}$/);

    await page.goto('/invoice-entry/revoke/list');
    await page.getByTestId('revoke-add').click();
    const add = page.getByTestId('revoke-add-page');
    await add.waitFor();
    await add.getByLabel('档案号').fill(archiveNo);
    await add.getByRole('button', { name: /查\s*询/ }).click();
    const row = add.getByTestId('signed-list').locator('tbody tr', { hasText: archiveNo });
    await row.waitFor();
    await row.click();
    await add.getByTestId('revoke-picked').waitFor();
    // The reason's rule, in the page: one character is not enough.
    await add.getByTestId('revoke-reason').fill('错');
    await add.getByTestId('revoke-submit').click();
    await add.getByText('撤销原因至少2个字').waitFor();
    const reason = `端到端：签收单据填错，需重新签收 ${Date.now()}`;
    await add.getByTestId('revoke-reason').fill(reason);
    await add.getByTestId('revoke-submit').click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确认撤销档案号' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(`档案号 ${archiveNo} 作废且不再使用`);
    await confirm.getByRole('button', { name: '确认撤销' }).click();

    // A refusal stays on the page in the server's words: fail with them rather than a bare timeout.
    const refused = add.getByTestId('revoke-error');
    await Promise.race([page.waitForURL((u) => u.pathname === '/invoice-entry/revoke/list'), refused.waitFor({ timeout: 0 }).then(async () => expect.fail(await refused.innerText()), () => undefined)]);
    await page.getByText(`已撤销签收，档案号 ${archiveNo} 作废`).waitFor();
    const list = page.getByTestId('revoke-list');
    const entry = list.locator('tbody tr', { hasText: reason });
    await entry.waitFor();
    expect(await entry.innerText()).toContain(archiveNo);
    expect(await entry.innerText()).toContain(inv.no);
    // The 新增签收撤销 tag closed on the way back.
    expect(await page.locator('[data-testid="tags-view-item"][data-path="/invoice-entry/revoke/add"]').count()).toBe(0);
    // Filtered by its archive number: that one row.
    await list.getByLabel('档案号').fill(archiveNo);
    await list.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => list.locator('tbody tr.ant-table-row').count()).toBe(1);
    // Revoked: the invoice waits to be signed again.
    const again = await call<PoolPage>(context, '/api/income/entry/list', { pageIndex: 1, pageSize: 5, number: inv.no });
    expect(again.r.items.map((r) => r.id)).toEqual([inv.id]);
    await context.close();
  });

  it('demo13 allocates an invoice to two projects, moves part to a third and sees the change row', async () => {
    const { page, context } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);
    const inv = await waitingInvoice(context, 3, '81');

    await page.goto('/invoice-entry/project/apportionment');
    const ap = page.getByTestId('income-apportionment');
    await ap.getByTestId('picker-number').fill(inv.no);
    await ap.getByTestId('picker-submit').click();
    const invRow = ap.getByTestId('invoice-picker').locator('tbody tr', { hasText: inv.no });
    await invRow.waitFor();
    await invRow.click();
    await ap.getByText('尚未分摊到项目').waitFor();
    const half = (Math.round(inv.amountIncl / 2) / 100).toFixed(2);
    await ap.getByTestId('edit-allocation').click();
    const modal = page.getByTestId('income-split');
    await modal.waitFor();
    await pick(page, modal.getByTestId('split-target-0'), 'XM2026-001', 'XM2026-001 江北新区综合管廊二期');
    await modal.getByTestId('split-amount-0').fill(half);
    await page.getByRole('button', { name: /增加分摊项目/ }).click();
    await pick(page, modal.getByTestId('split-target-1'), 'XM2026-002', 'XM2026-002 溧水经济开发区道路改造');
    await expect.poll(() => modal.getByTestId('split-sum').innerText()).toContain('差额 0.00 元');
    await modal.getByTestId('split-reason').fill('端到端：按工作量分摊到两个项目');
    await page.getByRole('button', { name: '保存分摊' }).click();
    await page.getByText('分摊已保存').waitFor();
    const table = ap.getByTestId('allocation-table');
    await table.locator('tbody tr', { hasText: '江北新区综合管廊二期' }).waitFor();
    await table.locator('tbody tr', { hasText: '溧水经济开发区道路改造' }).waitFor();

    await page.goto('/invoice-entry/project/change');
    const ch = page.getByTestId('income-project-change');
    await ch.getByTestId('picker-number').fill(inv.no);
    await ch.getByTestId('picker-submit').click();
    await ch.getByTestId('invoice-picker').locator('tbody tr', { hasText: inv.no }).click();
    await ch.getByTestId('allocation-table').locator('tbody tr', { hasText: '江北新区综合管廊二期' }).click();
    // The move card shows the picked allocation before its form is filled.
    await ch.getByText('分摊价税合计').waitFor();
    await pick(page, ch.getByTestId('change-target'), 'XM2026-003', 'XM2026-003 苏州河滨公园景观提升');
    await ch.getByTestId('change-amount').fill('10');
    const reason = `端到端：部分费用属于苏州项目 ${Date.now()}`;
    await ch.getByTestId('change-reason').fill(reason);
    await ch.getByTestId('change-submit').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '确认变更' }).click();
    // Polls the message area so that a refusal shows its words in the failure, not only a timeout.
    await expect.poll(() => page.locator('.ant-message').innerText().catch(() => ''), { timeout: 30_000 }).toContain('项目已变更');

    const history = ch.getByTestId('change-history');
    const entry = history.locator('tbody tr', { hasText: reason });
    await entry.waitFor();
    const text = await entry.innerText();
    for (const s of ['江北新区综合管廊二期', '苏州河滨公园景观提升', '10.00', inv.no, '徐婷']) expect(text).toContain(s);
    // The allocation table of the invoice now holds the third project.
    await ch.getByTestId('allocation-table').locator('tbody tr', { hasText: '苏州河滨公园景观提升' }).waitFor();
    await context.close();
  });
});
