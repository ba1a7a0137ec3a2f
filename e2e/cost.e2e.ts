/**
 * 成本管理 (issue 16) in the browser: demo20 (成本审核, role 20) signs in and lands on 待审核成本单, audits the
 * first order of the queue and sees the sidebar badge (toAudit, cost-todo-data) go down by one at once; demo17
 * (成本主管, role 17) closes last month for a department on 成本设置 → 月结, after its remaining orders of that
 * month are audited, and sees it 已结账 with the closing in 结账记录; demo18 opens 月度成本汇总, whose table of
 * department-months is paged by the server (issue 30), expands a row to its projects and opens a project's order.
 */
import { describe, expect, it } from 'vitest';
import { shiftMonth, shanghaiMonthOf, sidebarBadgeText } from '@zhyy/shared';
import { baseURL, newSession, signIn, useBrowser } from './browser';

useBrowser();

async function api<T>(pathName: string, body: unknown, token?: string): Promise<{ code: number; message?: string; r: T }> {
  const res = await fetch(`${baseURL()}${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message?: string; r: T };
}
const tokenOf = async (login: string) => (await api<{ token: string }>('/api/account/login', { name: login, password: 'demo123' })).r.token;

interface OrderRow { id: string; orderNo: string; month: string; deptId: string }
interface ClosingRow { deptId: string; deptName: string; closed: boolean; orders: number; toAudit: number }

describe('成本管理：审核成本单与月结', () => {
  it('demo20 lands on 待审核成本单, audits an order and the badge goes down by one', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo20');
    await page.waitForURL('**/cost-management/examine');
    const examine = page.getByTestId('cost-examine');
    await examine.waitFor();

    // The badge is the queue's count (cost-todo-data's toAudit), the same number the queue lists.
    const token = await tokenOf('demo20');
    const before = (await api<{ toAudit: number }>('/api/cost-order/cost-todo-data', {}, token)).r.toAudit;
    const queue = await api<{ total: number }>('/api/cost-order/to-audit-list', { pageIndex: 1, pageSize: 10 }, token);
    expect(queue.r.total).toBe(before);
    expect(before).toBeGreaterThanOrEqual(3);
    const badge = page.locator('.side-link', { hasText: '待审核成本单' }).getByTestId('sidebar-badge');
    await expect.poll(async () => (await badge.innerText()).trim()).toBe(sidebarBadgeText(before));

    // 审核 on the first row → the confirmation → a toast (one order: no summary to close, issue 31).
    const first = examine.locator('tbody tr.ant-table-row').first();
    await first.waitFor();
    const orderNo = (await first.getByTestId('examine-open').innerText()).trim();
    expect(orderNo).toMatch(/^CB\d{6}\d+$/);
    await first.getByTestId(`audit-${orderNo}`).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: orderNo });
    await confirm.getByRole('button', { name: '审核通过' }).click();
    await page.locator('.ant-message-notice', { hasText: `成本单 ${orderNo} 已审核通过` }).waitFor();
    expect(await page.getByTestId('batch-outcome').count()).toBe(0);

    // The badge follows at once (the change refreshes the counts; no 60 s wait), and the order left the queue.
    await expect.poll(async () => (await badge.innerText()).trim()).toBe(sidebarBadgeText(before - 1));
    await expect.poll(() => examine.locator('tbody').innerText()).not.toContain(orderNo);
    const after = (await api<{ toAudit: number }>('/api/cost-order/cost-todo-data', {}, token)).r.toAudit;
    expect(after).toBe(before - 1);
  });

  it('demo17 closes last month for a department once nothing of it awaits audit', async () => {
    const lastMonth = shiftMonth(shanghaiMonthOf(new Date()), -1);
    const token = await tokenOf('demo17');
    // The open month's department with the fewest orders waiting: demo17 (who audits every department)
    // audits those first, through the audit call the queue uses.
    const rows = (await api<ClosingRow[]>('/api/cost-setting/closings', { month: lastMonth }, token)).r;
    const open = rows.filter((r) => !r.closed && r.orders > 0).sort((a, b) => a.toAudit - b.toAudit);
    expect(open.length).toBeGreaterThan(0);
    const dept = open[0]!;
    if (dept.toAudit > 0) {
      const waiting = await api<{ items: OrderRow[] }>('/api/cost-order/to-audit-list', { pageIndex: 1, pageSize: 100, monthFrom: lastMonth, monthTo: lastMonth, deptId: dept.deptId }, token);
      expect(waiting.r.items.length).toBe(dept.toAudit);
      const audited = await api<{ done: number }>('/api/cost-order/set-coststatus-audited', { ids: waiting.r.items.map((o) => o.id) }, token);
      expect(audited.r.done).toBe(dept.toAudit);
    }

    const { page } = await newSession();
    await signIn(page, 'demo17');
    await page.goto('/costmanagement/setting');
    await page.getByTestId('cost-setting').waitFor();
    await page.getByRole('tab', { name: '月结' }).click();
    const tab = page.getByTestId('closing-tab');
    await tab.waitFor();
    // 月份 defaults to last month; the department's row offers 结账.
    const row = tab.locator('tbody tr.ant-table-row', { hasText: dept.deptName }).first();
    await expect.poll(() => row.innerText()).toContain('未结账');
    const close = row.getByTestId(`close-${dept.deptId}`);
    await expect.poll(() => close.isEnabled()).toBe(true);
    await close.click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确认结账' });
    await confirm.getByRole('button', { name: /^结\s*账$/ }).click();
    await expect.poll(() => row.innerText()).toContain('已结账');
    await row.getByTestId(`reopen-${dept.deptId}`).waitFor();
    // The closing is in 结账记录 and the server holds it.
    await expect.poll(() => tab.getByTestId('closing-logs').locator('tbody tr').first().innerText()).toContain(dept.deptName);
    const now = (await api<ClosingRow[]>('/api/cost-setting/closings', { month: lastMonth }, token)).r.find((r) => r.deptId === dept.deptId)!;
    expect(now).toMatchObject({ closed: true, toAudit: 0 });
  });

  it('demo18 opens 月度成本汇总: department-months paged by the server, a row expands to its projects, a project to its order', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo18');
    await page.goto('/cost-management/summary');
    const summary = page.getByTestId('cost-summary');
    await summary.waitFor();
    await summary.getByTestId('summary-totals').waitFor();
    expect(await summary.getByTestId('summary-totals').innerText()).toMatch(/合计（全部 \d+ 行）/);
    const first = summary.locator('tbody tr.ant-table-row[data-testid^="summary-row-"]').first();
    await first.waitFor();
    // Money right-aligned with two decimals.
    expect(await first.locator('td').last().innerText()).toMatch(/^[\d,]+\.\d{2}$/);
    await first.click();
    const project = summary.locator('[data-testid^="summary-project-"]').first();
    await project.waitFor();
    await project.click();
    await page.getByTestId('drill-order-link').first().waitFor();
    expect(await page.getByTestId('drill-order-link').first().innerText()).toMatch(/^CB\d{6}\d+$/);
  });
});
