/** 待办耗时统计 (roles 1, 3): how long to-do items wait per flow, node and handler, from the workflow service. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Empty, InputNumber, Radio, Result, Space, Table, Tag, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { lastDays } from '../../utils/time';
import { useMemo, useState } from 'react';
import { EChart } from '../../components/EChart';
import { aggregateConsumeTime, fetchConsumeTime, minutesText, type ConsumeGroup, type ConsumeStat } from './consumeTime';

export default function TodoTimeConsuming() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => lastDays(30));
  const [groupBy, setGroupBy] = useState<ConsumeGroup>('node');
  const [limitHours, setLimitHours] = useState(24);
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const q = useQuery({ queryKey: ['system', 'consume-time', from, to], queryFn: () => fetchConsumeTime(from, to) });
  const rows = useMemo(() => (q.data?.kind === 'ok' ? aggregateConsumeTime(q.data.items, groupBy, limitHours * 60) : []), [q.data, groupBy, limitHours]);
  const option = useMemo(() => {
    const top = rows.slice(0, 12).reverse();
    const label = (r: ConsumeStat) => [r.flowName, r.nodeName, r.handlerName].filter(Boolean).join(' / ');
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, data: ['平均（小时）', '中位数（小时）'] },
      grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'value' },
      yAxis: { type: 'category', data: top.map(label), axisLabel: { width: 220, overflow: 'truncate' } },
      series: [
        { name: '平均（小时）', type: 'bar', data: top.map((r) => +(r.avgMinutes / 60).toFixed(1)) },
        { name: '中位数（小时）', type: 'bar', data: top.map((r) => +(r.medianMinutes / 60).toFixed(1)) },
      ],
    };
  }, [rows]);

  const columns: TableColumnsType<ConsumeStat> = [
    { title: '流程', dataIndex: 'flowName' },
    ...(groupBy !== 'flow' ? [{ title: '节点', dataIndex: 'nodeName' }] : []),
    ...(groupBy === 'handler' ? [{ title: '处理人', dataIndex: 'handlerName', width: 100 }] : []),
    { title: '待办数', dataIndex: 'count', width: 80, align: 'right', render: (v: number, r: ConsumeStat) => <>{v}{r.open ? <Tag style={{ marginLeft: 4 }}>{r.open}条未办</Tag> : null}</> },
    { title: '平均耗时', dataIndex: 'avgMinutes', width: 120, render: minutesText, sorter: (a, b) => a.avgMinutes - b.avgMinutes },
    { title: '中位数', dataIndex: 'medianMinutes', width: 120, render: minutesText, sorter: (a, b) => a.medianMinutes - b.medianMinutes },
    { title: '最长', dataIndex: 'maxMinutes', width: 120, render: minutesText, sorter: (a, b) => a.maxMinutes - b.maxMinutes },
    { title: `超时（>${limitHours}小时）`, dataIndex: 'overdue', width: 120, align: 'right', sorter: (a, b) => a.overdue - b.overdue, render: (v: number) => (v ? <Tag color="red">{v}</Tag> : 0) },
  ];

  const body = () => {
    if (q.data?.kind === 'unavailable') {
      return (
        <Result
          status="info"
          title={q.data.reason === 'missing' ? '暂无待办耗时数据' : q.data.reason === 'refused' ? '暂时无法显示待办耗时' : '工作流服务暂时无法连接'}
          subTitle={q.data.reason === 'missing' ? '工作流服务尚未提供耗时数据接口（consumetime/list）；接口上线后这里将显示各流程、节点和处理人的实际耗时。' : q.data.message}
          data-testid="consume-unavailable"
        />
      );
    }
    return (
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {q.data?.kind === 'ok' && q.data.truncated ? <Alert type="warning" showIcon title="所选时间段的待办过多，只统计了前一万条，请缩短时间段" /> : null}
        <Card size="small" title="平均耗时最长的环节">
          {rows.length ? <EChart option={option} height={Math.max(220, Math.min(12, rows.length) * 30 + 60)} testId="consume-chart" /> : <Empty description={q.isLoading ? '加载中…' : '所选时间段内没有待办'} />}
        </Card>
        <Card size="small">
          <Table<ConsumeStat> rowKey="key" size="small" loading={q.isFetching} dataSource={rows} columns={columns} pagination={{ pageSize: 20, hideOnSinglePage: true }} locale={{ emptyText: '所选时间段内没有待办' }} />
        </Card>
      </Space>
    );
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="todo-time-consuming">
      <Card size="small">
        <Space wrap>
          <DatePicker.RangePicker value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
          <Radio.Group optionType="button" value={groupBy} onChange={(e) => setGroupBy(e.target.value)} options={[{ value: 'flow', label: '按流程' }, { value: 'node', label: '按节点' }, { value: 'handler', label: '按处理人' }]} />
          <span>
            超过 <InputNumber min={1} max={720} precision={0} value={limitHours} onChange={(v) => setLimitHours(v ?? 24)} style={{ width: 70 }} /> 小时视为超时
          </span>
        </Space>
      </Card>
      {body()}
    </Space>
  );
}
