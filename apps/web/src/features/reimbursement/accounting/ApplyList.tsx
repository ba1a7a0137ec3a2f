/**
 * 一键报销 (/reimbursement/nuonuo/reimbursement/apply/list, roles 1, 12, 16): the approved bills not yet in
 * the accounting system (未报销, 报销失败 with the reason), filters, totals of every matching bill; select
 * one or many and push after a confirmation. Bills go one by one — a progress bar and each bill's result
 * (voucher number or the reason) — and the list reloads. 编辑 opens the bill's accounting fields.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Progress, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatFen, type ReimbApplyRow, type ReimbPushAnswer, type ReimbPushResult } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { reimbAccountingApi } from '../../../api/reimbursementAccounting';
import { formatTime } from '../../../components/download';
import { FilterButtons, pageFromTable, sortFromTable, SummaryLabel, tableLocale, tablePagination, type TableSort } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { dayRange, editPath, REIMB_ACCOUNTING_KEY, STATE_COLOURS, stateText } from './common';
import '../../../components/listPage.css';

export const STATE_OPTIONS = [
  { value: 0, label: '未报销' },
  { value: 2, label: '报销失败' },
];

export interface PushRun {
  total: number;
  results: ReimbPushResult[];
  running: boolean;
}

/** Pushes the bills one at a time, telling after each; a refused call becomes that bill's failed result. */
export async function pushOneByOne(rows: readonly Pick<ReimbApplyRow, 'id' | 'billNo'>[], onResult: (r: ReimbPushResult) => void): Promise<void> {
  for (const row of rows) {
    try {
      const a = await reimbAccountingApi.push([row.id]);
      for (const r of a.r?.results ?? []) onResult(r);
    } catch (e) {
      // A refused push (30000, issue 27 item 8) carries the bill's result beside the message.
      const refused = e instanceof ApiError ? (e.envelope?.r as ReimbPushAnswer | undefined)?.results : undefined;
      if (refused?.length) for (const r of refused) onResult(r);
      else onResult({ billId: row.id, billNo: row.billNo, ok: false, reimbState: null, voucherNo: '', voucherPeriod: '', message: e instanceof Error ? e.message : '推送失败' });
    }
  }
}

export function PushResults({ run }: { run: PushRun }) {
  const done = run.results.length;
  const ok = run.results.filter((r) => r.ok).length;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="push-progress">
      <Progress percent={run.total ? Math.round((done / run.total) * 100) : 0} status={run.running ? 'active' : ok === run.total ? 'success' : 'exception'} />
      <Typography.Text>{run.running ? `正在推送 ${done + 1}/${run.total} …` : `推送完成：成功${ok}张${done - ok ? `，失败${done - ok}张` : ''}`}</Typography.Text>
      <Table<ReimbPushResult>
        size="small"
        rowKey="billId"
        pagination={false}
        dataSource={run.results}
        scroll={{ y: 300 }}
        columns={[
          { title: '报销单号', dataIndex: 'billNo', width: 150 },
          { title: '结果', dataIndex: 'ok', width: 80, render: (v: boolean) => (v ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>) },
          { title: '说明', dataIndex: 'message' },
        ]}
        data-testid="push-results"
      />
    </Space>
  );
}

export default function ApplyList() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [selected, setSelected] = useState<ReimbApplyRow[]>([]);
  const [run, setRun] = useState<PushRun | null>(null);
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...REIMB_ACCOUNTING_KEY, 'apply', params], queryFn: () => reimbAccountingApi.applyList(params), placeholderData: keepPreviousData });

  const apply = (v: Record<string, unknown>) => {
    setFilters(Object.fromEntries(Object.entries(dayRange(v)).filter(([, x]) => x !== undefined && x !== null && x !== '')));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const start = (rows: ReimbApplyRow[]) => {
    if (!rows.length) return;
    const total = rows.reduce((s, r) => s + r.approvedAmount, 0);
    feedback().modal.confirm({
      title: rows.length === 1 ? `确认将报销单 ${rows[0]!.billNo} 推送会计系统？` : `确认将所选 ${rows.length} 张报销单推送会计系统？`,
      content: `核定金额合计 ${formatFen(total)} 元。每张报销单生成一张记账凭证，成功后其发票完成使用并标记入账。`,
      okText: '确认推送',
      cancelText: '取消',
      onOk: () => {
        setRun({ total: rows.length, results: [], running: true });
        void pushOneByOne(rows, (r) => setRun((x) => (x ? { ...x, results: [...x.results, r] } : x))).then(() => {
          setRun((x) => (x ? { ...x, running: false } : x));
          setSelected([]);
          void qc.invalidateQueries({ queryKey: REIMB_ACCOUNTING_KEY });
        });
      },
    });
  };

  const columns: TableColumnsType<ReimbApplyRow> = [
    { title: '报销单号', dataIndex: 'billNo', key: 'billNo', sorter: true, width: 150 },
    { title: '申请人', dataIndex: 'applicantName', key: 'applicantName', sorter: true, width: 90 },
    { title: '部门', dataIndex: 'deptName', width: 120, ellipsis: true },
    { title: '事由', dataIndex: 'reason', width: 200, ellipsis: true },
    { title: '申请金额', dataIndex: 'amount', key: 'amount', sorter: true, width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: '核定金额', dataIndex: 'approvedAmount', key: 'approvedAmount', sorter: true, width: 120, align: 'right', render: (v: number) => <Money fen={v} strong /> },
    { title: '可抵扣税额', dataIndex: 'deductibleTax', width: 110, align: 'right', render: (v: number) => <Money fen={v} /> },
    {
      title: '状态', dataIndex: 'reimbState', width: 240,
      render: (s: number, r) => (
        <Space orientation="vertical" size={0}>
          <Tag color={STATE_COLOURS[s]}>{stateText(s)}</Tag>
          {r.pushMessage ? <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="push-message">{r.pushMessage}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: '审批通过时间', dataIndex: 'approvedAt', key: 'approvedAt', sorter: true, width: 160, render: (v: string | null) => (v ? formatTime(v) : '—') },
    {
      title: '操作', key: 'op', width: 120, fixed: 'right',
      render: (_: unknown, r) => (
        <Space>
          <a onClick={() => navigate(editPath(r.id))}>编辑</a>
          <a onClick={() => start([r])} data-testid={`push-${r.billNo}`}>推送</a>
        </Space>
      ),
    },
  ];
  const data = q.data;
  return (
    <div className="list-page" data-testid="reimb-apply">
      <Card className="list-page-filters" size="small">
        <Form form={form} layout="inline" onFinish={apply} className="list-page-form">
          <Form.Item name="billNo" label="报销单号"><Input allowClear placeholder="BX…" style={{ width: 160 }} maxLength={40} /></Form.Item>
          <Form.Item name="applicant" label="申请人"><Input allowClear style={{ width: 120 }} maxLength={40} /></Form.Item>
          <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" style={{ width: 110 }} options={STATE_OPTIONS} /></Form.Item>
          <Form.Item name="days" label="审批日期"><DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} /></Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Button type="primary" disabled={!selected.length || !!run?.running} onClick={() => start(selected)} data-testid="push-selected">
              推送会计系统{selected.length ? `（${selected.length}）` : ''}
            </Button>
          </div>
        </Form>
      </Card>
      <Card size="small">
        {q.isError ? <Alert type="error" showIcon title="加载失败，请稍后重试" /> : null}
        <Table<ReimbApplyRow>
          rowKey="id"
          size="small"
          loading={q.isFetching}
          columns={columns}
          dataSource={data?.items ?? []}
          scroll={{ x: tableScrollX(columns) }}
          rowSelection={{ selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true }}
          pagination={tablePagination(page, data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setPage((cur) => pageFromTable(p, cur));
            setSort(sortFromTable(sorter));
          }}
          locale={tableLocale(q.isError, '没有待推送的报销单')}
          summary={() =>
            data?.total ? (
              <Table.Summary.Row>
                <SummaryLabel colSpan={5}>合计（{data.total}张）</SummaryLabel>
                <Table.Summary.Cell index={5} align="right"><Money fen={data.totals.amount} /></Table.Summary.Cell>
                <Table.Summary.Cell index={6} align="right"><Money fen={data.totals.approvedAmount} strong /></Table.Summary.Cell>
                <Table.Summary.Cell index={7} align="right"><Money fen={data.totals.deductibleTax} /></Table.Summary.Cell>
                <Table.Summary.Cell index={8} colSpan={3} />
              </Table.Summary.Row>
            ) : null
          }
          data-testid="apply-table"
        />
      </Card>
      <Modal open={!!run} title="推送会计系统" closable={!run?.running} maskClosable={false} onCancel={() => setRun(null)} footer={run?.running ? null : <Button type="primary" onClick={() => setRun(null)}>关闭</Button>} width={720}>
        {run ? <PushResults run={run} /> : null}
      </Modal>
    </div>
  );
}
