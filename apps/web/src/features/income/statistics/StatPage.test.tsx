/**
 * Issue 14, 抵扣统计 / 退税统计: the period, the state tag, the figures by kind with the 合计 row (and on
 * 抵扣统计 the passenger transport line and the deductible total), the chart in 元, the buttons the state
 * allows, each asked first naming the period and what it locks, the refusal shown as the server words it.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatView } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import DeductionStatistic from './DeductionStatistic';
import RebateStatistic from './RebateStatistic';
import { actionQuestion } from './StatPage';

const calls = { view: vi.fn(), act: vi.fn(), adopt: vi.fn(), exportFigures: vi.fn() };
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

describe('抵扣统计 / 退税统计 (issue 14)', { timeout: 60_000 }, () => {
  it('抵扣统计: the period and state, the figures with 合计, the transport line, the deductible total, the chart in 元; only 申请统计 while 未统计', async () => {
    renderPage(<DeductionStatistic />);
    const head = await screen.findByTestId('stat-period');
    await waitFor(() => expect(head.textContent).toContain('2026年10月（未统计）'));
    expect(screen.getByTestId('stat-state').textContent).toBe('未统计');
    expect(head.textContent).toContain('2026-11-16 23:59:59');
    expect(calls.view).toHaveBeenCalledWith('deduction', undefined);
    expect(screen.getByText('数电发票（增值税专用发票）')).toBeTruthy();
    // 不抵扣 and 退税 apart, as on 抵扣勾选's header (issue 27); no notice while the service agrees.
    expect(screen.getByTestId('stat-apart').textContent).toBe('不抵扣 2 份 税额 260.00退税 1 份 税额 90.00');
    expect(screen.queryByTestId('stat-notice')).toBeNull();
    const totals = screen.getByTestId('stat-totals');
    expect(totals.textContent).toContain('合计');
    expect(totals.textContent).toContain('33,456.78');
    expect(totals.textContent).toContain('3,411.11');
    expect(totals.textContent).toContain('3,300.00');
    expect(screen.getByTestId('stat-transport').textContent).toContain('旅客运输服务（计算抵扣）');
    expect(screen.getByTestId('stat-transport').textContent).toContain('82.57');
    expect(screen.getByTestId('stat-deductible').textContent).toContain('3,382.57');
    expect(screen.getByTestId('stat-total').textContent).toContain('3,382.57');
    expect(button('apply').disabled).toBe(false);
    for (const a of ['confirm', 'revokeApply', 'revokeConfirm']) expect(button(a).disabled).toBe(true);
    const chart = charts.at(-1)!;
    expect(chart.testId).toBe('stat-chart');
    expect(chart.option.series.map((x) => x.data)).toEqual([[1300, 2111.11], [1300, 2000]]);
  });

  it('确认统计 in the period\'s own month is disabled with the reason beside it (issue 31 #10)', async () => {
    calls.view.mockResolvedValue(view({ state: 1, actions: ['revokeApply'], unavailable: { confirm: '所属期2026年10月当月不能确认统计，请于次月起、统计截止前确认' } }));
    renderPage(<DeductionStatistic />);
    const why = await screen.findByTestId('stat-confirm-why');
    expect(why.textContent).toBe('所属期2026年10月当月不能确认统计，请于次月起、统计截止前确认');
    expect(button('confirm').disabled).toBe(true);
    expect(button('revokeApply').disabled).toBe(false);
  });

  it('申请统计 asks first naming the period, then sends it; the state follows the answer', async () => {
    calls.act.mockResolvedValue(view({ state: 1, actions: ['confirm', 'revokeApply'], lastAction: { action: 'apply', result: 1, message: '申请统计成功', userName: '何晓燕', at: '2026-11-05T02:00:00.000Z' } }));
    renderPage(<DeductionStatistic />);
    await waitFor(() => expect(button('apply').disabled).toBe(false));
    fireEvent.click(button('apply'));
    expect(await screen.findByText('申请2026年10月的抵扣统计？')).toBeTruthy();
    expect(calls.act).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    await waitFor(() => expect(calls.act).toHaveBeenCalledWith('deduction', 'apply', '202610'));
    await waitFor(() => expect(screen.getByTestId('stat-state').textContent).toBe('已申请'));
    expect(button('confirm').disabled).toBe(false);
    expect(button('apply').disabled).toBe(true);
    expect(screen.getByTestId('stat-last').textContent).toContain('何晓燕 2026-11-05 10:00:00 申请统计成功');
  });

  it('a refusal is shown on the page in the server words (not an outage), and the buttons stay as the state says', async () => {
    calls.view.mockResolvedValue(view({ state: 1, actions: ['confirm', 'revokeApply'] }));
    calls.act.mockRejectedValue(new ApiError('business', '当前月与属期相等时不符合确认条件', { code: 30000, status: 400 }));
    renderPage(<DeductionStatistic />);
    await waitFor(() => expect(button('confirm').disabled).toBe(false));
    fireEvent.click(button('confirm'));
    const pop = await screen.findByText('确认2026年10月的抵扣统计？');
    expect(pop.closest('.ant-popover')!.textContent).toContain('确认后2026年10月的勾选将被锁定，不能再勾选或撤销勾选');
    fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    const alert = await screen.findByTestId('stat-refusal');
    expect(alert.textContent).toBe('当前月与属期相等时不符合确认条件');
    expect(calls.act).toHaveBeenCalledWith('deduction', 'confirm', '202610');
  });

  it('退税统计: no transport line; another period is asked for by its number', async () => {
    calls.view.mockResolvedValue(view({ scope: 'rebate', transport: null, deductibleTotal: 341_111, state: 2, actions: ['revokeConfirm'] }));
    renderPage(<RebateStatistic />);
    await waitFor(() => expect(screen.getByTestId('stat-state').textContent).toBe('已确认'));
    expect(screen.queryByTestId('stat-transport')).toBeNull();
    expect(screen.getByTestId('stat-total').textContent).toContain('3,411.11');
    expect(button('revokeConfirm').disabled).toBe(false);
    expect(calls.view).toHaveBeenCalledWith('rebate', undefined);
    fireEvent.mouseDown(within(screen.getByTestId('stat-period')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('2026年09月（已确认）'));
    await waitFor(() => expect(calls.view).toHaveBeenCalledWith('rebate', '202609'));
  });

  it('the questions name the period and what each action locks or opens', () => {
    expect(actionQuestion('deduction', 'revokeConfirm', '202610')).toEqual({ title: '撤销2026年10月的抵扣统计确认？', description: '撤销后统计状态回到已申请，2026年10月的勾选重新开放。' });
    expect(actionQuestion('rebate', 'confirm', '202610').description).toBe('确认后2026年10月的退税统计结果作为退税申报的依据。');
    expect(actionQuestion('rebate', 'revokeApply', '202610').title).toBe('撤销2026年10月的退税统计申请？');
  });
});
