/**
 * 统计对比 (issue 32 item 1), the clerk's path: invoices are ticked on the bureau's platform outside the product
 * (the tax simulator's control 模拟税务端勾选, called through the API), then demo13 applies for last month's
 * 抵扣统计, sees the differences in the worklist (税务端已勾选，本系统未勾选), adopts the bureau's state with one
 * action and confirms the statistics.
 *
 * Its own server, the tax simulator's clock on the 5th of this month (TAX_SIMULATOR_NOW): last month is the
 * period, and may be confirmed (not in its own month).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { TOKEN_COOKIE_NAME, TOKEN_HEADER, type CandidatePage } from '@zhyy/shared';
import { dismissReminder, DEFAULT_VIEWPORT, launch, signIn, type Session } from './browser';
import { startServer, type E2eServer } from './server';

const simNow = `${new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7)}-05T02:00:00Z`;
let server: E2eServer;
beforeAll(async () => {
  server = await startServer({ TAX_SIMULATOR_NOW: simNow });
}, 90_000);
afterAll(() => server?.stop());

async function session(): Promise<Session> {
  const b = await launch();
  const context = await b.newContext({ baseURL: server.baseURL, viewport: DEFAULT_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return { context, page: await context.newPage() };
}

async function call<T>(context: BrowserContext, path: string, body: unknown): Promise<{ code: number; message: string; r: T }> {
  const token = (await context.cookies()).find((c) => c.name === TOKEN_COOKIE_NAME)!.value;
  const res = await context.request.post(path, { data: body, headers: { [TOKEN_HEADER]: token } });
  return (await res.json()) as { code: number; message: string; r: T };
}

describe('统计对比', () => {
  it('outside ticks at the bureau → 申请统计 → the worklist → 全部采纳税务端 → 确认统计', async () => {
    const { context, page } = await session();
    try {
      await signIn(page, 'demo13');
      await dismissReminder(page);

      // On the bureau's platform: two of the period's candidates ticked for deduction outside the product.
      const list = await call<CandidatePage>(context, '/api/income/deduction/list', { tickState: 0, kind: '81', pageIndex: 1, pageSize: 20 });
      expect(list.code, list.message).toBe(20000);
      const ids = list.r.items.filter((x) => !x.needsConfirm).slice(0, 2).map((x) => x.id);
      expect(ids.length).toBe(2);
      const outside = await call<{ accepted: number }>(context, '/api/income/statistics/deduction/sim-outside-tick', { ids, action: 'tick', vatUsage: 1 });
      expect([outside.code, outside.r.accepted], outside.message).toEqual([20000, 2]);

      // 抵扣统计: 申请统计, then the comparison lists both as ticked at the bureau only.
      await page.goto('/invoice/deduction/deduction/statistic');
      const stat = page.getByTestId('stat-page-deduction');
      await expect.poll(() => stat.getByTestId('stat-state').innerText()).toBe('未统计');
      expect(await stat.getByTestId('stat-compare').count()).toBe(0);
      await stat.getByTestId('stat-apply').click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /确\s*定/ }).click();
      // Each confirmation gone before the next is opened (one fading out on a busy machine is not clickable).
      await expect.poll(() => page.locator('.ant-popconfirm:visible').count(), { timeout: 20_000 }).toBe(0);
      await expect.poll(() => stat.getByTestId('stat-state').innerText(), { timeout: 20_000 }).toBe('已申请');
      const compare = stat.getByTestId('stat-compare');
      await expect.poll(() => compare.getByTestId('stat-compare-open').innerText()).toBe('差异 2 条');
      const lines = compare.locator('tbody tr.ant-table-row');
      await expect.poll(async () => (await lines.allInnerTexts()).filter((t) => t.includes('税务端已勾选，本系统未勾选')).length).toBe(2);
      const ours = await compare.getByTestId('stat-compare-ours').innerText();
      const bureau = await compare.getByTestId('stat-compare-bureau').innerText();
      const count = (t: string) => Number(/(\d+) 份/.exec(t)?.[1]);
      expect(count(bureau) - count(ours)).toBe(2);

      // One action: the ledger takes the bureau's ticks; the two sides agree.
      await compare.getByTestId('stat-adopt-all').click();
      await page.locator('.ant-popconfirm:visible').filter({ hasText: '采纳全部' }).getByRole('button', { name: /确\s*定/ }).click();
      await expect.poll(() => page.locator('.ant-popconfirm:visible').count(), { timeout: 20_000 }).toBe(0);
      await expect.poll(() => stat.getByTestId('stat-compare-same').count(), { timeout: 20_000 }).toBe(1);
      expect(count(await stat.getByTestId('stat-compare-ours').innerText())).toBe(count(bureau));

      // Nothing open: 确认统计 as usual.
      await stat.getByTestId('stat-confirm').click();
      await page.locator('.ant-popconfirm:visible').last().getByRole('button', { name: /确\s*定/ }).click();
      await expect.poll(() => stat.getByTestId('stat-state').innerText(), { timeout: 20_000 }).toBe('已确认');
    } finally {
      await context.close();
    }
  });
});
