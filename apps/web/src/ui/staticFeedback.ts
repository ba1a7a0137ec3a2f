/** antd's static message / notification / Modal: what feedback() serves before the antd App is mounted. */
import { message, Modal, notification } from 'antd';
import type { Feedback } from './feedbackTypes';

export const staticFeedback: Feedback = {
  message,
  notification,
  modal: Modal as unknown as Feedback['modal'],
};
