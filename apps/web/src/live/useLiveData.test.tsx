/** SPEC sections 4 and 9: the counts and the online count refresh every 60000 ms and on workflow refresh events. */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_INTERVAL_MS, REFRESH_INTERVAL_MS } from '@zhyy/shared';
import { useSession } from '../stores/session';
import { emitWorkflowRefresh } from './events';

const refreshCounts = vi.hoisted(() => vi.fn(() => Promise.resolve()));
const heartBeat = vi.hoisted(() => vi.fn(() => Promise.resolve({ onlineCount: 7 })));
vi.mock('./refreshCounts', () => ({ refreshCounts }));
vi.mock('../api/live', () => ({ heartBeat }));

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

  it('does nothing before sign-in', () => {
    useSession.setState({ loginName: '' });
    renderHook(() => useLiveData(), { wrapper });
    expect([refreshCounts.mock.calls.length, heartBeat.mock.calls.length]).toEqual([0, 0]);
  });
});
