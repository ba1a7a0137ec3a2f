/**
 * Issue 17, tender file export (performance): the pure rules of the pages (poll only while a job is
 * unfinished, the watermark from the template, the URL hand-over, the rule as typed); 业绩核查 checks the
 * picked contracts with the settings' defaults and hands the passing ones over; 业绩文件导出 re-checks
 * them, asks before exporting with problems (force), and its job panel shows progress then 下载.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractType, type PerformanceCheckRow, type TenderContractRow, type TenderExportJob } from '@zhyy/shared';

const contracts = vi.hoisted(() => ({ list: vi.fn() }));
const exp = vi.hoisted(() => ({ jobs: vi.fn(), status: vi.fn(), download: vi.fn(), performanceCheck: vi.fn(), performanceCreate: vi.fn(), certificateCheck: vi.fn(), certificateCreate: vi.fn() }));
const settings = vi.hoisted(() => ({ get: vi.fn(), save: vi.fn() }));
const confirm = vi.hoisted(() => vi.fn());
const saved = vi.hoisted(() => vi.fn());
vi.mock('../../../api/tender-contracts', () => ({ tenderContractApi: contracts, tenderProjectApi: {} }));
vi.mock('../../../api/tender-export', () => ({ tenderExportApi: exp }));
vi.mock('../../../api/tender-files', () => ({ tenderSettingApi: settings }));
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm }, message: { success: vi.fn(), error: vi.fn() } }), showError: vi.fn() }));
vi.mock('../../../components/download', () => ({ saveBlob: saved, formatTime: (v: string | null) => v ?? '' }));

const { pollInterval, watermarkOf, performanceExportUrl, readPerformanceSearch, POLL_MS } = await import('./exportLogic');
const { readRule } = await import('./PerformanceRule');
const { default: PerformanceCheckPage } = await import('./PerformanceCheckPage');
const { default: PerformanceExportPage } = await import('./PerformanceExportPage');

configure({ asyncUtilTimeout: 15_000 });

const contract = (over: Partial<TenderContractRow>): TenderContractRow => ({
  id: 'c1', contractType: ContractType.single, code: 'HT-1', name: '管廊工程', customer: '南京城建', amount: 500_000_00, projectId: null, projectCode: '', projectName: '', frameId: null, frameCode: '',
  frameName: '', managerId: null, managerName: '', signedOn: '2022-01-02', workFrom: null, workTo: null, acceptedOn: '2024-05-01', remark: '', missingPages: 0, source: 0, updatedAt: '2026-01-01T00:00:00Z', ...over,
});
const checked = (over: Partial<PerformanceCheckRow>): PerformanceCheckRow => ({
  id: 'c1', contractType: ContractType.single, code: 'HT-1', name: '管廊工程', customer: '南京城建', amount: 500_000_00, acceptedOn: '2024-05-01', presentPages: [2211, 2212, 2213, 2214, 2901], missingPages: [], fileCount: 5, problems: [], projectCode: null, managerName: '', managerExceptions: [], ...over,
});
const job = (over: Partial<TenderExportJob>): TenderExportJob => ({
  id: 'j1', kind: 'performance', format: 'pdf', title: '业绩证明材料', state: 'running', progress: 40, step: '合并第 3 / 8 页', error: null, fileName: '业绩证明材料_20261123.pdf', size: null, pageCount: null, itemCount: 1,
  createdByName: '演示', createdAt: '2026-11-23T10:00:00Z', finishedAt: null, ...over,
});

let where = '';
function Where() {
  const l = useLocation();
  where = l.pathname + l.search;
  return null;
}
function show(path: string, page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        <Routes>
          <Route path="*" element={page} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  for (const f of [...Object.values(contracts), ...Object.values(exp), ...Object.values(settings), confirm, saved]) f.mockReset();
  settings.get.mockResolvedValue({ watermark: '仅供××项目投标使用', windowYears: 3, thresholdFen: 100_000_00, remindDays: [90], updatedBy: null, updatedAt: null });
  contracts.list.mockResolvedValue({ total: 2, items: [contract({}), contract({ id: 'c2', code: 'HT-2', name: '旧工程', missingPages: 2 })] });
  exp.jobs.mockResolvedValue([]);
});

describe('export page rules', () => {
  it('polls once a second only while a job is queued or running', () => {
    expect(pollInterval(undefined)).toBe(false);
    expect(pollInterval([{ state: 'done' }, { state: 'failed' }])).toBe(false);
    expect(pollInterval([{ state: 'done' }, { state: 'queued' }])).toBe(POLL_MS);
    expect(pollInterval([{ state: 'running' }])).toBe(1000);
  });
  it('fills the watermark template with the project name', () => {
    expect(watermarkOf('仅供××项目投标使用', '江北管廊项目')).toBe('仅供江北管廊项目投标使用');
    expect(watermarkOf('仅供××项目投标使用', '江北管廊')).toBe('仅供江北管廊项目投标使用');
    expect(watermarkOf('仅供××项目投标使用', '  ')).toBe('仅供××项目投标使用');
    expect(watermarkOf('内部资料', '江北')).toBe('内部资料');
  });
  it('hands the contracts and the rule over through the URL and reads back only what is valid', () => {
    const url = performanceExportUrl(['a', 'b'], { deadline: '2026-12-01', years: 3, thresholdFen: 12345 });
    expect(readPerformanceSearch(url.split('?')[1]!)).toEqual({ ids: ['a', 'b'], deadline: '2026-12-01', years: 3, thresholdFen: 12345 });
    expect(readPerformanceSearch('?ids=a,,a,b&deadline=x&years=20&threshold=-1')).toEqual({ ids: ['a', 'b'] });
  });
  it('reads the rule as typed: yuan to fen, refusals in Chinese', () => {
    expect(readRule({ deadline: '2026-12-01', years: 5, threshold: '1,000.50' })).toEqual({ ok: true, rule: { deadline: '2026-12-01', years: 5, thresholdFen: 100050 } });
    expect(readRule({ deadline: null, years: 5, threshold: '' })).toEqual({ ok: false, error: '请选择投标截止日' });
    expect(readRule({ deadline: '2026-12-01', years: 0, threshold: '' })).toEqual({ ok: false, error: '业绩年限须在1到10年之间' });
    expect(readRule({ deadline: '2026-12-01', years: 2, threshold: 'abc' })).toMatchObject({ ok: false });
  });
});

describe('业绩核查', () => {
  it('checks the picked contracts with the settings’ defaults and hands the passing ones on', async () => {
    exp.performanceCheck.mockResolvedValue([checked({}), checked({ id: 'c2', code: 'HT-2', name: '旧工程', missingPages: [2212, 2901], problems: ['缺少单项合同工期页、验收证书', '合同金额低于100000.00元'] })]);
    show('/tender/file/performance-check', <PerformanceCheckPage />);
    await screen.findByText('HT-2');
    await waitFor(() => expect((screen.getByLabelText('业绩年限') as HTMLInputElement).value).toBe('3'));
    fireEvent.click(screen.getByRole('button', { name: /^核\s?查$/ }));
    expect(await screen.findByText('请至少选择一个合同')).toBeTruthy();
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[1]!);
    fireEvent.click(boxes[2]!);
    fireEvent.click(screen.getByRole('button', { name: /^核\s?查$/ }));
    await waitFor(() => expect(exp.performanceCheck).toHaveBeenCalledTimes(1));
    expect(exp.performanceCheck.mock.calls[0]![0]).toMatchObject({ contractIds: ['c1', 'c2'], years: 3, thresholdFen: 100_000_00 });
    const results = await screen.findByTestId('performance-results');
    expect(await within(results).findByText('合同金额低于100000.00元')).toBeTruthy();
    expect(within(results).getByText('通过')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '导出通过的合同（1）' }));
    await waitFor(() => expect(where).toMatch(/^\/tender\/file\/performance-file-export\?ids=c1&deadline=\d{4}-\d{2}-\d{2}&years=3&threshold=10000000$/));
  }, 90_000);
});

describe('业绩文件导出', () => {
  it('sends the user to 业绩核查 without contracts', async () => {
    show('/tender/file/performance-file-export', <PerformanceExportPage />);
    fireEvent.click(await screen.findByRole('button', { name: '去业绩核查' }));
    await waitFor(() => expect(where).toBe('/tender/file/performance-check'));
    expect(exp.performanceCheck).not.toHaveBeenCalled();
  });

  it('re-checks the contracts, asks before exporting with problems, then shows the job’s progress and 下载', async () => {
    exp.performanceCheck.mockResolvedValue([checked({}), checked({ id: 'c2', code: 'HT-2', problems: ['未填写竣工验收日期'] })]);
    exp.performanceCreate.mockResolvedValue({ code: 20000, r: { id: 'j1' }, message: '已开始生成' });
    exp.jobs.mockResolvedValueOnce([]).mockResolvedValueOnce([job({})]).mockResolvedValue([job({ state: 'done', progress: 100, step: '完成', pageCount: 8, size: 2048 })]);
    exp.download.mockResolvedValue(new Blob(['%PDF']));
    show('/tender/file/performance-file-export?ids=c1,c2&deadline=2026-12-01&years=5&threshold=0', <PerformanceExportPage />);
    expect(await screen.findByText('有1个合同未通过核查，导出时需确认')).toBeTruthy();
    expect(exp.performanceCheck).toHaveBeenCalledWith({ contractIds: ['c1', 'c2'], deadline: '2026-12-01', years: 5, thresholdFen: 0 });
    fireEvent.change(screen.getByLabelText('投标项目'), { target: { value: '江北管廊' } });
    expect((screen.getByLabelText('水印') as HTMLInputElement).value).toBe('仅供江北管廊项目投标使用');
    fireEvent.click(screen.getByRole('button', { name: /^生\s?成$/ }));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(confirm.mock.calls[0]![0].content).toBe('所选2项中有1项未通过核查，仍要导出吗？');
    expect(exp.performanceCreate).not.toHaveBeenCalled();
    await confirm.mock.calls[0]![0].onOk();
    expect(exp.performanceCreate).toHaveBeenCalledWith({ contractIds: ['c1', 'c2'], deadline: '2026-12-01', years: 5, thresholdFen: 0, title: '业绩证明材料', format: 'pdf', watermark: '仅供江北管廊项目投标使用', force: true });
    const panel = screen.getByTestId('export-jobs');
    expect(await within(panel).findByText('合并第 3 / 8 页')).toBeTruthy();
    expect(within(panel).getByRole('progressbar')).toBeTruthy();
    // Polled while running: the next answer is the finished job.
    const download = await within(panel).findByRole('button', { name: /^下\s?载$/ }, { timeout: 5000 });
    expect(within(panel).getByText('8页，2.0 KB')).toBeTruthy();
    fireEvent.click(download);
    await waitFor(() => expect(saved).toHaveBeenCalledWith(expect.any(Blob), '业绩证明材料_20261123.pdf'));
    expect(exp.download).toHaveBeenCalledWith('j1');
    const calls = exp.jobs.mock.calls.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(exp.jobs.mock.calls.length).toBe(calls);
  });

  it('shows a failed job’s reason and no download', async () => {
    exp.performanceCheck.mockResolvedValue([checked({})]);
    exp.jobs.mockResolvedValue([job({ state: 'failed', error: '文件「封面.pdf」已加密，无法合并' })]);
    show('/tender/file/performance-file-export?ids=c1', <PerformanceExportPage />);
    const panel = await screen.findByTestId('export-jobs');
    expect(await within(panel).findByText('文件「封面.pdf」已加密，无法合并')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: /^下\s?载$/ })).toBeNull();
  });
});
