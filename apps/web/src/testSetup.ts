/**
 * Setup of the web unit tests (vitest.config.ts, project "web"). findBy… and waitFor give up after 1 s by
 * default; rendering antd in jsdom while the API tests run beside it on 2 cores can take longer. A longer
 * wait only matters when the expected text never comes, so it guards against a hang, never asserts speed.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });

// antd writes its styles (CSS-in-JS) into <style> elements in the document head; jsdom parses each and
// walks every rule of them on each getComputedStyle, which testing-library calls for every element it
// considers (getByRole, toBeVisible). Kept out of the document, the styles cost nothing to those calls.
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
