/**
 * Issue 29 items 1 and 2 on 票池发票详情: a red invoice received shows its 红字 tag, its negative figures with a minus
 * sign in red, and the blue invoice it reverses (a link); a blue invoice shows its discount line (折扣行) and the red
 * invoices received against it.
 */
import '../../../test/dom';
import { configure, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ViewContext, type ViewInfo } from '../../../router/view';
import PoolDetail from './PoolDetail';
import { poolDetail } from './testRows';

const detail = vi.fn();
vi.mock('../../../api/income', () => ({ incomeApi: { detail: (...a: unknown[]) => detail(...a), verifyHistory: async () => [], fileLink: async () => ({ url: '' }) } }));
vi.mock('../../../api/incomeBooking', () => ({ bookingApi: { info: async () => ({ invoiceId: '', bookingState: '01', bookedAt: null, deliveries: [] }) } }));
configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => detail.mockReset());

const RED = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a21';
const BLUE = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a22';
const line = (lineNo: number, name: string, amount: number, tax: number) => ({ lineNo, name, spec: '', unit: '', quantity: '', unitPrice: '', amount, taxRate: '0.13', tax });

function renderDetail(id: string) {
  const view = { path: '/income/invoicePool/detail/:id', fullPath: `/income/invoicePool/detail/${id}`, search: '', params: { id }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ViewContext.Provider value={view}><PoolDetail /></ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('红字发票 and 折扣行 on the detail (issue 29)', { timeout: 60_000 }, () => {
  it('a red invoice: 红字, −1,000.00 / −90.00 / −1,090.00 in red, its blue invoice linked', async () => {
    detail.mockResolvedValue(poolDetail({
      id: RED, digitalNo: '25322000000104869953', amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, blueInvoiceNo: '25322000000104862417',
      blue: { id: BLUE, number: '25322000000104862417', issueDate: '2025-05-12', amountIncl: 1_090_000 },
      lines: [line(1, '*建筑服务*劳务分包', -100_000, -9_000)],
    }));
    renderDetail(RED);
    expect((await screen.findByTestId('red-invoice-tag')).textContent).toContain('红字');
    for (const text of ['-1,000.00', '-90.00']) expect((screen.getAllByText(text)[0]!).classList.contains('ant-typography-danger')).toBe(true);
    const blue = screen.getByTestId('pool-blue-invoice');
    expect((within(blue).getByRole('link', { name: '25322000000104862417' })).getAttribute('href')).toBe(`/income/invoicePool/detail/${BLUE}`);
    expect(within(blue).getByText('10,900.00')).toBeTruthy();
    // A red invoice's own negative line is no discount line.
    expect(screen.queryByTestId('discount-line')).toBeNull();
  });

  it('a red invoice whose blue invoice is not in the pool names the number it stated', async () => {
    detail.mockResolvedValue(poolDetail({ id: RED, amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, blueInvoiceNo: '25322000000104862417' }));
    renderDetail(RED);
    expect((await screen.findByTestId('pool-blue-invoice')).textContent).toContain('25322000000104862417（不在票池中）');
  });

  it('a blue invoice: the discount line tagged 折扣行 with its minus sign, the red invoices received against it listed', async () => {
    detail.mockResolvedValue(poolDetail({
      id: BLUE, amountExcl: 2_700_000, tax: 351_000, amountIncl: 3_051_000,
      lines: [line(1, '*钢材*热轧带肋钢筋', 2_000_000, 260_000), line(2, '*钢材*热轧带肋钢筋', -200_000, -26_000), line(3, '*水泥*普通硅酸盐水泥', 900_000, 117_000)],
      reds: [{ id: RED, number: '25322000000104869953', issueDate: '2025-06-20', amountIncl: -109_000 }],
    }));
    renderDetail(BLUE);
    const lines = await screen.findByTestId('pool-lines');
    expect(within(lines).getAllByTestId('discount-line')).toHaveLength(1);
    expect((within(lines).getByText('-2,000.00')).classList.contains('ant-typography-danger')).toBe(true);
    expect(within(lines).getByText('27,000.00')).toBeTruthy();
    expect(screen.queryByTestId('red-invoice-tag')).toBeNull();
    const reds = screen.getByTestId('pool-red-invoices');
    expect((within(reds).getByRole('link', { name: '25322000000104869953' })).getAttribute('href')).toBe(`/income/invoicePool/detail/${RED}`);
    expect((within(reds).getByText('-1,090.00')).classList.contains('ant-typography-danger')).toBe(true);
  });
});
