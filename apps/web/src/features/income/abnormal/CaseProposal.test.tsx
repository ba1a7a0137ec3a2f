/**
 * Issue 32 item 2, the status re-check's proposal on the worklist: a deducted invoice's case offers 确认转出建议
 * first (not when there is no amount yet, nor once transferred out), the dialog shows the amount, reason, period
 * and how it was computed and sends the case with one idempotency key, 进项转出 opens with the proposal, the list
 * cell shows the amount and period or the note, 疑点发票 offers 确认无误; the pool's 风险等级/核查 text.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AbnormalCaseRow } from '@zhyy/shared';
import { statusCheckText } from '../pool/widgets';
import { actionsOf } from './actions';
import { CaseDialog, periodText } from './CaseDialogs';
import { ProposalCell } from './CaseList';

const calls = { acceptProposal: vi.fn(), transferOut: vi.fn() };
vi.mock('./api', async (orig) => ({
  ...(await orig<typeof import('./api')>()),
  abnormalApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));
configure({ asyncUtilTimeout: 15_000 });

const CASE = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const proposal = { amount: 90_000, reason: 7, period: '202611', note: '全额红冲：转出已抵扣税额900.00元' };
const row = (over: Partial<AbnormalCaseRow> = {}): AbnormalCaseRow => ({
  id: CASE, invoiceId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02', invoiceNumber: '26322000000012345678', kind: '81', issueDate: '2026-10-12', sellerName: '南京测试分包有限公司',
  amountIncl: 1_090_000, tax: 90_000, effectiveTax: 90_000, tickState: 1, vatUsage: 1, flag: 'red', ownerId: null, ownerName: '王会计', raisedAt: '2026-11-20T00:00:00Z', ageDays: 2,
  state: 'open', action: '', note: '', resolvedByName: '', resolvedAt: null, docFlagged: '', transferOut: null, proposal, statusCheckedAt: '2026-11-20T00:00:00Z', riskLevel: '01', ...over,
});

beforeEach(() => Object.values(calls).forEach((f) => f.mockReset()));
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const open = (action: 'acceptProposal' | 'transferOut', r = row()) => {
  const onDone = vi.fn();
  render(<QueryClientProvider client={new QueryClient()}><CaseDialog action={action} row={r} onClose={() => undefined} onDone={onDone} /></QueryClientProvider>);
  return onDone;
};

describe('the proposal', { timeout: 60_000 }, () => {
  it('comes first among the actions of a deducted invoice with an amount proposed; not without an amount, nor once transferred out', () => {
    expect(actionsOf(row())).toEqual(['acceptProposal', 'untick', 'transferOut']);
    expect(actionsOf(row({ flag: 'abnormalVoucher', proposal: { ...proposal, reason: 9 } }))).toEqual(['acceptProposal', 'transferOut']);
    expect(actionsOf(row({ proposal: { ...proposal, amount: null, note: '部分红冲：红字发票尚未收到' } }))).toEqual(['untick', 'transferOut']);
    const pushed = { id: 'x', invoiceId: 'y', reason: 7, amount: 90_000, state: 'pending', voucherNo: '', lastError: '', attempts: 1, createdByName: '王会计', createdAt: '', pushedAt: null, period: '202611' };
    expect(actionsOf(row({ transferOut: pushed }))).toEqual(['untick', 'transferOut']);
    expect(actionsOf(row({ flag: 'suspicious', proposal: null }))).toEqual(['confirm', 'transferOut']);
    expect(actionsOf(row({ flag: 'suspicious', proposal: null, tickState: 0, vatUsage: 0 }))).toEqual(['confirm']);
  });

  it('the dialog shows amount, reason, period and basis, and sends the case with the dialog key (the same on a retry)', async () => {
    calls.acceptProposal.mockRejectedValueOnce(new Error('会计系统连接超时')).mockResolvedValueOnce({ caseId: CASE, state: 'resolved', message: '进项转出成功，凭证号 记-0012' });
    const onDone = open('acceptProposal');
    const box = screen.getByTestId('proposal');
    expect(box.textContent).toContain('900.00');
    expect(box.textContent).toContain('红字信息表注明');
    expect(box.textContent).toContain('2026年11月');
    expect(box.textContent).toContain('全额红冲：转出已抵扣税额900.00元');
    ok();
    await waitFor(() => expect(screen.getByTestId('case-dialog-error').textContent).toContain('会计系统连接超时'));
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ caseId: CASE, state: 'resolved', message: '进项转出成功，凭证号 记-0012' }));
    const [first, second] = calls.acceptProposal.mock.calls.map((c) => c[0] as { caseId: string; idempotencyKey: string });
    expect(first).toEqual({ caseId: CASE, idempotencyKey: expect.any(String) });
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
  });

  it('进项转出 opens with the proposal: its reason and amount', async () => {
    calls.transferOut.mockResolvedValue({ caseId: CASE, state: 'resolved', message: '进项转出成功，凭证号 记-0013' });
    const onDone = open('transferOut', row({ proposal: { ...proposal, amount: 30_000 } }));
    expect((document.querySelector('#abnormal-transferOut_amountYuan') as HTMLInputElement).value).toBe('300.00');
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.transferOut).toHaveBeenCalledWith({ caseId: CASE, reason: 7, amount: 30_000, idempotencyKey: expect.any(String) });
  });

  it('the list cell shows the amount and period, or the note while there is no amount; the pool shows the last check', () => {
    const { container, unmount } = render(<ProposalCell row={row()} />);
    expect(container.textContent).toContain('转出 900.00（2026年11月）');
    unmount();
    const second = render(<ProposalCell row={row({ proposal: { amount: null, reason: 7, period: '202611', note: '红字确认单尚未确认：确认后按确认单注明的税额转出' } })} />);
    expect(second.container.textContent).toBe('红字确认单尚未确认：确认后按确认单注明的税额转出');
    expect(periodText('202601')).toBe('2026年1月');
    expect(statusCheckText({ statusCheckedAt: null, statusFound: null })).toBe('未核查');
    expect(statusCheckText({ statusCheckedAt: '2026-11-20T02:30:00.000Z', statusFound: true })).toMatch(/^核查于 2026-11-20 10:30/);
    expect(statusCheckText({ statusCheckedAt: '2026-11-20T02:30:00.000Z', statusFound: false })).toMatch(/^税务端无此发票，核查于 /);
  });
});
