import '../test/dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserMessage } from '@zhyy/shared';
import { useBadges } from '../stores/badges';

const messagesApi = { list: vi.fn(), read: vi.fn(), readAll: vi.fn() };
const fetchUnreadMessages = vi.fn();
vi.mock('../api/messages', () => ({ messagesApi }));
vi.mock('../api/live', () => ({ fetchUnreadMessages }));

const { MessageBell } = await import('./MessageBell');

const DETAIL = '/income/invoicePool/detail/abc';
const msg = (over: Partial<UserMessage>): UserMessage => ({ id: 'm1', title: '发票已作废：签收单 QS-1', content: '<b>请核对</b>单据', link: DETAIL, createdAt: '2026-11-23T02:00:00.000Z', readAt: null, ...over });

function renderBell() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <MessageBell /> },
      { path: '/income/invoicePool/detail/:id', element: <div data-testid="detail-page">详情</div> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the navbar bell (站内消息)', () => {
  beforeEach(() => {
    useBadges.getState().reset();
    Object.values(messagesApi).forEach((f) => f.mockReset());
    fetchUnreadMessages.mockReset();
  });

  it('shows the unread count with the navbar cap and hides it at 0', () => {
    renderBell();
    expect(screen.getByTestId('message-bell').querySelector('.ant-badge-count')).toBeNull();
    act(() => useBadges.getState().setUnreadMessages(3));
    expect(screen.getByTestId('message-bell').querySelector('.ant-badge-count')?.textContent).toContain('3');
    act(() => useBadges.getState().setUnreadMessages(120));
    expect(screen.getByTestId('message-bell').querySelector('.ant-badge-count')?.textContent).toContain('9+');
    expect(screen.getByTestId('message-bell').getAttribute('aria-label')).toBe('站内消息，120条未读');
  });

  it('opens the latest messages as plain text; clicking one marks it read and opens its link', async () => {
    act(() => useBadges.getState().setUnreadMessages(2));
    messagesApi.list.mockResolvedValue({ items: [msg({}), msg({ id: 'm2', title: '外部链接', link: 'https://evil.example/', readAt: '2026-11-22T00:00:00Z' })], total: 2 });
    fetchUnreadMessages.mockResolvedValue({ unread: 1 });
    messagesApi.read.mockResolvedValue({ code: 20000 });
    const router = renderBell();
    fireEvent.click(screen.getByTestId('message-bell'));
    await waitFor(() => expect(screen.getAllByTestId('message-item')).toHaveLength(2));
    expect(messagesApi.list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(useBadges.getState().unreadMessages).toBe(1);
    const first = screen.getAllByTestId('message-item')[0]!;
    expect(first.textContent).toContain('发票已作废：签收单 QS-1');
    expect(first.textContent).toContain('<b>请核对</b>单据');
    expect(first.querySelector('b')).toBeNull();
    expect(first.textContent).toContain('2026-11-23 10:00:00');

    // A read message whose link is not an app path: no call, no navigation.
    fireEvent.click(screen.getAllByTestId('message-item')[1]!);
    expect(messagesApi.read).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/');

    fireEvent.click(first);
    await waitFor(() => expect(router.state.location.pathname).toBe(DETAIL));
    expect(messagesApi.read).toHaveBeenCalledWith('m1');
    expect(useBadges.getState().unreadMessages).toBe(0);
    expect(await screen.findByTestId('detail-page')).toBeTruthy();
  });

  it('全部已读 marks every message read and clears the count', async () => {
    act(() => useBadges.getState().setUnreadMessages(1));
    messagesApi.list.mockResolvedValue({ items: [msg({})], total: 1 });
    fetchUnreadMessages.mockResolvedValue({ unread: 1 });
    messagesApi.readAll.mockResolvedValue({ code: 20000, r: { count: 1 } });
    renderBell();
    fireEvent.click(screen.getByTestId('message-bell'));
    await waitFor(() => expect(screen.getAllByTestId('message-item')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(useBadges.getState().unreadMessages).toBe(0));
    expect(messagesApi.readAll).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('message-item').className).toContain('message-read');
  });

  it('暂无消息 when there are none', async () => {
    messagesApi.list.mockResolvedValue({ items: [], total: 0 });
    fetchUnreadMessages.mockResolvedValue({ unread: 0 });
    renderBell();
    fireEvent.click(screen.getByTestId('message-bell'));
    await waitFor(() => expect(screen.getByText('暂无消息')).toBeTruthy());
  });
});
