/**
 * The two charts of 月度成本汇总: the trend (不含税金额 and 价税合计 by month, every month of the range on the
 * axis, a month without costs at 0) and the composition (不含税金额 by item category). Values in 元.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { CostCategory, type CostSummary } from '@zhyy/shared';
import { moneyAxis, tooltipYuan } from '../../../components/format';
import { monthsBetween } from '../common';

const yuan = (fen: number) => fen / 100;

export function trendChart(v: CostSummary, monthFrom: string, monthTo: string): EChartsCoreOption | null {
  if (!v.total) return null;
  const months = monthsBetween(monthFrom, monthTo);
  const byMonth = new Map(v.byMonth.map((m) => [m.month, m]));
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: months },
    yAxis: moneyAxis(),
    series: [
      { name: '不含税金额', type: 'line', data: months.map((m) => yuan(byMonth.get(m)?.amount ?? 0)) },
      { name: '价税合计', type: 'line', data: months.map((m) => yuan((byMonth.get(m)?.amount ?? 0) + (byMonth.get(m)?.tax ?? 0))) },
    ],
  };
}

export function compositionChart(v: CostSummary): EChartsCoreOption | null {
  const parts = v.byCategory.filter((c) => c.amount !== 0);
  if (!parts.length) return null;
  return {
    tooltip: { trigger: 'item', valueFormatter: tooltipYuan },
    // No legend: each slice is labelled with its category and share, on two short lines so that the
    // labels fit beside the ring in the half-width card at 1366×768.
    series: [
      {
        name: '费用类别',
        type: 'pie',
        radius: ['32%', '58%'],
        avoidLabelOverlap: true,
        label: { formatter: '{b}\n{d}%', lineHeight: 16 },
        data: parts.map((c) => ({ name: CostCategory.label(c.category), value: yuan(c.amount) })),
      },
    ],
  };
}
