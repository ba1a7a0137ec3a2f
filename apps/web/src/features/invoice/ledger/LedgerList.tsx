/**
 * 销项发票台账: every issued invoice with filters, sortable columns, server paging, the totals of the
 * filtered set (a summary row), Excel export of the whole filtered set with progress, and print.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Form, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { SourceKind, type LedgerRow } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { useSession } from '../../../stores/session';
import { KindTag, Money, StatusTag } from '../widgets';
import { ExportProgress } from '../../common/ExportProgress';
import { LedgerFilters } from './LedgerFilters';
import { PrintButton } from './PrintModal';
import { canChangeLedger, detailPath, LEDGER_KEY, toLedgerRequest, uploadPath, type LedgerFormValues } from './request';
import { tableScrollX } from '../../../components/tableWidth';
import { pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort, FilterButtons } from '../../../components/listTable';
import '../../../components/listPage.css';
import '../../common/ledger.css';


export default function LedgerList() {
  const [form] = Form.useForm<LedgerFormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const canChange = canChangeLedger(useSession((s) => s.roles));
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'list', params], queryFn: () => ledgerApi.list(params), placeholderData: keepPreviousData });
  const apply = (v: LedgerFormValues) => {
    setFilters(toLedgerRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<LedgerRow> = [
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, sorter: true, sortOrder: sorted('issueDate') ?? (sort ? null : 'descend'), fixed: 'left' },
    {
      title: '发票号码', key: 'invoiceNo', width: 200, sorter: true, sortOrder: sorted('invoiceNo'), fixed: 'left',
      render: (_, r) => <Link to={detailPath(r.id)} data-testid="ledger-detail-link">{r.digitalNo || r.invoiceNo}</Link>,
    },
    // Money right after the number (issue 31): at 1366 the 税额 and 价税合计 were cut by the pinned 操作 column.
    { title: '金额', key: 'amountExcl', width: 150, align: 'right', sorter: true, sortOrder: sorted('amountExcl'), render: (_, r) => <Money fen={r.amountExcl} /> },
    { title: '税额', key: 'tax', width: 140, align: 'right', sorter: true, sortOrder: sorted('tax'), render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'amountIncl', width: 160, align: 'right', sorter: true, sortOrder: sorted('amountIncl'), render: (_, r) => <Money fen={r.amountIncl} strong /> },
    { title: '种类', key: 'kind', width: 190, render: (_, r) => <KindTag kind={r.kind} colour={r.colour} /> },
    { title: '状态', key: 'status', width: 100, render: (_, r) => <StatusTag status={r.status} /> },
    { title: '购方名称', dataIndex: 'buyerName', key: 'buyerName', width: 200, ellipsis: true, sorter: true, sortOrder: sorted('buyerName') },
    { title: '项目', dataIndex: 'projectName', key: 'projectName', width: 160, ellipsis: true },
    { title: '来源', key: 'source', width: 70, render: (_, r) => SourceKind.label(r.source) },
    { title: '创建人', dataIndex: 'createdByName', key: 'createdByName', width: 90 },
    {
      title: '操作', key: 'actions', width: 120, fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          <Link to={detailPath(r.id)}>详情</Link>
          {canChange && r.source === SourceKind.history ? <Link to={uploadPath(r.id)}>上传文件</Link> : null}
        </Space>
      ),
    },
  ];
  const totals = q.data?.totals;
  const body = { ...filters, ...(sort ? { sort } : {}) };
  return (
    <div className="list-page" data-testid="invoice-ledger">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="invoice-ledger" layout="inline" onFinish={apply} className="list-page-form">
          <LedgerFilters />
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space wrap>
              <PrintButton body={body} disabled={!q.data?.total} />
              <ExportProgress path="/invoice/export" body={body} rows={q.data?.total ?? 0} fileName="销项发票台账" disabled={!q.data?.total} />
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<LedgerRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '没有符合条件的发票')}
          pagination={tablePagination(page, q.data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="ledger-totals" data-testid="ledger-totals">
                  {/* The label spans exactly the two fixed columns, so it stays beside them while the table scrolls;
                      the 操作 column keeps its own (empty) cell, so no fixed cell is wider than a fixed column. */}
                  <SummaryLabel colSpan={2}>筛选结果合计（{totals.count} 张）</SummaryLabel>
                  <Table.Summary.Cell index={2} align="right"><Money fen={totals.amountExcl} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={totals.amountIncl} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} colSpan={6} />
                  <Table.Summary.Cell index={11} />
                </Table.Summary.Row>
                {totals.voided.count > 0 ? (
                  <Table.Summary.Row className="ledger-totals ledger-totals-voided" data-testid="ledger-voided">
                    <SummaryLabel colSpan={2} secondary>已作废（{totals.voided.count} 张，不计入合计）</SummaryLabel>
                    <Table.Summary.Cell index={2} align="right"><Money fen={totals.voided.amountExcl} /></Table.Summary.Cell>
                    <Table.Summary.Cell index={3} align="right"><Money fen={totals.voided.tax} /></Table.Summary.Cell>
                    <Table.Summary.Cell index={4} align="right"><Money fen={totals.voided.amountIncl} /></Table.Summary.Cell>
                    <Table.Summary.Cell index={5} colSpan={6} />
                    <Table.Summary.Cell index={11} />
                  </Table.Summary.Row>
                ) : null}
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
