/** Issue 12 #21: 数电红字 asks before saving a draft, says why a 红冲金额 is wrong, and follows a submission. */
import '../../../test/dom';
import { QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAmountInput, type InvoiceLineRow, type RedConfirmDetail } from '@zhyy/shared';
import { refetchWhileSettling } from '../../../components/settlePoll';
import { ViewContext, type ViewInfo } from '../../../router/view';
import { redSettling } from '../widgets';

const api = vi.hoisted(() => ({
  redDetail: vi.fn(),
  redSave: vi.fn(),
  redCreate: vi.fn(),
  redList: vi.fn(),
  blueCandidates: vi.fn(),
}));
vi.mock('../../../api/invoice', () => ({ invoiceApi: api }));
const confirm = vi.hoisted(() => vi.fn());
const messageError = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', () => ({ feedback: () => ({ modal: { confirm }, message: { error: messageError, success: vi.fn() } }) }));

const { default: RedConfirmEdit } = await import('./RedConfirmEdit');
const { default: RedConfirmPage } = await import('./RedConfirmPage');

const blueLine: InvoiceLineRow = {
  lineNo: 1, goodsName: '*建筑服务*工程服务', taxCode: '3050200000000000000', spec: '', unit: '', quantity: '', unitPrice: '', priceIncludesTax: true, taxRate: '0.09',
  policy: 0, lineProperty: 0, amountExcl: 100000, tax: 9000, amountIncl: 109000,
};
const detail: RedConfirmDetail = {
  id: 7, billNo: 'HZ1', direction: 'seller', state: '00', blueInvoiceId: 'b1', blueInvoiceNo: '26320000000000000001', blueDigitalNo: '26320000000000000001', buyerName: '江苏长江路桥建设有限公司',
  redReason: 1, vatUsage: 4, amountExcl: -100000, tax: -9000, amountIncl: -109000, redInvoiceId: null, redInvoiceNo: '', message: '', createdByName: '李娜', createdAt: '2026-11-22T02:00:00Z', updatedAt: '2026-11-22T02:00:00Z',
  lines: [{ ...blueLine, amountExcl: -100000, tax: -9000, amountIncl: -109000, blueLineNo: 1, blueAmountIncl: 109000 }],
  blueLines: [blueLine],
  can: { save: true, apply: true, confirm: false, refuse: false, cancel: true },
};

function wrap(children: React.ReactNode, params: Record<string, string> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = { path: '/x', fullPath: '/x', search: '', params, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}>{children}</ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.clearAllMocks());

describe('红冲金额 (readAmountInput)', () => {
  it('says why instead of clamping or zeroing', () => {
    const opts = { label: '红冲金额', maxFen: 109000, maxLabel: '蓝字含税金额' };
    expect(readAmountInput('200000', opts)).toEqual({ ok: false, error: '红冲金额不能超过蓝字含税金额 1,090.00 元' });
    expect(readAmountInput('abc', opts)).toEqual({ ok: false, error: '红冲金额须为数字金额（元），如 1090.00' });
    expect(readAmountInput('1.005', opts)).toEqual({ ok: false, error: '红冲金额最多两位小数' });
    expect(readAmountInput('545.5', opts)).toEqual({ ok: true, fen: 54550 });
    expect(readAmountInput('1,090.00', opts)).toEqual({ ok: true, fen: 109000 });
    expect(readAmountInput('', opts)).toEqual({ ok: true, fen: 0 });
  });
});

describe('红字确认单 page', () => {
  it('keeps what was typed and names the limit beside the field; nothing is saved while it is wrong', async () => {
    api.redDetail.mockResolvedValue(detail);
    wrap(<RedConfirmEdit />, { id: '7' });
    const input = await screen.findByLabelText('第1行红冲含税金额');
    fireEvent.change(input, { target: { value: '200000' } });
    expect((input as HTMLInputElement).value).toBe('200000');
    expect(await screen.findByText('红冲金额不能超过蓝字含税金额 1,090.00 元')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'abc' } });
    expect((input as HTMLInputElement).value).toBe('abc');
    expect(await screen.findByText('红冲金额须为数字金额（元），如 1090.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^保\s?存$/ }));
    await waitFor(() => expect(messageError).toHaveBeenCalled());
    expect(api.redSave).not.toHaveBeenCalled();
  }, 60_000);

  it('申请红冲 asks first: no draft is saved until 确定', async () => {
    api.redList.mockResolvedValue({ items: [], total: 0 });
    api.blueCandidates.mockResolvedValue({ items: [{ id: 'b1', invoiceNo: '', digitalNo: '26320000000000000001', kind: 9, buyerName: '江苏长江路桥建设有限公司', amountIncl: 109000, tax: 9000, issuedAt: '2026-11-20T02:00:00Z' }], total: 1 });
    api.redCreate.mockResolvedValue({ code: 20000, r: { id: 8 } });
    wrap(<RedConfirmPage />);
    fireEvent.click(await screen.findByRole('button', { name: /新建红字确认单/ }));
    fireEvent.click(await screen.findByText('申请红冲'));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(confirm.mock.calls[0]![0]).toMatchObject({ title: '申请红冲' });
    expect(String(confirm.mock.calls[0]![0].content)).toContain('1,090.00');
    expect(api.redCreate).not.toHaveBeenCalled();
    confirm.mock.calls[0]![0].onOk();
    await waitFor(() => expect(api.redCreate).toHaveBeenCalledWith('b1'));
  }, 60_000);
});

describe('a submitted request follows the tax service', () => {
  it('polls soon after 申请中, then backs off, and stops once settled', () => {
    const interval = refetchWhileSettling<{ state: string; redInvoiceNo: string }>(redSettling);
    const at = (state: string, count: number) => interval({ state: { data: { state, redInvoiceNo: '' }, dataUpdateCount: count } } as unknown as Query<{ state: string; redInvoiceNo: string }, Error, { state: string; redInvoiceNo: string }, readonly unknown[]>);
    expect(at('00', 1)).toBe(false);
    expect([at('15', 2), at('15', 3), at('15', 4), at('15', 5), at('15', 6), at('15', 7), at('15', 20)]).toEqual([3000, 5000, 10000, 20000, 30000, 60000, 60000]);
    expect(at('08', 21)).toBe(false);
    expect(redSettling({ state: '01', redInvoiceNo: '' })).toBe(true);
    expect(redSettling({ state: '01', redInvoiceNo: '26320000000000000009' })).toBe(false);
  });
});
