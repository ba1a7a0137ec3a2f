/**
 * Issue 14, 勾选日志: the rows newest first as the server answers them (who, when, invoice, purpose,
 * effective tax, result), 查询 sends the filters typed, the export takes the same filters.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TickLogRow } from '@zhyy/shared';
import TickLog, { toLogRequest } from './TickLog';
import dayjs from 'dayjs';

const log = vi.fn();
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), tickApi: { log: (...a: unknown[]) => log(...a) } }));

configure({ asyncUtilTimeout: 15_000 });

const row = (over: Partial<TickLogRow> = {}): TickLogRow => ({
  id: 'l1', batchId: 'b-0001', invoiceId: null, invoiceNumber: '26322000000012345678', kind: '81', issueDate: '2026-11-02', sellerName: '南京恒达建材有限公司',
  action: 'tick', vatUsage: 1, deductReason: null, tax: 13000, effectiveTax: 6500, period: '202611', result: 1, message: '', userName: '演示十三', createdAt: '2026-11-20T02:03:04.000Z', ...over,
});

beforeEach(() => log.mockReset());

function renderLog() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><TickLog /></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('勾选日志 (issue 14)', { timeout: 60_000 }, () => {
  it('renders the rows with who, purpose, effective tax and result; 查询 sends the filters; an empty answer says so', async () => {
    log.mockResolvedValueOnce({ items: [row(), row({ id: 'l2', action: 'untick', vatUsage: 4, deductReason: 3, result: 0, message: '该发票已勾选为抵扣，不能再勾选为出口退税', userName: '演示一' })], total: 2 });
    log.mockResolvedValue({ items: [], total: 0 });
    renderLog();
    await waitFor(() => expect(log).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 }));
    const first = (await screen.findByText('演示十三')).closest('tr')!;
    expect(first.textContent).toContain('勾选');
    expect(first.textContent).toContain('26322000000012345678');
    expect(first.textContent).toContain('抵扣');
    expect(first.textContent).toContain('65.00');
    expect(first.textContent).toContain('成功');
    expect(first.textContent).toContain('2026-11-20 10:03:04');
    const second = screen.getByText('演示一').closest('tr')!;
    expect(second.textContent).toContain('撤销勾选');
    // 不抵扣原因, filled only for 不抵扣, is a tag beside the usage (issue 31), not a column of dashes.
    expect(within(second).getByTestId('tick-log-reason').textContent).toBe('集体福利或个人消费');
    expect(within(first).queryByTestId('tick-log-reason')).toBeNull();
    expect(second.textContent).toContain('失败');
    expect((screen.getByTestId('export-button') as HTMLButtonElement).disabled).toBe(false);

    const page = screen.getByTestId('tick-log');
    fireEvent.change(within(page).getByPlaceholderText('姓名'), { target: { value: ' 演示十三 ' } });
    fireEvent.change(within(page).getByPlaceholderText('发票号码/数电号码'), { target: { value: '26322000000012345678' } });
    fireEvent.change(within(page).getByPlaceholderText('批次号'), { target: { value: 'b-0001' } });
    fireEvent.click(within(page).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(log).toHaveBeenLastCalledWith({ userName: '演示十三', number: '26322000000012345678', batchId: 'b-0001', pageIndex: 1, pageSize: 20 }));
    expect(await screen.findByText('没有勾选日志')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('export-button') as HTMLButtonElement).disabled).toBe(true));
  });

  it('the form values become the request: days, purpose, action, result', () => {
    expect(toLogRequest({ days: [dayjs('2026-11-01'), dayjs('2026-11-20')], vatUsage: 2, action: 'untick', result: 0, userName: '  ' })).toEqual({ from: '2026-11-01', to: '2026-11-20', vatUsage: 2, action: 'untick', result: 0 });
  });
});
