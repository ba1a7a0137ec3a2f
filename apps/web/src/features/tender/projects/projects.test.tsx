/**
 * Issue 17, projects: the list asks with its filters and marks registered managers; the editor sends the
 * project (amount in 分; the registered flag is the server's, shown read-only) and shows the server's refusal
 * naming the other project; the detail lists the certificates in use with their state.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProjectState, type TenderProjectRow } from '@zhyy/shared';
import { useSession } from '../../../stores/session';

const projects = vi.hoisted(() => ({ list: vi.fn(), detail: vi.fn(), save: vi.fn(), export: vi.fn(), options: vi.fn() }));
const contracts = vi.hoisted(() => ({ users: vi.fn(), options: vi.fn() }));
vi.mock('../../../api/tender-contracts', () => ({ tenderContractApi: contracts, tenderProjectApi: projects }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));

const { default: ProjectListPage, projectRequest } = await import('./ProjectListPage');
const { default: ProjectEditPage, projectBody } = await import('./ProjectEditPage');
const { default: ProjectDetailPage } = await import('./ProjectDetailPage');

configure({ asyncUtilTimeout: 15_000 });

const P: TenderProjectRow = {
  id: 'p1', code: 'XM-1', name: '江北管廊', customer: '南京城建', location: '南京市', amount: 1_000_00, startDate: '2025-01-01', endDate: null, state: ProjectState.building,
  managerId: 'u1', managerName: '张伟', managerRegistered: true, contractCount: 3, isTemp: false, updatedAt: '2026-01-01T00:00:00Z',
};

beforeEach(() => {
  for (const f of [...Object.values(projects), ...Object.values(contracts)]) f.mockReset();
  useSession.setState({ roles: ['4'] } as never);
  projects.list.mockResolvedValue({ total: 1, items: [P] });
  contracts.users.mockResolvedValue([]);
});

function show(path: string, pattern: string, page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={page} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('项目管理', { timeout: 60_000 }, () => {
  it('lists projects with their state and registered managers', async () => {
    show('/tender/project', '/tender/project', <ProjectListPage />);
    expect(await screen.findByText('XM-1', { selector: 'a' })).toBeTruthy();
    expect(screen.getByText('在建')).toBeTruthy();
    expect(screen.getByText('注册建造师')).toBeTruthy();
    expect(projectRequest({ state: 3, start: [{ format: () => '2025-01-01' }, null] })).toEqual({ keyword: undefined, customer: undefined, state: 3, managerId: undefined, startFrom: '2025-01-01', startTo: null });
  });

  it('builds the body: 元 to 分, no registered flag (the server derives it from certificates)', () => {
    expect(projectBody({ code: ' XM-2 ', name: '项目', state: ProjectState.finished, amountYuan: '12.5', managerId: 'u1' })).toEqual({
      body: { code: 'XM-2', name: '项目', customer: '', location: '', amount: 1250, startDate: null, endDate: null, state: ProjectState.finished, managerId: 'u1' },
    });
    expect(projectBody({ code: 'a', name: 'b', state: 1, amountYuan: 'abc' })).toEqual({ error: '项目金额须为数字金额（元），如 1090.00' });
  });

  it('shows the refusal naming the other project', async () => {
    projects.save.mockRejectedValue(new Error('张伟是注册建造师，已担任在建项目「XM-1 江北管廊」的项目经理，不能同时负责两个在建项目'));
    show('/tender/project/add', '/tender/project/add', <ProjectEditPage />);
    await screen.findByTestId('tender-project-editor');
    expect(screen.getByTestId('manager-registered').textContent).toBe('保存后按证书判断');
    fireEvent.change(screen.getByLabelText('项目编号'), { target: { value: 'XM-3' } });
    fireEvent.change(screen.getByLabelText('项目名称'), { target: { value: '新项目' } });
    fireEvent.click(screen.getByText('保 存'));
    await waitFor(() => expect(projects.save).toHaveBeenCalled());
    expect(projects.save.mock.calls[0]![0]).toEqual(expect.objectContaining({ code: 'XM-3', state: ProjectState.building }));
    expect(projects.save.mock.calls[0]![0]).not.toHaveProperty('managerRegistered');
    expect((await screen.findByTestId('editor-error')).textContent).toContain('「XM-1 江北管廊」');
  });

  it('the detail lists the certificates in use: the manager’s, expired in solid red, 30 days left in red (issue 31)', async () => {
    const cert = (id: string, kindName: string, state: string, validTo: string, daysLeft: number) => ({
      id, userId: 'u1', holderName: '张伟', deptName: '工程部', kindId: 'k', kindName, level: '', speciality: '市政公用工程', certNo: `NO-${id}`, issuer: '', validFrom: '2023-01-01', validTo,
      company: '', remark: '', state, daysLeft, updatedBy: '', updatedAt: '',
    });
    projects.detail.mockResolvedValue({
      ...P, contracts: [], invoices: [], invoiced: 0, history: [], managerExceptions: [],
      certificates: [cert('c1', '二级建造师', 'expired', '2026-01-01', -10), cert('c2', '安全生产考核合格证书', 'expiring', '2026-03-01', 30)],
    });
    show('/tender/project/detail/p1', '/tender/project/detail/:id', <ProjectDetailPage />);
    const box = await screen.findByTestId('project-certificates');
    expect(box.textContent).toContain('在用证书（项目经理 张伟，2）');
    expect(box.textContent).toContain('NO-c1');
    const tags = [...box.querySelectorAll('[data-testid="cert-state"]')];
    expect(tags.map((t) => [t.textContent, t.getAttribute('data-urgency'), t.className.includes('ant-tag-red'), t.className.includes('ant-tag-solid')])).toEqual([['已过期', 'expired', true, true], ['即将到期', 'red', true, false]]);
  });
});
