/**
 * 抵扣测算 (/invoice/calc-deduction/statistic, issue 14 计算抵扣): the passenger transport deduction of a tax
 * period (default the current month, Asia/Shanghai). Each ticket with its basis, formula and computed tax
 * (packages/shared transport-rules.ts, computed by the server), why it is not deductible when it is not,
 * the server's totals of the filtered set in a 合计 row, the tax by kind and over the last twelve periods
 * as bar charts, and the streamed Excel export of the filtered set.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, DatePicker, Empty, Form, Input, Row, Select, Statistic, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatFen, IncomeUseKind, TransportKind, TransportReason, type TransportRow } from '@zhyy/shared';
import { EChart } from '../../../components/EChart';
import { tableScrollX } from '../../../components/tableWidth';
import { pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort, FilterButtons } from '../../../components/listTable';
import { shanghaiNow } from '../../../utils/time';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { poolDetailPath, poolNumber } from '../pool/request';
import { transportApi, TRANSPORT_CALLS } from './api';
import { byKindOption, byMonthOption } from './charts';
import '../../../components/listPage.css';
import '../../common/ledger.css';

export const TRANSPORT_KEY = ['income', 'transport'] as const;

interface FormValues {
  transportKind?: string;
  passengerName?: string;
  sellerName?: string;
  deductible?: 'yes' | 'no';
  reason?: string;
}

/** The filters as the list call takes them: texts trimmed, empty ones left out. */
export function toTransportRequest(v: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.transportKind) out.transportKind = v.transportKind;
  if (v.passengerName?.trim()) out.passengerName = v.passengerName.trim();
  if (v.sellerName?.trim()) out.sellerName = v.sellerName.trim();
  if (v.deductible) out.deductible = v.deductible === 'yes';
  if (v.reason) out.reason = v.reason;
  return out;
}

const periodOf = (d: Dayjs) => d.format('YYYYMM');

export default function TransportDeduction() {
  const [form] = Form.useForm<FormValues>();
  const [month, setMonth] = useState<Dayjs>(() => shanghaiNow().startOf('month'));
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const period = periodOf(month);
  const params = { period, ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...TRANSPORT_KEY, 'list', params], queryFn: () => transportApi.page(params), placeholderData: keepPreviousData });
  const from = periodOf(month.subtract(11, 'month'));
  const s = useQuery({ queryKey: [...TRANSPORT_KEY, 'summary', from, period], queryFn: () => transportApi.summary(from, period), placeholderData: keepPreviousData });
  const apply = (v: FormValues) => {
    setFilters(toTransportRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<TransportRow> = [
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, sorter: true, sortOrder: sorted('issueDate') ?? (sort ? null : 'descend'), fixed: 'left' },
    { title: '发票号码', key: 'number', width: 200, fixed: 'left', render: (_, r) => <Link to={poolDetailPath(r.id)}>{poolNumber(r) || '—'}</Link> },
    { title: '票据种类', key: 'transportKind', width: 200, render: (_, r) => TransportKind.label(r.transportKind) },
    { title: '旅客', dataIndex: 'passengerName', key: 'passengerName', width: 90, sorter: true, sortOrder: sorted('passengerName'), render: (v: string) => v || <Typography.Text type="secondary">未注明</Typography.Text> },
    { title: '出行日期', dataIndex: 'travelDate', key: 'travelDate', width: 110, render: (v: string) => v || '—' },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true, sorter: true, sortOrder: sorted('sellerName') },
    { title: '票面金额', key: 'amountIncl', width: 130, align: 'right', sorter: true, sortOrder: sorted('amountIncl'), render: (_, r) => <Money fen={r.amountIncl} /> },
    { title: '计算依据', key: 'formula', width: 290, ellipsis: true, render: (_, r) => <Tooltip title={r.transportKind === 'air' ? `票价 ${formatFen(r.fare)} + 燃油附加费 ${formatFen(r.fuel)}` : undefined}>{r.formula}</Tooltip> },
    { title: '计算基数', key: 'basis', width: 150, align: 'right', sorter: true, sortOrder: sorted('basis'), render: (_, r) => <Money fen={r.basis} /> },
    { title: '计算税额', key: 'tax', width: 120, align: 'right', sorter: true, sortOrder: sorted('tax'), render: (_, r) => <Money fen={r.formulaTax} /> },
    { title: '可抵扣税额', key: 'deductibleTax', width: 150, align: 'right', render: (_, r) => <Money fen={r.tax} strong /> },
    {
      title: '抵扣', key: 'deductible', width: 230,
      render: (_, r) => (r.deductible ? <Tag color="success">可抵扣</Tag> : <Tag color="default">不可抵扣：{TransportReason.label(r.reason ?? '')}</Tag>),
    },
    { title: '报销单据', key: 'docNo', width: 190, ellipsis: true, render: (_, r) => (r.docNo ? `${IncomeUseKind.label(r.useKind)} ${r.docNo}` : '—') },
  ];
  const d = q.data;
  const totals = d?.totals;
  return (
    <div className="list-page" data-testid="transport-deduction">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="income-transport" layout="inline" onFinish={apply} className="list-page-form">
          <Form.Item label="所属期">
            <DatePicker picker="month" allowClear={false} value={month} format="YYYY年MM月" onChange={(v) => { if (v) { setMonth(v.startOf('month')); setPage((p) => ({ ...p, pageIndex: 1 })); } }} data-testid="transport-period" />
          </Form.Item>
          <Form.Item name="transportKind" label="票据种类">
            <Select allowClear placeholder="全部" style={{ width: 200 }} options={TransportKind.values.map((k) => ({ value: k, label: TransportKind.label(k) }))} />
          </Form.Item>
          <Form.Item name="passengerName" label="旅客">
            <Input allowClear placeholder="旅客姓名，包含即可" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="sellerName" label="销方">
            <Input allowClear placeholder="销方名称，包含即可" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="deductible" label="抵扣">
            <Select allowClear placeholder="全部" style={{ width: 120 }} options={[{ value: 'yes', label: '可抵扣' }, { value: 'no', label: '不可抵扣' }]} />
          </Form.Item>
          <Form.Item name="reason" label="不可抵扣原因">
            <Select allowClear placeholder="全部" style={{ width: 170 }} options={TransportReason.values.map((k) => ({ value: k, label: TransportReason.label(k) }))} />
          </Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <ExportProgress path={TRANSPORT_CALLS.export} body={{ period, ...filters, ...(sort ? { sort } : {}) }} rows={d?.total ?? 0} fileName={`旅客运输计算抵扣${period}`} disabled={!d?.total} />
          </div>
        </Form>
      </Card>
      <Row gutter={12}>
        <Col xs={24} lg={6}>
          <Card size="small" style={{ height: '100%' }}>
            <Statistic title={`${month.format('YYYY年MM月')}可抵扣税额（元）`} value={totals ? formatFen(totals.tax) : '—'} loading={q.isLoading} data-testid="transport-tax" />
            <Typography.Text type="secondary">
              {totals ? `旅客运输票据 ${totals.count} 张，可抵扣 ${totals.deductibleCount} 张，计入本期抵扣` : ''}
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title="本期可抵扣税额（按种类）">
            {d?.byKind.some((k) => k.tax !== 0) ? <EChart option={byKindOption(d.byKind)} height={200} testId="transport-kind-chart" /> : <Empty description={q.isLoading ? '加载中…' : '本期没有可抵扣的旅客运输票据'} />}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title="近12个所属期可抵扣税额">
            {s.data?.total.tax ? <EChart option={byMonthOption(s.data.months)} height={200} testId="transport-month-chart" /> : <Empty description={s.isLoading ? '加载中…' : '近12个月没有可抵扣的旅客运输票据'} />}
          </Card>
        </Col>
      </Row>
      <Card size="small" className="list-page-table">
        <Table<TransportRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={d?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '本期没有符合条件的旅客运输票据')}
          pagination={tablePagination(page, d?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="ledger-totals" data-testid="transport-totals">
                  <SummaryLabel colSpan={2}>合计（{totals.count} 张，可抵扣 {totals.deductibleCount} 张）</SummaryLabel>
                  <Table.Summary.Cell index={2} colSpan={6} />
                  <Table.Summary.Cell index={8} align="right"><Money fen={totals.basis} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={9} />
                  <Table.Summary.Cell index={10} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={11} colSpan={2} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
