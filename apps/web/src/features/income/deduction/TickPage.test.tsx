/**
 * Issue 14, 抵扣勾选 / 退税勾选: the period header (countdown, ticked against candidates), the candidates with
 * the 合计 row, the tick body (有效税额 per row in 分, the filter for 全选筛选结果), the 疑点 confirmation
 * resent with confirmed: true, the refusals listed, and the actions closed after the deadline.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CandidatePage, CandidateRow, TickPeriodInfo } from '@zhyy/shared';
import { poolRow } from '../pool/testRows';
import { closedReasonOf, countdown } from './PeriodHeader';
import DeductionTick from './DeductionTick';
import RebateTick from './RebateTick';

const calls = { period: vi.fn(), page: vi.fn(), tick: vi.fn(), untick: vi.fn(), importTicks: vi.fn(), setting: vi.fn(), saveSetting: vi.fn(), log: vi.fn() };
vi.mock('./api', async (orig) => ({
  ...(await orig<typeof import('./api')>()),
  tickApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));

const download = vi.fn();
vi.mock('../../../api/invoiceLedger', () => ({ downloadWithProgress: (path: string, body: Record<string, unknown>) => download(path, body) }));
vi.mock('../../../components/download', async (orig) => ({ ...(await orig<typeof import('../../../components/download')>()), saveBlob: () => undefined }));

configure({ asyncUtilTimeout: 15_000 });

const ID1 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const ID2 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02';
const cand = (over: Partial<CandidateRow> = {}): CandidateRow => {
  const row = { ...poolRow(), vatUsage: 0, tickState: 0, effectiveTax: null, deductReason: null, tickPeriod: '', tickedAt: null, tickedBy: '', needsConfirm: false, ...over };
  return { ...row, netTax: over.netTax ?? row.tax };
};
const PAGE: CandidatePage = {
  items: [cand(), cand({ id: ID2, digitalNo: '26322000000012345679', vatUsage: 1, tickState: 1, effectiveTax: 6500, tickPeriod: '202611', needsConfirm: true })],
  total: 88,
  totals: { count: 88, amountExcl: 12_345_678, tax: 1_604_938, amountIncl: 13_950_616, effectiveTax: 765_432 },
};
const period = (over: Partial<TickPeriodInfo> = {}): TickPeriodInfo => ({
  period: '202611', deadline: new Date(Date.now() + 2 * 86400_000 + 3600_000).toISOString(), deadlineText: '2026-12-15 23:59:59', serviceNow: new Date().toISOString(), windowFrom: '2026-06-01', windowTo: '2026-11-30',
  statState: 0, open: true, closedReason: '', ticked: { count: 12, tax: 345_600, effectiveTax: 300_000 },
  apart: [{ usages: [4], label: '不抵扣', count: 3, tax: 45_600 }, { usages: [2, 3], label: '退税', count: 1, tax: 9_000 }], candidates: { count: 88, tax: 1_604_938 }, tickBookedOnly: false, ...over,
});

beforeEach(() => {
  for (const f of Object.values(calls)) f.mockReset();
  calls.period.mockResolvedValue(period());
  calls.page.mockResolvedValue(PAGE);
  calls.setting.mockResolvedValue({ tickBookedOnly: false });
});

function renderPage(el: React.ReactElement) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{el}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const rowOf = (number: string) => screen.getByText(number).closest('tr')!;
const selectRow = (number: string) => fireEvent.click(within(rowOf(number)).getAllByRole('checkbox')[0]!);

describe('抵扣勾选 / 退税勾选 (issue 14)', { timeout: 60_000 }, () => {
  it('shows the period (countdown, window, state, ticked against candidates) and the candidates with the 合计 row', async () => {
    renderPage(<DeductionTick />);
    const head = await screen.findByTestId('tick-period');
    await waitFor(() => expect(head.textContent).toContain('2026年11月'));
    expect(head.textContent).toContain('2026-12-15 23:59:59');
    expect(screen.getByTestId('tick-countdown').textContent).toMatch(/^剩余 2 天 0\d:\d\d:\d\d$/);
    expect(head.textContent).toContain('2026-06-01 至 2026-11-30');
    expect(head.textContent).toContain('未统计');
    expect(screen.getByTestId('tick-ticked').textContent).toContain('12 张');
    expect(screen.getByTestId('tick-ticked').textContent).toContain('3,000.00');
    // 不抵扣 and 退税 apart, never added to what is ticked for 抵扣 (the same figures as 抵扣统计).
    expect(head.textContent).toContain('本期已勾选抵扣');
    expect(screen.getByTestId('tick-apart').textContent).toBe('不抵扣 3 张 税额 456.00退税 1 张 税额 90.00');
    expect(screen.getByTestId('tick-candidates').textContent).toContain('88 张');
    expect(screen.getByTestId('tick-candidates').textContent).toContain('16,049.38');
    expect(calls.period).toHaveBeenCalledWith('deduction');
    await waitFor(() => expect(calls.page).toHaveBeenCalledWith('deduction', { pageIndex: 1, pageSize: 20 }));
    const totals = await screen.findByTestId('tick-totals');
    expect(totals.textContent).toContain('筛选结果合计（88 张）');
    expect(totals.textContent).toContain('7,654.32');
    expect(within(rowOf('26322000000012345679')).getByText('已勾选')).toBeTruthy();
    expect(within(rowOf('26322000000012345679')).getByText('疑点')).toBeTruthy();
  });

  it('勾选抵扣 sends the chosen rows with the typed 有效税额 in 分 (else the full tax); nothing chosen keeps it disabled', async () => {
    calls.tick.mockResolvedValue({ done: true, needConfirm: false, batchId: 'b1', count: 2, refused: 0, outcomes: [] });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect(screen.getByTestId('tick-period').textContent).toContain('2026年11月'));
    expect((screen.getByTestId('tick-deduct') as HTMLButtonElement).disabled).toBe(true);
    selectRow('26322000000012345678');
    selectRow('26322000000012345679');
    const input = screen.getByLabelText('有效税额 26322000000012345678');
    fireEvent.change(input, { target: { value: '50.5' } });
    fireEvent.blur(input);
    fireEvent.click(screen.getByTestId('tick-deduct'));
    await waitFor(() => expect(calls.tick).toHaveBeenCalledWith('deduction', { items: [{ id: ID1, effectiveTax: 5050 }, { id: ID2, effectiveTax: 6500 }], vatUsage: 1 }));
    await waitFor(() => expect(calls.page).toHaveBeenCalledTimes(2));
  });

  it('有效税额 is checked as typed by the server rule: marked on the field, 勾选抵扣 blocked, nothing sent; put right, it is sent', async () => {
    // Issue 27: 999999, −5 and "abc" were clamped or replaced by the full tax and answered 勾选成功.
    calls.tick.mockResolvedValue({ done: true, needConfirm: false, batchId: 'b1', count: 1, refused: 0, outcomes: [], message: '勾选成功1张' });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect(screen.getByTestId('tick-period').textContent).toContain('2026年11月'));
    selectRow('26322000000012345678');
    const input = screen.getByLabelText('有效税额 26322000000012345678') as HTMLInputElement;
    const tax = (PAGE.items[0]!.tax / 100).toFixed(2);
    for (const [typed, words] of [
      ['999999', `有效税额须大于0且不超过发票税额（${tax}元）`],
      ['-5', '有效税额须为数字金额（元），如 1090.00'],
      ['0', `有效税额须大于0且不超过发票税额（${tax}元）`],
      ['abc', '有效税额须为数字金额（元），如 1090.00'],
      ['1.234', '有效税额最多两位小数'],
      ['', '请填写有效税额'],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
      expect(input.value).toBe(typed);
      expect(screen.getByTestId('tick-effective-problem').textContent).toBe(`发票 26322000000012345678 的${words}`);
      expect((screen.getByTestId('tick-deduct') as HTMLButtonElement).disabled).toBe(true);
    }
    expect(calls.tick).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '12.34' } });
    await waitFor(() => expect((screen.getByTestId('tick-deduct') as HTMLButtonElement).disabled).toBe(false));
    expect(input.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByTestId('tick-deduct'));
    await waitFor(() => expect(calls.tick).toHaveBeenCalledWith('deduction', { items: [{ id: ID1, effectiveTax: 1234 }], vatUsage: 1 }));
  });

  it('有效税额 opens written as every figure is, with the thousands separator (issue 31 #8)', async () => {
    calls.page.mockResolvedValue({ ...PAGE, items: [{ ...PAGE.items[0]!, tax: 3_688_247, netTax: 3_688_247, tickState: 0, effectiveTax: null }, ...PAGE.items.slice(1)] });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    expect((screen.getByLabelText('有效税额 26322000000012345678') as HTMLInputElement).value).toBe('36,882.47');
  });

  it('a blue invoice partly reversed by a red invoice received (issue 29): the printed 税额 with 红冲后 under it, the net tax by default and as the ceiling', async () => {
    calls.page.mockResolvedValue({ ...PAGE, items: [{ ...PAGE.items[0]!, tax: 90_000, netTax: 81_000, tickState: 0, effectiveTax: null }, ...PAGE.items.slice(1)] });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    expect(within(rowOf('26322000000012345678')).getByTestId('tick-net-tax').textContent).toBe('红冲后 810.00');
    const input = screen.getByLabelText('有效税额 26322000000012345678') as HTMLInputElement;
    expect(input.value).toBe('810.00');
    fireEvent.change(input, { target: { value: '900.00' } });
    expect(await screen.findByTestId('tick-effective-invalid')).toBeTruthy();
  });

  it('a batch with 疑点 invoices asks first and is resent with confirmed: true', async () => {
    calls.tick
      .mockResolvedValueOnce({ done: false, needConfirm: true, batchId: '', count: 0, refused: 0, outcomes: [{ invoiceId: ID2, invoiceNumber: '26322000000012345679', ok: false, message: '您勾选的发票中含有疑点发票' }] })
      .mockResolvedValueOnce({ done: true, needConfirm: false, batchId: 'b2', count: 1, refused: 0, outcomes: [] });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345679');
    await waitFor(() => expect(screen.getByTestId('tick-period').textContent).toContain('2026年11月'));
    selectRow('26322000000012345679');
    fireEvent.click(screen.getByTestId('tick-nondeduct'));
    fireEvent.click(await screen.findByLabelText('集体福利或个人消费'));
    fireEvent.click(screen.getByTestId('tick-reason-ok'));
    await waitFor(() => expect(calls.tick).toHaveBeenCalledWith('deduction', { items: [{ id: ID2 }], vatUsage: 4, deductReason: 3 }));
    const dialog = await screen.findByTestId('tick-confirm');
    expect(dialog.textContent).toContain('您勾选的发票中含有疑点发票');
    expect(dialog.textContent).toContain('26322000000012345679');
    fireEvent.click(screen.getByRole('button', { name: '确认勾选' }));
    await waitFor(() => expect(calls.tick).toHaveBeenLastCalledWith('deduction', { items: [{ id: ID2 }], vatUsage: 4, deductReason: 3, confirmed: true }));
  });

  it('refusals are listed by invoice and reason; nothing was ticked', async () => {
    calls.tick.mockResolvedValue({
      done: false, needConfirm: false, batchId: 'b3', count: 0, refused: 1, message: '勾选失败：1张发票不能勾选，本批均未勾选',
      outcomes: [
        { invoiceId: ID1, invoiceNumber: '26322000000012345678', ok: false, message: '该发票已勾选为抵扣，不能再勾选为出口退税' },
        { invoiceId: ID2, invoiceNumber: '26322000000012345679', ok: false, message: '同批有不能勾选的发票，本批均未勾选' },
      ],
    });
    renderPage(<RebateTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect(screen.getByTestId('tick-period').textContent).toContain('2026年11月'));
    expect(calls.period).toHaveBeenCalledWith('rebate');
    selectRow('26322000000012345678');
    fireEvent.click(screen.getByTestId('tick-export'));
    await waitFor(() => expect(calls.tick).toHaveBeenCalledWith('rebate', { items: [{ id: ID1 }], vatUsage: 2 }));
    const box = await screen.findByTestId('tick-refusals');
    expect(box.textContent).toContain('26322000000012345678');
    expect(box.textContent).toContain('该发票已勾选为抵扣，不能再勾选为出口退税');
    expect(box.textContent).toContain('本批 2 张发票均未处理（全部成功才记录），其中 1 张被拒绝');
    expect(box.textContent).toContain('同批有不能勾选的发票，本批均未勾选');
    expect(box.textContent!.indexOf('26322000000012345678')).toBeLessThan(box.textContent!.indexOf('26322000000012345679'));
    expect(screen.getByText('勾选失败：1张发票不能勾选，本批均未勾选')).toBeTruthy();
  });

  it('全选筛选结果 sends the filter; 撤销勾选 asks first', async () => {
    calls.tick.mockResolvedValue({ done: true, needConfirm: false, batchId: 'b4', count: 88, refused: 0, outcomes: [] });
    calls.untick.mockResolvedValue({ done: true, needConfirm: false, batchId: 'b5', count: 1, refused: 0, outcomes: [] });
    renderPage(<RebateTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect(screen.getByTestId('tick-period').textContent).toContain('2026年11月'));
    fireEvent.change(screen.getByPlaceholderText('销方名称，包含即可'), { target: { value: '恒达' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.page).toHaveBeenLastCalledWith('rebate', { sellerName: '恒达', pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByTestId('tick-all-filtered'));
    expect(screen.getByTestId('tick-chosen').textContent).toBe('已选 88 张');
    fireEvent.click(screen.getByTestId('tick-agent'));
    await waitFor(() => expect(calls.tick).toHaveBeenCalledWith('rebate', { filter: { sellerName: '恒达' }, vatUsage: 3 }));
    selectRow('26322000000012345679');
    fireEvent.click(screen.getByTestId('tick-undo'));
    expect((await screen.findByTestId('tick-undo-confirm')).textContent).toContain('确认撤销所选 1 张发票的勾选');
    expect(calls.untick).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /撤\s*销$/ }));
    await waitFor(() => expect(calls.untick).toHaveBeenCalledWith('rebate', { ids: [ID2] }));
  });

  it('导出Excel sends the filters of the list to the page export (issue 31 #11); an empty list disables it', async () => {
    download.mockReset();
    download.mockResolvedValue(new Blob(['x']));
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    fireEvent.change(screen.getByPlaceholderText('销方名称，包含即可'), { target: { value: '恒达' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.page).toHaveBeenLastCalledWith('deduction', { sellerName: '恒达', pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/income/deduction/export', { sellerName: '恒达' }));
    calls.page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0, effectiveTax: 0 } });
    fireEvent.change(screen.getByPlaceholderText('销方名称，包含即可'), { target: { value: '无此销方' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect((screen.getByTestId('export-button') as HTMLButtonElement).disabled).toBe(true));
  });

  it('退税勾选 exports its own list', async () => {
    download.mockReset();
    download.mockResolvedValue(new Blob(['x']));
    renderPage(<RebateTick />);
    await screen.findByText('26322000000012345678');
    fireEvent.click(screen.getByTestId('export-button'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/income/deduction/rebate-export', {}));
  });

  it('after the deadline or once confirmed the actions are disabled with the reason shown', async () => {
    calls.period.mockResolvedValue(period({ open: false, statState: 2, closedReason: '税款所属期202611的统计已确认，不能再勾选或撤销' }));
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    expect((await screen.findByTestId('tick-closed')).textContent).toContain('税款所属期202611的统计已确认，不能再勾选或撤销');
    expect(screen.getByTestId('tick-period').textContent).toContain('已确认');
    selectRow('26322000000012345678');
    for (const id of ['tick-deduct', 'tick-nondeduct', 'tick-undo', 'tick-import']) expect((screen.getByTestId(id) as HTMLButtonElement).disabled).toBe(true);
  });

  it('the countdown runs on the tax service clock: a deadline past by the browser clock is still open by the service clock', async () => {
    const serviceNow = Date.now() - 20 * 86400_000;
    calls.period.mockResolvedValue(period({ serviceNow: new Date(serviceNow).toISOString(), deadline: new Date(serviceNow + 2 * 86400_000 + 3600_000).toISOString() }));
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect(screen.getByTestId('tick-countdown').textContent).toMatch(/^剩余 2 天 0\d:\d\d:\d\d$/));
    expect(screen.queryByTestId('tick-closed')).toBeNull();
    selectRow('26322000000012345678');
    expect((screen.getByTestId('tick-deduct') as HTMLButtonElement).disabled).toBe(false);
  });

  it('the countdown reads days and hh:mm:ss, null once past', () => {
    expect(countdown('2026-11-20T00:00:00.000Z', Date.parse('2026-11-18T22:58:57.000Z'))).toBe('剩余 1 天 01:01:03');
    expect(countdown('2026-11-20T00:00:00.000Z', Date.parse('2026-11-19T23:59:59.000Z'))).toBe('剩余 00:00:01');
    expect(countdown('2026-11-20T00:00:00.000Z', Date.parse('2026-11-20T00:00:00.000Z'))).toBeNull();
    // The deadline passing while the page is open closes it with the reason, before the server says so.
    const info = period({ deadline: '2026-11-20T00:00:00.000Z', deadlineText: '2026-11-20 08:00:00' });
    expect(closedReasonOf(info, Date.parse('2026-11-19T23:59:59.000Z'))).toBe('');
    expect(closedReasonOf(info, Date.parse('2026-11-20T00:00:01.000Z'))).toBe('税款所属期202611的勾选截止时间（2026-11-20 08:00:00）已过');
    expect(closedReasonOf({ ...info, open: false, closedReason: '税款所属期202611的统计已确认' }, Date.parse('2026-11-19T00:00:00.000Z'))).toBe('税款所属期202611的统计已确认');
  });

  it('导入勾选 sends the .xlsx as base64 with the usage, shows the rows, and resends with confirmed: true after the 疑点 question', async () => {
    const rows = [{ row: 2, invoiceNumber: '26322000000012345679', invoiceId: ID2, effectiveTax: 6500, ok: true, message: '' }];
    calls.importTicks
      .mockResolvedValueOnce({ done: false, needConfirm: true, batchId: '', count: 0, refused: 0, outcomes: [{ invoiceId: ID2, invoiceNumber: '26322000000012345679', ok: false, message: '您勾选的发票中含有疑点发票' }], rows })
      .mockResolvedValueOnce({ done: true, needConfirm: false, batchId: 'b6', count: 1, refused: 0, outcomes: [], rows });
    renderPage(<DeductionTick />);
    await screen.findByText('26322000000012345678');
    await waitFor(() => expect((screen.getByTestId('tick-import') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('tick-import'));
    const input = (await screen.findByText('选择文件')).closest('.ant-upload')!.querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File(['xlsx-bytes'], '勾选.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })] } });
    await screen.findByText('勾选.xlsx');
    fireEvent.click(screen.getByTestId('tick-import-run'));
    await waitFor(() => expect(calls.importTicks).toHaveBeenCalledWith('deduction', { file: btoa('xlsx-bytes'), fileName: '勾选.xlsx', vatUsage: 1, confirmed: false }));
    const result = await screen.findByTestId('tick-import-result');
    expect(result.textContent).toContain('您勾选的发票中含有疑点发票');
    expect(result.textContent).toContain('26322000000012345679');
    expect(result.textContent).toContain('65.00');
    fireEvent.click(screen.getByTestId('tick-import-confirm'));
    await waitFor(() => expect(calls.importTicks).toHaveBeenLastCalledWith('deduction', { file: btoa('xlsx-bytes'), fileName: '勾选.xlsx', vatUsage: 1, confirmed: true }));
    await waitFor(() => expect(screen.getByTestId('tick-import-result').textContent).toContain('导入勾选成功1张'));
  });

  it('先入账后勾选 is saved through setting-save', async () => {
    calls.saveSetting.mockResolvedValue({ tickBookedOnly: true });
    renderPage(<DeductionTick />);
    const sw = await screen.findByTestId('tick-booked-only');
    await waitFor(() => expect(calls.setting).toHaveBeenCalled());
    fireEvent.click(sw);
    await waitFor(() => expect(calls.saveSetting).toHaveBeenCalledWith(true));
    await waitFor(() => expect(sw.getAttribute('aria-checked')).toBe('true'));
  });
});
