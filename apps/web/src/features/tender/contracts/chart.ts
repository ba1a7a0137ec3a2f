/** The bar chart of 框架合同开票统计: per frame contract (the largest by order amount) its orders' amount and what was invoiced on those orders (not on the frame itself), in 元. */
import type { EChartsCoreOption } from 'echarts/core';
import type { FrameStatisticPage } from '@zhyy/shared';
import { moneyAxis, tooltipYuan } from '../../../components/format';

const yuan = (fen: number) => fen / 100;

export function frameChart(v: FrameStatisticPage): EChartsCoreOption | null {
  if (!v.chart.length) return null;
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: v.chart.map((c) => c.name), axisLabel: { interval: 0, rotate: 30 } },
    yAxis: moneyAxis(),
    series: [
      { name: '订单金额', type: 'bar', data: v.chart.map((c) => yuan(c.orderAmount)) },
      { name: '订单已开票', type: 'bar', data: v.chart.map((c) => yuan(c.invoiced)) },
    ],
  };
}
