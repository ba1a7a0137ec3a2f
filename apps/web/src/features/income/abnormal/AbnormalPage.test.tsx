/** Issue 14: /income/invoicePool/abnormal opens on 待处理, and its 异常票池 tab keeps the pool view (issue 13). */
import '../../../test/dom';
import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import AbnormalPage from './AbnormalPage';

const list = vi.fn().mockResolvedValue({ items: [], total: 0 });
const page = vi.fn().mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } });
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), abnormalApi: { list: (...a: unknown[]) => list(...a) } }));
vi.mock('../../../api/income', async (orig) => ({
  ...(await orig<typeof import('../../../api/income')>()),
  incomeApi: { page: (...a: unknown[]) => page(...a), abnormalCount: () => Promise.resolve({ abnormalInvoicePoolCount: 0 }) },
}));
configure({ asyncUtilTimeout: 15_000 });

describe('异常票池 page (issue 14)', { timeout: 60_000 }, () => {
  it('opens on 待处理 and shows the pool view under its tab', async () => {
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><MemoryRouter><AbnormalPage /></MemoryRouter></QueryClientProvider>);
    expect(await screen.findByText('没有待处理的异常')).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ state: 'open', pageIndex: 1, pageSize: 20 });
    fireEvent.click(within(screen.getByTestId('abnormal-tabs')).getByRole('tab', { name: '异常票池' }));
    expect(await screen.findByTestId('income-pool-abnormal')).toBeTruthy();
    expect(page).toHaveBeenCalledWith('abnormal', { pageIndex: 1, pageSize: 20 });
  });
});
