/** AI接口统计 (role 1): calls of the recognition service per interface, user or day; success rate and average duration; export. */
import { useQuery } from '@tanstack/react-query';
import { Card, Col, DatePicker, Empty, Radio, Row, Select, Space, Statistic, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { lastDays } from '../../utils/time';
import { useMemo, useState } from 'react';
import { AI_INTERFACES, type AiStatRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { EChart } from '../../components/EChart';
import { ExportButton } from '../../components/ExportButton';
import { withRange } from '../common/rangeFilters';
import './system.css';

type GroupBy = 'interface' | 'user' | 'day';
const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export default function AiInterfaceStatistic() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => lastDays(30));
  const [groupBy, setGroupBy] = useState<GroupBy>('interface');
  const [iface, setIface] = useState<string | undefined>();
  const body = { ...withRange({ range }), groupBy, interfaceCode: iface };
  const q = useQuery({ queryKey: ['system', 'ai-stat', body], queryFn: () => systemApi.aiStatistic(body) });
  const d = q.data;
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: ['调用次数', '失败次数'] },
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: (d?.daily ?? []).map((x) => x.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '调用次数', type: 'bar', data: (d?.daily ?? []).map((x) => x.calls), itemStyle: { color: '#1890ff' } },
        { name: '失败次数', type: 'line', data: (d?.daily ?? []).map((x) => x.failures), itemStyle: { color: '#f5222d' } },
      ],
    }),
    [d],
  );
  const head = { interface: '接口', user: '用户', day: '日期' }[groupBy];
  const columns: TableColumnsType<AiStatRow> = [
    { title: head, dataIndex: 'label' },
    { title: '调用次数', dataIndex: 'calls', width: 100, align: 'right' },
    { title: '成功次数', dataIndex: 'successes', width: 100, align: 'right' },
    { title: '成功率', dataIndex: 'successRate', width: 100, align: 'right', render: percent },
    { title: '平均耗时', dataIndex: 'avgDurationMs', width: 110, align: 'right', render: (v: number | null) => (v === null ? '—' : `${(v / 1000).toFixed(2)} 秒`) },
  ];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="ai-statistic">
      <Card size="small">
        <Space wrap>
          <DatePicker.RangePicker value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
          <Select allowClear placeholder="全部接口" style={{ width: 160 }} value={iface} onChange={setIface} options={Object.entries(AI_INTERFACES).map(([value, label]) => ({ value, label }))} />
          <Radio.Group optionType="button" value={groupBy} onChange={(e) => setGroupBy(e.target.value)} options={[{ value: 'interface', label: '按接口' }, { value: 'user', label: '按用户' }, { value: 'day', label: '按日期' }]} />
          <ExportButton fileName="AI接口调用统计" run={() => systemApi.exportAiStatistic(body)} disabled={!d?.total.calls} />
        </Space>
      </Card>
      <Row gutter={12} className="stat-cards">
        <Col span={6}><Card size="small"><Statistic title="调用次数" value={d?.total.calls ?? 0} loading={q.isLoading} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="成功次数" value={d?.total.successes ?? 0} loading={q.isLoading} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="成功率" value={percent(d?.total.successRate ?? null)} loading={q.isLoading} /></Card></Col>
        <Col span={6}><Card size="small"><Statistic title="平均耗时（秒）" value={d?.total.avgDurationMs == null ? '—' : (d.total.avgDurationMs / 1000).toFixed(2)} loading={q.isLoading} /></Card></Col>
      </Row>
      <Card size="small" title="每日调用">
        {d?.daily.length ? <EChart option={option} height={260} testId="ai-chart" /> : <Empty description={q.isLoading ? '加载中…' : '所选时间段内没有调用记录'} />}
      </Card>
      <Card size="small" title={`按${head}统计`}>
        <Table<AiStatRow> rowKey="key" size="small" loading={q.isFetching} dataSource={d?.rows ?? []} columns={columns} pagination={{ pageSize: 15, hideOnSinglePage: true }} locale={{ emptyText: '暂无调用记录' }} />
      </Card>
    </Space>
  );
}
