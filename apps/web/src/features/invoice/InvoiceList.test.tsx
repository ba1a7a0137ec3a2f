import '../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { InvoiceRow } from '@zhyy/shared';
import BillingPage from './issuing/BillingPage';
import CancellationPage from './cancellation/CancellationPage';

const row: InvoiceRow = {
  id: '00000000-0000-4000-8000-000000000001', orderNo: 'KP2611221000000000001', serialNo: '', kind: 2, colour: 1, status: 2, source: 1,
  buyerName: '江苏长江路桥建设有限公司', buyerTaxNo: '', projectName: '', contractName: '', amountExcl: 100000, tax: 9000, amountIncl: 109000,
  invoiceNo: '00001234', invoiceCode: '', digitalNo: '', issuedAt: '2026-11-20T02:00:00.000Z', failureCause: '', invalid: false, invalidReason: '',
  retryCount: 0, createdByName: '王敏', createdAt: '2026-11-20T01:00:00.000Z', updatedAt: '2026-11-20T02:00:00.000Z',
} as unknown as InvoiceRow;

vi.mock('../../api/invoice', () => {
  const page = async () => ({ items: [row], total: 1, totals: { count: 1, amountExcl: 100000, tax: 9000, amountIncl: 109000 } });
  return { invoiceApi: { listForCreation: page, listForCancellation: page, creationSetting: async () => ({ taxCodes: [] }), buyers: async () => ({ items: [], total: 0 }), projects: async () => [], contracts: async () => [] } };
});

configure({ asyncUtilTimeout: 15_000 });

const wrap = (ui: ReactNode) => render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);

/** The header texts of the table, and the widths its colgroup gives the columns. */
function table(testId: string) {
  const el = screen.getByTestId(testId);
  const headers = [...el.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  return { el, headers };
}

async function openTab(testId: string, label: string) {
  fireEvent.click(within(screen.getByTestId(testId)).getByRole('tab', { name: label }));
  await waitFor(() => expect(within(screen.getByTestId(testId)).getAllByText('江苏长江路桥建设有限公司').length).toBeGreaterThan(0));
}

describe('working invoice lists: columns', () => {
  it('一键开票 已开票: no empty 操作 column, and the 购买方 column has room', { timeout: 90_000 }, async () => {
    wrap(<BillingPage />);
    await waitFor(() => expect(table('invoice-billing').headers).toContain('操作'));
    await openTab('invoice-billing', '已开票');
    await waitFor(() => expect(table('invoice-billing').headers).toContain('发票号码'));
    const { el, headers } = table('invoice-billing');
    expect(headers).toContain('购买方');
    expect(headers).not.toContain('操作');
    // The buyer's column has its own width (it used to be squeezed to nothing by the fixed ones).
    const cols = [...el.querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width);
    expect(cols).toContain('220px');
  });

  it('税控作废: 操作 only where a row has an operation (作废中)', { timeout: 90_000 }, async () => {
    wrap(<CancellationPage />);
    await waitFor(() => expect(table('invoice-cancellation').headers).toContain('购买方'));
    expect(table('invoice-cancellation').headers).not.toContain('操作');
    await openTab('invoice-cancellation', '已作废');
    expect(table('invoice-cancellation').headers).not.toContain('操作');
    await openTab('invoice-cancellation', '作废中');
    await waitFor(() => expect(table('invoice-cancellation').headers).toContain('操作'));
  });
});
