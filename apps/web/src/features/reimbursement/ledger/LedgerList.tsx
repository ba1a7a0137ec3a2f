/**
 * 报销台账: every bill that left draft (审批中, 已退回, 已通过 — a draft is still the applicant's own),
 * filters, sortable columns, server paging, the totals of the whole filtered set in a 合计 row, and the
 * streamed Excel export of the filtered bills, or of their lines (按明细行导出), with progress.
 */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, DatePicker, Form, Input, Select, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { REIMB_LEDGER_FLOW_STATES, ReimbFlowState, ReimbState, type ReimbLedgerRow } from '@zhyy/shared';
import { REIMB_EXPORT_PATHS, reimbLedgerApi } from '../../../api/reimbursementLedger';
import { AmountRangeItem } from '../../../components/AmountRangeItem';
import { formatDateTime } from '../../../components/format';
import { FilterButtons, pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { billPath, FlowTag, REIMB_LEDGER_KEY, ReimbTag, toLedgerRequest, useReportOptions, type LedgerFormValues } from './common';
import '../../../components/listPage.css';
import './reports.css';

function Filters() {
  const [more, setMore] = useState(false);
  const options = useReportOptions();
  return (
    <>
      <Form.Item name="billNo" label="报销单号">
        <Input allowClear placeholder="完整或部分单号" maxLength={40} style={{ width: 170 }} />
      </Form.Item>
      <Form.Item name="applicant" label="申请人">
        <Input allowClear placeholder="姓名" maxLength={40} style={{ width: 110 }} />
      </Form.Item>
      <Form.Item name="deptId" label="部门">
        <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部部门" loading={options.isLoading} style={{ width: 160 }} options={(options.data?.depts ?? []).map((d) => ({ value: d.id, label: d.name }))} />
      </Form.Item>
      <Form.Item name="reimbState" label="报销状态">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={ReimbState.options.map((o) => ({ value: o.value, label: o.label }))} />
      </Form.Item>
      <Form.Item name="flowState" label="审批状态">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={REIMB_LEDGER_FLOW_STATES.map((v) => ({ value: v, label: ReimbFlowState.label(v) }))} />
      </Form.Item>
      {more ? (
        <>
          <Form.Item name="project" label="项目">
            <Input allowClear placeholder="项目名称包含即可" maxLength={100} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="categoryCode" label="费用类别">
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部" loading={options.isLoading} style={{ width: 160 }} options={(options.data?.categories ?? []).map((c) => ({ value: c.code, label: c.name }))} />
          </Form.Item>
          <Form.Item name="submitted" label="提交日期">
            <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
          </Form.Item>
          <Form.Item name="approved" label="审批通过">
            <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
          </Form.Item>
          <Form.Item name="voucher" label="凭证日期">
            <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
          </Form.Item>
          <AmountRangeItem label="报销金额（元）" />
          <Form.Item name="voucherNo" label="凭证号">
            <Input allowClear placeholder="包含即可" maxLength={40} style={{ width: 140 }} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item>
        <Button type="link" onClick={() => setMore(!more)} icon={more ? <UpOutlined /> : <DownOutlined />} data-testid="reimb-more-filters">
          {more ? '收起' : '更多筛选'}
        </Button>
      </Form.Item>
    </>
  );
}

export default function LedgerList() {
  const [form] = Form.useForm<LedgerFormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [withLines, setWithLines] = useState(false);
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...REIMB_LEDGER_KEY, 'list', params], queryFn: () => reimbLedgerApi.list(params), placeholderData: keepPreviousData });
  const apply = (v: LedgerFormValues) => {
    setFilters(toLedgerRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<ReimbLedgerRow> = [
    { title: '报销单号', key: 'billNo', width: 150, fixed: 'left', sorter: true, sortOrder: sorted('billNo'), render: (_, r) => <Link to={billPath(r.id)} data-testid="reimb-detail-link">{r.billNo}</Link> },
    { title: '申请人', dataIndex: 'applicantName', key: 'applicantName', width: 90, sorter: true, sortOrder: sorted('applicantName') },
    // Issue 31: the bill's four amounts right after who claimed, whole beside 操作 at 1366; the description after.
    { title: '报销金额', key: 'amount', width: 130, align: 'right', sorter: true, sortOrder: sorted('amount'), render: (_, r) => <Money fen={r.amount} /> },
    { title: '核定金额', key: 'approvedAmount', width: 130, align: 'right', sorter: true, sortOrder: sorted('approvedAmount'), render: (_, r) => <Money fen={r.approvedAmount} strong /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '可抵扣税额', key: 'deductibleTax', width: 110, align: 'right', render: (_, r) => <Money fen={r.deductibleTax} /> },
    { title: '审批状态', key: 'flowState', width: 90, render: (_, r) => <FlowTag state={r.flowState} /> },
    { title: '报销状态', key: 'reimbState', width: 90, render: (_, r) => <ReimbTag state={r.reimbState} /> },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120, ellipsis: true },
    { title: '项目', dataIndex: 'projectName', key: 'projectName', width: 140, ellipsis: true },
    { title: '费用类别', dataIndex: 'categories', key: 'categories', width: 150, ellipsis: true },
    { title: '凭证号', dataIndex: 'voucherNo', key: 'voucherNo', width: 130, ellipsis: true },
    { title: '凭证日期', dataIndex: 'voucherDate', key: 'voucherDate', width: 110, sorter: true, sortOrder: sorted('voucherDate') },
    { title: '提交时间', key: 'submittedAt', width: 170, sorter: true, sortOrder: sorted('submittedAt') ?? (sort ? null : 'descend'), render: (_, r) => formatDateTime(r.submittedAt) },
    { title: '操作', key: 'actions', width: 70, fixed: 'right', render: (_, r) => <Link to={billPath(r.id)}>详情</Link> },
  ];
  const totals = q.data?.totals;
  const body = { ...filters, ...(sort ? { sort } : {}), ...(withLines ? { withLines: true } : {}) };
  const rows = withLines ? (totals?.lineCount ?? 0) : (q.data?.total ?? 0);
  return (
    <div className="list-page" data-testid="reimb-ledger">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="reimb-ledger" layout="inline" onFinish={apply} className="list-page-form">
          <Filters />
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space wrap>
              <Checkbox checked={withLines} onChange={(e) => setWithLines(e.target.checked)} data-testid="reimb-export-lines">按明细行导出</Checkbox>
              <ExportProgress path={REIMB_EXPORT_PATHS.ledger} body={body} rows={rows} fileName={withLines ? '报销台账明细' : '报销台账'} disabled={!q.data?.total} />
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<ReimbLedgerRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '没有符合条件的报销单')}
          pagination={tablePagination(page, q.data?.total ?? 0, '笔')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="reimb-totals" data-testid="reimb-ledger-totals">
                  <SummaryLabel colSpan={1}>合计（{totals.count} 笔）</SummaryLabel>
                  <Table.Summary.Cell index={1} />
                  <Table.Summary.Cell index={2} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right"><Money fen={totals.approvedAmount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right"><Money fen={totals.deductibleTax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} colSpan={8} />
                  <Table.Summary.Cell index={14} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
