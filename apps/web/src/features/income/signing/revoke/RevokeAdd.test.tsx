/**
 * Issue 13, 新增签收撤销: the reason's rules (required, 2–200 characters in RevokeBody's words), the
 * confirmation naming the archive number and saying it is never reused, the server's refusal shown in
 * place, success back to 签收撤销; role 16 cannot revoke (and 签收撤销 offers it no 新增撤销).
 */
import '../../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SigningRow } from '@zhyy/shared';
import { ApiError } from '../../../../api/errors';
import { useSession } from '../../../../stores/session';
import { useTagsView } from '../../../../stores/tagsView';
import RevokeAdd, { REASON_RULES, revokeConfirmText } from './RevokeAdd';
import RevokeList from './RevokeList';
import { REVOKE_ADD, REVOKE_LIST } from './common';

const api = vi.hoisted(() => ({ signed: vi.fn(), revoke: vi.fn(), revokes: vi.fn() }));
vi.mock('../../../../api/incomeRevoke', async (orig) => ({ ...(await orig<typeof import('../../../../api/incomeRevoke')>()), incomeRevokeApi: api }));
const confirm = vi.hoisted(() => vi.fn());
const success = vi.hoisted(() => vi.fn());
vi.mock('../../../../ui/feedback', async (orig) => ({ ...(await orig<typeof import('../../../../ui/feedback')>()), feedback: () => ({ modal: { confirm }, message: { success, error: vi.fn() } }) }));

configure({ asyncUtilTimeout: 15_000 });

const row: SigningRow = {
  id: 's1', invoiceId: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99', invoiceNo: '26320000000000000042', sellerName: '南京钢材贸易有限公司', issueDate: '2026-10-12', amountIncl: 1130000,
  docType: 'project', docNo: 'XM2026-001', note: '', state: 'signed', archiveNo: 'GD2026110007', voucherId: 'SIMV1', failReason: '', userName: '徐婷', createdAt: '2026-11-20T02:00:00.000Z', finishedAt: '2026-11-20T02:00:01.000Z',
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  confirm.mockReset();
  success.mockReset();
  api.signed.mockResolvedValue({ items: [row], total: 1 });
  api.revokes.mockResolvedValue({ items: [], total: 0 });
  useSession.setState({ roles: ['13'] } as never);
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={REVOKE_ADD} element={<RevokeAdd />} />
          <Route path={REVOKE_LIST} element={<div data-testid="at-list"><RevokeList /></div>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function pickRow() {
  fireEvent.click(await screen.findByText('GD2026110007'));
  await screen.findByTestId('revoke-picked');
}
const reason = () => screen.getByTestId('revoke-reason') as HTMLTextAreaElement;
const submit = () => fireEvent.click(screen.getByTestId('revoke-submit'));

describe('新增签收撤销 (issue 13)', { timeout: 60_000 }, () => {
  it('lists the signed records and asks to choose one first', async () => {
    renderAt(REVOKE_ADD);
    expect(await screen.findByText('南京钢材贸易有限公司')).toBeTruthy();
    expect(screen.getByText('请先在上方选择一条已签收的记录')).toBeTruthy();
    expect(screen.getByText('项目 XM2026-001')).toBeTruthy();
    expect(api.signed).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 10 });
  });

  it('the reason: required, at least 2 characters (spaces do not count), at most 200; nothing sent or confirmed meanwhile', async () => {
    renderAt(REVOKE_ADD);
    await pickRow();
    submit();
    expect(await screen.findByText('请填写撤销原因')).toBeTruthy();
    fireEvent.change(reason(), { target: { value: ' 错 ' } });
    submit();
    expect(await screen.findByText('撤销原因至少2个字')).toBeTruthy();
    // The text area stops at 200 characters; the rule itself (RevokeBody's) refuses more.
    const rule = REASON_RULES[1] as { validator: (r: unknown, v: unknown) => Promise<void> };
    await expect(rule.validator({}, '很'.repeat(201))).rejects.toThrow('撤销原因不能超过200个字');
    await expect(rule.validator({}, '很'.repeat(200))).resolves.toBeUndefined();
    expect(reason().maxLength).toBe(200);
    expect(confirm).not.toHaveBeenCalled();
    expect(api.revoke).not.toHaveBeenCalled();
  });

  it('confirms naming the archive number (never reused), then revokes and goes back to 签收撤销', async () => {
    api.revoke.mockResolvedValue({ code: 20000, message: '已撤销签收，档案号 GD2026110007 作废', r: { archiveNo: 'GD2026110007' } });
    useTagsView.setState({ visitedViews: [{ path: REVOKE_ADD, fullPath: REVOKE_ADD, title: '新增签收撤销', pattern: REVOKE_ADD, affix: false, noCache: true }] });
    renderAt(REVOKE_ADD);
    await pickRow();
    fireEvent.change(reason(), { target: { value: '  签收单据填错，需重新签收 ' } });
    submit();
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const c = confirm.mock.calls[0]![0] as { title: string; content: string; okText: string; okButtonProps: { danger: boolean }; onOk: () => Promise<unknown> };
    expect(c.title).toBe('确认撤销档案号 GD2026110007 的签收？');
    expect(c.content).toBe(revokeConfirmText(row));
    expect(c.content).toContain('档案号 GD2026110007 作废且不再使用');
    expect(c.okButtonProps.danger).toBe(true);
    expect(api.revoke).not.toHaveBeenCalled();
    await c.onOk();
    expect(api.revoke).toHaveBeenCalledWith({ invoiceId: row.invoiceId, reason: '签收单据填错，需重新签收' });
    await screen.findByTestId('at-list');
    expect(success).toHaveBeenCalledWith('已撤销签收，档案号 GD2026110007 作废');
    expect(useTagsView.getState().visitedViews.map((v) => v.path)).not.toContain(REVOKE_ADD);
  });

  it("shows the server's refusal in place and stays on the page", async () => {
    api.revoke.mockRejectedValue(new ApiError('business', '该发票已入账，不能撤销签收', { code: 30000, status: 400 }));
    renderAt(REVOKE_ADD);
    await pickRow();
    fireEvent.change(reason(), { target: { value: '重新签收' } });
    submit();
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    await (confirm.mock.calls[0]![0] as { onOk: () => Promise<unknown> }).onOk();
    expect((await screen.findByTestId('revoke-error')).textContent).toContain('撤销失败：该发票已入账，不能撤销签收');
    expect(screen.queryByTestId('at-list')).toBeNull();
  });

  it('role 16 reads: the form is disabled, and 签收撤销 has no 新增撤销', async () => {
    useSession.setState({ roles: ['16'] } as never);
    renderAt(REVOKE_ADD);
    expect(await screen.findByText(/撤销签收需由税务会计或档案管理员办理/)).toBeTruthy();
    await pickRow();
    expect((screen.getByTestId('revoke-submit') as HTMLButtonElement).disabled).toBe(true);
    renderAt(REVOKE_LIST);
    await waitFor(() => expect(api.revokes).toHaveBeenCalled());
    expect(screen.queryByTestId('revoke-add')).toBeNull();
  });

  it('签收撤销 offers 新增撤销 to role 13', async () => {
    renderAt(REVOKE_LIST);
    fireEvent.click(await screen.findByTestId('revoke-add'));
    expect(await screen.findByTestId('revoke-add-page')).toBeTruthy();
  });
});
