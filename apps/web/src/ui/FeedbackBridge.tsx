import { App } from 'antd';
import { useEffect } from 'react';
import { setFeedback } from './feedback';

/** Lives inside <App>: hands its context-aware feedback APIs to code outside components. */
export function FeedbackBridge() {
  const { message, notification, modal } = App.useApp();
  useEffect(() => {
    setFeedback({ message, notification, modal });
  }, [message, notification, modal]);
  return null;
}
