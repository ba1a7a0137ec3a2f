/**
 * 部门月度报销汇总: the pushed bills (已报销) by department × month (the voucher date's) × expense category,
 * in approved amounts. A year or a month range and departments; the pivot's columns are the months or the
 * categories (rows are departments; a 合计 column and row that add up), a chart comparing them, a click on
 * any figure lists the bills behind it (with links to the bill), and the Excel export of the pivot shown.
 * Issue 31: the table shows the columns a group at a time (a quarter's months, or four categories) with the
 * group's 小计 beside the range's 合计, so it fits 1366×768 whole and no figure is cut at its edge
 * (docs/reimbursement.md says why).
 */
import { useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Form, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useState } from 'react';
import { formatFen, type ReimbSummaryBy, type ReimbSummaryCell, type ReimbSummaryRow, type ReimbSummaryView } from '@zhyy/shared';
import { reimbLedgerApi } from '../../../api/reimbursementLedger';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { moneyAxis, tooltipYuan } from '../../../components/format';
import { SummaryLabel, tableLocale } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Figure } from '../../common/Money';
import '../../common/money.css';
import { REIMB_LEDGER_KEY, useReportOptions } from './common';
import { SummaryBillsDrawer, type DrillTarget } from './SummaryBillsDrawer';
import '../../../components/listPage.css';
import './reports.css';

type Months = [Dayjs, Dayjs];
const thisYear = (): Months => [dayjs().startOf('year'), dayjs().startOf('month')];

/** A figure that opens the bills behind it; a zero is shown grey and opens nothing. */
function Cell({ fen, onOpen, testId }: { fen: number; onOpen: () => void; testId?: string }) {
  if (!fen) return <span className="reimb-pivot-zero" data-testid={testId}>—</span>;
  return (
    <Typography.Link onClick={onOpen} data-testid={testId} title="查看明细单据">
      {/* Money's own text colour would hide that the figure opens something: the same never-cut figure, in the link's colour. */}
      <span className="figure" data-money="">{formatFen(fen)}</span>
    </Typography.Link>
  );
}

/** A page of the pivot's value columns: indices [from, to) of v.months or v.categories. */
export interface PivotGroup {
  key: string;
  label: string;
  from: number;
  to: number;
  /** By month: the group's first and last month (its 小计 lists the bills of those months). */
  fromMonth?: string;
  toMonth?: string;
}

/** Categories shown at once: 部门 160 + 4 × 130 + 小计 130 + 合计 150 + 笔数 80 = 1,040 px, inside the 1,156 px of the card at 1366. */
export const CATEGORIES_PER_GROUP = 4;

/** The column groups: by month the calendar quarters the range touches (2026年第1季度), by category runs of four in 报销设置's order. */
export function pivotGroups(v: ReimbSummaryView, by: ReimbSummaryBy): PivotGroup[] {
  const out: PivotGroup[] = [];
  if (by === 'month') {
    v.months.forEach((m, i) => {
      const key = `${m.slice(0, 4)}-Q${Math.floor((Number(m.slice(5, 7)) - 1) / 3) + 1}`;
      const last = out[out.length - 1];
      if (last?.key === key) {
        last.to = i + 1;
        last.toMonth = m;
      } else out.push({ key, label: `${m.slice(0, 4)}年第${key.slice(-1)}季度`, from: i, to: i + 1, fromMonth: m, toMonth: m });
    });
    return out;
  }
  for (let i = 0; i < v.categories.length; i += CATEGORIES_PER_GROUP) {
    const part = v.categories.slice(i, i + CATEGORIES_PER_GROUP);
    out.push({ key: `c${i}`, label: part.length > 1 ? `${part[0]!.name}～${part[part.length - 1]!.name}` : part[0]!.name, from: i, to: i + part.length });
  }
  return out;
}

/** The chart: by month, each month's bar stacked by department; by category, each department's bar stacked by category. */
export function summaryChart(v: ReimbSummaryView, by: ReimbSummaryBy): EChartsCoreOption | null {
  if (!v.rows.length) return null;
  const base = { tooltip: { trigger: 'axis', valueFormatter: tooltipYuan }, legend: { top: 0, type: 'scroll' }, grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true }, yAxis: moneyAxis() };
  if (by === 'month') {
    return { ...base, xAxis: { type: 'category', data: v.months }, series: v.rows.map((r) => ({ name: r.deptName, type: 'bar', stack: 'total', data: r.months.map((c) => c.amount / 100) })) };
  }
  return { ...base, xAxis: { type: 'category', data: v.rows.map((r) => r.deptName) }, series: v.categories.map((c, i) => ({ name: c.name, type: 'bar', stack: 'total', data: v.rows.map((r) => r.categories[i]!.amount / 100) })) };
}

export default function SummaryPage() {
  const [months, setMonths] = useState<Months>(thisYear);
  const [deptIds, setDeptIds] = useState<string[]>([]);
  const [by, setBy] = useState<ReimbSummaryBy>('month');
  const [drill, setDrill] = useState<DrillTarget | null>(null);
  const [groupKey, setGroupKey] = useState<string>();
  const options = useReportOptions();
  const body = { fromMonth: months[0].format('YYYY-MM'), toMonth: months[1].format('YYYY-MM'), ...(deptIds.length ? { deptIds } : {}) };
  const q = useQuery({ queryKey: [...REIMB_LEDGER_KEY, 'summary', body], queryFn: () => reimbLedgerApi.summary(body) });
  const v = q.data;
  const option = useMemo(() => (v ? summaryChart(v, by) : null), [v, by]);

  const allHeads = v ? (by === 'month' ? v.months.map((m) => ({ key: m, title: m, month: m as string | undefined, categoryCode: undefined as string | undefined })) : v.categories.map((c) => ({ key: c.code, title: c.name, month: undefined, categoryCode: c.code }))) : [];
  const groups = v ? pivotGroups(v, by) : [];
  // By month the latest quarter (where this month's bills land), by category the first four; a group chosen stays while it exists.
  const group = groups.find((g) => g.key === groupKey) ?? (by === 'month' ? groups[groups.length - 1] : groups[0]);
  const heads = group ? allHeads.slice(group.from, group.to) : [];
  const offset = group?.from ?? 0;
  const split = groups.length > 1;
  const cellsOf = (r: ReimbSummaryRow): ReimbSummaryCell[] => (by === 'month' ? r.months : r.categories);
  const sumOf = (cells: ReimbSummaryCell[]) => cells.slice(group!.from, group!.to).reduce((x, c) => x + c.amount, 0);
  const open = (t: Omit<DrillTarget, 'fromMonth' | 'toMonth' | 'deptIds'> & { fromMonth?: string; toMonth?: string }) => setDrill({ fromMonth: body.fromMonth, toMonth: body.toMonth, ...t, deptIds: body.deptIds });
  // A quarter's 小计 opens the bills of its months; four categories' 小计 is a plain figure (the drawer lists one category or all).
  const subtotal = (fen: number, title: string, testId: string, deptId?: string) =>
    by === 'month'
      ? <Cell fen={fen} testId={testId} onOpen={() => open({ title: `${title} · ${group!.label}`, deptId, fromMonth: group!.fromMonth, toMonth: group!.toMonth, amount: fen })} />
      : <span className="figure" data-money="" data-testid={testId}>{fen ? formatFen(fen) : '—'}</span>;
  const countTitle = by === 'month' ? '笔数' : '行数';
  const columns: TableColumnsType<ReimbSummaryRow> = [
    { title: '部门', dataIndex: 'deptName', key: 'dept', width: 160, fixed: 'left' },
    ...heads.map((h, j) => ({
      title: h.title, key: h.key, width: 130, align: 'right' as const,
      render: (_: unknown, r: ReimbSummaryRow) => (
        <Cell fen={cellsOf(r)[offset + j]!.amount} testId={`pivot-${r.deptId || 'none'}-${h.key}`} onOpen={() => open({ title: `${r.deptName} · ${h.title}`, deptId: r.deptId, month: h.month, categoryCode: h.categoryCode, amount: cellsOf(r)[offset + j]!.amount })} />
      ),
    })),
    ...(split ? [{ title: by === 'month' ? '季度小计' : '小计', key: 'subtotal', width: 130, align: 'right' as const, render: (_: unknown, r: ReimbSummaryRow) => subtotal(sumOf(cellsOf(r)), r.deptName, `pivot-${r.deptId || 'none'}-subtotal`, r.deptId) }] : []),
    { title: split ? (by === 'month' ? '全期合计' : '全部类别合计') : '合计', key: 'total', width: 150, align: 'right', fixed: 'right', render: (_, r) => <Cell fen={r.total.amount} testId={`pivot-${r.deptId || 'none'}-total`} onOpen={() => open({ title: `${r.deptName} · 合计`, deptId: r.deptId, amount: r.total.amount })} /> },
    { title: countTitle, key: 'count', width: 80, align: 'right', fixed: 'right', render: (_, r) => <Figure>{by === 'month' ? r.total.count : r.total.lineCount}</Figure> },
  ];
  const colTotals = v ? (by === 'month' ? v.monthTotals : v.categoryTotals) : [];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="reimb-summary">
      <Card className="list-page-filters" size="small">
        <Form layout="inline" className="list-page-form">
          <Form.Item label="年度">
            <DatePicker picker="year" allowClear={false} value={months[0].startOf('year')} onChange={(y) => y && setMonths([y.startOf('year'), y.endOf('year').startOf('month')])} data-testid="summary-year" />
          </Form.Item>
          <Form.Item label="月份">
            <DatePicker.RangePicker picker="month" allowClear={false} value={months} onChange={(r) => r?.[0] && r[1] && setMonths([r[0], r[1]])} placeholder={['开始月份', '结束月份']} />
          </Form.Item>
          <Form.Item label="部门">
            <Select mode="multiple" allowClear maxTagCount="responsive" placeholder="全部部门" style={{ width: 260 }} value={deptIds} onChange={setDeptIds} showSearch={{ optionFilterProp: 'label' }} loading={options.isLoading} options={(options.data?.depts ?? []).map((d) => ({ value: d.id, label: d.name }))} />
          </Form.Item>
          <Form.Item label="列">
            <Segmented<ReimbSummaryBy> value={by} onChange={setBy} options={[{ value: 'month', label: '按月份' }, { value: 'category', label: '按费用类别' }]} data-testid="summary-by" />
          </Form.Item>
          <div className="list-page-actions">
            <ExportButton fileName={`部门月度报销汇总${body.fromMonth}至${body.toMonth}`} run={() => reimbLedgerApi.exportSummary({ ...body, by })} disabled={!v?.rows.length} />
          </div>
        </Form>
      </Card>
      <Card size="small" title={by === 'month' ? '各月报销金额（按部门）' : '各部门报销金额（按费用类别）'}>
        {option ? <EChart option={option} height={300} testId="summary-chart" /> : <Empty description="所选范围内没有已报销的单据" />}
      </Card>
      <Card
        size="small"
        className="list-page-table"
        title="已报销单据核定金额（元，按凭证日期所在月份）"
        extra={split ? <Segmented<string> size="small" value={group!.key} onChange={setGroupKey} options={groups.map((g) => ({ value: g.key, label: g.label }))} data-testid="summary-group" /> : null}
      >
        <Table<ReimbSummaryRow>
          rowKey={(r) => r.deptId || 'none'}
          size="middle"
          columns={columns}
          dataSource={v?.rows ?? []}
          loading={q.isFetching}
          pagination={false}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '所选范围内没有已报销的单据')}
          summary={() =>
            v && v.rows.length ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="reimb-totals" data-testid="summary-totals">
                  <SummaryLabel colSpan={1}>合计</SummaryLabel>
                  {heads.map((h, j) => (
                    <Table.Summary.Cell key={h.key} index={j + 1} align="right">
                      <Cell fen={colTotals[offset + j]!.amount} testId={`pivot-all-${h.key}`} onOpen={() => open({ title: `全部部门 · ${h.title}`, month: h.month, categoryCode: h.categoryCode, amount: colTotals[offset + j]!.amount })} />
                    </Table.Summary.Cell>
                  ))}
                  {split ? <Table.Summary.Cell index={heads.length + 1} align="right">{subtotal(sumOf(colTotals), '全部部门', 'pivot-all-subtotal')}</Table.Summary.Cell> : null}
                  <Table.Summary.Cell index={heads.length + (split ? 2 : 1)} align="right">
                    <Cell fen={v.total.amount} testId="pivot-all-total" onOpen={() => open({ title: '全部部门 · 合计', amount: v.total.amount })} />
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={heads.length + (split ? 3 : 2)} align="right"><Figure strong>{by === 'month' ? v.total.count : v.total.lineCount}</Figure></Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
      <SummaryBillsDrawer target={drill} onClose={() => setDrill(null)} />
    </Space>
  );
}
