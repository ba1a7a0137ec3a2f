/**
 * 导出统计 (/tender/file/file-export-statistic, roles 1 and 6): how many done tender file exports used
 * each contract, certificate, person or exporter per month of a month range; the top N with counts per
 * month and total, a chart comparing the months (all exports as bars, the top five as lines), a
 * drill-down to the exports behind a row or a month's count, and the Excel export of every row.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Drawer, Empty, Radio, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { TENDER_STAT_DIMENSION_LABELS, TENDER_STAT_DIMENSIONS, type TenderExportStatResult, type TenderExportStatRow, type TenderStatDimension } from '@zhyy/shared';
import { tenderExportStatApi } from '../../../api/tender-export-stat';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { EXPORT_LOG_KEY, ExportDetailDrawer, exportColumns } from './ExportLogPage';

/** The first and last day of a month range ('YYYY-MM'), as the log's from/to. */
export function daysOf(fromMonth: string, toMonth: string): { from: string; to: string } {
  return { from: `${fromMonth}-01`, to: dayjs(`${toMonth}-01`).endOf('month').format('YYYY-MM-DD') };
}

/** The default range: the last twelve months, this one included. */
export function lastYear(today: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [today.subtract(11, 'month').startOf('month'), today.startOf('month')];
}

/** Bars: every done export of each month; lines: the top five rows' months. */
export function statChart(r: TenderExportStatResult): EChartsCoreOption | null {
  if (!r.exports) return null;
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: r.months },
    yAxis: { type: 'value', name: '次', minInterval: 1 },
    series: [
      { name: '导出总数', type: 'bar', data: r.exportsPerMonth },
      ...r.rows.slice(0, 5).map((x) => ({ name: x.label, type: 'line', data: x.counts })),
    ],
  };
}

export interface Drill {
  dimension: TenderStatDimension;
  key: string;
  label: string;
  fromMonth: string;
  toMonth: string;
}

/** The done exports behind a row (or one month's count), with the detail drawer of each. */
function DrillDrawer({ drill, onClose }: { drill: Drill | null; onClose: () => void }) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [open, setOpen] = useState<string | null>(null);
  const body = drill ? { ...daysOf(drill.fromMonth, drill.toMonth), state: 'done' as const, dimension: drill.dimension, key: drill.key, ...page } : null;
  const q = useQuery({ queryKey: [...EXPORT_LOG_KEY, 'drill', body], queryFn: () => tenderExportStatApi.list(body!), enabled: !!body, placeholderData: keepPreviousData });
  const period = drill ? (drill.fromMonth === drill.toMonth ? drill.fromMonth : `${drill.fromMonth} 至 ${drill.toMonth}`) : '';
  return (
    <Drawer open={!!drill} onClose={onClose} size={980} title={drill ? `${drill.label}：${period} 的导出` : ''} destroyOnHidden>
      <Table
        size="small"
        rowKey="id"
        data-testid="drill-table"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        columns={exportColumns(setOpen)}
        scroll={{ x: 1100 }}
        locale={{ emptyText: q.isLoading ? '加载中…' : '没有导出记录' }}
        pagination={{ current: page.pageIndex, pageSize: page.pageSize, total: q.data?.total ?? 0, showTotal: (t) => `共 ${t} 次导出`, onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
      />
      <ExportDetailDrawer id={open} onClose={() => setOpen(null)} />
    </Drawer>
  );
}

export default function ExportStatisticPage() {
  const [months, setMonths] = useState<[Dayjs, Dayjs]>(() => lastYear());
  const [dimension, setDimension] = useState<TenderStatDimension>('contract');
  const [top, setTop] = useState(10);
  const [drill, setDrill] = useState<Drill | null>(null);
  const range = { fromMonth: months[0].format('YYYY-MM'), toMonth: months[1].format('YYYY-MM') };
  const q = useQuery({ queryKey: [...EXPORT_LOG_KEY, 'statistic', range, dimension, top], queryFn: () => tenderExportStatApi.statistic({ ...range, dimension, top }), placeholderData: keepPreviousData });
  const data = q.data;
  const dimLabel = TENDER_STAT_DIMENSION_LABELS[dimension];
  const open = (r: TenderExportStatRow, month?: string) => setDrill({ dimension, key: r.key, label: r.label, fromMonth: month ?? range.fromMonth, toMonth: month ?? range.toMonth });
  const columns: TableColumnsType<TenderExportStatRow> = [
    { title: '排名', key: 'rank', width: 56, fixed: 'left', render: (_, __, i) => i + 1 },
    // A long name wraps (a link in an ellipsis cell would be cut mid-character instead of ending with …).
    { title: dimLabel, key: 'label', width: 260, fixed: 'left', render: (_, r) => <Typography.Link onClick={() => open(r)}>{r.label}</Typography.Link> },
    ...(data?.months ?? []).map((m, i): TableColumnsType<TenderExportStatRow>[number] => ({
      title: m.slice(2).replace('-', '/'), key: m, width: 64, align: 'right',
      render: (_, r) => (r.counts[i] ? <Typography.Link onClick={() => open(r, m)} data-testid={`cell-${r.key}-${m}`}>{r.counts[i]}</Typography.Link> : <Typography.Text type="secondary">0</Typography.Text>),
    })),
    { title: '合计', dataIndex: 'total', key: 'total', width: 70, align: 'right', fixed: 'right', render: (v: number) => <strong>{v}</strong> },
  ];
  const chart = data ? statChart(data) : null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="tender-export-statistic">
      <Card size="small">
        <Space wrap>
          <span>月份</span>
          <DatePicker.RangePicker picker="month" allowClear={false} value={months} onChange={(v) => v?.[0] && v[1] && setMonths([v[0], v[1]])} placeholder={['开始月份', '结束月份']} />
          <Radio.Group optionType="button" value={dimension} onChange={(e) => setDimension(e.target.value)} options={TENDER_STAT_DIMENSIONS.map((d) => ({ value: d, label: TENDER_STAT_DIMENSION_LABELS[d] }))} />
          <span>前</span>
          <Select value={top} onChange={setTop} style={{ width: 80 }} options={[10, 20, 50, 100].map((n) => ({ value: n, label: `${n} 名` }))} data-testid="top-select" />
          <ExportButton fileName={`投标文件导出统计_${dimLabel}`} run={() => tenderExportStatApi.exportStatistic({ ...range, dimension })} disabled={!data?.itemTotal} />
        </Space>
      </Card>
      <Card size="small" title={data ? `每月导出次数（共 ${data.exports} 次导出，${data.itemTotal} 个${dimLabel}被使用）` : '每月导出次数'}>
        {chart ? <EChart option={chart} height={280} testId="export-stat-chart" /> : <Empty description={q.isLoading ? '加载中…' : q.isError ? '加载失败' : '该区间没有完成的导出'} />}
      </Card>
      <Card size="small" title={`${dimLabel}使用次数（前 ${top} 名，点击名称或次数查看导出记录）`}>
        <Table<TenderExportStatRow>
          size="small"
          rowKey="key"
          loading={q.isFetching}
          dataSource={data?.rows ?? []}
          columns={columns}
          scroll={{ x: 56 + 260 + 70 + 64 * (data?.months.length ?? 12) }}
          pagination={false}
          locale={{ emptyText: q.isLoading ? '加载中…' : q.isError ? '加载失败' : '该区间没有完成的导出' }}
        />
      </Card>
      <DrillDrawer key={drill ? `${drill.key}-${drill.fromMonth}-${drill.toMonth}` : 'none'} drill={drill} onClose={() => setDrill(null)} />
    </Space>
  );
}
