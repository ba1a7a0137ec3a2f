/** jsdom lacks a few browser APIs antd uses; component tests import this first. */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: typeof ResizeObserverStub }).ResizeObserver = ResizeObserverStub;
}

window.scrollTo = () => undefined;

// jsdom does not implement pseudo-element styles and logs each call; antd asks for them while measuring.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => computedStyle(el);

afterEach(() => cleanup());
