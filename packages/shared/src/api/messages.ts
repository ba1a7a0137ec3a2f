/** /api/messages/*: a signed-in user's own messages (站内消息): list, unread count, read one, read all. */
import { z } from '../zod-locale.js';
import { PageQuery, text } from './common.js';

export const MessageListQuery = PageQuery.extend({
  /** true: unread only. Unread come first either way, then newest first. */
  unreadOnly: z.boolean().optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

export const MessageReadBody = z.object({ id: text().trim().min(1, '缺少消息ID').max(64, '消息ID过长') });
export type MessageReadBody = z.infer<typeof MessageReadBody>;

export interface UserMessage {
  id: string;
  title: string;
  /** Plain text: never rendered as HTML. */
  content: string;
  /** An app path ('/income/invoicePool/detail/…') or ''. */
  link: string;
  createdAt: string;
  readAt: string | null;
}

export interface MessageUnreadCount {
  unread: number;
}

export { isAppPath } from '../app-path.js';
