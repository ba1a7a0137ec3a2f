/**
 * The navbar bell: the user's unread 站内消息 as a badge (navbar rule: 9+, hidden at 0), kept fresh by the
 * shell's count refresh (live/refreshCounts.ts). Opening it lists the latest messages (unread first);
 * clicking one marks it read and opens its link when it is an app path. Content is plain text.
 */
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover, Spin } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { isAppPath, navbarBadgeText, type UserMessage } from '@zhyy/shared';
import { fetchUnreadMessages } from '../api/live';
import { messagesApi } from '../api/messages';
import { useBadges } from '../stores/badges';

// The panel (antd List, Pagination, Select) loads when the bell is first opened (issue 30).
const MessagePanel = lazy(() => import('./MessagePanel').then((m) => ({ default: m.MessagePanel })));

const LATEST = 20;

export function MessageBell() {
  const unread = useBadges((s) => s.unreadMessages);
  const setUnread = useBadges((s) => s.setUnreadMessages);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<UserMessage[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [r, c] = await Promise.all([messagesApi.list({ pageIndex: 1, pageSize: LATEST }), fetchUnreadMessages()]);
      setItems(r.items);
      setUnread(c?.unread);
    } catch {
      // the client has shown the error
    } finally {
      setLoading(false);
    }
  }, [setUnread]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) void load();
  };

  const openMessage = async (m: UserMessage) => {
    if (!m.readAt) {
      try {
        await messagesApi.read(m.id);
      } catch {
        return;
      }
      setItems((list) => list.map((x) => (x.id === m.id ? { ...x, readAt: new Date().toISOString() } : x)));
      setUnread(Math.max(0, useBadges.getState().unreadMessages - 1));
    }
    if (m.link && isAppPath(m.link)) {
      setOpen(false);
      void navigate(m.link);
    }
  };

  const readAll = async () => {
    try {
      await messagesApi.readAll();
    } catch {
      return;
    }
    const at = new Date().toISOString();
    setItems((list) => list.map((x) => (x.readAt ? x : { ...x, readAt: at })));
    setUnread(0);
  };

  const content = (
    <Suspense fallback={<Spin />}>
      <MessagePanel items={items} loading={loading} unread={unread} readAll={readAll} openMessage={openMessage} />
    </Suspense>
  );

  const text = navbarBadgeText(unread);
  return (
    <Popover content={content} trigger="click" placement="bottomRight" open={open} onOpenChange={onOpenChange} destroyOnHidden>
      <Button type="text" aria-label={text ? `站内消息，${unread}条未读` : '站内消息'} data-testid="message-bell">
        <Badge count={text} size="small" data-testid="message-badge">
          <BellOutlined />
        </Badge>
      </Button>
    </Popover>
  );
}
