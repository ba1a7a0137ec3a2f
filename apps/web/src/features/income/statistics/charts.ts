/** The statistics screens' chart: the tax and the effective tax by invoice kind (元). */
import type { EChartsCoreOption } from 'echarts/core';
import type { StatKindFigure } from '@zhyy/shared';
import { moneyAxis, tooltipYuan } from '../../../components/format';

const yuan = (fen: number) => Math.round(fen) / 100;

export function taxByKindOption(rows: StatKindFigure[], effectiveName: string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: rows.map((r) => r.kindLabel), axisLabel: { interval: 0, width: 110, overflow: 'break' } },
    yAxis: moneyAxis(),
    series: [
      { name: '税额', type: 'bar', itemStyle: { color: '#91caff' }, data: rows.map((r) => yuan(r.tax)) },
      { name: effectiveName, type: 'bar', itemStyle: { color: '#1677ff' }, data: rows.map((r) => yuan(r.effectiveTax)) },
    ],
  };
}
