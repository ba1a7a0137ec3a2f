/**
 * The list of the three pool pages (进项票池, 其他票池, 异常票池): filters, sortable columns, server paging,
 * the server's totals of the filtered set in a 合计 row (as 销项发票台账), and the streamed Excel export of
 * the whole filtered set with progress. The 发票签收 pages show their waiting invoices in it too: another
 * list call (`list`), no export, their own detail page and row selection (`selection`).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Form, Space, Table, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { IncomeSource, type PoolPage, type PoolRow } from '@zhyy/shared';
import { incomeApi, POOL_CALLS, type PoolScope } from '../../../api/income';
import type { ListParams } from '../../../api/system';
import { tableScrollX } from '../../../components/tableWidth';
import { pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort, FilterButtons } from '../../../components/listTable';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { AbnormalFlags, BookingTag, IncomeKindTag, InvoiceStateTag, RedInvoiceTag, RiskTag, SignTag, statusCheckText, UsageTag, VerifyTag, useText } from './widgets';
import { POOL_KEY, poolDetailPath, poolNumber, toPoolRequest, type PoolFormValues } from './request';
import { PoolFilters } from './PoolFilters';
import '../../../components/listPage.css';
import '../../common/ledger.css';


export interface PoolTableProps {
  scope: PoolScope;
  testId: string;
  /** The export's file name without date and extension (进项票池). */
  fileName: string;
  emptyText: string;
  /** Buttons before 导出Excel (手工录入). */
  actions?: ReactNode;
  /** Shown above the filters (the abnormal count). */
  header?: ReactNode;
  /** Another list call than the scope's (the 发票签收 waiting lists): its query key and its call. */
  list?: { key: readonly unknown[]; fetch: (p: ListParams) => Promise<PoolPage> };
  /** The export call; null: no export (default: the scope's). */
  exportPath?: string | null;
  /** Where a row's number and 详情 lead (default: 票池发票详情). */
  detailPath?: (id: string) => string;
  /** The filter form's name, so each list's fields have their own ids (default income-pool-{scope}). */
  formName?: string;
  /** Row selection, kept across pages: the keys chosen and the rows they are. */
  selection?: { keys: readonly string[]; onChange: (keys: string[], rows: PoolRow[]) => void };
}

export function PoolTable({ scope, testId, fileName, emptyText, actions, header, list, exportPath, detailPath = poolDetailPath, formName, selection }: PoolTableProps) {
  const [form] = Form.useForm<PoolFormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({
    queryKey: [...(list?.key ?? [...POOL_KEY, scope]), params],
    queryFn: () => (list ? list.fetch(params) : incomeApi.page(scope, params)),
    placeholderData: keepPreviousData,
  });
  const exportCall = exportPath === undefined ? POOL_CALLS[scope].export : exportPath;
  // The selection column comes first: the 合计 row gives it a cell of its own.
  const off = selection ? 1 : 0;
  const apply = (v: PoolFormValues) => {
    setFilters(toPoolRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<PoolRow> = [
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, sorter: true, sortOrder: sorted('issueDate') ?? (sort ? null : 'descend'), fixed: 'left' },
    {
      title: '发票号码', key: 'invoiceNo', width: 200, sorter: true, sortOrder: sorted('invoiceNo'), fixed: 'left',
      render: (_, r) => <><Link to={detailPath(r.id)} data-testid="pool-detail-link">{poolNumber(r) || '—'}</Link> <RedInvoiceTag r={r} /></>,
    },
    // Money right after the number (issue 31): a clerk sees a row's figures at 1366 without scrolling.
    { title: '金额', key: 'amountExcl', width: 150, align: 'right', sorter: true, sortOrder: sorted('amountExcl'), render: (_, r) => <Money fen={r.amountExcl} /> },
    { title: '税额', key: 'tax', width: 140, align: 'right', sorter: true, sortOrder: sorted('tax'), render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'amountIncl', width: 160, align: 'right', sorter: true, sortOrder: sorted('amountIncl'), render: (_, r) => <Money fen={r.amountIncl} strong /> },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true, sorter: true, sortOrder: sorted('sellerName') },
    { title: '种类', key: 'kind', width: 200, render: (_, r) => <IncomeKindTag kind={r.kind} /> },
    // The rarely-set abnormal flags fold under the state (they took a 190 px column of their own, mostly empty).
    {
      title: '状态', key: 'invoiceState', width: 130,
      render: (_, r) => (
        <Space direction="vertical" size={2}>
          <InvoiceStateTag state={r.invoiceState} />
          <AbnormalFlags flags={r.abnormalFlags} />
        </Space>
      ),
    },
    { title: '查验', key: 'verifyState', width: 110, render: (_, r) => <VerifyTag state={r.verifyState} /> },
    // Issue 32: the bureau's grade and when the status re-check last asked (twice a day, the last 180 days).
    {
      title: '风险等级/核查', key: 'statusCheck', width: 170,
      render: (_, r) => (
        <Space direction="vertical" size={2} data-testid="pool-status-check">
          <RiskTag level={r.riskLevel} />
          <span style={{ color: 'var(--ant-color-text-secondary, #888)', fontSize: 12 }}>{statusCheckText(r)}</span>
        </Space>
      ),
    },
    { title: '签收', key: 'signState', width: 90, render: (_, r) => <SignTag state={r.signState} /> },
    { title: '入账状态', key: 'bookingState', width: 210, render: (_, r) => <BookingTag state={r.bookingState} /> },
    { title: '使用', key: 'usage', width: 90, render: (_, r) => <UsageTag usage={r.usage} /> },
    { title: '使用单据', key: 'docNo', width: 190, ellipsis: true, render: (_, r) => useText(r) },
    { title: '来源', key: 'source', width: 90, render: (_, r) => IncomeSource.label(r.source) },
    { title: '操作', key: 'actions', width: 70, fixed: 'right', render: (_, r) => <Link to={detailPath(r.id)}>详情</Link> },
  ];
  const totals = q.data?.totals;
  const body = { ...filters, ...(sort ? { sort } : {}) };
  return (
    <div className="list-page" data-testid={testId}>
      {header}
      <Card className="list-page-filters" size="small">
        <Form form={form} name={formName ?? `income-pool-${scope}`} layout="inline" onFinish={apply} className="list-page-form">
          <PoolFilters scope={scope} />
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space wrap>
              {actions}
              {exportCall ? <ExportProgress path={exportCall} body={body} rows={q.data?.total ?? 0} fileName={fileName} disabled={!q.data?.total} /> : null}
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<PoolRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          rowSelection={selection ? { selectedRowKeys: [...selection.keys], preserveSelectedRowKeys: true, fixed: 'left', onChange: (keys, rows) => selection.onChange(keys.map(String), rows.filter(Boolean)) } : undefined}
          scroll={{ x: tableScrollX(columns, undefined, { selection: !!selection }) }}
          locale={tableLocale(q.isError, emptyText)}
          pagination={tablePagination(page, q.data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="ledger-totals" data-testid="pool-totals">
                  {/* The label spans exactly the two fixed columns; the 操作 column keeps its own (empty) cell. */}
                  <SummaryLabel colSpan={2 + off}>筛选结果合计（{totals.count} 张）</SummaryLabel>
                  <Table.Summary.Cell index={2 + off} align="right"><Money fen={totals.amountExcl} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3 + off} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4 + off} align="right"><Money fen={totals.amountIncl} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5 + off} colSpan={9} />
                  <Table.Summary.Cell index={14 + off} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
