/** Issue 11: the chart module is downloaded when a chart comes into view, watched from the first idle on. */
import '../test/dom';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const init = vi.hoisted(() => vi.fn(() => ({ setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn() })));
vi.mock('./echarts', () => ({ init }));

const { EChart } = await import('./EChart');

let idle: (() => void) | null = null;
let observed: ((entries: Array<{ isIntersecting: boolean }>) => void) | null = null;

class FakeObserver {
  constructor(cb: (entries: Array<{ isIntersecting: boolean }>) => void) {
    observed = cb;
  }
  observe() {}
  disconnect() {}
}

describe('EChart loads ECharts only in view (issue 11)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows a skeleton, watches from the first idle, and loads the module when the chart is in view', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => {
      idle = cb;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    vi.stubGlobal('ResizeObserver', class { observe() {} disconnect() {} });
    const { container } = render(<EChart option={{ series: [{ type: 'bar', data: [1] }] }} testId="chart" />);
    expect(container.querySelector('.ant-skeleton')).not.toBeNull();
    expect(observed).toBeNull();
    act(() => idle!());
    expect(observed).not.toBeNull();
    act(() => observed!([{ isIntersecting: false }]));
    await new Promise((r) => setTimeout(r, 20));
    expect(init).not.toHaveBeenCalled();
    act(() => observed!([{ isIntersecting: true }]));
    await waitFor(() => expect(init).toHaveBeenCalledTimes(1));
    expect(container.querySelector('.ant-skeleton')).toBeNull();
  });
});
