/**
 * Issue 32 item 2 in the browser, the clerk's path: the bureau red-reverses (全额红冲) a deducted demo invoice (the
 * simulator's control row, written straight into the shared server's database); demo13 opens the invoice and asks
 * 立即核查 (the job asks twice a day); the invoice is 全额红冲 and its case on 异常处理 proposes the deducted tax and
 * the period; 确认转出建议 shows the proposal and makes the voucher.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, inject } from 'vitest';
import { dismissReminder, newSession, signIn, useBrowser } from './browser';

useBrowser();

/** A deducted demo invoice of a past period, known to the simulated bureau, with no case yet; the bureau now says 全额红冲. */
function redReverseOne(): { id: string; no: string; tax: number } {
  const db = new Database(path.join(inject('dataDir'), 'platform.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const period = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');
    const row = db
      .prepare(
        `select i.id, i.digital_no as no, i.effective_tax as tax from income_invoices i join taxsim_income_known k on k.invoice_key = i.digital_no
         where i.tick_state = 1 and i.vat_usage = 1 and i.invoice_state = 0 and i.risk_level = '01' and i.amount_incl > 0 and length(i.digital_no) = 20 and i.tick_period < ?
           and not exists (select 1 from income_abnormal_cases c where c.invoice_id = i.id) and not exists (select 1 from income_transfer_outs t where t.invoice_id = i.id)
         order by i.issue_date desc limit 1`,
      )
      .get(period) as { id: string; no: string; tax: number } | undefined;
    if (!row) throw new Error('演示数据中没有可用的已抵扣发票');
    db.prepare('insert into taxsim_income_status (invoice_key, invoice_state, risk_level, changed_at) values (?, 8, ?, ?)').run(row.no, '01', new Date().toISOString().slice(0, 19).replace('T', ' '));
    return row;
  } finally {
    db.close();
  }
}

describe('发票状态核查', () => {
  it('demo13: 立即核查 finds the 全额红冲, the case proposes the transfer-out, 确认转出建议 makes the voucher', async () => {
    const inv = redReverseOne();
    const { page } = await newSession();
    await signIn(page, 'demo13');
    await dismissReminder(page);

    await page.goto(`/income/invoicePool/detail/${inv.id}`);
    await page.getByTestId('pool-detail').waitFor();
    await expect.poll(() => page.getByTestId('detail-status-check').innerText()).toBe('未核查');
    await page.getByTestId('pool-recheck').click();
    await expect.poll(() => page.locator('.ant-message').innerText(), { timeout: 15_000 }).toContain('状态已更新：发票状态「全额红冲」');
    await expect.poll(() => page.getByTestId('detail-status-check').innerText()).toMatch(/^核查于 /);

    await page.goto('/income/invoicePool/abnormal');
    const list = page.getByTestId('abnormal-cases-open');
    await list.locator('#abnormal-cases-open_number').fill(inv.no);
    await list.getByRole('button', { name: /查\s*询/ }).click();
    const row = list.locator('tbody tr.ant-table-row', { hasText: inv.no });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    const yuan = (Number(inv.tax) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    await expect.poll(() => row.getByTestId('case-proposal').innerText()).toContain(`转出 ${yuan}`);
    await row.getByTestId('case-acceptProposal').click();
    const dialog = page.getByTestId('case-dialog-acceptProposal');
    await expect.poll(() => dialog.getByTestId('proposal').innerText()).toContain('红字信息表注明');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => page.locator('.ant-message').innerText(), { timeout: 20_000 }).toMatch(/进项转出成功，凭证号 /);
    await expect.poll(() => list.locator('tbody tr.ant-table-row', { hasText: inv.no }).count()).toBe(0);
  });
});
