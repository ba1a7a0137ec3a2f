import { describe, expect, it } from 'vitest';
import { dataScreenScale } from './dataScreenScale';

describe('data screen scale (SPEC section 9)', () => {
  it('is 1 at the base 1024x768', () => {
    expect(dataScreenScale(1024, 768)).toEqual({ scale: 1, width: 1024, height: 768 });
  });

  it('fits the smaller ratio', () => {
    expect(dataScreenScale(2048, 768).scale).toBe(1);
    expect(dataScreenScale(1920, 1080).scale).toBeCloseTo(1.40625);
  });

  it('never scales below the 807x540 minimum', () => {
    const box = dataScreenScale(400, 300);
    expect(box.width).toBe(807);
    expect(box.height).toBe(540);
    expect(box.scale).toBeCloseTo(540 / 768);
  });
});
