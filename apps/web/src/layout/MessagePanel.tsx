/**
 * The navbar bell's panel (MessageBell.tsx): the latest messages, unread first, and 全部已读. Its own chunk,
 * loaded when the bell is first opened: antd's List brings Pagination and with it Select, which the
 * signed-in chrome would otherwise carry on every first load (issue 30).
 */
import { Badge, Button, Empty, List, Spin, Typography } from 'antd';
import type { UserMessage } from '@zhyy/shared';
import { formatTime } from '../components/download';

export interface MessagePanelProps {
  items: UserMessage[];
  loading: boolean;
  unread: number;
  readAll: () => Promise<void>;
  openMessage: (m: UserMessage) => Promise<void>;
}

export function MessagePanel({ items, loading, unread, readAll, openMessage }: MessagePanelProps) {
  return (
    <div className="message-bell-panel" data-testid="message-panel">
      <div className="message-bell-head">
        <Typography.Text strong>站内消息</Typography.Text>
        <Button type="link" size="small" disabled={unread === 0 && items.every((m) => m.readAt)} onClick={() => void readAll()}>
          全部已读
        </Button>
      </div>
      <Spin spinning={loading}>
        {items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消息" />
        ) : (
          <List
            size="small"
            dataSource={items}
            renderItem={(m) => (
              <List.Item
                key={m.id}
                data-testid="message-item"
                className={m.readAt ? 'message-item message-read' : 'message-item message-unread'}
                onClick={() => void openMessage(m)}
                style={{ cursor: 'pointer' }}
              >
                <List.Item.Meta
                  title={
                    <span>
                      {m.readAt ? null : <Badge status="error" />} {m.title}
                    </span>
                  }
                  description={
                    <>
                      <div className="message-content">{m.content}</div>
                      <Typography.Text type="secondary">{formatTime(m.createdAt)}</Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Spin>
    </div>
  );
}
