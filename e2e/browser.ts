/**
 * Headless Chromium through playwright-core (no browser download: Debian's package at /usr/bin/chromium,
 * or CHROMIUM_PATH). A failing test leaves a screenshot in test-results/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

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

/** A fresh browser context and page; set `viewport` for the mobile layout. */
export async function newSession(viewport = { width: 1440, height: 900 }): Promise<Session> {
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
