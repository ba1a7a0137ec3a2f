/**
 * Numbers that add up and tables that fit (issue 12): the 新增开票申请 drawer at 1366 and 1440 px (no
 * error list before anything is typed, every column of the lines whole without sideways scrolling),
 * the ledger's 已作废 invoices counted apart, and a detail whose 单价 × 数量 gives its 金额.
 */
import { describe, expect, it } from 'vitest';
import { InvoiceStatus } from '@zhyy/shared';
import { newSession, pickOption, signIn, useBrowser } from './browser';

useBrowser();

const num = (s: string) => Number(s.replace(/[,\s¥]/g, ''));

describe('新增开票申请', () => {
  for (const width of [1366, 1440]) {
    it(`fits at ${width} px and shows no error list before anything is typed`, async () => {
      const { page } = await newSession({ width, height: width === 1366 ? 768 : 900 });
      await signIn(page, 'demo5');
      await page.goto('/invoice/nuonuo/invoice-request-billing');
      await page.getByTestId('invoice-billing').getByRole('button', { name: '新增开票申请' }).click();
      const drawer = page.locator('.invoice-entry-drawer .ant-drawer-section');
      await drawer.getByText('开票明细').waitFor();
      expect(await drawer.getByText('请修改以下内容后保存').count()).toBe(0);

      const lines = drawer.getByTestId('entry-lines');
      await lines.waitFor();
      // The drawer slides in from the right: measure once it has come to rest inside the window.
      const inside = async () => {
        const b = await drawer.boundingBox();
        return !!b && b.x >= 0 && b.x + b.width <= width + 1;
      };
      await expect.poll(inside).toBe(true);
      const box = (await drawer.boundingBox())!;
      // The table does not scroll sideways, and every header (优惠政策, 税额 …) is whole and inside the drawer.
      const overflow = await lines.evaluate((el) => {
        const scrollers = Array.from(el.querySelectorAll('.ant-table-content, .ant-table-body, .ant-table-container')) as HTMLElement[];
        return scrollers.map((s) => s.scrollWidth - s.clientWidth);
      });
      for (const o of overflow) expect(o).toBeLessThanOrEqual(0);
      for (const title of ['税收分类编码', '货物或应税劳务名称', '含税单价', '含税金额', '税率', '优惠政策', '税额']) {
        const th = lines.locator('thead th', { hasText: title }).first();
        const b = (await th.boundingBox())!;
        expect(b.x + b.width, title).toBeLessThanOrEqual(box.x + box.width + 1);
        expect(await th.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), title).toBe(true);
      }

      // The first 保存 names what is missing.
      await drawer.getByRole('button', { name: /保\s*存/ }).click();
      await drawer.getByText('请修改以下内容后保存').waitFor();
      await drawer.getByText('请填写购买方名称').first().waitFor();
    });
  }
});

describe('销项发票台账', () => {
  it('counts 已作废 apart from the totals, and a detail prints the 单价 that multiplies out to 金额', async () => {
    const { page } = await newSession({ width: 1366, height: 768 });
    await signIn(page, 'demo11');
    await page.goto('/invoice/invoiceaccount/invoice-list');
    const ledger = page.getByTestId('invoice-ledger');
    const totals = ledger.getByTestId('ledger-totals');
    await totals.waitFor();
    // Filtered to 已作废: nothing in force, every voided invoice counted apart.
    await pickOption(page, ledger.locator('#invoice-ledger_status'), InvoiceStatus.label(InvoiceStatus.cancelled));
    await ledger.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => /（(\d+) 张）/.exec(await totals.innerText())?.[1]).toBe('0');
    const voided = ledger.getByTestId('ledger-voided');
    await voided.waitFor();
    const n = Number(/（(\d+) 张/.exec(await voided.innerText())![1]);
    expect(n).toBeGreaterThan(0);
    await expect.poll(() => ledger.locator('tbody tr.ant-table-row').count()).toBe(Math.min(n, 20));
    await ledger.getByRole('button', { name: /重\s*置/ }).click();

    // A blue invoice issued from lines with quantity and a price including tax.
    const rows = ledger.locator('tbody tr.ant-table-row');
    const blue = rows.filter({ hasText: '开票成功' }).filter({ hasNotText: '红字' }).first();
    await blue.getByTestId('ledger-detail-link').click();
    const detail = page.getByTestId('ledger-detail');
    await detail.getByText('开票明细').waitFor();
    const table = detail.locator('.ant-table', { has: page.locator('th', { hasText: '单价' }) }).first();
    const headers = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
    const [iq, ip, ia] = ['数量', '单价', '金额'].map((h) => headers.indexOf(h));
    let checked = 0;
    for (const tr of await table.locator('tbody tr.ant-table-row').all()) {
      const cells = await tr.locator('td').allInnerTexts();
      if (!cells[iq!]?.trim()) continue;
      const [q, p, a] = [num(cells[iq!]!), num(cells[ip!]!), num(cells[ia!]!)];
      expect(cells[ip!], 'unit price grouped like amounts').toMatch(/^\d{1,3}(,\d{3})*\.\d{2,8}$/);
      expect(Math.abs(q * p - a), `${q} × ${p} vs ${a}`).toBeLessThanOrEqual(0.01);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
