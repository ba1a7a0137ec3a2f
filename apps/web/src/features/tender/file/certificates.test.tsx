/**
 * Issue 17, tender file export (certificates): 证书文件导出 lists certificates through the file pages'
 * own call, checks the picked ones on the tender's deadline (an expired one in red) and exports with
 * force after a confirmation; 人员证书导出 takes the picked people's certificates and titles, all
 * ticked at first, and checks what stays ticked.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CertificateCheckRow, CertificateRow, TitleRow } from '@zhyy/shared';

const exp = vi.hoisted(() => ({ jobs: vi.fn(), status: vi.fn(), download: vi.fn(), certificateCheck: vi.fn(), certificateCreate: vi.fn(), certificateList: vi.fn(), titleList: vi.fn(), personnelOptions: vi.fn(), personnelItems: vi.fn() }));
const settings = vi.hoisted(() => ({ get: vi.fn(), save: vi.fn() }));
const kinds = vi.hoisted(() => ({ list: vi.fn(), save: vi.fn(), remove: vi.fn() }));
const confirm = vi.hoisted(() => vi.fn());
vi.mock('../../../api/tender-export', () => ({ tenderExportApi: exp }));
vi.mock('../../../api/tender-files', () => ({ tenderSettingApi: settings }));
vi.mock('../../../api/tender-people', () => ({ certKindApi: kinds, personnelApi: {}, titleApi: {}, certificateApi: {} }));
vi.mock('../../../ui/feedback', () => ({ feedback: () => ({ modal: { confirm }, message: { success: vi.fn(), error: vi.fn() } }), showError: vi.fn() }));
vi.mock('../../../components/download', () => ({ saveBlob: vi.fn(), formatTime: (v: string | null) => v ?? '' }));

const { default: CertificateExport2Page } = await import('./CertificateExport2Page');
const { default: CertificateExportPage, pickedIds, itemsOfPeople } = await import('./CertificateExportPage');

configure({ asyncUtilTimeout: 15_000 });

const cert = (over: Partial<CertificateRow>): CertificateRow => ({
  id: 'k1', userId: 'u1', holderName: '张伟', deptName: '工程部', kindId: 'aq', kindName: '安全生产考核合格证书', level: 'B', speciality: '', certNo: 'AQ-1', issuer: '', validFrom: '2024-01-01', validTo: '2027-12-31',
  company: '', remark: '', state: 'valid', daysLeft: 400, renewFrom: null, renewable: false, updatedBy: '', updatedAt: '', ...over,
});
const title = (over: Partial<TitleRow>): TitleRow => ({ id: 't1', userId: 'u1', holderName: '张伟', deptName: '', level: 2, titleName: '工程师', speciality: '', certNo: 'ZC-1', issuer: '', issueDate: '2020-01-01', remark: '', updatedBy: '', updatedAt: '', ...over });
const checkRow = (over: Partial<CertificateCheckRow>): CertificateCheckRow => ({ kind: 'certificate', id: 'k1', holderName: '张伟', name: '安全生产考核合格证书', level: 'B', certNo: 'AQ-1', validFrom: '2024-01-01', validTo: '2027-12-31', scanCount: 1, problems: [], ...over });

function show(page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  for (const f of [...Object.values(exp), ...Object.values(settings), ...Object.values(kinds), confirm]) f.mockReset();
  settings.get.mockResolvedValue({ watermark: '仅供××项目投标使用', windowYears: 5, thresholdFen: 0, remindDays: [90], updatedBy: null, updatedAt: null });
  kinds.list.mockResolvedValue([{ id: 'aq', name: '安全生产考核合格证书', levels: ['A', 'B', 'C'], hasSpeciality: false, validYears: 3, sort: 1, certificateCount: 2, updatedBy: '', updatedAt: '' }]);
  exp.jobs.mockResolvedValue([]);
});

describe('人员证书导出 rules', () => {
  it('lists a person’s certificates then titles, and keeps what is not unticked', () => {
    const items = itemsOfPeople([{ certificates: [cert({})], titles: [title({})] }, undefined], (l) => (l === 2 ? '中级' : ''));
    expect(items.map((i) => [i.key, i.level])).toEqual([['certificate:k1', 'B'], ['title:t1', '中级']]);
    expect(pickedIds(items, new Set())).toEqual({ certificateIds: ['k1'], titleIds: ['t1'] });
    expect(pickedIds(items, new Set(['certificate:k1']))).toEqual({ certificateIds: [], titleIds: ['t1'] });
  });
});

describe('证书文件导出', () => {
  it('checks the picked certificates on the deadline and exports with force after a confirmation', async () => {
    exp.certificateList.mockResolvedValue({ total: 2, items: [cert({}), cert({ id: 'k2', certNo: 'AQ-2', state: 'expiring', validTo: '2026-12-01' })] });
    exp.certificateCheck.mockResolvedValue([checkRow({}), checkRow({ id: 'k2', certNo: 'AQ-2', problems: ['证书2026-12-01到期，投标截止日2026-12-15已失效'] })]);
    exp.certificateCreate.mockResolvedValue({ code: 20000, r: { id: 'j1' } });
    show(<CertificateExport2Page />);
    await screen.findByText('AQ-2');
    expect(exp.certificateList).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 10, keyword: undefined, kindId: undefined, level: undefined });
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[1]!);
    fireEvent.click(boxes[2]!);
    await waitFor(() => expect(exp.certificateCheck).toHaveBeenCalled());
    expect(exp.certificateCheck.mock.lastCall![0]).toMatchObject({ certificateIds: ['k1', 'k2'], titleIds: [] });
    const results = await screen.findByTestId('certificate-results');
    expect(await within(results).findByText('证书2026-12-01到期，投标截止日2026-12-15已失效')).toBeTruthy();
    expect(within(results).getByText('截止日有效')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^生\s?成$/ }));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    await confirm.mock.calls[0]![0].onOk();
    expect(exp.certificateCreate).toHaveBeenCalledWith(expect.objectContaining({ certificateIds: ['k1', 'k2'], titleIds: [], title: '资格证书', format: 'pdf', force: true }));
  }, 90_000);
});

describe('人员证书导出', () => {
  it('takes the picked person’s certificates and titles and checks them', async () => {
    exp.personnelOptions.mockResolvedValue([{ userId: 'u1', name: '张伟', loginName: 'zw', deptName: '工程部' }]);
    exp.personnelItems.mockResolvedValue({ certificates: [cert({})], titles: [title({})] });
    exp.certificateCheck.mockResolvedValue([checkRow({}), checkRow({ kind: 'title', id: 't1', name: '工程师', level: '中级', validTo: null })]);
    show(<CertificateExportPage />);
    const picker = screen.getByLabelText('选择人员');
    fireEvent.mouseDown(picker);
    fireEvent.click(await screen.findByText('张伟（zw，工程部）'));
    await waitFor(() => expect(exp.personnelItems).toHaveBeenCalledWith('u1'));
    await waitFor(() => expect(exp.certificateCheck).toHaveBeenCalled());
    expect(exp.certificateCheck.mock.lastCall![0]).toMatchObject({ certificateIds: ['k1'], titleIds: ['t1'] });
    expect(await screen.findByText('已选 2 项')).toBeTruthy();
  }, 90_000);
});
