/**
 * Issue 31 #11: 导出Excel on 进项发票登记 and 签收归档 (待签收, 签收记录) and 签收撤销 — the button sends
 * the filters the list shows to the list's export call (streamed, with progress), and is disabled while
 * the list is empty. 部门签收 has no export.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RevokeRow, SigningRow } from '@zhyy/shared';
import { useSession } from '../../../stores/session';
import { poolRow } from '../pool/testRows';
import DeptSign from './DeptSign';
import EntryList from './EntryList';
import SignList from './SignList';
import RevokeList from './revoke/RevokeList';

const waiting = vi.fn();
const signings = vi.fn();
const revokes = vi.fn();
const download = vi.fn();
vi.mock('../../../api/incomeEntry', async (orig) => ({
  ...(await orig<typeof import('../../../api/incomeEntry')>()),
  incomeEntryApi: { waiting: (...a: unknown[]) => waiting(...a), signings: (...a: unknown[]) => signings(...a) },
}));
vi.mock('../../../api/incomeRevoke', async (orig) => ({
  ...(await orig<typeof import('../../../api/incomeRevoke')>()),
  incomeRevokeApi: { revokes: (...a: unknown[]) => revokes(...a) },
}));
vi.mock('../../../api/invoiceLedger', () => ({ downloadWithProgress: (path: string, body: Record<string, unknown>) => download(path, body) }));
vi.mock('../../../components/download', async (orig) => ({ ...(await orig<typeof import('../../../components/download')>()), saveBlob: () => undefined }));

configure({ asyncUtilTimeout: 15_000 });

const ONE = { items: [poolRow()], total: 1, totals: { count: 1, amountExcl: 100000, tax: 13000, amountIncl: 113000 } };
const NONE = { items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } };
const signing: SigningRow = {
  id: 's1', invoiceId: 'i1', invoiceNo: '26322000000012345678', sellerName: '南京恒达建材有限公司', issueDate: '2026-11-02', amountIncl: 113000,
  docType: 'reimbursement', docNo: 'BX-1', note: '', state: 'signed', archiveNo: 'GD2026110001', voucherId: '', failReason: '', userName: '演示十四', createdAt: '2026-11-20T02:03:04.000Z', finishedAt: '2026-11-20T02:03:05.000Z',
};
const revoke: RevokeRow = {
  id: 'r1', invoiceId: 'i1', invoiceNo: '26322000000012345678', sellerName: '南京恒达建材有限公司', amountIncl: 113000, archiveNo: 'GD2026110001', docType: 'reimbursement', docNo: 'BX-1', reason: '报销单退回', userName: '演示十四', createdAt: '2026-11-20T02:03:04.000Z',
};

beforeEach(() => {
  for (const f of [waiting, signings, revokes, download]) f.mockReset();
  download.mockResolvedValue(new Blob(['x']));
  useSession.setState({ roles: ['13'] } as never);
});

function renderPage(el: React.ReactElement) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{el}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const exportButton = (within0: HTMLElement) => within(within0).getByTestId('export-button') as HTMLButtonElement;

describe('导出Excel of the signing lists (issue 31 #11)', { timeout: 60_000 }, () => {
  it('进项发票登记 exports the waiting invoices of the filters; empty, the button is disabled', async () => {
    waiting.mockResolvedValueOnce(ONE).mockResolvedValueOnce(ONE).mockResolvedValue(NONE);
    renderPage(<EntryList />);
    const list = await screen.findByTestId('entry-list');
    await waitFor(() => expect(exportButton(list).disabled).toBe(false));
    fireEvent.change(within(list).getByPlaceholderText('销方名称，包含即可'), { target: { value: ' 恒达 ' } });
    fireEvent.click(within(list).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(waiting).toHaveBeenLastCalledWith('all', { sellerName: '恒达', pageIndex: 1, pageSize: 20 }));
    await waitFor(() => expect(exportButton(list).disabled).toBe(false));
    fireEvent.click(exportButton(list));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/income/entry/export', { sellerName: '恒达' }));
    fireEvent.click(within(list).getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(exportButton(list).disabled).toBe(true));
  });

  it('签收归档: 待签收 and 签收记录 export their own lists with their filters', async () => {
    waiting.mockResolvedValue(ONE);
    signings.mockResolvedValue({ items: [signing], total: 1 });
    renderPage(<SignList />);
    const w = await screen.findByTestId('entry-sign-waiting');
    await waitFor(() => expect(exportButton(w).disabled).toBe(false));
    fireEvent.click(exportButton(w));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/income/entry/export', {}));

    fireEvent.click(screen.getByRole('tab', { name: '签收记录' }));
    const records = await screen.findByTestId('entry-signings');
    fireEvent.change(within(records).getByPlaceholderText('发票号码/数电号码'), { target: { value: ' 26322000000012345678 ' } });
    fireEvent.click(within(records).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(signings).toHaveBeenLastCalledWith({ number: '26322000000012345678', pageIndex: 1, pageSize: 20 }));
    await waitFor(() => expect(exportButton(records).disabled).toBe(false));
    fireEvent.click(exportButton(records));
    await waitFor(() => expect(download).toHaveBeenLastCalledWith('/income/entry/signings-export', { number: '26322000000012345678' }));
  });

  it('签收撤销 exports the filtered revocations (role 16 too); an empty list disables it', async () => {
    useSession.setState({ roles: ['16'] } as never);
    revokes.mockResolvedValueOnce({ items: [revoke], total: 1 }).mockResolvedValueOnce({ items: [revoke], total: 1 }).mockResolvedValue({ items: [], total: 0 });
    renderPage(<RevokeList />);
    const list = await screen.findByTestId('revoke-list');
    await screen.findByText('报销单退回');
    fireEvent.change(within(list).getByPlaceholderText('GD…'), { target: { value: 'GD2026110001' } });
    fireEvent.click(within(list).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(revokes).toHaveBeenLastCalledWith({ archiveNo: 'GD2026110001', pageIndex: 1, pageSize: 20 }));
    await waitFor(() => expect(exportButton(list).disabled).toBe(false));
    fireEvent.click(exportButton(list));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/income/entry/revoke/export', { archiveNo: 'GD2026110001' }));
    fireEvent.change(within(list).getByPlaceholderText('GD…'), { target: { value: 'GD0' } });
    fireEvent.click(within(list).getByRole('button', { name: /查\s*询/ }));
    expect(await within(list).findByText('暂无签收撤销记录')).toBeTruthy();
    await waitFor(() => expect(exportButton(list).disabled).toBe(true));
  });

  it('部门签收 has no export', async () => {
    waiting.mockResolvedValue(ONE);
    renderPage(<DeptSign />);
    const list = await screen.findByTestId('entry-dept');
    await waitFor(() => expect(waiting).toHaveBeenCalled());
    expect(within(list).queryByTestId('export-button')).toBeNull();
  });
});
