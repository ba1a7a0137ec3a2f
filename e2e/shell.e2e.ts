/** Issue 3: the web client's shell in headless Chromium, signed in as the demo users. */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP_SIZES, newSession, openTagMenu, signIn, useBrowser } from './browser';
import { setInitialPassword } from './db';

useBrowser();

const topMenuTitles = (page: Page) => page.getByTestId('top-menu').locator('.ant-menu-title-content').allInnerTexts();
const path = (page: Page) => new URL(page.url()).pathname;
const tagPaths = (page: Page) => page.getByTestId('tags-view-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
const sidebarItem = (page: Page, title: string) => page.getByTestId('sidebar').getByRole('menuitem', { name: title });

describe('access (SPEC section 2)', () => {
  it('sends a visitor without a token to /login, and a signed-in user opening /login to /', async () => {
    const { page } = await newSession();
    await page.goto('/system/userlist');
    await page.waitForURL('**/login**');
    await signIn(page, 'demo3');
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });

  it('shows /404 for an unknown path and for a red-confirm id that is not digits', async () => {
    const { page } = await newSession();
    await signIn(page, 'admin');
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await expect.poll(() => page.getByText('404').first().isVisible()).toBe(true);
    await page.goto('/invoice/nuonuo/red-confirm-apply/edit/12a');
    await page.waitForURL('**/404');
    await page.goto('/invoice/nuonuo/red-confirm-apply/edit/123');
    await page.waitForTimeout(300);
    expect(path(page)).toBe('/invoice/nuonuo/red-confirm-apply/edit/123');
  });

  it('a page the role may not open says so inside the layout (issue 31 item 15: demo6 and 项目管理)', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo6');
    await page.goto('/tender/project');
    await page.getByTestId('forbidden').waitFor();
    expect(path(page)).toBe('/tender/project');
    expect(await page.getByTestId('forbidden').innerText()).toContain('无权访问');
    expect(await page.getByTestId('forbidden').innerText()).toContain('项目管理');
    // The chrome stays: the navbar, the module's sidebar (without the refused page), and no tag for it.
    expect(await page.getByTestId('navbar').isVisible()).toBe(true);
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    expect(await sidebarItem(page, '项目管理').count()).toBe(0);
    expect(await tagPaths(page)).not.toContain('/tender/project');
  });

  it('sets the page title to the route title and the product title', async () => {
    const { page } = await newSession();
    await signIn(page, 'admin');
    await expect.poll(() => page.title()).toBe('工作台 - 综合运营支撑平台');
  });
});

describe('menus by role (SPEC section 6)', () => {
  it('demo5 sees 销项发票 and not 系统管理', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo5');
    await expect.poll(() => topMenuTitles(page)).toEqual(['工作台', '销项发票', '费用报销', '投标管理']);
    const titles = await topMenuTitles(page);
    expect(titles).toContain('销项发票');
    expect(titles).not.toContain('系统管理');
  });

  // The top menu is what changes with the width: checked at both desktop sizes.
  it.each(DESKTOP_SIZES)('admin sees every module at $width×$height', async (size) => {
    const { page } = await newSession(size);
    await signIn(page, 'admin');
    await expect.poll(() => topMenuTitles(page)).toEqual(['工作台', '销项发票', '进项管理', '费用报销', '成本管理', '投标管理', '系统管理']);
    // Every module fits the bar: none hides behind the menu's "…" (issue 31 item 18).
    const shown = () =>
      page.getByTestId('top-menu').evaluate((menu) => {
        const box = menu.getBoundingClientRect();
        const rest = Array.from(menu.querySelectorAll<HTMLElement>('.ant-menu-overflow-item-rest')).some((e) => e.offsetWidth > 0 && getComputedStyle(e).opacity !== '0');
        const items = Array.from(menu.querySelectorAll<HTMLElement>(':scope > .ant-menu-item')).filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && getComputedStyle(e).opacity !== '0' && r.left >= box.left - 1 && r.right <= box.right + 1;
        });
        return { rest, items: items.map((e) => e.innerText.trim()) };
      });
    await expect.poll(shown).toEqual({ rest: false, items: ['工作台', '销项发票', '进项管理', '费用报销', '成本管理', '投标管理', '系统管理'] });
  });

  it('no sidebar title is cut at 1366×768 in any module of admin (issue 31 item 12: 待审核成本单 with its badge)', async () => {
    const { page } = await newSession(DESKTOP_SIZES[0]);
    await signIn(page, 'admin');
    for (const module of ['/dashboard', '/invoice/invoiceaccount/invoice-list', '/reimbursement/my-reimbursement-list', '/invoice-entry/list', '/cost-management/examine', '/tender/contract/list', '/system/userlist']) {
      await page.goto(module);
      await page.getByTestId('sidebar').locator('.ant-menu-item').first().waitFor();
      const cut = await page.getByTestId('sidebar').evaluate(async (nav) => {
        // Open every sub-menu (twice: a nested one appears once its parent is open).
        for (let round = 0; round < 3; round++) {
          nav.querySelectorAll<HTMLElement>('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title').forEach((t) => t.click());
          await new Promise((r) => setTimeout(r, 500));
        }
        return Array.from(nav.querySelectorAll<HTMLElement>('.side-link-title, .ant-menu-submenu-title .ant-menu-title-content'))
          .filter((e) => e.offsetWidth > 0 && e.scrollWidth > e.clientWidth)
          .map((e) => e.textContent);
      });
      expect(cut, module).toEqual([]);
    }
  });

  it('a page outside the user’s roles is not opened: 无权访问 stands in its place (issue 31)', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo5');
    await page.goto('/system/userlist');
    await page.getByTestId('forbidden').waitFor();
    // The page itself is never mounted and gets no tag.
    expect(await page.locator('[data-view="/system/userlist"]').count()).toBe(0);
    expect(await tagPaths(page)).not.toContain('/system/userlist');
  });
});

describe('landing rules (SPEC section 2)', () => {
  it.each([
    ['demo15', '/tender/personnel-certificate/collect'],
    ['demo23', '/tender/file/certificate-file-export2'],
    ['demo20', '/cost-management/examine'],
    ['demo5', '/dashboard'],
  ])('%s lands on %s after sign-in and when opening /', async (login, target) => {
    const { page } = await newSession();
    await signIn(page, login);
    await page.waitForURL((u) => u.pathname === target);
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === target);
  });
});

describe('tag bar (SPEC sections 2 and 4)', () => {
  it('keeps visited views, offers 刷新 关闭 关闭其他 关闭所有, and the affix tag survives close-all', async () => {
    const { page } = await newSession();
    await signIn(page, 'admin');
    await sidebarItem(page, '发起申请').click();
    await page.waitForURL('**/flow/start');
    // A page's chunk loads on first visit; a view is kept once it has been shown (a click on the next
    // item before that supersedes the navigation), so wait for its tag as a user waits for the page.
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/flow/start']);
    await sidebarItem(page, '我的待办').click();
    await page.waitForURL('**/flow/todolist');
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/flow/start', '/flow/todolist']);
    // The affix tag has no close button.
    await expect.poll(() => page.locator('[data-path="/dashboard"] [data-testid="tags-view-close"]').count()).toBe(0);

    const menu = await openTagMenu(page, '/flow/start');
    // The menu's container shows before its items finish rendering: poll.
    await expect.poll(() => menu.getByRole('menuitem').allInnerTexts()).toEqual(['刷新', '关闭', '关闭其他', '关闭所有']);
    await menu.getByRole('menuitem', { name: '关闭其他', exact: true }).click();
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/flow/start']);
    expect(path(page)).toBe('/flow/start');

    const menu2 = await openTagMenu(page, '/flow/start');
    await menu2.getByRole('menuitem', { name: '关闭所有', exact: true }).click();
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard']);
    await page.waitForURL('**/dashboard');

    // 关闭 is disabled on the affix tag.
    const menu3 = await openTagMenu(page, '/dashboard');
    await expect.poll(() => menu3.getByRole('menuitem', { name: '关闭', exact: true }).getAttribute('aria-disabled')).toBe('true');
  });

  it('keeps a visited view mounted with its state, and 刷新 remounts it', async () => {
    const { page } = await newSession();
    await signIn(page, 'admin');
    const view = page.locator('[data-view="/dashboard"]');
    await view.waitFor();
    await view.evaluate((el) => ((el as HTMLElement & { marker?: string }).marker = 'kept'));
    const marker = () => view.evaluate((el) => (el as HTMLElement & { marker?: string }).marker ?? null);

    await sidebarItem(page, '发起申请').click();
    await page.waitForURL('**/flow/start');
    await expect.poll(() => view.isVisible()).toBe(false);
    await page.locator('[data-testid="tags-view-item"][data-path="/dashboard"]').click();
    await page.waitForURL('**/dashboard');
    expect(await marker()).toBe('kept');

    const menu = await openTagMenu(page, '/dashboard');
    await menu.getByRole('menuitem', { name: '刷新', exact: true }).click();
    await expect.poll(marker).toBeNull();
  });
});

describe('redirect', () => {
  it('/redirect/<path> re-renders the page without adding a tag', async () => {
    const { page } = await newSession();
    await signIn(page, 'admin');
    await page.goto('/redirect/flow/start');
    await page.waitForURL('**/flow/start');
    await expect.poll(() => tagPaths(page)).toContain('/flow/start');
    expect(await tagPaths(page)).not.toContain('/redirect/flow/start');
  });
});

describe('the initial-password dialog (SPEC sections 4 and 5)', () => {
  it('cannot be closed by the mask, Escape or a close button; only 设置 after a successful change', async () => {
    await setInitialPassword('demo22', 'Init2026x');
    const { page } = await newSession();
    await signIn(page, 'demo22', 'Init2026x');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('修改初始密码').isVisible()).toBe(true);
    expect(await page.locator('.ant-modal-close:visible').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.mouse.click(10, 10);
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByLabel('原密码').fill('Init2026x');
    await dialog.getByLabel('新密码').fill('abcdefg');
    await dialog.getByLabel('确认密码').fill('abcdefh');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => dialog.getByText('6-20位，由字母和数字组合').count()).toBeGreaterThan(0);
    await expect.poll(() => dialog.getByText('两次密码不一致').count()).toBeGreaterThan(0);
    // The inputs stop at 32 characters.
    await dialog.getByLabel('新密码').fill('a1'.repeat(20));
    expect((await dialog.getByLabel('新密码').inputValue()).length).toBe(32);

    await dialog.getByLabel('新密码').fill('Better2026');
    await dialog.getByLabel('确认密码').fill('Better2026');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByText('修改成功').count()).toBeGreaterThan(0);
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });
});

describe('mobile layout (width under 992px)', () => {
  it('hides the sidebar, opens it from the hamburger, and closes it on navigation', async () => {
    const { page } = await newSession({ width: 375, height: 812 });
    await signIn(page, 'admin');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.isVisible()).toBe(false);
    await page.getByTestId('hamburger').click();
    await sidebar.waitFor({ state: 'visible' });
    await sidebarItem(page, '发起申请').click();
    await page.waitForURL('**/flow/start');
    await sidebar.waitFor({ state: 'hidden' });
  });
});
