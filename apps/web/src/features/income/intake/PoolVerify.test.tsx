/**
 * Issue 13, 查验 on the pool screens: from the detail page one invoice — 一致, 不一致 with the fields that
 * differ, or failed with the server's reason (5 times a day, 开票次日起) — then the detail and its history are
 * loaded again; from the list the selected rows (at most 50, VerifyBody's message) with a table of results.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerifyInvoiceResult } from '@zhyy/shared';
import { ViewContext, type ViewInfo } from '../../../router/view';
import { useSession } from '../../../stores/session';
import PoolDetail from '../pool/PoolDetail';
import PoolList from '../pool/PoolList';
import { batchVerifyError, verifyWord } from './PoolVerify';
import { poolDetail, poolRow } from '../pool/testRows';

const detail = vi.fn();
const verifyHistory = vi.fn();
const verify = vi.fn();
const page = vi.fn();
vi.mock('../../../api/income', async (orig) => ({
  ...(await orig<typeof import('../../../api/income')>()),
  incomeApi: {
    detail: (...a: unknown[]) => detail(...a), verifyHistory: (...a: unknown[]) => verifyHistory(...a),
    verify: (...a: unknown[]) => verify(...a), page: (...a: unknown[]) => page(...a),
  },
}));

// The 入账标识 section loads its own call (PoolBooking.test.tsx tests it).
vi.mock('../../../api/incomeBooking', () => ({ bookingApi: { info: async () => ({ invoiceId: '', bookingState: '01', bookedAt: null, deliveries: [] }) } }));
configure({ asyncUtilTimeout: 15_000 });
const ID = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const ID2 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02';
const answer = (results: VerifyInvoiceResult[]) => ({
  code: 20000, message: '',
  r: { results, matched: results.filter((r) => verifyWord(r).text === '一致').length, mismatched: results.filter((r) => r.ok && verifyWord(r).text !== '一致').length, failed: results.filter((r) => !r.ok).length },
});

beforeEach(() => {
  for (const f of [detail, verifyHistory, verify, page]) f.mockReset();
  useSession.setState({ roles: ['13'] } as never);
  detail.mockResolvedValue(poolDetail({ verifyState: 0 }));
  verifyHistory.mockResolvedValue([]);
});

function renderDetail() {
  const view = { path: '/income/invoicePool/detail/:id', fullPath: `/income/invoicePool/detail/${ID}`, search: '', params: { id: ID }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><ViewContext.Provider value={view}><PoolDetail /></ViewContext.Provider></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('查验 rules', () => {
  it('a batch needs 1 to 50 invoices, with the server\'s messages', () => {
    expect(batchVerifyError([])).toBe('请选择要查验的发票');
    expect(batchVerifyError(Array.from({ length: 50 }, () => ID))).toBeNull();
    expect(batchVerifyError(Array.from({ length: 51 }, () => ID))).toBe('一次最多查验50张发票');
  });
  it('the words: 一致, 不一致 (a match whose face differed too), 查无此票, 查验失败', () => {
    expect(verifyWord({ id: ID, ok: true, outcome: 'match', verifyState: 1, message: '', fields: [] }).text).toBe('一致');
    expect(verifyWord({ id: ID, ok: true, outcome: 'match', verifyState: 2, message: '', fields: [] }).text).toBe('不一致');
    expect(verifyWord({ id: ID, ok: true, outcome: 'mismatch', verifyState: 2, message: '', fields: [] }).text).toBe('不一致');
    expect(verifyWord({ id: ID, ok: true, outcome: 'notFound', verifyState: 2, message: '', fields: [] }).text).toBe('查无此票');
    expect(verifyWord({ id: ID, ok: false, message: '', fields: [] }).text).toBe('查验失败');
  });
});

describe('查验 on the pool screens (issue 13)', { timeout: 120_000 }, () => {
  it('the detail: 不一致 with the differing fields, then the detail and its history reload; a refusal shows the reason', async () => {
    renderDetail();
    await screen.findByTestId('pool-detail');
    await waitFor(() => expect(verifyHistory).toHaveBeenCalledTimes(1));
    expect(detail).toHaveBeenCalledTimes(1);
    verify.mockResolvedValueOnce(answer([{ id: ID, ok: true, outcome: 'mismatch', verifyState: 2, checksToday: 1, message: '信息不一致：价税合计与税务端不符', fields: [{ field: 'amountIncl', label: '价税合计', entered: '1,130.00', tax: '1,131.00' }] }]));
    fireEvent.click(screen.getByTestId('pool-verify'));
    const result = await screen.findByTestId('verify-result');
    expect(verify).toHaveBeenCalledWith([ID]);
    expect(within(result).getByTestId('verify-word').textContent).toBe('不一致');
    expect(result.textContent).toContain('信息不一致：价税合计与税务端不符');
    expect(within(result).getByTestId('verify-fields').textContent).toBe('价税合计：票池「1,130.00」，税务端「1,131.00」');
    expect(result.textContent).toContain('今日已查验 1 次');
    await waitFor(() => expect(detail).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(verifyHistory).toHaveBeenCalledTimes(2));
    fireEvent.click(screen.getByTestId('verify-close'));
    await waitFor(() => expect(screen.queryByTestId('verify-result')).toBeNull());

    verify.mockResolvedValueOnce(answer([{ id: ID, ok: false, message: '该发票今日查验次数已达上限（5次），请明日再查', fields: [] }]));
    fireEvent.click(screen.getByTestId('pool-verify'));
    const failed = await screen.findByTestId('verify-result');
    expect(within(failed).getByTestId('verify-word').textContent).toBe('查验失败');
    expect(failed.textContent).toContain('该发票今日查验次数已达上限（5次），请明日再查');
    expect(failed.textContent).toContain('本次查验未记录，可稍后重试');
    fireEvent.click(screen.getByTestId('verify-close'));

    verify.mockResolvedValueOnce(answer([{ id: ID, ok: true, outcome: 'match', verifyState: 1, checksToday: 2, message: '查验成功，发票信息一致', fields: [] }]));
    fireEvent.click(screen.getByTestId('pool-verify'));
    await waitFor(() => expect(within(screen.getByTestId('verify-result')).getByTestId('verify-word').textContent).toBe('一致'));
  });

  it('the list: the selected rows verified at once, a table of results; the selection is cleared and the list reloaded', async () => {
    page.mockResolvedValue({ items: [poolRow(), poolRow({ id: ID2, digitalNo: '26322000000099999999' })], total: 2, totals: { count: 2, amountExcl: 0, tax: 0, amountIncl: 0 } });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter><PoolList /></MemoryRouter>
      </QueryClientProvider>,
    );
    const list = await screen.findByTestId('income-pool');
    await within(list).findByText('26322000000099999999');
    const button = screen.getByTestId('pool-batch-verify') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const boxes = within(list).getAllByRole('checkbox');
    // [0] selects all; one per row after it.
    fireEvent.click(boxes[1]!);
    fireEvent.click(boxes[2]!);
    await waitFor(() => expect(button.textContent).toContain('批量查验（2）'));
    verify.mockResolvedValueOnce(answer([
      { id: ID, ok: true, outcome: 'match', verifyState: 1, message: '查验成功，发票信息一致', fields: [] },
      { id: ID2, ok: false, message: '发票开具当日不能查验，请于开票次日起查验', fields: [] },
    ]));
    fireEvent.click(button);
    const table = await screen.findByTestId('batch-verify-results');
    expect(verify).toHaveBeenCalledWith([ID, ID2]);
    expect(screen.getByText('查验结果：一致 1 张，不一致 0 张，失败 1 张')).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['26322000000012345678一致查验成功，发票信息一致', '26322000000099999999查验失败发票开具当日不能查验，请于开票次日起查验']);
    await waitFor(() => expect(page).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(button.textContent).not.toContain('（'));
  });
});
