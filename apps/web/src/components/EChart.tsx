/** Apache ECharts in a div: only the chart types and parts the screens use are bundled. */
import { useEffect, useRef } from 'react';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** Bars stay bar-shaped when there are few categories (one month, one project): at most this wide. */
export const BAR_MAX_WIDTH = 48;

/** The screens' option with the house defaults applied to every series (bar width). */
export function withDefaults(option: EChartsCoreOption): EChartsCoreOption {
  const series = (option as { series?: unknown }).series;
  if (!Array.isArray(series)) return option;
  return { ...option, series: series.map((x: Record<string, unknown>) => (x.type === 'bar' ? { barMaxWidth: BAR_MAX_WIDTH, ...x } : x)) };
}

export function EChart({ option, height = 320, testId }: { option: EChartsCoreOption; height?: number; testId?: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current);
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(withDefaults(option), true);
  }, [option]);

  return <div ref={el} style={{ width: '100%', height }} data-testid={testId} />;
}
