/**
 * feedback() before the antd App is mounted serves antd's static API, loaded on first use. A web test file
 * must not end while such a call is still loading: closeStaticFeedback() waits for it, then closes what
 * it showed (testSetup.ts runs it after each file; docs/testing.md "Errors after a web file").
 */
import { expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => [] as string[]);
vi.mock('./staticFeedback', async () => {
  await new Promise((resolve) => setTimeout(resolve, 50)); // antd's static API loading
  return {
    staticFeedback: {
      message: { success: (text: string) => calls.push(`success ${text}`), destroy: () => calls.push('message.destroy') },
      notification: { destroy: () => calls.push('notification.destroy') },
      modal: { destroyAll: () => calls.push('modal.destroyAll') },
    },
  };
});

const { closeStaticFeedback, feedback } = await import('./feedback');

it('closeStaticFeedback waits for a static call still loading, then closes what it showed', async () => {
  await closeStaticFeedback();
  expect(calls).toEqual([]); // nothing loaded, nothing to close
  expect(feedback().message.success('保存成功')).toBeUndefined();
  expect(calls).toEqual([]);
  await closeStaticFeedback();
  expect(calls).toEqual(['success 保存成功', 'message.destroy', 'notification.destroy', 'modal.destroyAll']);
});
