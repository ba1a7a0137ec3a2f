/** The two bar charts of 计算抵扣: the period's deductible tax by kind, and the last twelve periods by kind (stacked). */
import type { EChartsCoreOption } from 'echarts/core';
import { TransportKind, type TransportKindTotal, type TransportMonthTotal } from '@zhyy/shared';
import { moneyAxis, tooltipYuan } from '../../../components/format';

const yuan = (fen: number) => Math.round(fen) / 100;
const COLOURS: Record<string, string> = { air: '#1677ff', rail: '#52c41a', road: '#fa8c16', einvoice: '#722ed1' };
/** Short names on the axis (the full name in the table). */
export const SHORT_KIND: Record<string, string> = { air: '航空', rail: '铁路', road: '公路水路', einvoice: '电子普票' };

export function byKindOption(kinds: TransportKindTotal[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: kinds.map((k) => SHORT_KIND[k.transportKind] ?? TransportKind.label(k.transportKind)) },
    yAxis: moneyAxis(),
    series: [{ name: '可抵扣税额（元）', type: 'bar', data: kinds.map((k) => ({ value: yuan(k.tax), itemStyle: { color: COLOURS[k.transportKind] } })) }],
  };
}

export function byMonthOption(months: TransportMonthTotal[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: months.map((m) => `${m.period.slice(0, 4)}-${m.period.slice(4)}`) },
    yAxis: moneyAxis(),
    series: TransportKind.values.map((k) => ({
      name: SHORT_KIND[k], type: 'bar', stack: 'tax', itemStyle: { color: COLOURS[k] },
      data: months.map((m) => yuan(m.byKind.find((x) => x.transportKind === k)?.tax ?? 0)),
    })),
  };
}
