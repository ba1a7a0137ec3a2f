/** Issue 12 item 9: a bad or unknown invoice id gives one clear 404 page, one request, no toasts. */
import '../../../test/dom';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import { shouldRetry } from '../../../api/retry';
import { ViewContext, type ViewInfo } from '../../../router/view';
import LedgerDetail from './LedgerDetail';

const detail = vi.fn();
const history = vi.fn();
vi.mock('../../../api/invoice', () => ({ invoiceApi: { detail: (...a: unknown[]) => detail(...a) } }));
vi.mock('../../../api/invoiceLedger', () => ({ ledgerApi: { history: (...a: unknown[]) => history(...a) } }));

beforeEach(() => {
  detail.mockReset();
  history.mockReset();
});

function renderDetail(id: string) {
  const view = { path: '/invoice/invoiceaccount/invoice-detail/:id', fullPath: `/invoice/invoiceaccount/invoice-detail/${id}`, search: '', params: { id }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  // The app's query defaults: a refusal is not retried.
  const client = new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, retryDelay: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}>
          <LedgerDetail />
        </ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('发票详情 of a record that is not there', { timeout: 30_000 }, () => {
  it('a malformed id: the 404 page, no request at all', async () => {
    renderDetail('abc');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    expect(screen.getByTestId('record-not-found')).toBeTruthy();
    expect(detail).not.toHaveBeenCalled();
    expect(history).not.toHaveBeenCalled();
  });

  it('an unknown id: one silent request, the 404 page, no history request', async () => {
    detail.mockRejectedValue(new ApiError('business', '发票不存在', { code: 30000, status: 404 }));
    renderDetail('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));
    expect(detail).toHaveBeenCalledTimes(1);
    expect(detail).toHaveBeenCalledWith('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99', { silent: true });
    expect(history).not.toHaveBeenCalled();
  });
});

describe('shouldRetry', () => {
  it('retries once what may pass next time, never a refusal', () => {
    expect(shouldRetry(0, new ApiError('network', 'x'))).toBe(true);
    expect(shouldRetry(0, new ApiError('timeout', 'x'))).toBe(true);
    expect(shouldRetry(0, new ApiError('http', 'x', { status: 502 }))).toBe(true);
    expect(shouldRetry(1, new ApiError('network', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError('business', '参数错误：ID格式不正确', { code: 30000, status: 400 }))).toBe(false);
    expect(shouldRetry(0, new ApiError('business', '发票不存在', { code: 30000, status: 404 }))).toBe(false);
    expect(shouldRetry(0, new TypeError('bug'))).toBe(false);
  });
});
