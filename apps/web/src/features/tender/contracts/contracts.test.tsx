/**
 * Issue 17, contracts: 合同台账 asks for the list with the filters, shows 完整/缺N页 and the add buttons
 * only to the roles that may add (demo7's role 7 edits but does not add); the editor reads the amount in
 * 元 into 分, requires a frame for an order and sends the add; 框架合同开票统计's 合计 row is the sum the
 * server counted (框架合同直接开票 beside 已开票), its percentage derived, and the chart gets each frame's orders and invoiced in 元.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractType, EMPTY_ID, type FrameStatisticPage, type TenderContractRow } from '@zhyy/shared';
import { useSession } from '../../../stores/session';

const api = vi.hoisted(() => ({ list: vi.fn(), detail: vi.fn(), add: vi.fn(), edit: vi.fn(), export: vi.fn(), options: vi.fn(), users: vi.fn(), frameStatistic: vi.fn(), exportFrameStatistic: vi.fn() }));
const projects = vi.hoisted(() => ({ options: vi.fn() }));
vi.mock('../../../api/tender-contracts', () => ({ tenderContractApi: api, tenderProjectApi: projects }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));
const charts = vi.hoisted(() => ({ options: new Map<string, unknown>() }));
vi.mock('../../../components/EChart', () => ({
  EChart: ({ option, testId }: { option: unknown; testId?: string }) => {
    charts.options.set(testId ?? '', option);
    return <div data-testid={testId} />;
  },
}));

const { default: ContractListPage, contractRequest } = await import('./ContractListPage');
const { default: ContractEditPage, contractBody } = await import('./ContractEditPage');
const { default: FrameStatisticPage } = await import('./FrameStatisticPage');

configure({ asyncUtilTimeout: 15_000 });

const F1 = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0f01';
const row = (over: Partial<TenderContractRow>): TenderContractRow => ({
  id: F1, contractType: ContractType.frame, code: 'KJ-001', name: '框架协议', customer: '南京客户', amount: 500_000_00, projectId: null, projectCode: '', projectName: '', frameId: null, frameCode: '',
  frameName: '', managerId: null, managerName: '', signedOn: '2025-01-02', workFrom: null, workTo: null, acceptedOn: null, remark: '', missingPages: 0, source: 0, updatedAt: '2026-01-01T00:00:00Z', ...over,
});

beforeEach(() => {
  for (const f of [...Object.values(api), ...Object.values(projects)]) f.mockReset();
  charts.options.clear();
  api.list.mockResolvedValue({ total: 2, items: [row({}), row({ id: 'x2', code: 'DD-002', contractType: ContractType.order, missingPages: 2, frameId: F1, frameCode: 'KJ-001' })] });
  api.options.mockResolvedValue([{ id: F1, code: 'KJ-001', name: '框架协议' }]);
  api.users.mockResolvedValue([]);
  projects.options.mockResolvedValue([]);
  api.export.mockResolvedValue(new Blob());
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

describe('合同台账', { timeout: 60_000 }, () => {
  it('lists the contracts with their completeness; role 6 may add', async () => {
    useSession.setState({ roles: ['6'] } as never);
    show('/tender/contract/list', '/tender/contract/list', <ContractListPage />);
    expect(await screen.findByText('DD-002', { selector: 'a' })).toBeTruthy();
    expect(api.list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(screen.getByText('完整')).toBeTruthy();
    expect(screen.getByText('缺2页')).toBeTruthy();
    expect(screen.getByText('新增框架合同')).toBeTruthy();
    fireEvent.click(screen.getByText('导出Excel'));
    await waitFor(() => expect(api.export).toHaveBeenCalledWith({}));
  });

  it('role 7 edits but sees no add buttons', async () => {
    useSession.setState({ roles: ['7'] } as never);
    show('/tender/contract/list', '/tender/contract/list', <ContractListPage />);
    await screen.findByText('DD-002', { selector: 'a' });
    expect(screen.queryByText('新增框架合同')).toBeNull();
    expect(screen.getAllByText('编辑').length).toBe(2);
    expect(screen.queryByText('复制')).toBeNull();
  });

  it('turns the filter form into the request', () => {
    const dayjs = (d: string) => ({ format: () => d }) as never;
    expect(contractRequest({ keyword: 'KJ', complete: 'incomplete', signed: [dayjs('2025-01-01'), dayjs('2025-12-31')] })).toEqual({
      keyword: 'KJ', contractType: undefined, customer: undefined, projectId: undefined, complete: 'incomplete', signedFrom: '2025-01-01', signedTo: '2025-12-31', acceptedFrom: null, acceptedTo: null,
    });
  });
});

describe('the contract editor', { timeout: 60_000 }, () => {
  it('reads 元 into 分 and refuses a bad amount before sending', () => {
    const ok = contractBody({ contractType: ContractType.single, code: ' HT-1 ', name: '合同', customer: '客户', amountYuan: '1,234.5', frameId: F1 });
    expect(ok).toEqual({ body: expect.objectContaining({ code: 'HT-1', amount: 123_450, frameId: null, signedOn: null }) });
    expect(contractBody({ contractType: ContractType.single, code: 'a', name: 'b', customer: 'c', amountYuan: '12.345' })).toEqual({ error: '合同金额最多两位小数' });
  });

  it('adds an order: the frame is required, then the body goes to add', async () => {
    useSession.setState({ roles: ['6'] } as never);
    api.add.mockResolvedValue({ code: 20000, message: '已新增', r: row({ id: 'new', contractType: ContractType.order }) });
    show(`/tender/contract/addc/3/${EMPTY_ID}`, '/tender/contract/addc/:contractType/:id', <ContractEditPage />);
    const editor = await screen.findByTestId('tender-contract-editor');
    expect(within(editor).getByText('新增订单合同')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('合同编号'), { target: { value: 'DD-9' } });
    fireEvent.change(screen.getByLabelText('合同名称'), { target: { value: '订单九' } });
    fireEvent.change(screen.getByLabelText('客户'), { target: { value: '南京客户' } });
    fireEvent.change(screen.getByLabelText('合同金额（元）'), { target: { value: '1000' } });
    fireEvent.click(screen.getByText('保 存'));
    expect(await screen.findByText('订单合同须选择所属框架合同')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByLabelText('所属框架合同'));
    fireEvent.click(await screen.findByTitle('KJ-001 框架协议'));
    fireEvent.click(screen.getByText('保 存'));
    await waitFor(() => expect(api.add).toHaveBeenCalled());
    expect(api.add.mock.calls[0]![0]).toEqual(expect.objectContaining({ contractType: ContractType.order, code: 'DD-9', amount: 100_000, frameId: F1 }));
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
  });

  const fillRequired = () => {
    fireEvent.change(screen.getByLabelText('合同编号'), { target: { value: 'HT-1' } });
    fireEvent.change(screen.getByLabelText('合同名称'), { target: { value: '合同' } });
    fireEvent.change(screen.getByLabelText('客户'), { target: { value: '客户' } });
    fireEvent.change(screen.getByLabelText('合同金额（元）'), { target: { value: '5' } });
  };
  const itemOf = (label: string) => screen.getByLabelText(label).closest('.ant-form-item') as HTMLElement;

  it('places a server refusal under the field it names, as a plain sentence (issue 31)', async () => {
    useSession.setState({ roles: ['6'] } as never);
    api.add.mockRejectedValueOnce(new Error('合同编号HT-1已被「旧合同」使用')).mockRejectedValueOnce(new Error('参数错误：客户不能包含控制字符'));
    show(`/tender/contract/addc/2/${EMPTY_ID}`, '/tender/contract/addc/:contractType/:id', <ContractEditPage />);
    await screen.findByTestId('tender-contract-editor');
    fillRequired();
    fireEvent.click(screen.getByText('保 存'));
    await waitFor(() => expect(itemOf('合同编号').textContent).toContain('合同编号HT-1已被「旧合同」使用'));
    expect(screen.queryByTestId('editor-error')).toBeNull();
    fireEvent.click(screen.getByText('保 存'));
    await waitFor(() => expect(itemOf('客户').textContent).toContain('客户不能包含控制字符'));
    expect(screen.getByTestId('tender-contract-editor').textContent).not.toContain('参数错误');
  });

  it('shows a refusal that names no field above the form', async () => {
    useSession.setState({ roles: ['6'] } as never);
    api.add.mockRejectedValue(new Error('网络异常，请稍后重试'));
    show(`/tender/contract/addc/2/${EMPTY_ID}`, '/tender/contract/addc/:contractType/:id', <ContractEditPage />);
    await screen.findByTestId('tender-contract-editor');
    fillRequired();
    fireEvent.click(screen.getByText('保 存'));
    expect((await screen.findByTestId('editor-error')).textContent).toContain('网络异常，请稍后重试');
  });

  it('Enter never submits the form from a date field or a text box; a text area keeps it (issue 31)', async () => {
    useSession.setState({ roles: ['6'] } as never);
    show(`/tender/contract/addc/2/${EMPTY_ID}`, '/tender/contract/addc/:contractType/:id', <ContractEditPage />);
    await screen.findByTestId('tender-contract-editor');
    fillRequired();
    // fireEvent answers false when the default (the form's implicit submission) was prevented.
    expect(fireEvent.keyDown(screen.getByLabelText('签订日期'), { key: 'Enter' })).toBe(false);
    expect(fireEvent.keyDown(screen.getByLabelText('合同名称'), { key: 'Enter' })).toBe(false);
    expect(fireEvent.keyDown(screen.getByLabelText('备注'), { key: 'Enter' })).toBe(true);
    expect(api.add).not.toHaveBeenCalled();
  });
});

describe('框架合同开票统计', { timeout: 60_000 }, () => {
  const PAGE: FrameStatisticPage = {
    items: [
      { id: F1, code: 'KJ-001', name: '框架一', customer: '甲', frameAmount: 900_000_00, orderCount: 2, orderAmount: 300_000_00, invoiced: 120_000_00, frameInvoiced: 50_000_00, remaining: 180_000_00, percentBp: 4000 },
      { id: 'f2', code: 'KJ-002', name: '框架二', customer: '乙', frameAmount: 100_000_00, orderCount: 0, orderAmount: 0, invoiced: 0, frameInvoiced: 7_000_00, remaining: 0, percentBp: null },
    ],
    total: 2,
    totals: { frameAmount: 1_000_000_00, orderAmount: 300_000_00, invoiced: 120_000_00, frameInvoiced: 57_000_00, remaining: 180_000_00, orderCount: 2 },
    chart: [{ name: 'KJ-001', orderAmount: 300_000_00, invoiced: 120_000_00 }, { name: 'KJ-002', orderAmount: 0, invoiced: 0 }],
  };

  it('shows the rows, the 合计 row and the chart; exports the filter shown', async () => {
    useSession.setState({ roles: ['1'] } as never);
    api.frameStatistic.mockResolvedValue(PAGE);
    api.exportFrameStatistic.mockResolvedValue(new Blob());
    show('/tender/framecontract-invoice-statistic', '/tender/framecontract-invoice-statistic', <FrameStatisticPage />);
    const totals = await screen.findByTestId('frame-totals');
    expect(within(totals).getAllByRole('cell').map((c) => c.textContent)).toEqual(['合计（2 个）', '300,000.00', '120,000.00', '57,000.00', '180,000.00', '40.00%', '2', '', '1,000,000.00']);
    // 框架合同直接开票 is its own column beside 已开票, explained; it does not enter 未开票 or the percentage.
    expect(screen.getByText('7,000.00')).toBeTruthy();
    expect(screen.getByTestId('frame-note').textContent).toContain('直接开在框架合同上的发票另列于「框架合同直接开票」');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.trim()).slice(0, 5)).toEqual(['框架合同', '订单金额合计（元）', '已开票（元）', '框架合同直接开票（元）', '未开票（元）']);
    expect(screen.getByText('—')).toBeTruthy();
    const chart = charts.options.get('frame-chart') as { xAxis: { data: string[] }; series: Array<{ name: string; data: number[] }> };
    expect(chart.xAxis.data).toEqual(['KJ-001', 'KJ-002']);
    expect(chart.series).toEqual([expect.objectContaining({ name: '订单金额', data: [300_000, 0] }), expect.objectContaining({ name: '订单已开票', data: [120_000, 0] })]);
    fireEvent.change(screen.getByLabelText('客户'), { target: { value: '甲' } });
    fireEvent.click(screen.getByText('查 询'));
    await waitFor(() => expect(api.frameStatistic).toHaveBeenLastCalledWith({ customer: '甲', pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByText('导出Excel'));
    await waitFor(() => expect(api.exportFrameStatistic).toHaveBeenCalledWith({ customer: '甲' }));
  });
});
