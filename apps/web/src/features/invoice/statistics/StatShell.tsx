/**
 * The frame of the four statistics screens: month range and keyword filters (plus the screen's own),
 * optional summary figures, an ECharts chart, a server-paginated table whose 合计 row (fixed at the bottom)
 * carries the server's totals of the whole filtered set, and the Excel export of the same filters.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Empty, Input, Row, Space, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type ReactNode } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import type { PageResult } from '@zhyy/shared';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { moneyAxis, tooltipYuan } from '../../../components/format';
import { tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { useStickyTop } from '../../../layout/useStickyTop';

export const STATISTICS_KEY = ['invoice', 'apportionment', 'statistics'] as const;
type Body = Record<string, unknown>;

export interface StatShellProps<T, D extends PageResult<T>> {
  name: string;
  testId: string;
  fetch: (p: Body) => Promise<D>;
  exportRun: (p: Body) => Promise<Blob>;
  columns: TableColumnsType<T>;
  rowKey: string | ((r: T) => string);
  keywordPlaceholder: string;
  /** Extra filter controls with their values (merged into the request). */
  extraFilters?: (set: (v: Body) => void, values: Body) => ReactNode;
  /** Figures shown as cards above the chart: only those the 合计 row does not already carry. */
  figures?: (d: D | undefined) => Array<{ title: string; value: string | number }>;
  /**
   * The 合计 row from the server's totals of the filtered set (not the current page): cell contents keyed by
   * the column's dataIndex (or key). The first column shows `label` (default 合计) unless it has its own cell.
   */
  totalsRow: (d: D) => { label?: string; cells: Record<string, ReactNode> };
  chartTitle: string;
  chart: (d: D) => EChartsCoreOption | null;
  emptyText: string;
  scrollX?: number;
}

export function StatShell<T extends object, D extends PageResult<T>>(p: StatShellProps<T, D>) {
  const [months, setMonths] = useState<[Dayjs, Dayjs] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [extra, setExtra] = useState<Body>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const filters: Body = { fromMonth: months?.[0].format('YYYY-MM'), toMonth: months?.[1].format('YYYY-MM'), keyword: keyword || undefined, ...extra };
  const q = useQuery({ queryKey: [...STATISTICS_KEY, p.name, filters, page], queryFn: () => p.fetch({ ...filters, ...page }), placeholderData: keepPreviousData });
  const d = q.data;
  const option = d ? p.chart(d) : null;
  const figures = p.figures?.(d) ?? [];
  const stickyTop = useStickyTop();
  // The table fits when its columns fit (the names ellipsize) and scrolls sideways when they do not.
  const scrollX = tableScrollX(p.columns, p.scrollX ?? 0);
  const reset = (f: () => void) => {
    f();
    setPage((x) => ({ ...x, pageIndex: 1 }));
  };
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid={p.testId}>
      <Card size="small">
        <Space wrap>
          <DatePicker.RangePicker picker="month" value={months} onChange={(v) => reset(() => setMonths(v?.[0] && v[1] ? [v[0], v[1]] : null))} placeholder={['开始月份', '结束月份']} />
          <Input.Search allowClear placeholder={p.keywordPlaceholder} style={{ width: 240 }} onSearch={(v) => reset(() => setKeyword(v.trim()))} data-testid="stat-keyword" />
          {p.extraFilters?.((v) => reset(() => setExtra((x) => ({ ...x, ...v }))), extra)}
          <Button onClick={() => reset(() => { setMonths(null); setKeyword(''); setExtra({}); })}>重置</Button>
          <ExportButton fileName={p.name} run={() => p.exportRun(filters)} disabled={!d?.total} />
        </Space>
      </Card>
      {figures.length ? (
        <Row gutter={12}>
          {figures.map((f) => (
            <Col key={f.title} xs={12} lg={6}>
              <Card size="small">
                <Statistic title={f.title} value={f.value} loading={q.isLoading} />
              </Card>
            </Col>
          ))}
        </Row>
      ) : null}
      <Card size="small" title={p.chartTitle}>
        {option ? <EChart option={option} height={280} testId="stat-chart" /> : <Empty description={q.isLoading ? '加载中…' : p.emptyText} />}
      </Card>
      <Card size="small">
        <Table<T>
          rowKey={p.rowKey}
          size="small"
          columns={p.columns}
          dataSource={d?.items ?? []}
          loading={q.isFetching}
          scroll={scrollX ? { x: scrollX } : undefined}
          sticky={{ offsetHeader: stickyTop }}
          summary={() => (d && d.total ? <TotalsRow columns={p.columns} row={p.totalsRow(d)} /> : null)}
          locale={tableLocale(q.isError, p.emptyText)}
          pagination={{ ...tablePagination(page, d?.total ?? 0), onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
        />
      </Card>
    </Space>
  );
}

/** 合计 as a summary row of the table, fixed at the bottom (the table is sticky, so it stays in view). */
function TotalsRow<T>({ columns, row }: { columns: TableColumnsType<T>; row: { label?: string; cells: Record<string, ReactNode> } }) {
  const name = (c: TableColumnsType<T>[number]) => String(('dataIndex' in c && c.dataIndex !== undefined ? c.dataIndex : c.key) ?? '');
  return (
    <Table.Summary fixed="bottom">
      <Table.Summary.Row className="stat-totals" data-testid="stat-totals">
        {columns.map((c, i) => {
          const own = row.cells[name(c)];
          const content = own ?? (i === 0 ? <Typography.Text strong>{row.label ?? '合计'}</Typography.Text> : null);
          return (
            <Table.Summary.Cell key={name(c) || i} index={i} align={c.align}>
              {content}
            </Table.Summary.Cell>
          );
        })}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/** A bar chart of named values in 元 (values arrive in 分 and are formatted only here). */
export function barOption(points: Array<{ name: string; value: number; extra?: number }>, series: string, extraSeries?: string): EChartsCoreOption | null {
  if (!points.length) return null;
  const yuan = (fen: number) => Math.round(fen) / 100;
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipYuan },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: points.map((x) => (x.name.length > 12 ? `${x.name.slice(0, 12)}…` : x.name)), axisLabel: { interval: 0, rotate: points.length > 6 ? 30 : 0 } },
    yAxis: moneyAxis(),
    series: [
      { name: series, type: 'bar', stack: extraSeries ? 'a' : undefined, data: points.map((x) => yuan(x.value)), itemStyle: { color: '#1677ff' } },
      ...(extraSeries ? [{ name: extraSeries, type: 'bar', stack: 'a', data: points.map((x) => yuan(Math.max(0, x.extra ?? 0))), itemStyle: { color: '#d9d9d9' } }] : []),
    ],
  };
}
