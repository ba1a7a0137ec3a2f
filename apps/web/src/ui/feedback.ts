/**
 * The antd App context's message / notification / modal, reachable outside components (the request
 * layer, live behaviours). FeedbackBridge registers them; before that the static methods serve.
 */
import { message as staticMessage, Modal, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';

export interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalApi;
}

let current: Feedback = {
  message: staticMessage,
  notification: staticNotification,
  modal: Modal as unknown as ModalApi,
};

export function setFeedback(f: Feedback): void {
  current = f;
}

export function feedback(): Feedback {
  return current;
}

/** An error toast for `durationMs` (antd counts seconds). */
export function showError(text: string, durationMs: number): void {
  void current.message.open({ type: 'error', content: text, duration: durationMs / 1000 });
}
