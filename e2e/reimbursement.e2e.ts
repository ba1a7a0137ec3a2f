/**
 * 费用报销 end to end (issue 15): an employee (demo7) applies with an invoice uploaded on the spot, the
 * department manager (demo4) reduces the line's approved amount (核定) and approves in 我的待办, the
 * expense accountant (demo12) and the finance head (demo16) approve the next two nodes (through the
 * workflow's own calls: their screens are the manager's), demo12 pushes the bill in 一键报销 and sees its
 * voucher number, and 部门月度报销汇总 shows the approved amount in the department's row of this month.
 *
 * Own server: the upload saves the sample invoice into the pool, which another file's test also uploads.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT, SMALL_DESKTOP, launch, signIn, useBrowser, type Session } from './browser';

useBrowser();
import { startServer, type E2eServer } from './server';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/test/fixtures/income/invoice-sd.xml');
/** The sample invoice's total is 16,916.10 元; the claim stays under 5000 元 (FY01 asks 分管领导 above it). */
const CLAIM = '3000';
const APPROVED = '2500';
const REASON = `浏览器测试报销 ${Date.now()}`;

let server: E2eServer;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(() => server?.stop());

async function session(): Promise<Session> {
  const b = await launch();
  const context = await b.newContext({ baseURL: server.baseURL, viewport: DEFAULT_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return { context, page: await context.newPage() };
}

async function api<T>(pathName: string, body: unknown, token?: string): Promise<{ code: number; message?: string; r: T }> {
  const res = await fetch(`${server.baseURL}${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message?: string; r: T };
}
const tokenOf = async (login: string) => (await api<{ token: string }>('/api/account/login', { name: login, password: 'demo123' })).r.token;

/** The Shanghai month of now, as the summary's columns name it. */
const thisMonth = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);

describe('费用报销：申请、审批核定、一键报销、部门汇总', () => {
  it('demo7 applies with an uploaded invoice, demo4 approves 2500 of 3000, demo12 pushes it and the summary shows it', { timeout: 240_000 }, async () => {
    const employee = await session();
    const manager = await session();
    const finance = await session();
    // 1. The employee: 我的报销 → 新建报销.
    const e = employee.page;
    await signIn(e, 'demo7');
    await e.goto('/reimbursement/my-reimbursement-list');
    await e.getByTestId('new-bill').click();
    await e.waitForURL('**/my/reimbursement/detail/new');
    const editor = e.getByTestId('bill-editor');
    await editor.waitFor();
    // 费用期间 defaults to this month up to today.
    await editor.getByLabel('报销事由').fill(REASON);

    // One line: 办公, 3000.00, backed by the sample invoice uploaded in the picker.
    // A new bill starts with one empty line.
    const rows = editor.locator('.ant-table-tbody tr.ant-table-row');
    if ((await rows.count()) === 0) await editor.getByTestId('add-line').click();
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    await row.locator('.ant-select').first().click();
    await e.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^办公$/ }).click();
    await row.getByPlaceholder('说明', { exact: true }).fill('办公用品采购');
    await row.getByPlaceholder('金额（元）').fill(CLAIM);
    await row.getByTestId('pick-line-invoice').click();
    const picker = e.getByTestId('invoice-picker');
    await picker.waitFor();
    // Issue 31: a search that does not find the new invoice must not make it "taken": it is picked all the same.
    await picker.getByPlaceholder('发票号码或销方').fill('没有这张发票');
    await picker.getByPlaceholder('发票号码或销方').press('Enter');
    await picker.getByText('没有可用的发票', { exact: false }).waitFor();
    await picker.locator('input[type=file]').setInputFiles(SAMPLE);
    const upload = picker.getByTestId('upload-form');
    await upload.waitFor({ timeout: 30_000 });
    await upload.getByRole('button', { name: '保存到票池并选用' }).click();
    await picker.waitFor({ state: 'hidden' });
    await expect.poll(() => row.innerText()).toContain('25322000000104857316');

    // Line 2's picker opens clean: empty search, the whole list (line 1's invoice shown as 已选), no upload form left over.
    await editor.getByTestId('add-line').click();
    await expect.poll(() => rows.count()).toBe(2);
    await rows.nth(1).getByTestId('pick-line-invoice').click();
    const picker2 = e.getByTestId('invoice-picker');
    await picker2.waitFor();
    expect(await picker2.getByPlaceholder('发票号码或销方').inputValue()).toBe('');
    expect(await picker2.getByTestId('upload-form').count()).toBe(0);
    // Line 1's search found nothing; line 2's list is the whole one (demo7's tickets and the upload).
    await picker2.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 15_000 });
    await e.screenshot({ path: 'test-results/reimb-picker-line2.png' });
    await picker2.getByPlaceholder('发票号码或销方').fill('25322000000104857316');
    await picker2.getByPlaceholder('发票号码或销方').press('Enter');
    const firstRow = picker2.locator('.ant-table-tbody tr.ant-table-row', { hasText: '25322000000104857316' });
    await firstRow.waitFor({ timeout: 15_000 });
    expect(await firstRow.innerText()).toContain('已选');
    await e.locator('.ant-drawer-close').click();
    await picker2.waitFor({ state: 'hidden' });
    await rows.nth(1).getByRole('button', { name: /删\s*除/ }).click();
    await expect.poll(() => rows.count()).toBe(1);

    // Save the draft (the bill takes its number), then submit into 费用报销审批.
    await editor.getByTestId('save-bill').click();
    await e.waitForURL(/\/my\/reimbursement\/detail\/(?!new)[\w-]+$/);
    const billId = e.url().split('/').pop()!;
    await e.getByTestId('submit-bill').click();
    await e.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    const t7 = await tokenOf('demo7');
    await expect.poll(async () => (await api<{ flowState: number }>('/api/reimbursement/bill/get', { id: billId }, t7)).r.flowState, { timeout: 15_000 }).toBe(1);
    await e.getByText('部门负责人审批（张伟）').first().waitFor({ timeout: 15_000 });
    const bill = (await api<{ billNo: string; workId: number; amount: number; deptName: string }>('/api/reimbursement/bill/get', { id: billId }, t7)).r;
    expect(bill.amount).toBe(300_000);
    expect(bill.billNo).toMatch(/^BX\d{10}$/);

    // 2. The manager: 我的待办 → the bill's panel → 核定 2500 → 同意.
    const m = manager.page;
    await signIn(m, 'demo4');
    await m.goto(`/flow/todolist?workId=${bill.workId}`);
    const panel = m.getByTestId('bill-approval-panel');
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.innerText()).toContain(bill.billNo);
    await panel.getByTestId('approve-line-1').click();
    const pop = m.locator('.ant-popover:visible');
    await pop.getByPlaceholder('核定金额（元）').fill(APPROVED);
    await pop.getByPlaceholder('核定意见（必填）').fill('办公用品超出预算部分不予报销');
    await pop.getByRole('button', { name: '保存核定' }).click();
    await expect.poll(() => panel.innerText()).toContain('2,500.00');
    const approval = m.getByTestId('approval-panel');
    await approval.getByRole('textbox').fill('同意，按核定金额报销');
    await approval.getByRole('button', { name: '同意' }).click();
    await m.getByText(/已发送至/).first().waitFor({ timeout: 15_000 });

    // 3. 费用会计审核 (role 12) and 财务负责人复核 (role 16) through the workflow's send.
    for (const login of ['demo12', 'demo16']) {
      const sent = await api('/api/miswf/workflow/send', { workId: bill.workId, opinion: '同意' }, await tokenOf(login));
      expect(sent.code, sent.message).toBe(20000);
    }
    const approved = (await api<{ flowState: number; approvedAmount: number; reimbState: number }>('/api/reimbursement/bill/get', { id: billId }, t7)).r;
    expect(approved).toMatchObject({ flowState: 3, approvedAmount: 250_000, reimbState: 0 });

    // 4. demo12: 一键报销 → push the bill → its voucher number.
    const f = finance.page;
    await signIn(f, 'demo12');
    await f.goto('/reimbursement/nuonuo/reimbursement/apply/list');
    const list = f.getByTestId('reimb-apply');
    await list.getByTestId(`push-${bill.billNo}`).waitFor({ timeout: 15_000 });
    await list.getByTestId(`push-${bill.billNo}`).click();
    const confirm = f.locator('.ant-modal-confirm, .ant-popconfirm').filter({ hasText: /推送/ });
    if (await confirm.count()) await confirm.getByRole('button', { name: /确\s*定|推\s*送|OK/ }).last().click();
    const results = f.getByTestId('push-results');
    await expect.poll(() => results.innerText(), { timeout: 30_000 }).toMatch(/记-\d{4}/);
    const voucherNo = /记-\d{4}/.exec(await results.innerText())![0];
    const pushed = (await api<{ reimbState: number; voucherNo: string }>('/api/reimbursement/bill/get', { id: billId }, t7)).r;
    expect(pushed).toMatchObject({ reimbState: 1, voucherNo });

    // 5. 部门月度报销汇总: this month's figure of demo7's department holds the 2500.00, and opens the bill.
    await f.goto('/reimbursement/account/summary');
    const summary = f.getByTestId('reimb-summary');
    await summary.waitFor();
    const deptRow = summary.locator('.ant-table-tbody tr.ant-table-row', { hasText: bill.deptName });
    const cell = deptRow.locator(`[data-testid^="pivot-"][data-testid$="-${thisMonth()}"]`);
    await expect.poll(() => cell.innerText(), { timeout: 15_000 }).toMatch(/\d/);
    await cell.click();
    const drawer = f.getByTestId('summary-drawer');
    await drawer.getByText(bill.billNo).waitFor({ timeout: 15_000 });
    expect(await drawer.innerText()).toContain('2,500.00');

    // 6. The employee prints the bill (issue 31): one A4 page, 大写 of 3000 and of the 核定 2500, 附单据, signatures.
    await e.goto(`/my/reimbursement/detail/${billId}`);
    await e.getByTestId('print-bill').waitFor({ timeout: 15_000 });
    const pdf = await e.pdf({ preferCSSPageSize: true, printBackground: true });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    const text = (await pdfText(pdf)).replace(/\s+/g, '');
    expect(text).toContain('费用报销单');
    expect(text).toContain('叁仟圆整');
    expect(text).toContain('贰仟伍佰圆整');
    expect(text).toContain(bill.billNo);
    expect(text).toMatch(/附单据1张/);
    for (const who of ['报销人', '部门负责人', '财务审核', '领款人']) expect(text).toContain(`${who}：`.normalize('NFKC'));
    await e.emulateMedia({ media: 'print' });
    await e.screenshot({ path: 'test-results/reimb-print.png', fullPage: true });
    await e.emulateMedia({ media: 'screen' });
  });

  it('a plain employee uploading a pool invoice\'s number with another face is refused, the page naming the fields (issue 27)', async () => {
    // A supplier's 数电专票 the company collected (demo13, 进项管理, reads the pool).
    const pool = await api<{ items: Array<{ digitalNo: string }> }>('/api/income/pool/list', { pageIndex: 1, pageSize: 1, kind: '81', source: 1 }, await tokenOf('demo13'));
    const no = pool.r.items[0]!.digitalNo;
    expect(no).toMatch(/^\d{20}$/);
    const employee = await session();
    const e = employee.page;
    await signIn(e, 'demo7');
    await e.goto('/my/reimbursement/detail/new');
    const editor = e.getByTestId('bill-editor');
    await editor.waitFor();
    const rows = editor.locator('.ant-table-tbody tr.ant-table-row');
    if ((await rows.count()) === 0) await editor.getByTestId('add-line').click();
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByTestId('pick-line-invoice').click();
    const picker = e.getByTestId('invoice-picker');
    await picker.waitFor();
    // The sample's face (another seller, kind, day and amounts) with the pool invoice's number typed over its own.
    await picker.locator('input[type=file]').setInputFiles(SAMPLE);
    const upload = picker.getByTestId('upload-form');
    await upload.waitFor({ timeout: 30_000 });
    await upload.getByLabel('数电发票号码').fill(no);
    await upload.getByRole('button', { name: '保存到票池并选用' }).click();
    const refusal = upload.getByTestId('upload-refusal');
    await refusal.waitFor({ timeout: 15_000 });
    const text = await refusal.innerText();
    expect(text).toContain(`票池中已有发票 ${no}，本次填写的票面与之不一致（票种、开票日期、销方税号`);
    expect(text).toContain('价税合计），不能合并');
    // Nothing merged: the pool invoice is not among demo7's candidates.
    const c = await api<Array<{ number: string }>>('/api/reimbursement/invoice/candidates', { keyword: no.slice(-10) }, await tokenOf('demo7'));
    expect(c.r.map((x) => x.number)).not.toContain(no);
  });
});

describe('费用报销：1366×768 的编辑与审批抽屉（issue 31 #6）', () => {
  /** Whether a table scrolls sideways, and where its header cells end. */
  const tableFacts = (table: import('playwright-core').Locator) =>
    table.evaluate((el) => {
      const box = el.querySelector('.ant-table-content') ?? el.querySelector('.ant-table-body') ?? el;
      const heads = Array.from(el.querySelectorAll('thead th')).map((th) => ({ text: (th.textContent ?? '').trim(), right: th.getBoundingClientRect().right }));
      return { sideways: box.scrollWidth > box.clientWidth + 1, heads, viewport: window.innerWidth };
    });

  it('the editor shows 税额, 发票 (选择发票) and 检查 without scrolling; the drawer\'s lines fit, with a 合计 row and no form copy', { timeout: 180_000 }, async () => {
    const b = await launch();
    const context = await b.newContext({ baseURL: server.baseURL, viewport: SMALL_DESKTOP, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const e = await context.newPage();
    await signIn(e, 'demo7');
    await e.goto('/my/reimbursement/detail/new');
    const editor = e.getByTestId('bill-editor');
    await editor.waitFor();
    // 提交 on the empty bill: the required fields are marked, no confirmation (issue 31 #7).
    await editor.getByTestId('submit-bill').click();
    await editor.getByText('请填写报销事由').waitFor();
    expect(await e.locator('.ant-popconfirm:visible').count()).toBe(0);
    const lines = editor.getByTestId('bill-lines');
    const f = await tableFacts(lines);
    expect(f.sideways).toBe(false);
    for (const title of ['税额', '发票', '检查']) {
      const h = f.heads.find((x) => x.text === title);
      expect(h, title).toBeTruthy();
      expect(h!.right, title).toBeLessThanOrEqual(f.viewport);
    }
    expect(await lines.getByTestId('pick-line-invoice').first().isVisible()).toBe(true);
    const pickBox = (await lines.getByTestId('pick-line-invoice').first().boundingBox())!;
    expect(pickBox.x + pickBox.width).toBeLessThanOrEqual(SMALL_DESKTOP.width);
    await e.screenshot({ path: 'test-results/reimb-editor-1366.png' });

    // A bill of two lines submitted through the calls, opened by the manager in 我的待办 at 1366.
    const t7 = await tokenOf('demo7');
    const opts = await api<{ categories: Array<{ code: string; name: string }> }>('/api/reimbursement/my/options', {}, t7);
    const office = opts.r.categories.find((c) => c.name === '办公')!;
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const saved = await api<{ id: string; billNo: string }>(
      '/api/reimbursement/bill/save',
      { periodFrom: today, periodTo: today, reason: `1366 检查 ${Date.now()}`, payeeName: '测试收款人', payeeBank: '工商银行', payeeAccount: '6222020200112233445', lines: [1, 2].map((n) => ({ categoryCode: office.code, expenseDate: today, description: `办公用品 ${n}`, amount: 101_045 * n })) },
      t7,
    );
    expect(saved.code, saved.message).toBe(20000);
    const sub = await api<{ workId: number }>('/api/reimbursement/bill/submit', { id: saved.r.id }, t7);
    expect(sub.code, sub.message).toBe(20000);
    const managerContext = await b.newContext({ baseURL: server.baseURL, viewport: SMALL_DESKTOP, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const m = await managerContext.newPage();
    await signIn(m, 'demo4');
    await m.goto(`/flow/todolist?workId=${sub.r.workId}`);
    const panel = m.getByTestId('bill-approval-panel');
    await panel.waitFor({ timeout: 15_000 });
    const d = await tableFacts(panel.getByTestId('bill-approval-lines'));
    expect(d.sideways).toBe(false);
    const summary = await panel.locator('.ant-table-summary').innerText();
    expect(summary).toContain('合计');
    expect(summary).toContain('3,031.35');
    expect(await panel.getByTestId('bill-approved-total').innerText()).toContain('与报销金额相同');
    const text = await m.locator('body').innerText();
    expect(text).not.toContain('发票及单据');
    expect(text).not.toContain('流程结束结束');
    expect(text).toContain(`${saved.r.billNo}（3,031.35元）`);
    await m.screenshot({ path: 'test-results/reimb-drawer-1366.png' });
    await managerContext.close();
    await context.close();
  });
});

describe('费用报销：会话中途结束，填写的内容不丢', () => {
  it('demo7 fills a bill, the session is revoked, 保存草稿 asks to sign in again over the page and then saves what was typed', async () => {
    const { context, page: e } = await session();
    await signIn(e, 'demo7');
    await e.goto('/my/reimbursement/detail/new');
    const editor = e.getByTestId('bill-editor');
    await editor.waitFor();
    const reason = `会话结束测试 ${Date.now()}`;
    await editor.getByLabel('报销事由').fill(reason);
    const rows = editor.locator('.ant-table-tbody tr.ant-table-row');
    if ((await rows.count()) === 0) await editor.getByTestId('add-line').click();
    const row = rows.first();
    await row.locator('.ant-select').first().click();
    await e.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^办公$/ }).click();
    await row.getByPlaceholder('说明', { exact: true }).fill('会话结束前填写的说明');
    await row.getByPlaceholder('金额（元）').fill('123.45');

    // The session ends behind the employee's back (signed out elsewhere: the token is revoked).
    const token = (await context.cookies()).find((c) => c.name === 'ZHYY-Token')!.value;
    expect((await api('/api/account/logout', { token, name: 'demo7' }, token)).code).toBe(20000);

    await editor.getByTestId('save-bill').click();
    const dialog = e.getByTestId('reauth-dialog');
    await dialog.waitFor({ timeout: 15_000 });
    expect(e.url()).toContain('/my/reimbursement/detail/new');
    expect(await editor.getByLabel('报销事由').inputValue()).toBe(reason);
    await e.screenshot({ path: 'test-results/reimb-reauth-dialog.png' });
    await e.locator('.ant-modal').getByLabel('密码').fill('demo123');
    await e.getByTestId('reauth-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await e.waitForURL(/\/my\/reimbursement\/detail\/(?!new)[\w-]+$/, { timeout: 15_000 });
    const billId = e.url().split('/').pop()!;
    const saved = await api<{ reason: string; amount: number; lines: Array<{ description: string }> }>('/api/reimbursement/bill/get', { id: billId }, await tokenOf('demo7'));
    expect(saved.code, saved.message).toBe(20000);
    expect(saved.r).toMatchObject({ reason, amount: 12_345 });
    expect(saved.r.lines.map((l) => l.description)).toEqual(['会话结束前填写的说明']);
    await context.close();
  });
});

/** The text of a PDF (pdf.js, as the server's recognition reads uploaded invoices). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(''));
  }
  await doc.destroy();
  // Chromium's fonts map some ideographs to radicals (⽤ for 用, ⻔ for 门): NFKC gives the Kangxi ones back,
  // the supplement's ⻔ has no mapping of its own.
  return parts.join('\n').normalize('NFKC').replace(/\u2ED4/g, '门');
}
