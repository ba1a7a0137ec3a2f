/**
 * Issue 13, 异常票池: "the invoices that carry an abnormal flag: voided, red-reversed or with a pending red
 * confirmation, 失控, 异常凭证, buyer not ours, duplicate, verification mismatch; count abnormalInvoicePoolCount".
 */
import '../../../test/dom';
import { configure, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import PoolAbnormal from './PoolView';
import { poolRow } from '../pool/testRows';

const page = vi.fn();
const count = vi.fn();
vi.mock('../../../api/income', async (orig) => ({
  ...(await orig<typeof import('../../../api/income')>()),
  incomeApi: { page: (...a: unknown[]) => page(...a), abnormalCount: () => count() },
}));

configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => {
  page.mockReset();
  count.mockReset();
});

const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><PoolAbnormal /></MemoryRouter>
    </QueryClientProvider>,
  );

describe('异常票池 (issue 13)', { timeout: 60_000 }, () => {
  it('asks the abnormal list, shows every flag of each row in Chinese and the count', async () => {
    const rows = [
      poolRow({ id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', digitalNo: '26322000000000000001', invoiceState: 2, abnormalFlags: ['voided'] }),
      poolRow({ id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02', digitalNo: '26322000000000000002', abnormalFlags: ['duplicate', 'buyerNotOurs', 'redPending'] }),
      poolRow({ id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a03', digitalNo: '26322000000000000003', invoiceState: 8, abnormalFlags: ['verifyMismatch', 'red', 'abnormalVoucher', 'lostControl'] }),
    ];
    page.mockResolvedValue({ items: rows, total: 3, totals: { count: 3, amountExcl: 300000, tax: 39000, amountIncl: 339000 } });
    count.mockResolvedValue({ abnormalInvoicePoolCount: 3 });
    renderPage();
    const list = await screen.findByTestId('income-pool-abnormal');
    await within(list).findByText('26322000000000000003');
    expect(page).toHaveBeenCalledWith('abnormal', { pageIndex: 1, pageSize: 20 });
    const flagsOf = (no: string) => [...within(list).getByText(no).closest('tr')!.querySelectorAll('[data-testid="abnormal-flags"] .ant-tag')].map((t) => t.textContent);
    expect(flagsOf('26322000000000000001')).toEqual(['已作废']);
    // In the shared order, whatever order the server sent.
    expect(flagsOf('26322000000000000002')).toEqual(['红字确认中', '购方非本公司', '疑似重复']);
    expect(flagsOf('26322000000000000003')).toEqual(['已红冲', '失控', '异常凭证', '查验不一致']);
    expect((await screen.findByText('待处理的异常发票 3 张')).closest('[data-testid="abnormal-count"]')).toBeTruthy();
    expect(within(list).getByTestId('pool-totals').textContent).toContain('筛选结果合计（3 张）');
  });

  it('no abnormal invoice: says so', async () => {
    page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } });
    count.mockResolvedValue({ abnormalInvoicePoolCount: 0 });
    renderPage();
    expect(await screen.findByText('没有待处理的异常发票')).toBeTruthy();
    expect(await screen.findByText('没有符合条件的异常发票')).toBeTruthy();
  });
});
