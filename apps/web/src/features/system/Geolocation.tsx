/** 登录地分布 (role 1): sign-ins by region over a period (chart + table) and every sign-in with its place; new cities highlighted. */
import { useQuery } from '@tanstack/react-query';
import { Card, Checkbox, Col, DatePicker, Form, Input, Radio, Row, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { lastDays } from '../../utils/time';
import { useMemo, useState } from 'react';
import type { GeoStatRow, SignInLocationRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { EChart } from '../../components/EChart';
import { ListPage } from '../../components/ListPage';
import { RangeItem, withRange } from '../common/rangeFilters';
import './system.css';

const columns: TableColumnsType<SignInLocationRow> = [
  { title: '登录时间', dataIndex: 'signedInAt', key: 'signedInAt', sorter: true, width: 160, render: formatTime },
  { title: '用户', dataIndex: 'name', width: 140, render: (v: string, r) => `${v}（${r.loginName}）` },
  { title: '部门', dataIndex: 'deptName', width: 120 },
  { title: 'IP', dataIndex: 'ip', width: 130 },
  {
    title: '登录地',
    dataIndex: 'location',
    render: (v: string, r) => (
      <Space size={4}>
        {v}
        {r.newCity ? <Tooltip title="该用户此前从未在此地登录"><Tag color="orange">新城市</Tag></Tooltip> : null}
      </Space>
    ),
  },
  { title: '运营商', dataIndex: 'isp', width: 90 },
];

function RegionChart() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => lastDays(30));
  const [level, setLevel] = useState<'province' | 'city'>('province');
  const body = { ...withRange({ range }), level };
  const q = useQuery({ queryKey: ['system', 'geo-stat', body], queryFn: () => systemApi.signInStatistic(body) });
  const rows = q.data ?? [];
  const option = useMemo(() => {
    const top = rows.slice(0, 15).reverse();
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, data: ['登录次数', '新城市登录'] },
      grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: top.map((r) => r.region) },
      series: [
        { name: '登录次数', type: 'bar', data: top.map((r) => r.signIns), itemStyle: { color: '#1890ff' } },
        { name: '新城市登录', type: 'bar', data: top.map((r) => r.newCity), itemStyle: { color: '#fa8c16' } },
      ],
    };
  }, [rows]);
  return (
    <Card
      size="small"
      title="按地区统计"
      extra={
        <Space wrap>
          <Radio.Group optionType="button" size="small" value={level} onChange={(e) => setLevel(e.target.value)} options={[{ value: 'province', label: '按省' }, { value: 'city', label: '按市' }]} />
          <DatePicker.RangePicker size="small" value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        </Space>
      }
    >
      <Row gutter={12}>
        <Col xs={24} xl={14}>
          {rows.length ? <EChart option={option} height={Math.max(220, Math.min(15, rows.length) * 28 + 60)} testId="geo-chart" /> : <div className="geo-empty">{q.isLoading ? '加载中…' : '所选时间段内没有登录记录'}</div>}
        </Col>
        <Col xs={24} xl={10}>
          <Table<GeoStatRow>
            rowKey="region"
            size="small"
            loading={q.isFetching}
            dataSource={rows}
            pagination={{ pageSize: 8, hideOnSinglePage: true }}
            locale={{ emptyText: '暂无数据' }}
            columns={[
              { title: level === 'province' ? '省份' : '城市', dataIndex: 'region' },
              { title: '登录次数', dataIndex: 'signIns', width: 80, align: 'right' },
              { title: '人数', dataIndex: 'users', width: 60, align: 'right' },
              { title: '新城市', dataIndex: 'newCity', width: 70, align: 'right', render: (v: number) => (v ? <Tag color="orange">{v}</Tag> : 0) },
            ]}
          />
        </Col>
      </Row>
    </Card>
  );
}

export default function Geolocation() {
  return (
    <ListPage<SignInLocationRow>
      testId="geolocation"
      queryKey={['system', 'geo-list']}
      fetch={systemApi.signIns}
      columns={columns}
      rowKey="id"
      toRequest={withRange}
      rowClassName={(r) => (r.newCity ? 'row-highlight' : '')}
      emptyText="没有符合条件的登录记录"
      header={() => <RegionChart />}
      filters={
        <>
          <Form.Item name="user" label="用户"><Input allowClear placeholder="姓名或登录名" style={{ width: 130 }} maxLength={64} /></Form.Item>
          <Form.Item name="province" label="地区"><Input allowClear placeholder="如 广东省、内网" style={{ width: 130 }} maxLength={64} /></Form.Item>
          <RangeItem label="登录时间" />
          <Form.Item name="newCityOnly" valuePropName="checked"><Checkbox>只看新城市登录</Checkbox></Form.Item>
        </>
      }
    />
  );
}
