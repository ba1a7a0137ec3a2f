/**
 * Issue 17, 导出日志 and 导出统计: the log asks for the list with its filters (the day range as days),
 * shows a purged export as 已清理 and its downloads, opens the detail drawer with the items and who
 * downloaded, exports the filter; the statistic asks for the month range, dimension and top N, charts
 * every month's exports and the top rows, drills down from a month's count to the done exports that used
 * the item in that month, and exports the dimension.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TenderExportDetail, TenderExportLogRow, TenderExportStatResult } from '@zhyy/shared';

const api = vi.hoisted(() => ({ list: vi.fn(), detail: vi.fn(), export: vi.fn(), statistic: vi.fn(), exportStatistic: vi.fn() }));
vi.mock('../../../api/tender-export-stat', () => ({ tenderExportStatApi: api }));
vi.mock('../../../components/download', () => ({ saveBlob: () => undefined, todayStamp: () => '20310101', formatTime: (v: string | null) => (v ? `T${v}` : '') }));
const charts = vi.hoisted(() => ({ options: new Map<string, unknown>() }));
vi.mock('../../../components/EChart', () => ({
  EChart: ({ option, testId }: { option: unknown; testId?: string }) => {
    charts.options.set(testId ?? '', option);
    return <div data-testid={testId} />;
  },
}));

const { default: ExportLogPage, logRequest, sizeText } = await import('./ExportLogPage');
const { default: ExportStatisticPage, daysOf, lastYear, statChart } = await import('./ExportStatisticPage');

configure({ asyncUtilTimeout: 15_000 });

const row = (over: Partial<TenderExportLogRow>): TenderExportLogRow => ({
  id: 'e1', kind: 'performance', format: 'pdf', title: '南京道路投标业绩文件', fileName: '南京道路投标业绩文件_20260101.pdf', state: 'done', error: null, itemCount: 3, pageCount: 30,
  size: 5 * 1024 * 1024, sha256: 'a'.repeat(64), createdByName: '王敏', createdByLogin: 'demo6', createdAt: '2026-01-01T02:00:00Z', finishedAt: '2026-01-01T02:01:00Z', purged: true,
  downloads: 2, lastDownloadAt: '2026-01-02T02:00:00Z', ...over,
});
const DETAIL: TenderExportDetail = {
  export: row({}),
  items: [{ position: 1, itemKind: 'contract', itemId: 'c1', label: 'HT-001 城南道路合同' }, { position: 2, itemKind: 'certificate', itemId: 'x', label: '张三 一级建造师 苏132' }],
  downloads: [{ userName: '李娜', loginName: 'demo9', deptName: '市场部', createdAt: '2026-01-02T02:00:00Z' }],
};
const STAT: TenderExportStatResult = {
  months: ['2026-01', '2026-02', '2026-03'],
  rows: [
    { key: 'c1', label: 'HT-001 城南道路合同', counts: [2, 0, 1], total: 3 },
    { key: 'c2', label: 'HT-002 河道整治合同', counts: [0, 1, 0], total: 1 },
  ],
  itemTotal: 2,
  exportsPerMonth: [4, 1, 2],
  exports: 7,
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  charts.options.clear();
  api.list.mockResolvedValue({ total: 2, items: [row({}), row({ id: 'e2', state: 'failed', purged: false, error: '文件「a.pdf」已加密', downloads: 0, sha256: null, size: null, title: '失败的导出' })] });
  api.detail.mockResolvedValue(DETAIL);
  api.export.mockResolvedValue(new Blob());
  api.statistic.mockResolvedValue(STAT);
  api.exportStatistic.mockResolvedValue(new Blob());
});

function show(page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('helpers', () => {
  it('sizes, the day range, the month range', () => {
    expect([sizeText(null), sizeText(512), sizeText(2048), sizeText(5.5 * 1024 * 1024)]).toEqual(['', '512 B', '2 KB', '5.5 MB']);
    expect(logRequest({ keyword: '道路', range: [dayjs('2026-01-01'), dayjs('2026-01-31')] })).toEqual({ keyword: '道路', from: '2026-01-01', to: '2026-01-31' });
    expect(logRequest({ range: null })).toEqual({ from: undefined, to: undefined });
    expect(daysOf('2024-02', '2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(daysOf('2025-11', '2026-01')).toEqual({ from: '2025-11-01', to: '2026-01-31' });
    expect(lastYear(dayjs('2026-03-15')).map((d) => d.format('YYYY-MM'))).toEqual(['2025-04', '2026-03']);
  });
  it('the chart: every month\'s exports as bars, the top rows as lines; none without exports', () => {
    const o = statChart(STAT) as { xAxis: { data: string[] }; series: { name: string; type: string; data: number[] }[] };
    expect(o.xAxis.data).toEqual(STAT.months);
    expect(o.series.map((x) => [x.name, x.type, x.data])).toEqual([['导出总数', 'bar', [4, 1, 2]], ['HT-001 城南道路合同', 'line', [2, 0, 1]], ['HT-002 河道整治合同', 'line', [0, 1, 0]]]);
    expect(statChart({ ...STAT, rows: [], exports: 0, exportsPerMonth: [0, 0, 0] })).toBeNull();
  });
});

describe('导出日志', { timeout: 60_000 }, () => {
  it('lists the exports: purged and failed states, downloads; the detail drawer; filters and the Excel export', async () => {
    show(<ExportLogPage />);
    expect(await screen.findByText('南京道路投标业绩文件')).toBeTruthy();
    expect(api.list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(screen.getByText('已清理')).toBeTruthy();
    expect(screen.getByText('失败')).toBeTruthy();
    expect(screen.getByText('2 次')).toBeTruthy();
    expect(screen.getByText('5.0 MB')).toBeTruthy();
    // The SHA-256 is of no use to a clerk in the list (issue 31): only the detail shows it.
    expect(screen.queryByText('SHA-256')).toBeNull();
    fireEvent.click(screen.getByTestId('items-e1'));
    const drawer = await screen.findByTestId('export-detail');
    expect(within(drawer).getByText('SHA-256')).toBeTruthy();
    expect(api.detail).toHaveBeenCalledWith('e1');
    expect(within(drawer).getByText('HT-001 城南道路合同')).toBeTruthy();
    expect(within(drawer).getByText('资格证书')).toBeTruthy();
    expect(within(drawer).getByText('李娜（demo9）')).toBeTruthy();
    expect(within(drawer).getByText('下载记录（1 次）')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('标题、文件名、合同或证书'), { target: { value: '道路' } });
    fireEvent.click(screen.getByText('查询'));
    await waitFor(() => expect(api.list).toHaveBeenLastCalledWith({ keyword: '道路', pageIndex: 1, pageSize: 20 }));
    fireEvent.click(screen.getByText('导出Excel'));
    await waitFor(() => expect(api.export).toHaveBeenCalledWith({ keyword: '道路' }));
  });
});

describe('导出统计', { timeout: 60_000 }, () => {
  it('asks for the last twelve months by contract, shows counts and totals, charts them, drills into a month', async () => {
    show(<ExportStatisticPage />);
    expect(await screen.findByText('HT-002 河道整治合同')).toBeTruthy();
    const [from, to] = lastYear().map((d) => d.format('YYYY-MM'));
    expect(api.statistic).toHaveBeenCalledWith({ fromMonth: from, toMonth: to, dimension: 'contract', top: 10 });
    expect(screen.getByText('每月导出次数（共 7 次导出，2 个合同被使用）')).toBeTruthy();
    expect(charts.options.get('export-stat-chart')).toEqual(statChart(STAT));
    fireEvent.click(screen.getByTestId('cell-c1-2026-03'));
    await waitFor(() => expect(api.list).toHaveBeenCalledWith({ from: '2026-03-01', to: '2026-03-31', state: 'done', dimension: 'contract', key: 'c1', pageIndex: 1, pageSize: 10 }));
    expect(await screen.findByText('HT-001 城南道路合同：2026-03 的导出')).toBeTruthy();
    expect(await screen.findByText('南京道路投标业绩文件')).toBeTruthy();
  });

  it('a row\'s name drills into the whole range; another dimension; the Excel export of it', async () => {
    show(<ExportStatisticPage />);
    const [from, to] = lastYear().map((d) => d.format('YYYY-MM'));
    fireEvent.click(await screen.findByText('HT-002 河道整治合同'));
    await waitFor(() => expect(api.list).toHaveBeenCalledWith(expect.objectContaining({ ...daysOf(from!, to!), dimension: 'contract', key: 'c2', state: 'done' })));
    fireEvent.click(screen.getByText('人员'));
    await waitFor(() => expect(api.statistic).toHaveBeenLastCalledWith({ fromMonth: from, toMonth: to, dimension: 'person', top: 10 }));
    fireEvent.click(screen.getByText('导出Excel'));
    await waitFor(() => expect(api.exportStatistic).toHaveBeenCalledWith({ fromMonth: from, toMonth: to, dimension: 'person' }));
  });
});
