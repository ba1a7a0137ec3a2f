/** SPEC section 9: the data-screen scale: base 1024x768, never below 807x540. */
import { DATA_SCREEN_BASE, DATA_SCREEN_MIN } from '@zhyy/shared';

export interface ScreenBox {
  scale: number;
  width: number;
  height: number;
}

/** The scale that fits the base design into the window, the window clamped to the minimum first. */
export function dataScreenScale(windowWidth: number, windowHeight: number): ScreenBox {
  const width = Math.max(windowWidth, DATA_SCREEN_MIN.width);
  const height = Math.max(windowHeight, DATA_SCREEN_MIN.height);
  const scale = Math.min(width / DATA_SCREEN_BASE.width, height / DATA_SCREEN_BASE.height);
  return { scale, width, height };
}
