/**
 * The antd App context's message / notification / modal, reachable outside components (the request
 * layer, live behaviours). FeedbackBridge registers them. Before that (the sign-in page, which is drawn
 * without antd to keep its first load small) antd's static methods serve, downloaded on first use: a
 * call then returns nothing instead of antd's handle.
 */
import type { Feedback } from './feedbackTypes';

export type { Feedback } from './feedbackTypes';


let staticModule: Promise<typeof import('./staticFeedback')> | undefined;
/** The calls made through the static feedback whose antd module is still loading. */
const loadingCalls = new Set<Promise<void>>();

/** One part of the static feedback, each method loading antd's static API before it runs. */
function lazyPart<K extends keyof Feedback>(part: K): Feedback[K] {
  return new Proxy({} as Feedback[K], {
    get: (_target, method: string) =>
      (...args: unknown[]) => {
        const call = (staticModule ??= import('./staticFeedback')).then(({ staticFeedback }) => {
          (staticFeedback[part] as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
        });
        loadingCalls.add(call);
        void call.finally(() => loadingCalls.delete(call));
        return undefined;
      },
  });
}

/**
 * Lets every static call still loading antd run, then closes what the static feedback shows. The web
 * tests call it after each file (testSetup.ts): a toast shown late renders in a root of its own, and
 * React's work for it must not outlive the file's document.
 */
export async function closeStaticFeedback(): Promise<void> {
  while (loadingCalls.size) await Promise.allSettled([...loadingCalls]);
  if (!staticModule) return;
  const { staticFeedback } = await staticModule;
  staticFeedback.message.destroy();
  staticFeedback.notification.destroy();
  (staticFeedback.modal as unknown as { destroyAll?: () => void }).destroyAll?.();
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
