/**
 * Issue 14, the worklist's table: the open cases with flag, owner, 天数 and money; the row buttons by flag;
 * a dialog opened from a row and the success answer refreshing the list; 已处理 shows how and by whom.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AbnormalCaseRow } from '@zhyy/shared';
import { CaseList, toCaseRequest } from './CaseList';

const calls = { list: vi.fn(), reject: vi.fn(), transferOut: vi.fn(), confirm: vi.fn(), correct: vi.fn(), untick: vi.fn() };
vi.mock('./api', async (orig) => ({
  ...(await orig<typeof import('./api')>()),
  abnormalApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));
configure({ asyncUtilTimeout: 15_000 });

const base: AbnormalCaseRow = {
  id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', invoiceId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02', invoiceNumber: '26322000000012345678', kind: '81', issueDate: '2026-10-12', sellerName: '南京测试分包有限公司',
  amountIncl: 109_000, tax: 9_000, effectiveTax: 9_000, tickState: 1, vatUsage: 1, flag: 'abnormalVoucher', ownerId: null, ownerName: '王会计', raisedAt: '2026-11-01T00:00:00Z', ageDays: 22,
  state: 'open', action: '', note: '', resolvedByName: '', resolvedAt: null, docFlagged: '', transferOut: null, proposal: null, statusCheckedAt: null, riskLevel: '02',
};
const dup: AbnormalCaseRow = { ...base, id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a03', invoiceNumber: '26322000000012345679', flag: 'duplicate', tickState: 0, vatUsage: 0, effectiveTax: null, ownerName: '李出纳', ageDays: 3 };

beforeEach(() => Object.values(calls).forEach((f) => f.mockReset()));
const renderList = (state: 'open' | 'resolved') =>
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><MemoryRouter><CaseList state={state} /></MemoryRouter></QueryClientProvider>);
const rowOf = (no: string) => screen.getByText(no).closest('tr')!;

describe('异常处理 worklist (issue 14)', { timeout: 60_000 }, () => {
  it('lists the open cases with flag, owner, age and money, and the buttons of each flag', async () => {
    calls.list.mockResolvedValue({ items: [base, dup], total: 2 });
    renderList('open');
    await screen.findByText('26322000000012345679');
    expect(calls.list).toHaveBeenCalledWith({ state: 'open', pageIndex: 1, pageSize: 20 });
    const a = within(rowOf('26322000000012345678'));
    expect(a.getByTestId('case-flag').textContent).toBe('异常凭证');
    expect(a.getByText('王会计')).toBeTruthy();
    expect(a.getByText('22')).toBeTruthy();
    expect(a.getByText('1,090.00')).toBeTruthy();
    expect(a.getAllByRole('button').map((b) => b.textContent)).toEqual(['进项转出']);
    expect(within(rowOf('26322000000012345679')).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['确认无误', '更正', '驳回']);
    expect(screen.getByTestId('case-total').textContent).toBe('待处理异常 2 条');
  });

  it('a row action opens its dialog; success closes it and asks the list again', async () => {
    calls.list.mockResolvedValue({ items: [dup], total: 1 });
    calls.reject.mockResolvedValue({ caseId: dup.id, state: 'resolved', message: '已驳回' });
    renderList('open');
    await screen.findByText('26322000000012345679');
    fireEvent.click(within(rowOf('26322000000012345679')).getByTestId('case-reject'));
    const dialog = await screen.findByTestId('case-dialog-reject');
    fireEvent.change(dialog.querySelector('#abnormal-reject_note')!, { target: { value: '重复录入' } });
    fireEvent.click(within(document.body).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.reject).toHaveBeenCalledWith(dup.id, '重复录入'));
    await waitFor(() => expect(calls.list).toHaveBeenCalledTimes(2));
  });

  it('已处理 shows how, by whom and the voucher', async () => {
    calls.list.mockResolvedValue({
      items: [{ ...base, state: 'resolved', action: 'transferOut', note: '非正常损失，转出税额90.00元，凭证号 记-0003', resolvedByName: '王会计', resolvedAt: '2026-11-20T02:00:00Z',
        transferOut: { id: 'x', invoiceId: base.invoiceId, reason: 3, amount: 9000, state: 'pushed', voucherNo: '记-0003', lastError: '', attempts: 1, createdByName: '王会计', createdAt: '', pushedAt: '' } }],
      total: 1,
    });
    renderList('resolved');
    const r = within(await waitFor(() => rowOf('26322000000012345678')));
    expect(r.getByText('进项转出')).toBeTruthy();
    expect(r.getByText('记-0003（非正常损失）')).toBeTruthy();
    expect(r.queryAllByRole('button')).toHaveLength(0);
  });

  it('sends only the filters given', () => {
    expect(toCaseRequest({ flag: 'duplicate', mine: false, ageMin: null, ageMax: 30, number: ' 123 ', sellerName: '' })).toEqual({ flag: 'duplicate', ageMax: 30, number: '123' });
    expect(toCaseRequest({ mine: true })).toEqual({ mine: true });
  });
});
