/**
 * 发票抵扣 and the abnormal worklist (issue 14): demo13 ticks invoices for deduction, applies for and
 * confirms the period's statistics (which locks the period: ticking moves on to the next one), and
 * transfers out the input tax of a deducted 异常凭证 invoice from 异常票池.
 *
 * A confirmation in the period's own month is refused (当前月与属期相等时不符合确认条件), so this test runs
 * its own server whose tax simulator's clock starts on the 5th of this month (TAX_SIMULATOR_NOW): the
 * period is last month, open until the 15th, and may be confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dismissReminder, DEFAULT_VIEWPORT, launch, pickOption, signIn, type Session } from './browser';
import { startServer, type E2eServer } from './server';

/** The 5th of the current month (Asia/Shanghai), 10:00 there. */
function fifthOfThisMonth(): string {
  const shanghai = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
  return `${shanghai}-05T02:00:00Z`;
}
const periodBefore = (iso: string) => {
  const [y, m] = iso.slice(0, 7).split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}年12月` : `${y}年${String(m - 1).padStart(2, '0')}月`;
};
const countIn = (text: string) => Number(/(\d+) 张/.exec(text)?.[1]);

let server: E2eServer;
const simNow = fifthOfThisMonth();
beforeAll(async () => {
  server = await startServer({ TAX_SIMULATOR_NOW: simNow });
}, 90_000);
afterAll(() => server?.stop());

async function session(): Promise<Session> {
  const b = await launch();
  const context = await b.newContext({ baseURL: server.baseURL, viewport: DEFAULT_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return { context, page: await context.newPage() };
}

describe('发票抵扣 and 异常票池', () => {
  it('demo13 ticks invoices, applies for and confirms the statistics, and transfers out a deducted 异常凭证', async () => {
    const { context, page } = await session();
    try {
      await signIn(page, 'demo13');
      await dismissReminder(page);

      // 抵扣勾选: last month is the period, open (the countdown runs on the tax service's clock).
      await page.goto('/invoice/deduction/deduction/list');
      const tick = page.getByTestId('tick-deduction');
      const head = tick.getByTestId('tick-period');
      const period = periodBefore(simNow);
      await expect.poll(() => head.innerText()).toContain(period);
      expect(await tick.getByTestId('tick-closed').count()).toBe(0);
      await expect.poll(async () => Number.isInteger(countIn(await tick.getByTestId('tick-ticked').innerText()))).toBe(true);
      const tickedBefore = countIn(await tick.getByTestId('tick-ticked').innerText());

      // Two invoices not yet ticked: 勾选抵扣 (confirming if the batch holds a 疑点 invoice).
      await pickOption(page, tick.locator('#income-tick-deduction_tickState'), '未勾选');
      await tick.getByRole('button', { name: /查\s*询/ }).click();
      const rows = tick.locator('tbody tr.ant-table-row');
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      await expect.poll(async () => (await rows.allInnerTexts()).every((t) => t.includes('未勾选'))).toBe(true);
      for (const i of [0, 1]) await rows.nth(i).locator('.ant-checkbox-input').first().check();
      await expect.poll(() => tick.getByTestId('tick-chosen').innerText()).toBe('已选 2 张');
      await tick.getByTestId('tick-deduct').click();
      const confirm = page.getByTestId('tick-confirm');
      await Promise.race([confirm.waitFor().then(() => page.getByRole('button', { name: '确认勾选' }).click()), expect.poll(async () => countIn(await tick.getByTestId('tick-ticked').innerText()), { timeout: 20_000 }).toBe(tickedBefore + 2)]);
      await expect.poll(async () => countIn(await tick.getByTestId('tick-ticked').innerText()), { timeout: 20_000 }).toBe(tickedBefore + 2);

      // 抵扣统计: 未统计 → 申请统计 → 已申请, with the ticks in the figures → 确认统计 → 已确认.
      await page.goto('/invoice/deduction/deduction/statistic');
      const stat = page.getByTestId('stat-page-deduction');
      await expect.poll(() => stat.getByTestId('stat-period').innerText()).toContain(period);
      await expect.poll(() => stat.getByTestId('stat-state').innerText()).toBe('未统计');
      await stat.getByTestId('stat-apply').click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /确\s*定/ }).click();
      await expect.poll(() => stat.getByTestId('stat-state').innerText(), { timeout: 20_000 }).toBe('已申请');
      // 合计 counts the period's deduction ticks, the two just made among them: the very figure of 抵扣勾选's header.
      const statCount = Number(await stat.getByTestId('stat-totals').locator('td').nth(1).innerText());
      expect(statCount).toBe(tickedBefore + 2);

      // Applied: ticking of the period is closed until 撤销申请 (issue 27), the page says why and disables the actions.
      await page.goto('/invoice/deduction/deduction/list');
      await expect.poll(() => tick.getByTestId('tick-closed').innerText(), { timeout: 20_000 }).toContain('已申请统计，不能再勾选或撤销勾选');
      expect(await tick.getByTestId('tick-deduct').isDisabled()).toBe(true);
      expect(await tick.getByTestId('tick-import').isDisabled()).toBe(true);
      expect(countIn(await tick.getByTestId('tick-ticked').innerText())).toBe(statCount);
      await page.goto('/invoice/deduction/deduction/statistic');
      await expect.poll(() => stat.getByTestId('stat-state').innerText(), { timeout: 20_000 }).toBe('已申请');
      // The first question's popover fades out before the second is asked.
      await expect.poll(() => page.locator('.ant-popconfirm:visible').count()).toBe(0);
      await stat.getByTestId('stat-confirm').click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /确\s*定/ }).click();
      await expect.poll(() => stat.getByTestId('stat-state').innerText(), { timeout: 20_000 }).toBe('已确认');
      expect(await stat.getByTestId('stat-refusal').count()).toBe(0);

      // The period is locked: ticking has moved on to this month.
      await page.goto('/invoice/deduction/deduction/list');
      await expect.poll(() => page.getByTestId('tick-period').innerText(), { timeout: 20_000 }).not.toContain(period);

      // 异常票池: a deducted 异常凭证 is transferred out (进项转出), and its case leaves the open list.
      await page.goto('/income/invoicePool/abnormal');
      const open = page.getByTestId('abnormal-cases-open');
      const total = open.getByTestId('case-total');
      await expect.poll(async () => Number(/(\d+) 条/.exec(await total.innerText())?.[1])).toBeGreaterThan(0);
      const all = Number(/(\d+) 条/.exec(await total.innerText())![1]);
      // The 异常凭证 cases: those deducted in a past period offer 进项转出.
      await pickOption(page, open.locator('#abnormal-cases-open_flag'), '异常凭证');
      await open.getByRole('button', { name: /查\s*询/ }).click();
      await expect.poll(async () => Number(/(\d+) 条/.exec(await total.innerText())?.[1])).toBeLessThan(all);
      const before = Number(/(\d+) 条/.exec(await total.innerText())![1]);
      const button = open.getByTestId('case-transferOut').first();
      await button.waitFor();
      await button.click();
      const dialog = page.getByTestId('case-dialog-transferOut').locator('.ant-modal');
      await dialog.waitFor();
      await pickOption(page, dialog.locator('#abnormal-transferOut_reason'), '3 非正常损失');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
      await expect.poll(async () => Number(/(\d+) 条/.exec(await total.innerText())?.[1]), { timeout: 20_000 }).toBe(before - 1);
    } finally {
      await context.close();
    }
  });
});
