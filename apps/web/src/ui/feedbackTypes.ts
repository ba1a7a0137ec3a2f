/** What feedback() serves (./feedback.ts) and what the static fallback provides (./staticFeedback.ts): antd's message, notification and modal. */
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';

export interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalApi;
}
