/**
 * Issue 13, 进项票池: "totals of the filtered set" — the 合计 row shows the server's totals of the whole
 * filtered set (not the sum of the page shown), and 查询 sends the filters typed.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../stores/session';
import PoolList from './PoolList';
import { poolRow } from './testRows';

const page = vi.fn();
vi.mock('../../../api/income', async (orig) => ({ ...(await orig<typeof import('../../../api/income')>()), incomeApi: { page: (...a: unknown[]) => page(...a) } }));

configure({ asyncUtilTimeout: 15_000 });

beforeEach(() => {
  page.mockReset();
  useSession.setState({ roles: ['13'] } as never);
});

function renderList() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><PoolList /></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('进项票池 (issue 13)', { timeout: 60_000 }, () => {
  it('the 合计 row shows the totals of the filtered set as the server sums them, not the page', async () => {
    // One row on the page; the filtered set holds 321 invoices.
    page.mockResolvedValue({ items: [poolRow()], total: 321, totals: { count: 321, amountExcl: 123456789, tax: 9876543, amountIncl: 133333332 } });
    renderList();
    const totals = await screen.findByTestId('pool-totals');
    expect(totals.textContent).toContain('筛选结果合计（321 张）');
    expect(totals.textContent).toContain('1,234,567.89');
    expect(totals.textContent).toContain('98,765.43');
    expect(totals.textContent).toContain('1,333,333.32');
    expect(totals.textContent).not.toContain('1,130.00');
    expect(page).toHaveBeenCalledWith('all', { pageIndex: 1, pageSize: 20 });
  });

  it('查询 sends the filters typed; an empty set says so and disables the export', async () => {
    page.mockResolvedValueOnce({ items: [poolRow()], total: 1, totals: { count: 1, amountExcl: 100000, tax: 13000, amountIncl: 113000 } });
    page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } });
    renderList();
    await screen.findByTestId('pool-totals');
    const list = screen.getByTestId('income-pool');
    fireEvent.change(within(list).getByPlaceholderText('销方名称，包含即可'), { target: { value: ' 恒达 ' } });
    fireEvent.click(within(list).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(page).toHaveBeenLastCalledWith('all', { sellerName: '恒达', pageIndex: 1, pageSize: 20 }));
    expect(await within(list).findByText('没有符合条件的发票')).toBeTruthy();
    await waitFor(() => expect(within(list).getByTestId('pool-totals').textContent).toContain('筛选结果合计（0 张）'));
    expect((within(list).getByTestId('export-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('手工录入 is offered to role 13 (the list page is theirs)', async () => {
    page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } });
    renderList();
    expect(await screen.findByTestId('pool-entry')).toBeTruthy();
  });
});
