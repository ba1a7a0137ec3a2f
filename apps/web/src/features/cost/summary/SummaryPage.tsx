/**
 * 月度成本汇总 (/cost-management/summary, roles 1, 16–19): the costs of the orders in force (待审核 and
 * 已审核; 作废 never counts). A month range (the last 12 months by default, at most 36), department, project
 * and category; the trend by month and the composition by category; the table of department-months, paged
 * by the server (issue 30: 100,000 orders made 386,768 cells), with a 合计 row of all of them; a row expands
 * to its projects and their categories (paged, ProjectsTable), a project opens its order (and leads to
 * 成本单台账 with the same filters); the Excel export of every cell month × department × project × category. 结账核验 (issue 32
 * item 5): the range's closed department-months are marked in the table, and one month at a time their
 * digests are recomputed by the server (close-check) and shown 已核验 / 已变更 with what differs.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, DatePicker, Empty, Form, Row, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { CostSummaryPageQuery, monthLabel, type CostSummary, type CostSummaryRow } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { pageFromTable, SummaryLabel, tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Figure, Money } from '../../common/Money';
import { compact, COST_CATEGORY_OPTIONS, COST_KEY, fromMonth, lastMonths } from '../common';
import { CostDeptSelect, CostProjectSelect } from '../pickers';
import { CheckMark } from '../CloseDiff';
import { compositionChart, trendChart } from './chart';
import { CloseCheckCard, closedMonths } from './CloseCheckCard';
import { OrdersDrawer, type DrillTarget } from './OrdersDrawer';
import { ProjectsTable } from './ProjectsTable';
import '../../../components/listPage.css';

const rowKey = (r: CostSummaryRow) => `${r.month}|${r.deptId}`;

export default function SummaryPage() {
  const [months, setMonths] = useState<[string, string]>(() => lastMonths(12));
  const [deptId, setDeptId] = useState<string>();
  const [projectId, setProjectId] = useState<string>();
  const [category, setCategory] = useState<string>();
  const [drill, setDrill] = useState<DrillTarget | null>(null);
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [expanded, setExpanded] = useState<readonly React.Key[]>([]);
  const filters = { monthFrom: months[0], monthTo: months[1], ...compact({ deptId, projectId, category }) };
  const body = { ...filters, ...page };
  const problem = CostSummaryPageQuery.safeParse(body);
  const q = useQuery({ queryKey: [...COST_KEY, 'summary', body], queryFn: () => costOrderApi.summary(body), enabled: problem.success, placeholderData: keepPreviousData });
  const v: CostSummary | undefined = problem.success ? q.data : undefined;
  const rows = v?.rows ?? [];
  const trend = useMemo(() => (v ? trendChart(v, months[0], months[1]) : null), [v, months]);
  const composition = useMemo(() => (v ? compositionChart(v) : null), [v]);
  // 结账核验: the month chosen, else the latest closed month of the range; only that month is checked.
  const [chosenCheck, setChosenCheck] = useState<string>();
  const closedInRange = useMemo(() => closedMonths(v?.closed ?? []), [v]);
  const checkMonth = chosenCheck && closedInRange.includes(chosenCheck) ? chosenCheck : closedInRange[0];
  const checkBody = { month: checkMonth ?? '', ...compact({ deptId }) };
  const check = useQuery({ queryKey: [...COST_KEY, 'close-check', checkBody], queryFn: () => costOrderApi.closeCheck(checkBody), enabled: !!checkMonth });
  const closedSet = useMemo(() => new Set((v?.closed ?? []).map((c) => `${c.month}|${c.deptId}`)), [v]);
  const checkOf = useMemo(() => new Map((checkMonth ? check.data ?? [] : []).map((c) => [`${c.month}|${c.deptId}`, c])), [check.data, checkMonth]);
  const reset = <T,>(set: (x: T) => void) => (x: T) => {
    set(x);
    setPage((p) => ({ ...p, pageIndex: 1 }));
    setExpanded([]);
  };

  const columns: TableColumnsType<CostSummaryRow> = [
    {
      title: '月份', key: 'month', width: 150,
      render: (_, r) => {
        const k = `${r.month}|${r.deptId}`;
        const c = checkOf.get(k);
        return (
          <Space size={4}>
            {monthLabel(r.month)}
            {c ? <CheckMark check={c} /> : closedSet.has(k) ? <Tag>已结账</Tag> : null}
          </Space>
        );
      },
    },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 160, ellipsis: true },
    { title: '成本单数', key: 'orderCount', width: 90, align: 'right', render: (_, r) => <Figure>{r.orderCount}</Figure> },
    { title: '不含税金额', key: 'amount', width: 150, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
    { title: '税额', key: 'tax', width: 130, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'total', width: 150, align: 'right', render: (_, r) => <Money fen={r.amount + r.tax} strong /> },
  ];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="cost-summary">
      <Card className="list-page-filters" size="small">
        <Form layout="inline" className="list-page-form">
          <Form.Item label="月份">
            <DatePicker.RangePicker
              picker="month"
              allowClear={false}
              value={[fromMonth(months[0]), fromMonth(months[1])]}
              onChange={(r: [Dayjs | null, Dayjs | null] | null) => r?.[0] && r[1] && reset(setMonths)([r[0].format('YYYY-MM'), r[1].format('YYYY-MM')])}
              placeholder={['开始月份', '结束月份']}
              data-testid="summary-months"
            />
          </Form.Item>
          <Form.Item label="部门"><CostDeptSelect value={deptId} onChange={reset(setDeptId)} aria-label="部门" /></Form.Item>
          <Form.Item label="项目">
            <CostProjectSelect value={projectId} onChange={reset(setProjectId)} style={{ width: 220 }} aria-label="项目" />
          </Form.Item>
          <Form.Item label="费用类别">
            <Select allowClear placeholder="全部类别" style={{ width: 130 }} value={category} onChange={reset(setCategory)} options={COST_CATEGORY_OPTIONS} aria-label="费用类别" />
          </Form.Item>
          <div className="list-page-actions">
            <ExportButton fileName={`月度成本汇总${months[0]}至${months[1]}`} run={() => costOrderApi.exportSummary(filters)} disabled={!v?.total} />
          </div>
        </Form>
      </Card>
      {problem.success ? null : <Alert type="warning" showIcon title={problem.error.issues[0]?.message ?? '查询条件不正确'} data-testid="summary-problem" />}
      <Row gutter={12}>
        <Col xs={24} lg={15}>
          <Card size="small" title="成本趋势（按月）">
            {trend ? <EChart option={trend} height={300} testId="summary-trend" /> : <Empty description="所选范围内没有成本" />}
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          <Card size="small" title="成本构成（按费用类别，不含税）">
            {composition ? <EChart option={composition} height={300} testId="summary-composition" /> : <Empty description="所选范围内没有成本" />}
          </Card>
        </Col>
      </Row>
      {v?.closed.length ? (
        <CloseCheckCard closed={v.closed} month={checkMonth} onMonth={setChosenCheck} checks={check.data} loading={check.isFetching} failed={check.isError} />
      ) : null}
      <Card size="small" className="list-page-table" title="月度成本汇总（元；待审核与已审核成本单，作废不计）" extra={<Typography.Text type="secondary">展开一行查看各项目，点击项目查看其成本单</Typography.Text>}>
        <Table<CostSummaryRow>
          rowKey={rowKey}
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '所选范围内没有成本')}
          pagination={tablePagination(page, v?.total ?? 0, '行')}
          onChange={(p) => setPage(pageFromTable(p, page))}
          expandable={{
            expandedRowKeys: expanded,
            onExpandedRowsChange: setExpanded,
            expandRowByClick: true,
            expandedRowRender: (r) => <ProjectsTable row={r} projectId={projectId} category={category} onOpen={setDrill} />,
          }}
          onRow={(r) => ({ style: { cursor: 'pointer' }, 'data-testid': `summary-row-${rowKey(r)}` }) as React.HTMLAttributes<HTMLElement>}
          summary={() =>
            v && rows.length ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row data-testid="summary-totals">
                  <SummaryLabel colSpan={3}>合计（全部 {v.total} 行）</SummaryLabel>
                  <Table.Summary.Cell index={3} align="right"><Figure strong>{v.totals.orderCount}</Figure></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={v.totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right"><Money fen={v.totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right"><Money fen={v.totals.total} strong /></Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
      <OrdersDrawer target={drill} onClose={() => setDrill(null)} />
    </Space>
  );
}
