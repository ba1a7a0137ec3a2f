/**
 * 投标管理 (issue 17) in the browser, on the demo with its scans (seed/tender-scans.ts): demo15 (role 15)
 * lands on 证书汇总, sees the expired certificates in red and those within 90 days in orange, opens one and
 * its scan; demo7 (role 7) edits a contract but is offered no 新增; a complete contract's detail lists its
 * pages and opens one scan in the file viewer.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { baseURL, newSession, signIn, useBrowser } from './browser';

useBrowser();

async function api<T>(pathName: string, body: unknown, token?: string): Promise<{ code: number; message?: string; r: T }> {
  const res = await fetch(`${baseURL()}${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message?: string; r: T };
}
const tokenOf = async (login: string) => (await api<{ token: string }>('/api/account/login', { name: login, password: 'demo123' })).r.token;

interface CertRow { id: string; certNo: string; state: string; validTo: string; daysLeft: number | null }
/** The state tag's urgency (issue 31): escalating with the reminder marks, red within 30 days. */
const urgencyOf = (c: CertRow) => (c.state === 'expired' ? 'expired' : c.daysLeft !== null && c.daysLeft <= 30 ? 'red' : c.daysLeft !== null && c.daysLeft <= 60 ? 'orange' : 'gold');
interface ContractRow { id: string; code: string; contractType: number; missingPages: number }
interface Attachment { id: string; ownerId: string; fileName: string; mime: string }

/** Clicks 查看 on a file of an attachment panel and checks the viewer's signed link serves it. */
async function openScan(context: BrowserContext, page: Page, fileName: string, mime: string): Promise<void> {
  const [viewer] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: `查看${fileName}` }).click()]);
  await viewer.waitForURL(/\/file\/view\//);
  await viewer.getByTestId('file-view').waitFor();
  const src = await viewer.locator('iframe, img').first().getAttribute('src');
  expect(src).toMatch(/^\/signed\/tender-file\//);
  const res = await viewer.request.get(src!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe(mime);
  if (mime === 'application/pdf') expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
}

describe('投标管理', () => {
  it('demo15 lands on 证书汇总, sees expired certificates in solid red and expiring ones escalating by the days left, and opens one with its scan', async () => {
    const { context, page } = await newSession();
    await signIn(page, 'demo15');
    await page.waitForURL('**/tender/personnel-certificate/collect');
    const collect = page.getByTestId('cert-collect');
    await collect.waitFor();
    const alerts = collect.getByTestId('collect-alerts');
    await alerts.locator('tbody tr.ant-table-row').first().waitFor();

    // The first page of the alerts: soonest end day first, so the expired ones (red) come before the expiring (orange).
    const token = await tokenOf('demo15');
    const first = (await api<{ items: CertRow[]; total: number }>('/api/tender/certificate/alerts', { pageIndex: 1, pageSize: 10 }, token)).r;
    expect(first.total).toBeGreaterThan(20);
    const tags = alerts.getByTestId('cert-state');
    await expect.poll(() => tags.count()).toBe(first.items.length);
    for (let i = 0; i < first.items.length; i++) {
      const tag = tags.nth(i);
      const c = first.items[i]!;
      expect([(await tag.innerText()).trim(), await tag.getAttribute('data-urgency')]).toEqual([c.state === 'expired' ? '已过期' : '即将到期', urgencyOf(c)]);
    }
    expect(first.items[0]!.state).toBe('expired');
    // An expiring one, in orange, on the page of the alerts where they start.
    let expiringPage = 1;
    let onPage = first.items;
    while (!onPage.some((c) => c.state === 'expiring')) {
      expiringPage += 1;
      expect(expiringPage).toBeLessThanOrEqual(Math.ceil(first.total / 10));
      onPage = (await api<{ items: CertRow[] }>('/api/tender/certificate/alerts', { pageIndex: expiringPage, pageSize: 10 }, token)).r.items;
    }
    for (let p = 2; p <= expiringPage; p++) {
      await collect.locator('.ant-pagination-next').click();
      await collect.locator('.ant-pagination-item-active', { hasText: String(p) }).waitFor();
    }
    await expect.poll(() => alerts.getByTestId('cert-state').filter({ hasText: '即将到期' }).count()).toBeGreaterThan(0);
    const expiring = alerts.getByTestId('cert-state').filter({ hasText: '即将到期' });
    expect(await expiring.evaluateAll((els) => els.map((e) => e.getAttribute('data-urgency')))).toEqual(onPage.filter((c) => c.state === 'expiring').map(urgencyOf));

    // Opens an expiring certificate that has a scan (most have), and the scan.
    const scans = (await api<Attachment[]>('/api/tender/attachment/list', { ownerKind: 'certificate', ownerIds: onPage.map((c) => c.id) }, token)).r;
    const cert = onPage.find((c) => c.state === 'expiring' && scans.some((a) => a.ownerId === c.id))!;
    expect(cert).toBeTruthy();
    const scan = scans.find((a) => a.ownerId === cert.id)!;
    await alerts.locator('tbody tr.ant-table-row', { hasText: cert.certNo }).getByRole('button', { name: '更新' }).click();
    await page.waitForURL(`**/tender/personnel-certificate/qualification-certificate-modify/${cert.id}`);
    await page.getByTestId('certificate-edit').waitFor();
    const panel = page.getByTestId('people-scans');
    await panel.getByText(scan.fileName).waitFor();
    await openScan(context, page, scan.fileName, scan.mime);
  });

  it('demo7 is offered no 新增 on 合同台账 but edits a contract', async () => {
    const { page } = await newSession();
    await signIn(page, 'demo7');
    await page.goto('/tender/contract/list');
    const row = page.locator('tbody tr.ant-table-row').first();
    await row.waitFor();
    expect(await page.getByRole('button', { name: /新增/ }).count()).toBe(0);
    expect(await row.getByRole('link', { name: '复制' }).count()).toBe(0);
    const code = (await row.locator('td').first().innerText()).trim();
    await row.getByRole('link', { name: '编辑' }).click();
    await page.waitForURL(/\/tender\/contract\/edit\//);
    const editor = page.getByTestId('tender-contract-editor');
    await editor.waitFor();
    const remark = `浏览器测试备注 ${Date.now()}`;
    await editor.getByLabel('备注').fill(remark);
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await page.waitForURL(/\/tender\/contract\/detail\//);
    const detail = page.getByTestId('tender-contract-detail');
    await detail.getByText(remark).first().waitFor();
    await expect.poll(() => detail.innerText()).toContain(code);
    // The change is in its history, by demo7.
    await expect.poll(() => detail.getByTestId('contract-history').innerText()).toContain('备注');
  });

  it("a complete contract's detail lists its pages and opens one scan", async () => {
    const token = await tokenOf('demo1');
    const list = (await api<{ items: ContractRow[] }>('/api/tender/contract/list', { pageIndex: 1, pageSize: 20, contractType: 1, complete: 'complete' }, token)).r.items;
    expect(list.length).toBeGreaterThan(0);
    const c = list[0]!;
    const pages = (await api<Attachment[]>('/api/tender/attachment/list', { ownerKind: 'contract', ownerIds: [c.id] }, token)).r;
    expect(pages.length).toBeGreaterThanOrEqual(5);

    const { context, page } = await newSession();
    await signIn(page, 'demo1');
    await page.goto(`/tender/contract/detail/${c.contractType}/${c.id}`);
    const box = page.getByTestId('contract-pages');
    await box.waitFor();
    await box.getByText('完整').first().waitFor();
    for (const label of ['框架合同封面', '框架合同工期页', '框架合同金额页', '框架合同签章页', '验收证书']) await box.getByText(label, { exact: true }).first().waitFor();
    for (const p of pages) await box.getByText(p.fileName).waitFor();
    await openScan(context, page, pages[0]!.fileName, 'application/pdf');
  });
});
