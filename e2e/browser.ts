/**
 * Headless Chromium through playwright-core (no browser download: Debian's package at /usr/bin/chromium,
 * or CHROMIUM_PATH). A failing test leaves a screenshot in test-results/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

export const baseURL = () => inject('baseURL');

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

let browser: Browser | undefined;

export async function launch(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath, args, headless: true });
  return browser;
}

export interface Session {
  context: BrowserContext;
  page: Page;
}

export interface Viewport {
  width: number;
  height: number;
}

/** The usual desktop size (a 1440×900 laptop) and the smallest one the product supports (1366×768). */
export const DESKTOP: Viewport = { width: 1440, height: 900 };
export const SMALL_DESKTOP: Viewport = { width: 1366, height: 768 };
/** Every desktop size the layout checks run at. */
export const DESKTOP_SIZES: readonly Viewport[] = [SMALL_DESKTOP, DESKTOP];

/**
 * The suite runs once, at the smallest supported desktop (1366×768, the harder screen); a test whose
 * result depends on the size visits the others itself (layout.e2e.ts, invoice-formats.e2e.ts, the
 * shell's menus and its mobile breakpoint). E2E_VIEWPORT=1440x900 runs the whole suite at another size.
 */
export function parseViewport(text: string | undefined): Viewport {
  const m = /^(\d{3,4})x(\d{3,4})$/.exec(text?.trim() ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : SMALL_DESKTOP;
}
export const DEFAULT_VIEWPORT: Viewport = parseViewport(process.env.E2E_VIEWPORT);

/** A fresh browser context and page; set `viewport` for the mobile layout or another desktop size. */
export async function newSession(viewport: Viewport = DEFAULT_VIEWPORT): Promise<Session> {
  const b = await launch();
  const context = await b.newContext({ baseURL: baseURL(), viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login page as a demo user (password demo123). */
export async function signIn(page: Page, login: string, password = 'demo123'): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(login);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/** Closes role 13's daily reminder (异常发票提醒) and returns the count it names. */
export async function dismissReminder(page: Page): Promise<number> {
  const reminder = page.locator('.ant-modal-confirm', { hasText: '异常发票提醒' });
  await reminder.waitFor();
  const count = Number(/存在(\d+)张/.exec(await reminder.innerText())![1]);
  await reminder.getByRole('button', { name: /稍后处理/ }).click();
  await reminder.waitFor({ state: 'hidden' });
  return count;
}

/** Registers the browser's lifecycle for a test file. */
export function useBrowser(): void {
  beforeAll(async () => {
    await launch();
  });
  afterEach(async ({ task }) => {
    const contexts = browser?.contexts() ?? [];
    if (task.result?.state === 'fail') {
      const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results');
      fs.mkdirSync(dir, { recursive: true });
      const name = task.name.replace(/[^\w\u4e00-\u9fa5-]+/g, '_').slice(0, 80);
      for (const [i, page] of contexts.flatMap((c) => c.pages()).entries()) {
        const file = path.join(dir, `${name}-${i}.png`);
        await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
        console.error(`screenshot: ${file}`);
      }
    }
    // A context whose page is mid-reload can keep close() waiting; the browser goes in afterAll anyway.
    const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
    for (const ctx of contexts) await bounded(ctx.close());
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
}

/**
 * Right-clicks a tag of the tag bar and returns its context menu once it stays open. A menu just used
 * fades out for a moment, and a context menu closes on any scroll of the page (antd's trigger) while a
 * view just shown may still be settling on a busy machine: like a user, it right-clicks again then.
 */
export async function openTagMenu(page: Page, tagPath: string) {
  const visibleMenus = page.getByTestId('tags-context-menu').filter({ visible: true });
  // A menu just used fades out for a moment; a right click during the fade would find that menu.
  await expect.poll(() => visibleMenus.count()).toBe(0);
  const menu = visibleMenus;
  // A context menu closes on any scroll of the page (antd's trigger), and a view just shown may still be
  // settling on a busy machine: like a user, right-click again if the menu went away at once.
  for (let attempt = 1; ; attempt++) {
    await page.locator(`[data-testid="tags-view-item"][data-path="${tagPath}"]`).click({ button: 'right' });
    await menu.waitFor();
    await page.waitForTimeout(500);
    if ((await menu.count()) > 0 || attempt === 3) return menu;
  }
}

/**
 * Chooses an option of an antd Select (by its title) and checks that it took, by the text of the form
 * item that holds the select. On a busy machine a click during the dropdown's or a drawer's opening
 * animation can be lost; like a user, it chooses again then.
 */
export async function pickOption(page: Page, input: Locator, title: string): Promise<void> {
  // The nearest form item around the select (a `has:` filter would look for the input's whole chain inside it).
  const item = input.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-form-item ")][1]');
  const dropdown = page.locator('.ant-select-dropdown:visible');
  for (let attempt = 1; ; attempt++) {
    try {
      if ((await dropdown.count()) === 0) await input.click({ timeout: 5000 });
      // A dropdown opened while its dialog still zooms in moves, and a click meant for it can land on the
      // form and close it: the option is then gone, so the click gives up soon and the pick starts again.
      await dropdown.getByTitle(title, { exact: true }).click({ timeout: 5000 });
      await expect.poll(() => item.innerText({ timeout: 1000 }), { timeout: 2000 }).toContain(title);
      return;
    } catch (err) {
      if (attempt === 4) throw err;
      await page.waitForTimeout(300);
    }
  }
}
