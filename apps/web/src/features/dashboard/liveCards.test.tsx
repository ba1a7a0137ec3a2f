/** Issue 12 #4: a refusal is never shown as an outage; the cards reload the moment the initial password is changed. */
import '../../test/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_TEXT, cardProblem, isUnreachable } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { WORKFLOW_REFRESH_EVENT } from '../../live/events';
import { useSession } from '../../stores/session';

const fetchNotices = vi.hoisted(() => vi.fn());
const wf = vi.hoisted(() => ({ todo: vi.fn(), list: vi.fn() }));
vi.mock('../../api/live', () => ({ fetchNotices }));
vi.mock('../../api/workflow', () => ({ wfApi: wf }));
vi.mock('./workflow/NoticeManager', () => ({ NoticeManagerButton: () => null }));
vi.mock('./workflow/NoticeReader', () => ({ NoticeReader: () => null }));

const { NoticeList } = await import('./NoticeList');
const { WorkbenchLists } = await import('./workflow/WorkbenchLists');

const refused50010 = () => new ApiError('business', '首次登录请修改初始密码', { code: 50010, status: 403 });
const outage = () => new ApiError('network', NETWORK_ERROR_TEXT);

function show() {
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <NoticeList />
        <WorkbenchLists />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('live cards and refusals (issue 12 #4)', () => {
  beforeEach(() => {
    fetchNotices.mockReset();
    wf.todo.mockReset();
    wf.list.mockReset();
    useSession.setState({ token: 'tok', needChangePassword: false });
  });
  afterEach(() => {
    queryClient.clear();
    useSession.setState({ token: '', needChangePassword: false });
  });

  it('only an outage (no answer, timeout, HTTP 5xx) reads as "cannot connect"; a coded refusal does not', () => {
    expect(isUnreachable(outage())).toBe(true);
    expect(isUnreachable(new ApiError('timeout', '请求超时，请稍后重试'))).toBe(true);
    expect(isUnreachable(new ApiError('http', '请求失败（HTTP 502）', { status: 502 }))).toBe(true);
    expect(isUnreachable(refused50010())).toBe(false);
    expect(isUnreachable(new ApiError('business', '权限不足', { code: 30000, status: 403 }))).toBe(false);
    expect(cardProblem(outage(), '公告服务')).toBe('公告服务暂时无法连接');
    expect(cardProblem(refused50010(), '公告服务')).toBeNull();
    expect(cardProblem(new ApiError('business', '权限不足', { code: 30000, status: 403 }), '公告服务')).toBe('权限不足');
  });

  it('while the initial password must be changed nothing alarming shows; after 修改成功 every card reloads at once', async () => {
    useSession.setState({ needChangePassword: true });
    fetchNotices.mockRejectedValue(refused50010());
    wf.todo.mockRejectedValue(refused50010());
    wf.list.mockRejectedValue(refused50010());
    const events = vi.fn();
    window.addEventListener(WORKFLOW_REFRESH_EVENT, events);
    show();
    await waitFor(() => expect(fetchNotices).toHaveBeenCalled());
    await waitFor(() => expect(wf.todo).toHaveBeenCalled());
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByText('公告服务暂时无法连接')).toBeNull();
    expect(screen.queryByText('工作流服务暂时无法连接')).toBeNull();
    // A refusal is not retried: the same call would be refused again.
    expect(fetchNotices).toHaveBeenCalledTimes(1);

    fetchNotices.mockResolvedValue({ items: [{ id: 1, title: '国庆假期安排通知' }] });
    wf.todo.mockResolvedValue({ items: [{ WorkID: 7, Title: '请假申请-孙浩', NodeName: '部门经理审批', ArrivedAt: new Date().toISOString() }] });
    wf.list.mockResolvedValue({ items: [] });
    act(() => useSession.getState().clearPasswordFlag());
    expect(await screen.findByText('国庆假期安排通知')).toBeTruthy();
    expect(await screen.findByText('请假申请-孙浩')).toBeTruthy();
    // The counts and the online count listen to the workflow refresh event.
    expect(events).toHaveBeenCalledTimes(1);
    window.removeEventListener(WORKFLOW_REFRESH_EVENT, events);
  });

  it('an outage still says so', async () => {
    fetchNotices.mockRejectedValue(outage());
    wf.todo.mockRejectedValue(outage());
    wf.list.mockRejectedValue(outage());
    show();
    expect(await screen.findByText('公告服务暂时无法连接')).toBeTruthy();
    expect((await screen.findAllByText('工作流服务暂时无法连接', {}, { timeout: 4000 })).length).toBeGreaterThan(0);
  });
});
