/** Issue 4: system administration in headless Chromium — creating a user who must change the initial password, forcing a session out. */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newSession, signIn, useBrowser } from './browser';

useBrowser();

const path = (page: Page) => new URL(page.url()).pathname;

describe('users (issue 4)', () => {
  it('demo1 creates a user; the user signs in with the initial password and must change it', async () => {
    const admin = await newSession();
    await signIn(admin.page, 'demo1');
    await admin.page.goto('/system/userlist');
    await admin.page.getByTestId('add-user').click();
    await admin.page.waitForURL('**/system/edituser/00000000-0000-0000-0000-000000000000');
    const form = admin.page.getByTestId('user-edit');
    await form.getByLabel('登录名').fill('E2E.User');
    await form.getByLabel('姓名').fill('端到端测试');
    await form.locator('.ant-form-item').filter({ hasText: '部门' }).locator('.ant-select').click();
    await admin.page.keyboard.type('信息中心');
    await admin.page.getByTitle('信息中心', { exact: true }).last().click();
    await form.getByLabel('职务').fill('测试工程师');
    await form.locator('.ant-form-item').filter({ hasText: '角色' }).locator('.ant-select').click();
    await admin.page.keyboard.type('项目合同');
    await admin.page.keyboard.press('Enter');
    await admin.page.keyboard.press('Escape');
    await admin.page.getByTestId('save-user').click();
    const shown = admin.page.getByTestId('initial-password');
    await shown.waitFor();
    const initial = (await shown.innerText()).trim();
    expect(initial).toMatch(/^[A-Za-z0-9]{10}$/);

    // The list shows the new user.
    await admin.page.goto('/system/userlist');
    await admin.page.getByTestId('user-list').getByPlaceholder('登录名').fill('e2e.user');
    await admin.page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => admin.page.getByRole('link', { name: 'e2e.user' }).count(), { timeout: 15_000 }).toBe(1);

    // The new user signs in with it and is made to change it before anything else.
    const user = await newSession();
    await signIn(user.page, 'e2e.user', initial);
    const dialog = user.page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('修改初始密码').isVisible()).toBe(true);
    await dialog.getByLabel('原密码').fill(initial);
    await dialog.getByLabel('新密码').fill('Changed2026');
    await dialog.getByLabel('确认密码').fill('Changed2026');
    await user.page.getByTestId('password-submit').click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // From now on the new password is the one that works.
    const again = await newSession();
    await signIn(again.page, 'e2e.user', 'Changed2026');
    expect(path(again.page)).not.toBe('/login');
  });
});

describe('online users (issue 4)', () => {
  it('demo1 forces a session out; the next call of that session sends it to the sign-in page', async () => {
    const victim = await newSession();
    await signIn(victim.page, 'demo14');
    const admin = await newSession();
    await signIn(admin.page, 'demo1');
    await admin.page.goto('/system/useronline/list');
    const kick = admin.page.getByTestId('kick-demo14').first();
    await kick.waitFor();
    await kick.click();
    await admin.page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => admin.page.getByText('已强制 孙浩 下线').count()).toBeGreaterThan(0);

    // The victim's token no longer works: the next navigation that calls the API answers 50008, which
    // resets the token and reloads; without a token the reloaded page lands on /login?redirect=/dashboard.
    await victim.page.goto('/dashboard');
    await victim.page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/dashboard');
    await victim.page.getByRole('button', { name: '登录' }).waitFor();
    expect(path(victim.page)).toBe('/login');
  });
});
