/**
 * 投标文件导出 (issue 17) in the browser, on the demo with its scans: demo6 checks a complete contract in
 * 业绩核查, hands it on to 业绩文件导出, generates a PDF with a watermark, watches the job's progress to
 * 已完成 and downloads it; demo23 lands on 证书文件导出, picks two certificates valid on the deadline and
 * downloads their zip. The downloads land in 导出日志 (demo6).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseURL, newSession, signIn, useBrowser } from './browser';

useBrowser();

async function api<T>(pathName: string, body: unknown, token: string): Promise<{ code: number; message?: string; r: T }> {
  const res = await fetch(`${baseURL()}${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': token }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message?: string; r: T };
}
const tokenOf = async (login: string) => (await api<{ token: string }>('/api/account/login', { name: login, password: 'demo123' }, '')).r.token;
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());

interface Settings { windowYears: number; thresholdFen: number }
interface ContractRow { id: string; code: string }
interface CheckRow { id: string; code: string; problems: string[]; fileCount: number }
interface CertRow { id: string; certNo: string; holderName: string }
interface CertCheck { id: string; problems: string[] }

/** The job panel's newest row reaches 已完成 (polled by the page); returns that row. */
async function finishedJob(page: Page, title: string) {
  const row = page.getByTestId('export-jobs').locator('tbody tr', { hasText: title }).first();
  await row.waitFor();
  await expect.poll(() => row.innerText(), { timeout: 60_000 }).toContain('已完成');
  return row;
}

describe('投标文件导出', () => {
  it('demo6 checks a contract, exports it as a PDF with progress to 已完成, and downloads it', async () => {
    const token = await tokenOf('demo6');
    const settings = (await api<Settings>('/api/tender/setting/get', {}, token)).r;
    const complete = (await api<{ items: ContractRow[] }>('/api/tender/contract/list', { pageIndex: 1, pageSize: 50, complete: 'complete' }, token)).r.items;
    expect(complete.length).toBeGreaterThan(0);
    const checked = await api<CheckRow[]>('/api/tender/export/performance/check', { contractIds: complete.map((c) => c.id), deadline: today(), years: settings.windowYears, thresholdFen: settings.thresholdFen }, token);
    expect(checked.code, checked.message).toBe(20000);
    const good = checked.r.find((r) => !r.problems.length && r.fileCount > 0);
    expect(good, '演示数据中应有通过业绩核查的合同').toBeTruthy();

    const { page } = await newSession();
    await signIn(page, 'demo6');
    await page.goto('/tender/file/performance-check');
    const search = page.getByLabel('合同编号或名称');
    await search.fill(good!.code);
    await search.press('Enter');
    const row = page.locator('.ant-table-row', { hasText: good!.code }).first();
    await row.waitFor();
    await row.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: /^核\s*查$/ }).click();
    await page.getByText('通过 1 个').waitFor();
    await page.getByRole('button', { name: /导出通过的合同（1）/ }).click();
    await page.waitForURL('**/tender/file/performance-file-export**');

    const title = `业绩材料 E2E ${Date.now()}`;
    await page.getByLabel('导出标题').fill(title);
    await page.getByLabel('投标项目').fill('江北新区综合管廊三期');
    await expect.poll(() => page.getByLabel('水印').inputValue()).toContain('江北新区综合管廊三期');
    await page.getByRole('button', { name: /^生\s*成$/ }).click();
    await page.getByText('已开始生成，请在下方查看进度').waitFor();
    const job = await finishedJob(page, title);
    expect(await job.innerText()).toMatch(/\d+页/);

    const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /下\s*载/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // The export and its download are in 导出日志.
    await page.goto('/tender/file/file-export-log');
    const log = page.getByTestId('tender-export-log').locator('tbody tr', { hasText: title }).first();
    await log.waitFor();
    await expect.poll(() => log.innerText()).toContain('1 次');
  });

  it('demo23 lands on 证书文件导出, checks two certificates on the deadline and downloads their zip', async () => {
    const token = await tokenOf('demo23');
    const list = (await api<{ items: CertRow[] }>('/api/tender/export/certificate/list', { pageIndex: 1, pageSize: 50 }, token)).r.items;
    const checked = await api<CertCheck[]>('/api/tender/export/certificate/check', { certificateIds: list.map((c) => c.id), titleIds: [], deadline: today() }, token);
    expect(checked.code, checked.message).toBe(20000);
    const valid = checked.r.filter((c) => !c.problems.length).map((c) => list.find((x) => x.id === c.id)!);
    expect(valid.length).toBeGreaterThanOrEqual(2);

    const { page } = await newSession();
    await signIn(page, 'demo23');
    await page.waitForURL('**/tender/file/certificate-file-export2');
    const search = page.getByLabel('持证人或证书编号');
    for (const c of valid.slice(0, 2)) {
      await search.fill(c.certNo);
      await search.press('Enter');
      const row = page.locator('.ant-table-row', { hasText: c.certNo }).first();
      await row.waitFor();
      await row.locator('.ant-checkbox-input').check();
    }
    await page.getByText('已选 2 个').waitFor();
    const results = page.getByTestId('certificate-results');
    await expect.poll(() => results.getByText('截止日有效').count()).toBe(2);

    const title = `资格证书 E2E ${Date.now()}`;
    await page.getByLabel('导出标题').fill(title);
    await page.getByText('ZIP（原文件）').click();
    await page.getByRole('button', { name: /^生\s*成$/ }).click();
    const job = await finishedJob(page, title);
    const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /下\s*载/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });
});
