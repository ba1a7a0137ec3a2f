/**
 * Apache ECharts in a div. The chart module (./echarts, the largest chunk of the client) is loaded when
 * the first chart comes into view: a chart further down a page (the
 * workbench's 近30天审批) does not weigh on the page's first load, and shows a still skeleton until
 * then (a still one: nothing is loading while the chart is out of view).
 */
import { Skeleton } from 'antd';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { ECharts, EChartsCoreOption } from 'echarts/core';

/** Bars stay bar-shaped when there are few categories (one month, one project): at most this wide. */
export const BAR_MAX_WIDTH = 48;

/** The screens' option with the house defaults applied to every series (bar width). */
export function withDefaults(option: EChartsCoreOption): EChartsCoreOption {
  const series = (option as { series?: unknown }).series;
  if (!Array.isArray(series)) return option;
  return { ...option, series: series.map((x: Record<string, unknown>) => (x.type === 'bar' ? { barMaxWidth: BAR_MAX_WIDTH, ...x } : x)) };
}

let loading: Promise<typeof import('./echarts')> | null = null;

/** The chart module, downloaded once (the first chart shown asks for it). */
export function loadCharts(): Promise<typeof import('./echarts')> {
  loading ??= import('./echarts').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/**
 * True once the element is in view (at once where there is no IntersectionObserver). Watching starts
 * when the browser is first idle, so that a chart pushed down the page by cards still filling in is
 * not taken for a chart in view.
 */
function useInView(el: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (inView || !el.current) return;
    const target = el.current;
    let io: IntersectionObserver | undefined;
    const watch = () => {
      io = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setInView(true);
          io?.disconnect();
        }
      });
      io.observe(target);
    };
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(watch, { timeout: 2000 }) : window.setTimeout(watch, 200);
    return () => {
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else window.clearTimeout(idle);
      io?.disconnect();
    };
  }, [inView, el]);
  return inView;
}

export function EChart({ option, height = 320, testId }: { option: EChartsCoreOption; height?: number; testId?: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const near = useInView(el);

  useEffect(() => {
    if (!near) return;
    let disposed = false;
    let ro: ResizeObserver | undefined;
    void loadCharts().then(({ init }) => {
      if (disposed || !el.current) return;
      const c = init(el.current);
      chart.current = c;
      c.setOption(withDefaults(latest.current), true);
      ro = new ResizeObserver(() => c.resize());
      ro.observe(el.current);
    });
    return () => {
      disposed = true;
      ro?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [near]);

  useEffect(() => {
    chart.current?.setOption(withDefaults(option), true);
  }, [option]);

  return (
    <div ref={el} style={{ width: '100%', height, overflow: 'hidden' }} data-testid={testId}>
      {near ? null : <Skeleton paragraph={{ rows: Math.max(1, Math.floor(height / 40)) }} title={false} />}
    </div>
  );
}
