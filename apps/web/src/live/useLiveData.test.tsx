/** SPEC sections 4 and 9: the counts and the online count refresh every 60000 ms and on workflow refresh events. */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_INTERVAL_MS, REFRESH_INTERVAL_MS } from '@zhyy/shared';
import { useSession } from '../stores/session';
import { COUNTS_REFRESH_EVENT, emitCountsRefresh, emitWorkflowRefresh } from './events';

const refreshCounts = vi.hoisted(() => vi.fn(() => Promise.resolve()));
const heartBeat = vi.hoisted(() => vi.fn(() => Promise.resolve({ onlineCount: 7 })));
const formUrl = vi.hoisted(() => vi.fn((workId: number) => Promise.resolve(`/flow/todolist?workId=${workId}`)));
const notify = vi.hoisted(() => vi.fn());
vi.mock('./refreshCounts', () => ({ refreshCounts }));
vi.mock('../api/live', () => ({ heartBeat }));
vi.mock('../api/workflow', () => ({ wfApi: { formUrl } }));
vi.mock('../ui/feedback', () => ({ feedback: () => ({ notification: { info: notify }, modal: { confirm: vi.fn() } }) }));

const { useLiveData } = await import('./useLiveData');
const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;

describe('useLiveData', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    refreshCounts.mockClear();
    heartBeat.mockClear();
    useSession.setState({ loginName: 'demo7', roles: ['7'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    useSession.setState({ loginName: '', roles: [] });
  });

  it('loads at once, then every 60000 ms', async () => {
    expect(REFRESH_INTERVAL_MS).toBe(60000);
    expect(HEARTBEAT_INTERVAL_MS).toBe(60000);
    const { unmount } = renderHook(() => useLiveData(), { wrapper });
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([1, 1]);
    await act(() => vi.advanceTimersByTimeAsync(59999));
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([1, 1]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([2, 2]);
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(60000));
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([2, 2]);
  });

  it('a workflow refresh event renews the counts and the online count', async () => {
    const { unmount } = renderHook(() => useLiveData(), { wrapper });
    act(() => emitWorkflowRefresh());
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([2, 2]);
    unmount();
    act(() => emitWorkflowRefresh());
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([2, 2]);
  });

  it('a new to-do notification opens its item where the workflow service says (generfrmurl)', async () => {
    refreshCounts.mockImplementationOnce(((_login: string, _roles: string[], on: { onTodoItems(items: unknown[]): void }) => {
      on.onTodoItems([{ WorkID: '42', Title: '请假申请-孙浩' }]);
      return Promise.resolve();
    }) as never);
    const { result, unmount } = renderHook(() => (useLiveData(), useLocation()), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(200));
    const shown = notify.mock.calls.at(-1)?.[0] as { description: string; onClick(): void };
    expect(shown.description).toBe('请假申请-孙浩');
    vi.useRealTimers();
    act(() => shown.onClick());
    expect(formUrl).toHaveBeenCalledWith(42);
    await waitFor(() => expect(`${result.current.pathname}${result.current.search}`).toBe('/flow/todolist?workId=42'));
    unmount();
  });

  it('does nothing before sign-in', () => {
    useSession.setState({ loginName: '' });
    renderHook(() => useLiveData(), { wrapper });
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([0, 0]);
  });

  it('a change the user made (counts refresh event) reloads the badge counts at once, once per batch (issue 12 #7)', async () => {
    cleanup(); // hooks earlier tests left mounted would listen too
    const { unmount } = renderHook(() => useLiveData(), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    refreshCounts.mockClear();
    act(() => {
      emitCountsRefresh();
      emitCountsRefresh();
      emitCountsRefresh();
    });
    expect(refreshCounts).toHaveBeenCalledTimes(0);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(refreshCounts).toHaveBeenCalledTimes(1);
    act(() => void window.dispatchEvent(new Event(COUNTS_REFRESH_EVENT)));
    expect(refreshCounts).toHaveBeenCalledTimes(2);
    unmount();
  });
});
