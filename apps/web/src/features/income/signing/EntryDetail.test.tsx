/**
 * Issue 13, 进项发票详情: a malformed or unknown id gives the one 404 page (RecordNotFound), one silent request
 * at most; a found invoice shows its department, its signings (state, document, archive number, failure
 * reason, who), revocations, allocations and changes.
 */
import '../../../test/dom';
import { configure, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryDetail as Detail } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { shouldRetry } from '../../../api/retry';
import { ViewContext, type ViewInfo } from '../../../router/view';
import { poolDetail } from '../pool/testRows';
import EntryDetail from './EntryDetail';

const detail = vi.fn();
vi.mock('../../../api/incomeEntry', () => ({ incomeEntryApi: { detail: (...a: unknown[]) => detail(...a) } }));

configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => {
  detail.mockReset();
});

function renderDetail(id: string) {
  const view = { path: '/invoice-entry/detail/:id', fullPath: `/invoice-entry/detail/${id}`, search: '', params: { id }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  const client = new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, retryDelay: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}><EntryDetail /></ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const ID = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const signing = { invoiceId: ID, invoiceNo: '26322000000012345678', sellerName: '南京恒达建材有限公司', issueDate: '2026-11-02', amountIncl: 113000, note: '', voucherId: '', userName: '徐婷' };

describe('进项发票详情 (issue 13)', { timeout: 60_000 }, () => {
  it('a malformed id: the 404 page, no request at all', async () => {
    renderDetail('abc');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    expect(screen.getByTestId('record-not-found')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回进项发票登记' })).toBeTruthy();
    expect(detail).not.toHaveBeenCalled();
  });

  it('an unknown id: one silent request, the 404 page', async () => {
    detail.mockRejectedValue(new ApiError('business', '发票不存在', { code: 30000, status: 404 }));
    renderDetail('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));
    expect(detail).toHaveBeenCalledTimes(1);
    expect(detail).toHaveBeenCalledWith('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99');
  });

  it('a found invoice: department, signings with archive number and reason, revocation, allocation and change', async () => {
    const d: Detail = {
      ...poolDetail({ signState: 1, archiveNo: 'GD202611000009' }),
      deptId: 'd1', deptName: '工程管理部',
      signings: [
        { ...signing, id: 's3', docType: 'project', docNo: 'XM2026-001', state: 'signed', archiveNo: 'GD202611000009', failReason: '', createdAt: '2026-11-08T02:00:00.000Z', finishedAt: '2026-11-08T02:00:01.000Z' },
        { ...signing, id: 's2', docType: 'contract', docNo: 'HT-7', state: 'revoked', archiveNo: 'GD202611000003', failReason: '', createdAt: '2026-11-06T02:00:00.000Z', finishedAt: '2026-11-06T02:00:01.000Z' },
        { ...signing, id: 's1', docType: 'reimbursement', docNo: 'BX1', state: 'failed', archiveNo: '', failReason: '档案系统未应答', createdAt: '2026-11-05T02:00:00.000Z', finishedAt: '2026-11-05T02:00:01.000Z' },
      ],
      revokes: [{ id: 'r1', invoiceId: ID, invoiceNo: '26322000000012345678', sellerName: '南京恒达建材有限公司', amountIncl: 113000, archiveNo: 'GD202611000003', docType: 'contract', docNo: 'HT-7', reason: '合同签错', userName: '王敏', createdAt: '2026-11-07T02:00:00.000Z' }],
      allocations: [{ id: 'a1', projectId: 'p1', projectName: '江北新区综合管廊二期', amountExcl: 100000, tax: 13000, amountIncl: 113000, createdByName: '王敏', updatedAt: '2026-11-08T03:00:00.000Z' }],
      changes: [{ id: 'c1', invoiceId: ID, invoiceNo: '26322000000012345678', action: 'move', fromName: '溧水经济开发区道路改造', toName: '江北新区综合管廊二期', amountIncl: 113000, before: [{ projectId: 'p2', name: '溧水经济开发区道路改造', amountIncl: 113000 }], after: [{ projectId: 'p1', name: '江北新区综合管廊二期', amountIncl: 113000 }], reason: '项目调整', userName: '王敏', createdAt: '2026-11-08T03:00:00.000Z' }],
    };
    detail.mockResolvedValue(d);
    renderDetail(ID);
    await screen.findByTestId('entry-detail');
    expect(screen.getByTestId('entry-dept-name').textContent).toBe('工程管理部');
    const rows = within(screen.getByTestId('entry-signings-of')).getAllByRole('row').slice(1).map((r) => r.textContent ?? '');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('项目');
    expect(rows[0]).toContain('XM2026-001');
    expect(rows[0]).toContain('已签收');
    expect(rows[0]).toContain('GD202611000009');
    expect(rows[0]).toContain('徐婷');
    expect(rows[1]).toContain('已撤销');
    expect(rows[2]).toContain('签收失败');
    expect(rows[2]).toContain('档案系统未应答');
    const revokes = screen.getByTestId('entry-revokes').textContent;
    expect(revokes).toContain('GD202611000003');
    expect(revokes).toContain('合同 HT-7');
    expect(revokes).toContain('合同签错');
    expect(screen.getByTestId('entry-allocations').textContent).toContain('江北新区综合管廊二期');
    expect(screen.getByTestId('entry-allocations').textContent).toContain('1,130.00');
    const changes = screen.getByTestId('entry-changes').textContent;
    expect(changes).toContain('溧水经济开发区道路改造 1,130.00元');
    expect(changes).toContain('项目调整');
  });
});
