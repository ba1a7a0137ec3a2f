/**
 * The one chart module: ECharts core with only the chart types and parts the screens use. EChart.tsx
 * loads it (dynamic import) when the first chart is shown, so pages without a chart never download it.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export const init = echarts.init;
