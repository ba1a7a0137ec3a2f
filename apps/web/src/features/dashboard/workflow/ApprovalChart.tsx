/** 工作台: my approvals (同意 and 退回) per day over the last 30 days, as an ECharts bar chart. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton } from 'antd';
import { useMemo } from 'react';
import type { ApprovalStats } from '@zhyy/shared';
import { cardProblem } from '../../../api/errors';
import { EChart } from '../../../components/EChart';
import { wfApi } from '../../../api/workflow';

function Chart({ stats }: { stats: ApprovalStats }) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['同意', '退回'], top: 0 },
      grid: { left: 32, right: 12, top: 32, bottom: 24 },
      xAxis: { type: 'category', data: stats.days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '同意', type: 'bar', stack: 'n', data: stats.days.map((d) => d.send), itemStyle: { color: '#52c41a' } },
        { name: '退回', type: 'bar', stack: 'n', data: stats.days.map((d) => d.return), itemStyle: { color: '#fa8c16' } },
      ],
    }),
    [stats],
  );
  return <EChart option={option} height={240} />;
}

export function ApprovalChart() {
  const q = useQuery({ queryKey: ['workflow', 'workbench', 'approvals'], queryFn: () => wfApi.approvals(30) });
  const total = q.data?.days.reduce((s, d) => s + d.send + d.return, 0) ?? 0;
  const problem = q.isError ? cardProblem(q.error, '工作流服务', '统计暂时无法加载') : null;
  return (
    <Card className="dashboard-card" title={`近30天审批${q.data ? `（共${total}次）` : ''}`} data-testid="approval-chart">
      {q.isPending || (q.isError && !problem) ? <Skeleton active={q.isPending} paragraph={{ rows: 4 }} /> : null}
      {problem ? <Alert type="info" showIcon title={problem} /> : null}
      {q.data ? <Chart stats={q.data} /> : null}
    </Card>
  );
}
