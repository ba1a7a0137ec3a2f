/**
 * Setup of the web unit tests (vitest.config.ts, project "web"). findBy… and waitFor give up after 1 s by
 * default; rendering antd in jsdom while the API tests run beside it on 2 cores can take longer. A longer
 * wait only matters when the expected text never comes, so it guards against a hang, never asserts speed.
 */
import { configure } from '@testing-library/react';
import { afterAll } from 'vitest';

configure({ asyncUtilTimeout: 5000 });

// antd writes its styles (CSS-in-JS) into <style> elements in the document head; jsdom parses each and
// walks every rule of them on each getComputedStyle, which testing-library calls for every element it
// considers (getByRole, toBeVisible). Kept out of the document, the styles cost nothing to those calls.
if (typeof document !== 'undefined') keepAntdStylesOutOfTheDocument();

function keepAntdStylesOutOfTheDocument(): void {
  const insertBefore = Node.prototype.insertBefore;
  const appendChild = Node.prototype.appendChild;
  const detached = document.createElement('div');
  function isAntdStyle(node: Node): boolean {
    return node instanceof HTMLStyleElement && (node.hasAttribute('data-css-hash') || node.hasAttribute('data-rc-order'));
  }
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    if (this === document.head && isAntdStyle(node)) return appendChild.call(detached, node) as T;
    return insertBefore.call(this, node, child) as T;
  };
  Node.prototype.appendChild = function <T extends Node>(this: Node, node: T): T {
    if (this === document.head && isAntdStyle(node)) return appendChild.call(detached, node) as T;
    return appendChild.call(this, node) as T;
  };
  const removeChild = Node.prototype.removeChild;
  Node.prototype.removeChild = function <T extends Node>(this: Node, node: T): T {
    if (this === document.head && node.parentNode === detached) return removeChild.call(detached, node) as T;
    return removeChild.call(this, node) as T;
  };
}

// A file's last toast (antd's static message, notification or modal: feedback() outside the App) renders in
// a root of its own that testing-library does not unmount, once antd's static API has loaded (a dynamic
// import, slow on a loaded machine: it could finish after the file's last test). React runs that work in a
// later macrotask (setImmediate); run after the environment was gone, it threw "window is not defined" as
// an unhandled error (stops 33 and 34's runs, after StatPage.test, CaseList.test and contracts.test). So
// each file waits for those calls, closes what they show and lets React finish while the document is there.
afterAll(async () => {
  if (typeof document === 'undefined') return;
  await (await closeOf())?.();
  if (document.querySelector('.ant-message, .ant-notification, .ant-modal-root')) {
    const { message, notification, Modal } = await import('antd');
    message.destroy();
    notification.destroy();
    Modal.destroyAll();
  }
  // Closing motions end on timers of their own (rc-motion, a few hundred ms at most): wait them out too.
  for (let i = 0; i < 12; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setImmediate(resolve));
  }
});

/**
 * ui/feedback's closeStaticFeedback, or nothing when the file mocks ui/feedback without it (Vitest throws on
 * reading an export a mock does not define; such a file shows no static toast anyway).
 */
async function closeOf(): Promise<(() => Promise<void>) | undefined> {
  const feedback: { closeStaticFeedback?: () => Promise<void> } = await import('./ui/feedback');
  try {
    return feedback.closeStaticFeedback;
  } catch {
    return undefined;
  }
}
