/**
 * Issue 13, 采集 on 进项票池: the dialog opens on the first day of last month through today (Asia/Shanghai),
 * refuses a window over 366 days with the server's message before sending anything, shows the server's
 * refusal (another collection running), then the background task's progress polled to its end, with the
 * counts and the final message, and refreshes the list.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectTask } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { useSession } from '../../../stores/session';
import { shanghaiNow } from '../../../utils/time';
import { collectPercent, collectWindowError, defaultCollectRange } from './collectRules';
import { CollectProgressView } from './PoolCollect';
import PoolList from '../pool/PoolList';

const page = vi.fn();
const collect = vi.fn();
const collectProgress = vi.fn();
vi.mock('../../../api/income', async (orig) => ({
  ...(await orig<typeof import('../../../api/income')>()),
  incomeApi: { page: (...a: unknown[]) => page(...a), collect: (...a: unknown[]) => collect(...a), collectProgress: (...a: unknown[]) => collectProgress(...a) },
}));

configure({ asyncUtilTimeout: 15_000 });

const TASK = '0190a8b0-0000-7000-8000-0000000000aa';
const task = (over: Partial<CollectTask> = {}): CollectTask => ({
  taskId: TASK, from: '2026-10-01', to: '2026-11-22', state: 'running', stateLabel: '采集中', finished: false, pages: 0, total: 0, seen: 0,
  created: 0, merged: 0, flagged: 0, stateChanged: 0, failed: 0, failures: [], message: '', userName: '徐婷', startedAt: '2026-11-22T02:00:00.000Z', finishedAt: null, ...over,
});

beforeEach(() => {
  page.mockReset();
  collect.mockReset();
  collectProgress.mockReset();
  page.mockResolvedValue({ items: [], total: 0, totals: { count: 0, amountExcl: 0, tax: 0, amountIncl: 0 } });
  useSession.setState({ roles: ['13'] } as never);
});

function renderList() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter><PoolList /></MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('采集 rules', () => {
  it('defaults to the first day of last month through today, January included', () => {
    const [a, b] = defaultCollectRange(dayjs('2026-11-22T10:00:00'));
    expect([a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD')]).toEqual(['2026-10-01', '2026-11-22']);
    const [c, d] = defaultCollectRange(dayjs('2026-01-05T00:30:00'));
    expect([c.format('YYYY-MM-DD'), d.format('YYYY-MM-DD')]).toEqual(['2025-12-01', '2026-01-05']);
  });

  it('allows 366 days, refuses 367 and a reversed or empty window with the server\'s messages', () => {
    expect(collectWindowError([dayjs('2025-01-01'), dayjs('2026-01-01')])).toBeNull();
    expect(collectWindowError([dayjs('2025-01-01'), dayjs('2026-01-02')])).toBe('采集日期区间不能超过366天，请分段采集');
    expect(collectWindowError([dayjs('2026-02-01'), dayjs('2026-01-01')])).toBe('采集开始日期不能晚于结束日期');
    expect(collectWindowError([dayjs('2026-02-01'), null])).toBe('请选择采集的开票日期区间');
    expect(collectWindowError(null)).toBe('请选择采集的开票日期区间');
  });

  it('the bar follows invoices handled of the total, 100 only when done', () => {
    expect(collectPercent(task())).toBe(0);
    expect(collectPercent(task({ total: 400, seen: 100 }))).toBe(25);
    expect(collectPercent(task({ total: 400, seen: 400 }))).toBe(99);
    expect(collectPercent(task({ total: 400, seen: 400, finished: true, state: 'done' }))).toBe(100);
    expect(collectPercent(task({ total: 400, seen: 120, finished: true, state: 'interrupted' }))).toBe(30);
  });
});

describe('采集 dialog (issue 13)', { timeout: 120_000 }, () => {
  it('opens on the default window; over 366 days is refused here without a request; a refusal of the server is shown', async () => {
    renderList();
    fireEvent.click(await screen.findByTestId('pool-collect'));
    const dialog = await screen.findByRole('dialog');
    const [from, to] = defaultCollectRange(shanghaiNow());
    const inputs = within(dialog).getAllByRole('textbox') as HTMLInputElement[];
    await waitFor(() => expect(inputs.map((i) => i.value)).toEqual([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]));

    // A long window typed in: refused with the server's message, nothing sent.
    fireEvent.mouseDown(inputs[0]!);
    fireEvent.change(inputs[0]!, { target: { value: '2024-01-01' } });
    fireEvent.keyDown(inputs[0]!, { key: 'Enter', code: 'Enter' });
    fireEvent.mouseDown(inputs[1]!);
    fireEvent.change(inputs[1]!, { target: { value: '2025-06-30' } });
    fireEvent.keyDown(inputs[1]!, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(inputs.map((i) => i.value)).toEqual(['2024-01-01', '2025-06-30']));
    fireEvent.click(within(dialog).getByTestId('collect-start'));
    expect((await within(dialog).findByTestId('collect-error')).textContent).toBe('采集日期区间不能超过366天，请分段采集');
    expect(collect).not.toHaveBeenCalled();

    // The default window; the server says another collection is running.
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('pool-collect'));
    const again = await screen.findByRole('dialog');
    collect.mockRejectedValue(new ApiError('business', '已有采集任务正在进行，请稍后', { code: 30000, status: 409 }));
    fireEvent.click(within(again).getByTestId('collect-start'));
    await waitFor(() => expect(within(again).getByTestId('collect-error').textContent).toBe('已有采集任务正在进行，请稍后'));
    expect(collect).toHaveBeenCalledWith(from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD'));
    expect(collectProgress).not.toHaveBeenCalled();
  });

  it('starts the task, polls its progress to the end, shows the counts and the final message, and refreshes the list', async () => {
    collect.mockResolvedValue({ code: 20000, message: '采集任务已开始', r: task() });
    collectProgress
      .mockResolvedValueOnce(task({ pages: 1, total: 300, seen: 125, created: 100, merged: 25 }))
      .mockResolvedValue(task({ state: 'done', stateLabel: '已完成', finished: true, pages: 2, total: 300, seen: 300, created: 260, merged: 38, flagged: 3, failed: 2,
        failures: ['26322000000000000001：销方税号校验位不正确，请核对统一社会信用代码'], message: '采集完成：税务端 300 张，新增 260 张，合并 38 张，标记异常 3 张，未入池 2 张' }));
    renderList();
    await waitFor(() => expect(page).toHaveBeenCalledTimes(1));
    fireEvent.click(await screen.findByTestId('pool-collect'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('collect-start'));
    const [from, to] = defaultCollectRange(shanghaiNow());
    await waitFor(() => expect(collect).toHaveBeenCalledWith(from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')));
    // Mid-way: 125 of 300.
    await waitFor(() => expect(within(dialog).getByTestId('collect-progress').textContent).toContain('正在处理第 125 / 300 张'));
    expect(within(dialog).getByTestId('collect-percent').textContent).toContain('41%');
    expect(within(dialog).getByTestId('collect-close').textContent).toBe('后台继续，关闭窗口');
    // The end: the message, the counts, the refusals listed, the list refreshed.
    const message = await within(dialog).findByTestId('collect-message', {}, { timeout: 15_000 });
    expect(message.textContent).toContain('采集完成：税务端 300 张，新增 260 张，合并 38 张，标记异常 3 张，未入池 2 张');
    expect(message.textContent).toContain('销方税号校验位不正确');
    const counts = within(dialog).getByTestId('collect-counts').textContent ?? '';
    for (const s of ['新增260', '合并38', '标记异常3', '未入池2', '已查询页数2']) expect(counts).toContain(s);
    expect(within(dialog).getByTestId('collect-percent').textContent).toContain('100%');
    await waitFor(() => expect(page).toHaveBeenCalledTimes(2));
    expect(collectProgress).toHaveBeenCalledWith(TASK);
    const polls = collectProgress.mock.calls.length;
    await new Promise((r) => setTimeout(r, 1500));
    // Finished: no more polling.
    expect(collectProgress.mock.calls.length).toBe(polls);
    expect(within(dialog).getByTestId('collect-close').textContent).toBe('关 闭');
  });

  it('an interrupted or failed task says so', () => {
    const { rerender } = render(<CollectProgressView task={task({ state: 'interrupted', stateLabel: '已中断', finished: true, total: 300, seen: 120, created: 100, merged: 20, message: '采集已中断：已处理 120 张（新增 100 张，合并 20 张），请重新采集该区间' })} />);
    expect(screen.getByTestId('collect-message').textContent).toContain('采集已中断：已处理 120 张');
    expect(screen.getByTestId('collect-progress').textContent).toContain('已中断');
    rerender(<CollectProgressView task={task({ state: 'failed', stateLabel: '采集失败', finished: true, message: '采集失败：税务服务连接失败，请稍后重试' })} />);
    expect(screen.getByTestId('collect-message').textContent).toContain('采集失败：税务服务连接失败');
  });
});
