/** 分摊统计: project allocations of created invoices by project and month (red invoices negative). */
import type { TableColumnsType } from 'antd';
import { type ProjectMonthRow, type StatisticsPage } from '@zhyy/shared';
import { statisticsApi } from '../../../api/invoiceApportionment';
import { moneyAxis, tooltipYuan } from '../../../components/format';
import { Money } from '../widgets';
import { StatShell } from './StatShell';

const columns: TableColumnsType<ProjectMonthRow> = [
  { title: '月份', dataIndex: 'month', width: 100 },
  { title: '项目编号', dataIndex: 'projectCode', width: 140 },
  { title: '项目名称', dataIndex: 'projectName', ellipsis: true },
  { title: '发票张数', dataIndex: 'invoiceCount', width: 100, align: 'right' },
  { title: '不含税金额', dataIndex: 'amountExcl', width: 150, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '税额', dataIndex: 'tax', width: 130, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '价税合计', dataIndex: 'amountIncl', width: 150, align: 'right', render: (v: number) => <Money fen={v} strong /> },
];

export default function ApportionmentStatistics() {
  return (
    <StatShell<ProjectMonthRow, StatisticsPage<ProjectMonthRow>>
      name="分摊统计"
      testId="apportionment-statistics"
      fetch={statisticsApi.apportionment}
      exportRun={statisticsApi.exportApportionment}
      columns={columns}
      rowKey={(r) => `${r.projectId}-${r.month}`}
      keywordPlaceholder="项目编号或名称"
      emptyText="所选范围内没有分摊"
      // The 合计 row carries every figure the cards used to show (the row count is in the pagination).
      totalsRow={(d) => ({
        cells: {
          invoiceCount: d.totals.invoiceCount,
          amountExcl: <Money fen={d.totals.amountExcl} strong />,
          tax: <Money fen={d.totals.tax} strong />,
          amountIncl: <Money fen={d.totals.amountIncl} strong />,
        },
      })}
      chartTitle="每月分摊金额"
      chart={(d) => {
        if (!d.chart.length) return null;
        return {
          tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
          legend: { top: 0 },
          grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
          xAxis: { type: 'category', data: d.chart.map((c) => c.name) },
          yAxis: moneyAxis(),
          series: [
            { name: '价税合计', type: 'bar', data: d.chart.map((c) => c.value / 100), itemStyle: { color: '#1677ff' } },
            { name: '税额', type: 'line', data: d.chart.map((c) => (c.extra ?? 0) / 100), itemStyle: { color: '#fa8c16' } },
          ],
        };
      }}
    />
  );
}
