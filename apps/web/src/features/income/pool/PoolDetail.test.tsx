/**
 * Issue 13, 票池发票详情: a malformed or unknown id gives the one 404 page (RecordNotFound), one silent
 * request at most; a found invoice shows its face and its abnormal flags.
 */
import '../../../test/dom';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import { shouldRetry } from '../../../api/retry';
import { ViewContext, type ViewInfo } from '../../../router/view';
import PoolDetail from './PoolDetail';
import { poolDetail } from './testRows';

const detail = vi.fn();
const verifyHistory = vi.fn();
const fileLink = vi.fn();
vi.mock('../../../api/income', () => ({ incomeApi: { detail: (...a: unknown[]) => detail(...a), verifyHistory: (...a: unknown[]) => verifyHistory(...a), fileLink: (...a: unknown[]) => fileLink(...a) } }));

// The 入账标识 section loads its own call (PoolBooking.test.tsx tests it).
vi.mock('../../../api/incomeBooking', () => ({ bookingApi: { info: async () => ({ invoiceId: '', bookingState: '01', bookedAt: null, deliveries: [] }) } }));
configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => {
  detail.mockReset();
  verifyHistory.mockReset();
  fileLink.mockReset();
});

function renderDetail(id: string) {
  const view = { path: '/income/invoicePool/detail/:id', fullPath: `/income/invoicePool/detail/${id}`, search: '', params: { id }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  const client = new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, retryDelay: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}><PoolDetail /></ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('票池发票详情 (issue 13)', { timeout: 60_000 }, () => {
  it('a malformed id: the 404 page, no request at all', async () => {
    renderDetail('abc');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    expect(screen.getByTestId('record-not-found')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回票池' })).toBeTruthy();
    expect(detail).not.toHaveBeenCalled();
  });

  it('an unknown id: one silent request, the 404 page', async () => {
    detail.mockRejectedValue(new ApiError('business', '发票不存在', { code: 30000, status: 404 }));
    renderDetail('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));
    expect(detail).toHaveBeenCalledTimes(1);
    expect(detail).toHaveBeenCalledWith('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99', { silent: true });
    expect(verifyHistory).not.toHaveBeenCalled();
  });

  it('a found invoice: face, lines, the document that uses it, its history and its abnormal flags in Chinese', async () => {
    detail.mockResolvedValue(poolDetail({
      invoiceState: 1, riskLevel: '02', abnormalFlags: ['abnormalVoucher', 'lostControl'], usage: 1, useKind: 'reimbursement', docNo: 'BX202611-0012',
      lines: [{ lineNo: 1, name: '*建筑材料*钢筋', spec: 'HRB400', unit: '吨', quantity: '2', unitPrice: '500', amount: 100000, taxRate: '0.13', tax: 13000 }],
      uses: [{ id: 'u1', useKind: 'reimbursement', docNo: 'BX202611-0012', state: 'locked', createdAt: '2026-11-05T02:00:00.000Z', endedAt: null }],
      history: [{ id: 'h1', kind: 'lock', message: '被报销单 BX202611-0012 占用', userName: '王敏', createdAt: '2026-11-05T02:00:00.000Z' }],
    }));
    verifyHistory.mockResolvedValue([
      { id: 'v1', outcome: 'mismatch', message: '查验不一致', fields: [{ field: 'amountIncl', label: '价税合计', entered: '1,130.00', tax: '1,131.00' }], checksToday: 1, userName: '徐婷', createdAt: '2026-11-06T02:00:00.000Z' },
    ]);
    renderDetail('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01');
    const page = await screen.findByTestId('pool-detail');
    // The verification history: each 查验 with the fields that disagreed.
    await waitFor(() => expect(screen.getByTestId('pool-verifications').textContent).toContain('价税合计：票池 1,130.00，税务端 1,131.00'));
    expect(verifyHistory).toHaveBeenCalledWith('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01');
    // The flags in the shared order (失控 before 异常凭证), as the alert and as tags.
    expect(screen.getByTestId('pool-detail-abnormal').textContent).toBe('该发票存在异常：失控、异常凭证');
    expect(page.textContent).toContain('数电发票（增值税专用发票）');
    expect(page.textContent).toContain('*建筑材料*钢筋');
    expect(page.textContent).toContain('13%');
    expect(screen.getByTestId('pool-uses').textContent).toContain('报销单');
    expect(screen.getByTestId('pool-uses').textContent).toContain('占用中');
    expect(screen.getByTestId('pool-history').textContent).toContain('被报销单 BX202611-0012 占用');
    expect(page.textContent).toContain('1,130.00');
  });

  it('查看 opens a file in the file viewer through its signed link', async () => {
    detail.mockResolvedValue(poolDetail({ files: [{ id: 'f1', format: 'pdf', name: '发票.pdf', size: 2048, sha256: 'x', createdAt: '2026-11-05T02:00:00.000Z' }] }));
    verifyHistory.mockResolvedValue([]);
    fileLink.mockResolvedValue({ url: '/signed/income-file/f1?e=1&s=sig', name: '发票.pdf', type: 'application/pdf', expiresAt: '' });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderDetail('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02');
    const files = await screen.findByTestId('pool-files');
    expect(files.textContent).toContain('发票.pdf');
    within(files).getByRole('button', { name: /查\s*看/ }).click();
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(fileLink).toHaveBeenCalledWith('f1');
    const viewed = String(open.mock.calls[0]![0]);
    expect(viewed.startsWith('/file/view/')).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(viewed.slice('/file/view/'.length)), (c) => c.charCodeAt(0))))).toEqual({ name: '发票.pdf', url: '/signed/income-file/f1?e=1&s=sig', type: 'application/pdf' });
    open.mockRestore();
  });
});
