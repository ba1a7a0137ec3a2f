/** /api/messages/*: the signed-in user's own 站内消息. */
import type { MessageListQuery, PageResult, UserMessage } from '@zhyy/shared';
import { api } from './clients';

export const messagesApi = {
  list: (q: Partial<MessageListQuery>) => api.post<PageResult<UserMessage>>('/messages/list', q),
  read: (id: string) => api.request<undefined>('/messages/read', { id }),
  readAll: () => api.request<{ count: number }>('/messages/read-all', {}),
};
