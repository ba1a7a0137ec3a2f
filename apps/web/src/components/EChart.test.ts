import { describe, expect, it } from 'vitest';
import { BAR_MAX_WIDTH, withDefaults } from './EChart';

describe('EChart defaults', () => {
  it('caps the width of bar series unless the screen sets its own, and leaves other series alone', () => {
    const out = withDefaults({ series: [{ type: 'bar', data: [1] }, { type: 'bar', barMaxWidth: 20 }, { type: 'line', data: [2] }] }) as { series: Array<Record<string, unknown>> };
    expect(out.series.map((x) => x.barMaxWidth)).toEqual([BAR_MAX_WIDTH, 20, undefined]);
    expect(BAR_MAX_WIDTH).toBe(48);
    const none = { title: { text: 'x' } };
    expect(withDefaults(none)).toBe(none);
  });
});
