/**
 * Issue 29 item 11, 项目经理例外 on the web: the record's body (停工 needs its stop day, which is sent only for
 * 停工; days as YYYY-MM-DD), the project detail's card (ground, stop day with its days, evidence, in force or
 * the server's problem in red), the form sending the body and showing the server's refusal, and 业绩核查's
 * column with the exception of a contract's project.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractType, ManagerExceptionGround, ProjectState, type ManagerExceptionRow, type PerformanceCheckRow, type TenderProjectDetail } from '@zhyy/shared';
import { useSession } from '../../../stores/session';

const projects = vi.hoisted(() => ({ list: vi.fn(), detail: vi.fn(), save: vi.fn(), export: vi.fn(), options: vi.fn() }));
const contracts = vi.hoisted(() => ({ users: vi.fn(), options: vi.fn() }));
const exceptions = vi.hoisted(() => ({ list: vi.fn(), save: vi.fn(), remove: vi.fn() }));
vi.mock('../../../api/tender-contracts', () => ({ tenderContractApi: contracts, tenderProjectApi: projects, tenderExceptionApi: exceptions }));
const files = vi.hoisted(() => ({ list: vi.fn(), upload: vi.fn(), remove: vi.fn(), fileLink: vi.fn() }));
vi.mock('../../../api/tender-files', () => ({ tenderFilesApi: files }));
const success = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm: vi.fn() }, message: { success, error: vi.fn() } }) }));

const { exceptionBody, exceptionSummary } = await import('./ManagerExceptions');
const { default: ProjectDetailPage } = await import('./ProjectDetailPage');
const { default: ProjectEditPage } = await import('./ProjectEditPage');
const { PerformanceResults } = await import('../file/PerformanceResults');

configure({ asyncUtilTimeout: 15_000 });

const E: ManagerExceptionRow = {
  id: 'e1', managerId: 'u1', managerName: '张伟', projectId: 'p2', projectCode: 'XM-2', projectName: '江北管廊二期', otherProjectId: 'p1', otherCode: 'XM-1', otherName: '江北管廊一期',
  ground: ManagerExceptionGround.suspended, validFrom: '2026-05-01', validTo: null, stopDate: '2026-01-01', stopDays: 150, remark: '', evidenceCount: 1, problem: null,
  createdBy: '演示四', createdAt: '2026-05-01T02:00:00Z', updatedBy: '演示四', updatedAt: '2026-05-01T02:00:00Z',
};
const D: TenderProjectDetail = {
  id: 'p2', code: 'XM-2', name: '江北管廊二期', customer: '南京城建', location: '南京市', amount: 0, startDate: null, endDate: null, state: ProjectState.building, managerId: 'u1', managerName: '张伟',
  managerRegistered: true, contractCount: 0, isTemp: false, updatedAt: '2026-05-01T00:00:00Z', contracts: [], invoices: [], invoiced: 0, certificates: [], history: [], managerExceptions: [E],
};

beforeEach(() => {
  for (const f of [...Object.values(projects), ...Object.values(contracts), ...Object.values(exceptions), ...Object.values(files), success]) f.mockReset();
  useSession.setState({ roles: ['4'] } as never);
  contracts.users.mockResolvedValue([]);
  projects.options.mockResolvedValue([{ id: 'p1', code: 'XM-1', name: '江北管廊一期' }]);
  files.list.mockResolvedValue([]);
});

function show(node: React.ReactNode, path = '/tender/project/detail/p2') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/tender/project/detail/:id" element={node} />
          <Route path="/tender/project/modify/:id" element={node} />
          <Route path="*" element={node} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('项目经理例外', { timeout: 60_000 }, () => {
  it('builds the body: 停工 needs its stop day, sent only for 停工', () => {
    const v = { managerId: 'u1', otherProjectId: 'p1', ground: ManagerExceptionGround.suspended, validFrom: dayjs('2026-05-01'), remark: ' 征地 ' };
    expect(exceptionBody(v, 'p2')).toEqual({ error: '请填写停工日期' });
    expect(exceptionBody({ ...v, stopDate: dayjs('2026-01-01') }, 'p2')).toEqual({
      body: { projectId: 'p2', managerId: 'u1', otherProjectId: 'p1', ground: 1, validFrom: '2026-05-01', validTo: null, stopDate: '2026-01-01', remark: '征地' },
    });
    expect(exceptionBody({ ...v, ground: ManagerExceptionGround.adjacent, stopDate: dayjs('2026-01-01'), validTo: dayjs('2026-12-31') }, 'p2', 'e1')).toEqual({
      body: { id: 'e1', projectId: 'p2', managerId: 'u1', otherProjectId: 'p1', ground: 2, validFrom: '2026-05-01', validTo: '2026-12-31', stopDate: null, remark: '征地' },
    });
    expect(exceptionBody({ ...v, otherProjectId: null }, 'p2')).toEqual({ error: '请选择所涉的另一个项目' });
    expect(exceptionBody({ ...v, stopDate: dayjs('2026-01-01'), validFrom: null }, 'p2')).toEqual({ error: '请填写例外起始日期' });
    expect(exceptionSummary(E, 'p2')).toBe('张伟同时担任「XM-1 江北管廊一期」的项目经理：停工120天以上（含）且经建设单位同意，2026-01-01停工，至今150天；有效期 2026-05-01 至 长期');
    expect(exceptionSummary(E, 'p1')).toContain('「XM-2 江北管廊二期」');
  });

  it('the project detail shows each exception, in force or with the server\'s problem in red', async () => {
    projects.detail.mockResolvedValue({ ...D, managerExceptions: [E, { ...E, id: 'e2', otherCode: 'XM-9', otherName: '滨江大道', ground: 2, stopDate: null, stopDays: null, evidenceCount: 0, problem: '例外尚未上传证明材料（相邻分段或分期施工的合同、招标文件等）' }] });
    show(<ProjectDetailPage />);
    const box = await screen.findByTestId('manager-exceptions');
    expect(box.textContent).toContain('项目经理例外（2）依据注册建造师执业管理办法（试行）第九条');
    const rows = [...box.querySelectorAll('tr.ant-table-row')];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('XM-1 江北管廊一期');
    expect(rows[0]!.textContent).toContain('2026-01-01（150天）');
    expect(rows[0]!.textContent).toContain('2026-05-01 至 长期');
    expect(rows[0]!.textContent).toContain('1 份');
    expect(rows[0]!.textContent).toContain('可用');
    expect(rows[1]!.textContent).toContain('同一工程相邻分段发包');
    expect(rows[1]!.textContent).toContain('缺失');
    expect(within(rows[1] as HTMLElement).getByTestId('exception-problem').textContent).toBe('例外尚未上传证明材料（相邻分段或分期施工的合同、招标文件等）');
  });

  it('an exception that ended by itself shows 已终止 with the reason', async () => {
    const reason = '「XM-1 江北管廊一期」已完工（注册建造师执业管理办法（试行）第九条（二）），例外自动终止';
    projects.detail.mockResolvedValue({ ...D, managerExceptions: [{ ...E, validTo: '2026-06-10', endReason: reason, problem: `例外已于2026-06-10终止：${reason}` }] });
    show(<ProjectDetailPage />);
    const box = await screen.findByTestId('manager-exceptions');
    const [row] = [...box.querySelectorAll('tr.ant-table-row')];
    expect(row!.textContent).toContain('已终止');
    expect(row!.textContent).not.toContain('不可用');
    expect(within(row as HTMLElement).getByTestId('exception-problem').textContent).toBe(`例外已于2026-06-10终止：${reason}`);
  });

  it('the form sends the record and shows the server\'s refusal', async () => {
    projects.detail.mockResolvedValue({ ...D, managerExceptions: [] });
    exceptions.save.mockRejectedValue(new Error('「XM-1 江北管廊一期」不是停工状态，不能按停工情形登记例外'));
    show(<ProjectDetailPage />);
    fireEvent.click(await screen.findByText('登记例外'));
    const form = await screen.findByTestId('exception-form');
    // 例外情形: 相邻分段 (no stop day asked), then the days.
    fireEvent.mouseDown(within(form).getByLabelText('例外情形'));
    fireEvent.click(await screen.findByText('同一工程相邻分段发包'));
    expect(within(form).queryByLabelText('停工日期')).toBeNull();
    fireEvent.click(within(form).getByText('登 记'));
    expect((await screen.findByTestId('exception-error')).textContent).toBe('请选择所涉的另一个项目');
    expect(exceptions.save).not.toHaveBeenCalled();
    fireEvent.mouseDown(within(form).getByLabelText('所涉的另一个项目'));
    fireEvent.click(await screen.findByText('XM-1 江北管廊一期'));
    const from = within(form).getByLabelText('起始日期');
    fireEvent.mouseDown(from);
    fireEvent.change(from, { target: { value: '2026-05-01' } });
    fireEvent.keyDown(from, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(form).getByText('登 记'));
    await waitFor(() => expect(exceptions.save).toHaveBeenCalled());
    expect(exceptions.save.mock.calls[0]![0]).toEqual({ projectId: 'p2', managerId: 'u1', otherProjectId: 'p1', ground: 2, validFrom: '2026-05-01', validTo: null, stopDate: null, remark: '' });
    await waitFor(() => expect(screen.getByTestId('exception-error').textContent).toBe('「XM-1 江北管廊一期」不是停工状态，不能按停工情形登记例外'));
  });

  it('业绩核查 shows the exception of the contract\'s project', () => {
    const row: PerformanceCheckRow = {
      id: 'c1', contractType: ContractType.single, code: 'HT-1', name: '管廊工程', customer: '南京城建', amount: 500_000_00, acceptedOn: '2024-05-01', presentPages: [], missingPages: [], fileCount: 0, problems: [],
      projectCode: 'XM-2', managerName: '张伟', managerExceptions: [E],
    };
    show(<PerformanceResults rows={[row, { ...row, id: 'c2', code: 'HT-2', projectCode: null, managerExceptions: [] }]} />, '/tender/file/performance-check');
    const cells = screen.getAllByTestId('performance-exceptions');
    expect(cells).toHaveLength(1);
    expect(cells[0]!.textContent).toBe('可用张伟同时担任「XM-1 江北管廊一期」的项目经理：停工120天以上（含）且经建设单位同意，2026-01-01停工，至今150天；有效期 2026-05-01 至 长期');
    expect(screen.getByText('未关联项目')).toBeTruthy();
  });

  it('a project save let through by an exception says which rule allowed it', async () => {
    const said = '保存成功（张伟同时担任「XM-1 江北管廊一期」的项目经理，依据注册建造师执业管理办法（试行）第九条（三）：停工120天以上（含）且经建设单位同意）';
    projects.detail.mockResolvedValue(D);
    projects.save.mockResolvedValue({ code: 20000, message: said, r: { ...D } });
    show(<ProjectEditPage />, '/tender/project/modify/p2');
    await screen.findByTestId('tender-project-editor');
    await waitFor(() => expect((screen.getByLabelText('项目编号') as HTMLInputElement).value).toBe('XM-2'));
    fireEvent.click(screen.getByText('保 存'));
    await waitFor(() => expect(success).toHaveBeenCalledWith(said, 8));
  });
});
