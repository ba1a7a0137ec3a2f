/**
 * Issue 5 in the browser: demo7 (杨帆, 市场经营部) starts a 请假申请; the manager demo4 (张伟) sees the
 * to-do badge go up and a notification, approves; demo7 sees the instance complete with its track.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newSession, signIn, useBrowser } from './browser';

useBrowser();

const todoBadge = async (page: Page) => {
  const badge = page.getByTestId('sidebar').getByRole('menuitem', { name: /我的待办/ }).getByTestId('sidebar-badge');
  return (await badge.count()) ? Number((await badge.innerText()).replace(/\D/g, '')) : 0;
};
const refreshCounts = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('workflow-refresh')));

describe('请假申请 from start to finish', () => {
  it('starts, notifies the manager, is approved and shows its track', async () => {
    const title = `年假两天-${Date.now()}`;
    const manager = await newSession();
    await signIn(manager.page, 'demo4');
    await expect.poll(() => todoBadge(manager.page), { timeout: 15000 }).toBeGreaterThan(0);
    const before = await todoBadge(manager.page);

    const applicant = await newSession();
    const a = applicant.page;
    await signIn(a, 'demo7');
    await a.goto('/flow/start');
    await a.getByTestId('flow-QJ01').first().click();
    const form = a.getByTestId('start-form');
    await form.waitFor();
    await form.getByLabel('标题').fill(title);
    await form.getByLabel('请假类型').click();
    await a.locator('.ant-select-item-option[title="年假"]').click();
    await form.getByLabel('请假天数').fill('2');
    await form.getByLabel('请假时间').click();
    await a.keyboard.type('2026-11-23');
    await a.keyboard.press('Enter');
    await a.keyboard.type('2026-11-24');
    await a.keyboard.press('Enter');
    await form.getByLabel('请假事由').fill('回老家探亲');
    await a.getByTestId('submit-flow').click();
    await a.getByText('已发送至「部门负责人审批」：张伟').waitFor();
    // After submitting, the applicant sees the instance with its track.
    await a.getByTestId('work-drawer').getByText(title).first().waitFor();

    // The manager's badge goes up on the next refresh (every 60 s, or on a workflow refresh event).
    await refreshCounts(manager.page);
    await expect.poll(() => todoBadge(manager.page), { timeout: 15000 }).toBe(before + 1);
    await manager.page.locator('.ant-notification-notice').filter({ hasText: title }).waitFor({ timeout: 15000 });

    const m = manager.page;
    await m.goto('/flow/todolist');
    await m.getByTestId('list-todo').getByText(title).click();
    const panel = m.getByTestId('approval-panel');
    await panel.getByRole('textbox').fill('同意，注意工作交接');
    await panel.getByRole('button', { name: '同意' }).click();
    await m.getByText('审批完成，流程已结束').waitFor();
    await expect.poll(() => todoBadge(m), { timeout: 15000 }).toBe(before);

    await a.goto('/flow/todolist');
    await a.getByTestId('tab-mine').click();
    await a.getByTestId('list-mine').getByText(title).click();
    const drawer = a.getByTestId('work-drawer');
    await drawer.getByText('已完成').first().waitFor();
    const track = drawer.getByTestId('track');
    await expect.poll(() => track.innerText()).toContain('同意，注意工作交接');
    const text = await track.innerText();
    for (const step of ['发起', '填写申请', '同意', '部门负责人审批', '张伟', '抄送', '人力资源部备案', '流程结束']) expect(text).toContain(step);
    // 审批意见 (workchecklist): the manager's opinion at his node.
    await expect.poll(() => drawer.getByTestId('checklist').innerText()).toMatch(/部门负责人审批\s+张伟（[^）]+）\s+同意\s+同意，注意工作交接/);
  });
});
