/**
 * Issue 32 item 1, 统计对比 on 抵扣统计: each side's count and tax, the worklist of the lines that differ (both
 * sides, the kind of difference, why a line cannot be adopted), 采纳所选 / 全部采纳税务端 asked first and sent
 * with the chosen keys, and 确认统计 over open differences asking for a reason (sent with it; empty: not sent).
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatComparison, StatView } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import DeductionStatistic from './DeductionStatistic';
import RebateStatistic from './RebateStatistic';

const calls = { view: vi.fn(), act: vi.fn(), adopt: vi.fn(), outsideTick: vi.fn(), exportFigures: vi.fn() };
const charts: Array<{ testId?: string; option: { series: Array<{ data: unknown[] }> } }> = [];
vi.mock('./api', async (orig) => ({
  ...(await orig<typeof import('./api')>()),
  statApi: new Proxy({}, { get: (_t, k: string) => (...a: unknown[]) => (calls as Record<string, (...x: unknown[]) => unknown>)[k]!(...a) }),
}));
vi.mock('../../../components/EChart', () => ({
  EChart: (p: { testId?: string; option: { series: Array<{ data: unknown[] }> } }) => {
    charts.push(p);
    return <div data-testid={p.testId} />;
  },
}));

configure({ asyncUtilTimeout: 15_000 });

const view = (over: Partial<StatView> = {}): StatView => ({
  scope: 'deduction', period: '202610', periods: [{ period: '202609', state: 2 }, { period: '202610', state: 0 }], tickPeriod: '202610',
  deadline: '2026-11-16T15:59:59.000Z', deadlineText: '2026-11-16 23:59:59', state: 0, // 202610: 2026-11-16 by the 申报日历 (11月15日为星期日)
  rows: [
    { kind: '01', kindLabel: '增值税专用发票', count: 3, amountExcludingTax: 1_000_000, tax: 130_000, effectiveTax: 130_000 },
    { kind: '81', kindLabel: '数电发票（增值税专用发票）', count: 5, amountExcludingTax: 2_345_678, tax: 211_111, effectiveTax: 200_000 },
  ],
  totals: { count: 8, amountExcludingTax: 3_345_678, tax: 341_111, effectiveTax: 330_000 },
  transport: { count: 4, basis: 100_000, tax: 8_257 },
  deductibleTotal: 338_257,
  apart: [{ usages: [4], label: '不抵扣', count: 2, tax: 26_000 }, { usages: [2, 3], label: '退税', count: 1, tax: 9_000 }],
  notice: '',
  actions: ['apply'],
  lastAction: null,
  comparison: null,
  simulator: true,
  ...over,
});

beforeEach(() => {
  for (const f of Object.values(calls)) f.mockReset();
  charts.length = 0;
  calls.view.mockResolvedValue(view());
});

function renderPage(el: React.ReactElement) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{el}</MemoryRouter>
    </QueryClientProvider>,
  );
}
const button = (action: string) => screen.getByTestId(`stat-${action}`) as HTMLButtonElement;

const side = (effectiveTax: number, tax = effectiveTax) => ({ vatUsage: 1, deductReason: null, tax, effectiveTax });
const comparison: StatComparison = {
  ours: { count: 9, tax: 341_111, effectiveTax: 331_300 },
  bureau: { count: 10, tax: 342_000, effectiveTax: 330_850 },
  open: 3,
  lines: [
    { key: '26442000000000000001', kind: 'outside', invoiceId: 'a', invoiceKind: '81', issueDate: '2026-10-08', sellerName: '华东建材有限公司', ours: null, bureau: side(500, 900), adoptable: true, note: '' },
    { key: '26442000000000000002', kind: 'tax', invoiceId: 'b', invoiceKind: '81', issueDate: '2026-10-09', sellerName: '华东建材有限公司', ours: side(1300), bureau: side(650, 1300), adoptable: true, note: '' },
    { key: '26442000000000000003', kind: 'outside', invoiceId: null, invoiceKind: '81', issueDate: '2026-10-10', sellerName: '', ours: null, bureau: side(700), adoptable: false, note: '票池中无此发票，请先采集或录入后再采纳' },
  ],
};
const applied = (over: Partial<StatView> = {}) => view({ state: 1, actions: ['confirm', 'revokeApply'], comparison, ...over });
const line = (key: string) => screen.getByText(key).closest('tr') as HTMLElement;

describe('统计对比 (issue 32 item 1)', { timeout: 60_000 }, () => {
  it('no worklist before 申请统计', async () => {
    renderPage(<DeductionStatistic />);
    await waitFor(() => expect(screen.getByTestId('stat-state').textContent).toBe('未统计'));
    expect(screen.queryByTestId('stat-compare')).toBeNull();
  });

  it('each side\'s count and effective tax, the lines with both sides and the kind; a line the pool lacks cannot be chosen and says why', async () => {
    calls.view.mockResolvedValue(applied());
    renderPage(<DeductionStatistic />);
    const box = await screen.findByTestId('stat-compare');
    expect(within(box).getByTestId('stat-compare-ours').textContent).toBe('本系统勾选 9 份，有效抵扣税额 3,313.00');
    expect(within(box).getByTestId('stat-compare-bureau').textContent).toBe('税务端统计 10 份，有效抵扣税额 3,308.50');
    expect(within(box).getByTestId('stat-compare-open').textContent).toBe('差异 3 条');
    const a = line('26442000000000000001');
    expect(a.textContent).toContain('税务端已勾选，本系统未勾选');
    expect(a.textContent).toContain('未勾选');
    expect(a.textContent).toContain('抵扣 5.00');
    const b = line('26442000000000000002');
    expect(b.textContent).toContain('有效税额不一致');
    expect(b.textContent).toContain('抵扣 13.00');
    expect(b.textContent).toContain('抵扣 6.50');
    const c = line('26442000000000000003');
    expect(c.textContent).toContain('票池中无此发票，请先采集或录入后再采纳');
    expect((within(c).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect((within(a).getByRole('checkbox') as HTMLInputElement).disabled).toBe(false);
  });

  it('采纳所选 asks first and sends the chosen keys; 全部采纳税务端 sends none; the answer replaces the view', async () => {
    calls.view.mockResolvedValue(applied());
    calls.adopt.mockResolvedValue(applied({ comparison: { ...comparison, open: 0, lines: [], ours: comparison.bureau } }));
    renderPage(<DeductionStatistic />);
    await screen.findByTestId('stat-compare');
    expect((screen.getByTestId('stat-adopt-chosen') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(line('26442000000000000002')).getByRole('checkbox'));
    await waitFor(() => expect((screen.getByTestId('stat-adopt-chosen') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('stat-adopt-chosen'));
    expect(await screen.findByText('采纳所选 1 条差异的税务端勾选状态？')).toBeTruthy();
    expect(calls.adopt).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    await waitFor(() => expect(calls.adopt).toHaveBeenCalledWith('deduction', '202610', ['26442000000000000002']));
    expect(await screen.findByTestId('stat-compare-same')).toBeTruthy();
  });

  it('全部采纳税务端 names the adoptable count and sends no keys', async () => {
    calls.view.mockResolvedValue(applied());
    calls.adopt.mockResolvedValue(applied());
    renderPage(<DeductionStatistic />);
    await screen.findByTestId('stat-compare');
    fireEvent.click(screen.getByTestId('stat-adopt-all'));
    expect(await screen.findByText('采纳全部 2 条可采纳差异的税务端勾选状态？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    await waitFor(() => expect(calls.adopt).toHaveBeenCalledWith('deduction', '202610', undefined));
  });

  it('确认统计 over open differences asks for a reason: not sent while blank, then sent with it', async () => {
    calls.view.mockResolvedValue(applied());
    calls.act.mockResolvedValue(applied({ state: 2, actions: ['revokeConfirm'], lastAction: { action: 'confirm', result: 1, message: '确认统计成功', userName: '何晓燕', at: '2026-11-05T02:00:00.000Z', reason: '税务端代勾选', differences: 3 } }));
    renderPage(<DeductionStatistic />);
    await waitFor(() => expect(button('confirm').disabled).toBe(false));
    fireEvent.click(button('confirm'));
    expect(await screen.findByText('税务端统计与本系统勾选记录仍有3处差异')).toBeTruthy();
    const ok = screen.getByTestId('stat-reason-ok') as HTMLButtonElement;
    expect(ok.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('stat-reason'), { target: { value: '   ' } });
    expect(ok.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('stat-reason'), { target: { value: ' 税务端代勾选 ' } });
    await waitFor(() => expect(ok.disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(calls.act).toHaveBeenCalledWith('deduction', 'confirm', '202610', '税务端代勾选'));
    await waitFor(() => expect(screen.getByTestId('stat-last').textContent).toContain('确认统计成功（3处差异，原因：税务端代勾选）'));
  });

  it('without differences 确认统计 is asked as before, with no reason', async () => {
    calls.view.mockResolvedValue(applied({ comparison: { ...comparison, open: 0, lines: [] } }));
    renderPage(<DeductionStatistic />);
    await screen.findByTestId('stat-compare-same');
    fireEvent.click(button('confirm'));
    expect(await screen.findByText('确认2026年10月的抵扣统计？')).toBeTruthy();
    expect(screen.queryByTestId('stat-reason')).toBeNull();
  });

  it('a comparison that could not be made is said, and 确认统计 then asks for a reason too', async () => {
    const words = '税务端统计明细获取失败（税务端连接超时），暂不能逐张对比';
    calls.view.mockResolvedValue(view({ state: 1, actions: ['confirm', 'revokeApply'], comparison: null, comparisonError: words }));
    renderPage(<DeductionStatistic />);
    expect((await screen.findByTestId('stat-compare-error')).textContent).toBe(words);
    expect(screen.queryByTestId('stat-compare')).toBeNull();
    fireEvent.click(button('confirm'));
    expect(await screen.findByTestId('stat-reason')).toBeTruthy();
    expect(screen.getAllByText(words).length).toBe(2);
  });

  it('模拟税务端操作 (simulator, before 申请统计): the numbers typed are ticked at the bureau by number, each once', async () => {
    calls.outsideTick.mockResolvedValue({ period: '202610', accepted: 2, outcomes: [] });
    renderPage(<DeductionStatistic />);
    const box = await screen.findByTestId('stat-sim-box');
    expect((within(box).getByTestId('stat-sim-tick') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(box).getByTestId('stat-sim-numbers'), { target: { value: '26442000000000000001，26442000000000000002 26442000000000000001' } });
    fireEvent.click(within(box).getByTestId('stat-sim-tick'));
    await waitFor(() => expect(calls.outsideTick).toHaveBeenCalledWith('deduction', { numbers: ['26442000000000000001', '26442000000000000002'], action: 'tick', vatUsage: 1 }));
    expect((await within(box).findByTestId('stat-sim-note')).textContent).toBe('模拟税务端勾选：成功 2 张（税款所属期 202610）');
  });

  it('the box is not there without the simulator or once applied', async () => {
    calls.view.mockResolvedValue(view({ simulator: false }));
    const first = renderPage(<DeductionStatistic />);
    await waitFor(() => expect(screen.getByTestId('stat-state').textContent).toBe('未统计'));
    expect(screen.queryByTestId('stat-sim-box')).toBeNull();
    first.unmount();
    calls.view.mockResolvedValue(applied());
    renderPage(<DeductionStatistic />);
    await screen.findByTestId('stat-compare');
    expect(screen.queryByTestId('stat-sim-box')).toBeNull();
  });
});
