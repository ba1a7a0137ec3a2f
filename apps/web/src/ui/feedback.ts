/**
 * The antd App context's message / notification / modal, reachable outside components (the request
 * layer, live behaviours). FeedbackBridge registers them. Before that (the sign-in page, which is drawn
 * without antd to keep its first load small) antd's static methods serve, downloaded on first use: a
 * call then returns nothing instead of antd's handle.
 */
import type { Feedback } from './feedbackTypes';

export type { Feedback } from './feedbackTypes';


/** One part of the static feedback, each method loading antd's static API before it runs. */
function lazyPart<K extends keyof Feedback>(part: K): Feedback[K] {
  return new Proxy({} as Feedback[K], {
    get: (_target, method: string) =>
      (...args: unknown[]) => {
        void import('./staticFeedback').then(({ staticFeedback }) => {
          (staticFeedback[part] as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
        });
        return undefined;
      },
  });
}

const lazyStatic: Feedback = { message: lazyPart('message'), notification: lazyPart('notification'), modal: lazyPart('modal') };

let current: Feedback = lazyStatic;

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
