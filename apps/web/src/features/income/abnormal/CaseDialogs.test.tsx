/**
 * Issue 14, the worklist's dialogs: 进项转出 (reason 1–8, amount in 元 sent in 分, default and at most the
 * effective tax, one idempotency key per dialog so a repeat is the same request, the server's refusal shown
 * in its words), 驳回 (note 2–200 characters), 更正 (field, value, note), and which actions a case offers.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AbnormalCaseRow } from '@zhyy/shared';
import { actionsOf } from './actions';
import { CaseDialog } from './CaseDialogs';

const calls = { transferOut: vi.fn(), reject: vi.fn(), correct: vi.fn(), confirm: vi.fn(), untick: vi.fn() };
vi.mock('./api', async (orig) => ({
  ...(await orig<typeof import('./api')>()),
  abnormalApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));
configure({ asyncUtilTimeout: 15_000 });

const CASE = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const row = (over: Partial<AbnormalCaseRow> = {}): AbnormalCaseRow => ({
  id: CASE, invoiceId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02', invoiceNumber: '26322000000012345678', kind: '81', issueDate: '2026-10-12', sellerName: '南京测试分包有限公司',
  amountIncl: 109_000, tax: 9_000, effectiveTax: 9_000, tickState: 1, vatUsage: 1, flag: 'abnormalVoucher', ownerId: null, ownerName: '王会计', raisedAt: '2026-11-01T00:00:00Z', ageDays: 22,
  state: 'open', action: '', note: '', resolvedByName: '', resolvedAt: null, docFlagged: '', transferOut: null, proposal: null, statusCheckedAt: null, riskLevel: '02', ...over,
});

beforeEach(() => Object.values(calls).forEach((f) => f.mockReset()));

function open(action: 'transferOut' | 'reject' | 'correct', r = row()) {
  const onDone = vi.fn();
  render(<QueryClientProvider client={new QueryClient()}><CaseDialog action={action} row={r} onClose={() => undefined} onDone={onDone} /></QueryClientProvider>);
  return onDone;
}
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const errors = () => Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent);

async function pick(id: string, label: string) {
  fireEvent.mouseDown(document.querySelector(`#${id}`)!);
  const options = await screen.findAllByTitle(label);
  fireEvent.click(options[options.length - 1]!);
  await waitFor(() => expect(document.querySelector(`#${id}`)!.closest('.ant-select')!.textContent).toContain(label));
}
const amount = () => document.querySelector('#abnormal-transferOut_amountYuan') as HTMLInputElement;

describe('进项转出 dialog', { timeout: 60_000 }, () => {
  it('asks a reason, defaults the amount to the effective tax and sends it in 分', async () => {
    calls.transferOut.mockResolvedValue({ caseId: CASE, state: 'resolved', message: '进项转出成功，凭证号 记-0007' });
    const onDone = open('transferOut');
    expect(amount().value).toBe('90.00');
    ok();
    await waitFor(() => expect(errors()).toContain('请选择转出原因'));
    expect(calls.transferOut).not.toHaveBeenCalled();
    await pick('abnormal-transferOut_reason', '3 非正常损失');
    fireEvent.change(amount(), { target: { value: '60.5' } });
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ caseId: CASE, state: 'resolved', message: '进项转出成功，凭证号 记-0007' }));
    expect(calls.transferOut).toHaveBeenCalledWith({ caseId: CASE, reason: 3, amount: 6050, idempotencyKey: expect.any(String) });
  });

  it('writes the effective tax with the thousands separator, in the hint and the input (issue 31 #8)', async () => {
    open('transferOut', row({ tax: 1_018_288, effectiveTax: 1_018_288 }));
    await waitFor(() => expect(amount().value).toBe('10,182.88'));
    expect(document.body.textContent).toContain('不超过有效税额 10,182.88 元');
  });

  it('refuses more than the effective tax; shows the server refusal and repeats with the same key', async () => {
    calls.transferOut.mockRejectedValueOnce(new Error('该发票未勾选抵扣，不能进项转出')).mockResolvedValueOnce({ caseId: CASE, state: 'resolved', message: '该发票已进项转出，凭证号 记-0007' });
    const onDone = open('transferOut');
    await pick('abnormal-transferOut_reason', '1 免税项目');
    fireEvent.change(amount(), { target: { value: '90.01' } });
    ok();
    await waitFor(() => expect(errors()).toContain('转出税额须大于0且不超过有效税额90.00元'));
    fireEvent.change(amount(), { target: { value: '90' } });
    ok();
    expect((await screen.findByTestId('case-dialog-error')).textContent).toContain('该发票未勾选抵扣，不能进项转出');
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [first, second] = calls.transferOut.mock.calls.map((c) => c[0] as { idempotencyKey: string; amount: number });
    expect(first!.amount).toBe(9000);
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
  });
});

describe('驳回 and 更正 dialogs', { timeout: 60_000 }, () => {
  it('驳回 needs a note of 2–200 characters', async () => {
    calls.reject.mockResolvedValue({ caseId: CASE, state: 'resolved', message: '已驳回' });
    const onDone = open('reject', row({ flag: 'duplicate', tickState: 0, vatUsage: 0, effectiveTax: null }));
    ok();
    await waitFor(() => expect(errors()).toContain('说明须为2至200个字符'));
    fireEvent.change(document.querySelector('#abnormal-reject_note')!, { target: { value: '重复录入，已退回' } });
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.reject).toHaveBeenCalledWith(CASE, '重复录入，已退回');
  });

  it('更正 sends the field, the value and the note (a buyer case starts on 购方名称)', async () => {
    calls.correct.mockResolvedValue({ caseId: CASE, state: 'resolved', message: '已更正购方名称' });
    const onDone = open('correct', row({ flag: 'buyerNotOurs', tickState: 0, vatUsage: 0, effectiveTax: null }));
    fireEvent.change(document.querySelector('#abnormal-correct_value')!, { target: { value: '中建示范工程有限公司' } });
    fireEvent.change(document.querySelector('#abnormal-correct_note')!, { target: { value: '录入错误' } });
    ok();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.correct).toHaveBeenCalledWith({ caseId: CASE, field: 'buyerName', value: '中建示范工程有限公司', note: '录入错误' });
  });
});

describe('actions per flag', () => {
  it('offers what the flag and the tick allow', () => {
    expect(actionsOf(row())).toEqual(['transferOut']);
    expect(actionsOf(row({ tickState: 0, vatUsage: 0 }))).toEqual(['confirm']);
    expect(actionsOf(row({ flag: 'voided' }))).toEqual(['untick', 'transferOut']);
    expect(actionsOf(row({ flag: 'red', vatUsage: 2 }))).toEqual(['untick']);
    expect(actionsOf(row({ flag: 'redPending', tickState: 0 }))).toEqual(['confirm']);
    expect(actionsOf(row({ flag: 'verifyMismatch' }))).toEqual(['confirm', 'correct', 'reject']);
    expect(actionsOf(row({ state: 'resolved' }))).toEqual([]);
  });
});
