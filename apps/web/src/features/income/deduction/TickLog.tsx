/**
 * 勾选日志 (/income/invoice/log), issue 14: every tick and undo of every invoice, newest first; filters
 * 操作人, 操作日期, 发票号码, 用途, 操作, 结果, 批次; 导出Excel streams the filtered log (log-export).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, Input, Select, Table, Tag, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { NonDeductReason, TickAction, TickResult, TickUsage, type TickLogRow } from '@zhyy/shared';
import { tableScrollX } from '../../../components/tableWidth';
import { pageFromTable, tableLocale, tablePagination, FilterButtons } from '../../../components/listTable';
import { formatTime } from '../../../components/download';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { TICK_KEY, TICK_LOG_EXPORT, tickApi } from './api';
import '../../../components/listPage.css';

interface LogFormValues {
  userName?: string;
  days?: [Dayjs | null, Dayjs | null] | null;
  number?: string;
  vatUsage?: number;
  action?: string;
  result?: number;
  batchId?: string;
}

export function toLogRequest(v: LogFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
    userName: v.userName?.trim(),
    from: v.days?.[0]?.format('YYYY-MM-DD'),
    to: v.days?.[1]?.format('YYYY-MM-DD'),
    number: v.number?.trim(),
    vatUsage: v.vatUsage,
    action: v.action,
    result: v.result,
    batchId: v.batchId?.trim(),
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}

const opts = <V,>(items: ReadonlyArray<{ value: V; label: string }>) => items.map((o) => ({ value: o.value, label: o.label }));

export default function TickLog() {
  const [form] = Form.useForm<LogFormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const params = { ...filters, ...page };
  const q = useQuery({ queryKey: [...TICK_KEY, 'log', params], queryFn: () => tickApi.log(params), placeholderData: keepPreviousData });
  const apply = (v: LogFormValues) => {
    setFilters(toLogRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const columns: TableColumnsType<TickLogRow> = [
    { title: '操作时间', key: 'createdAt', width: 170, render: (_, r) => formatTime(r.createdAt) },
    { title: '操作人', dataIndex: 'userName', key: 'userName', width: 100 },
    { title: '操作', key: 'action', width: 100, render: (_, r) => TickAction.label(r.action) },
    { title: '发票号码', dataIndex: 'invoiceNumber', key: 'invoiceNumber', width: 210 },
    // Issue 31: the two taxes right after the invoice, whole at 1366 without scrolling; the descriptive columns after.
    { title: '税额', key: 'tax', width: 120, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '有效税额', key: 'effectiveTax', width: 120, align: 'right', render: (_, r) => <Money fen={r.effectiveTax} /> },
    { title: '结果', key: 'result', width: 80, render: (_, r) => <Tag color={r.result === 1 ? 'green' : r.result === 2 ? 'default' : 'red'}>{TickResult.label(r.result)}</Tag> },
    // 不抵扣原因 is filled only for 不抵扣 ticks: a tag beside the usage, not a column of dashes.
    {
      title: '用途', key: 'vatUsage', width: 200,
      render: (_, r) => (
        <span className="cell-line">
          {TickUsage.label(r.vatUsage)}
          {r.deductReason ? <Tag data-testid="tick-log-reason">{NonDeductReason.label(r.deductReason)}</Tag> : null}
        </span>
      ),
    },
    { title: '所属期', dataIndex: 'period', key: 'period', width: 90 },
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110 },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true },
    { title: '说明', dataIndex: 'message', key: 'message', width: 260, ellipsis: true },
    { title: '批次', dataIndex: 'batchId', key: 'batchId', width: 300, ellipsis: true },
  ];
  return (
    <div className="list-page" data-testid="tick-log">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="income-tick-log" layout="inline" onFinish={apply} className="list-page-form">
          <Form.Item name="userName" label="操作人"><Input allowClear maxLength={50} placeholder="姓名" style={{ width: 130 }} /></Form.Item>
          <Form.Item name="days" label="操作日期"><DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} /></Form.Item>
          <Form.Item name="number" label="发票号码"><Input allowClear maxLength={40} placeholder="发票号码/数电号码" style={{ width: 190 }} /></Form.Item>
          <Form.Item name="vatUsage" label="用途"><Select allowClear placeholder="全部" style={{ width: 120 }} options={opts(TickUsage.options)} /></Form.Item>
          <Form.Item name="action" label="操作"><Select allowClear placeholder="全部" style={{ width: 120 }} options={opts(TickAction.options)} /></Form.Item>
          <Form.Item name="result" label="结果"><Select allowClear placeholder="全部" style={{ width: 100 }} options={opts(TickResult.options)} /></Form.Item>
          <Form.Item name="batchId" label="批次"><Input allowClear maxLength={40} placeholder="批次号" style={{ width: 200 }} /></Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <ExportProgress path={TICK_LOG_EXPORT} body={filters} rows={q.data?.total ?? 0} fileName="勾选日志" disabled={!q.data?.total} />
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<TickLogRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '没有勾选日志')}
          pagination={tablePagination(page, q.data?.total ?? 0)}
          onChange={(p) => setPage(pageFromTable(p, page))}
        />
      </Card>
    </div>
  );
}
