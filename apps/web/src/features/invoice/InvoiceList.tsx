/**
 * The working list of the issuing, retry and cancellation screens: tabs, a filter bar, a
 * server-paginated table with row selection, totals of the filtered set, and the invoice drawer.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Form, Input, Select, Space, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { InvoiceKind, formatFen, type InvoiceRow } from '@zhyy/shared';
import type { InvoicePage } from '../../api/invoice';
import type { ListParams } from '../../api/system';
import { formatTime } from '../../components/download';
import { InvoiceDrawer } from './InvoiceDrawer';
import { INVOICE_KEY, KindTag, Money, StatusTag } from './widgets';
import { tableScrollX } from '../../components/tableWidth';
import { sortFromTable, tableLocale, tablePagination, type TableSort, FilterButtons } from '../../components/listTable';

export interface InvoiceListProps {
  name: string;
  tabs: Array<{ key: string; label: string }>;
  fetch: (p: ListParams) => Promise<InvoicePage>;
  /** Buttons above the table for the selected rows of the current tab. */
  actions: (ctx: { tab: string; selected: InvoiceRow[]; clear: () => void }) => ReactNode;
  /** Per-row operations. */
  rowActions?: (row: InvoiceRow, tab: string) => ReactNode;
  /** The tabs whose rows have operations; on the others there is no 操作 column (all tabs when absent). */
  rowActionTabs?: readonly string[];
  extraColumns?: (tab: string) => TableColumnsType<InvoiceRow>;
  selectable?: (tab: string) => boolean;
  testId: string;
}

export function InvoiceList(props: InvoiceListProps) {
  const [form] = Form.useForm();
  const [tab, setTab] = useState(props.tabs[0]!.key);
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [selected, setSelected] = useState<InvoiceRow[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const params: ListParams = { ...filters, ...page, tab, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...INVOICE_KEY, props.name, params], queryFn: () => props.fetch(params), placeholderData: keepPreviousData });
  const clear = () => setSelected([]);
  const selectable = props.selectable?.(tab) ?? true;

  const columns: TableColumnsType<InvoiceRow> = [
    { title: '订单号', dataIndex: 'orderNo', key: 'orderNo', width: 190, sorter: true, render: (v: string, r) => <a onClick={() => setOpen(r.id)}>{v}</a> },
    { title: '购买方', dataIndex: 'buyerName', key: 'buyerName', sorter: true, width: 220, ellipsis: { showTitle: true } },
    { title: '发票种类', dataIndex: 'kind', width: 170, render: (k: number, r) => <KindTag kind={k} colour={r.colour} /> },
    { title: '项目 / 合同', key: 'ref', width: 180, ellipsis: true, render: (_: unknown, r) => r.projectName || r.contractName || '—' },
    { title: '价税合计', dataIndex: 'amountIncl', key: 'amountIncl', sorter: true, align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
    { title: '状态', dataIndex: 'status', width: 100, render: (s: number, r) => <StatusTag status={s} invalid={r.invalid} /> },
    ...(props.extraColumns?.(tab) ?? []),
    { title: '更新时间', dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 160, render: formatTime },
    ...(props.rowActions && (!props.rowActionTabs || props.rowActionTabs.includes(tab)) ? [{ title: '操作', key: 'op', width: 150, render: (_: unknown, r: InvoiceRow) => <Space size={4}>{props.rowActions!(r, tab)}</Space> }] : []),
  ];

  return (
    <div className="list-page" data-testid={props.testId}>
      <Card size="small" className="list-page-filters">
        <Form form={form} layout="inline" name={`invoice-${props.name}`} onFinish={(v) => { setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== ''))); setPage((p) => ({ ...p, pageIndex: 1 })); }}>
          <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="购买方、订单号、发票号码" style={{ width: 220 }} maxLength={100} /></Form.Item>
          <Form.Item name="kind" label="发票种类"><Select allowClear placeholder="全部" style={{ width: 190 }} options={InvoiceKind.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); setFilters({}); }} />
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Tabs activeKey={tab} onChange={(k) => { setTab(k); clear(); setPage((p) => ({ ...p, pageIndex: 1 })); }} items={props.tabs.map((t) => ({ key: t.key, label: t.label }))} />
        <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }} wrap>
          <Space wrap>{props.actions({ tab, selected, clear })}</Space>
          {q.data?.total ? (
            <Typography.Text type="secondary">
              共 {q.data.total} 张，价税合计 {formatFen(q.data.totals.amountIncl)} 元，税额 {formatFen(q.data.totals.tax)} 元{selected.length ? `；已选 ${selected.length} 张` : ''}
            </Typography.Text>
          ) : null}
        </Space>
        <Table<InvoiceRow>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns, 0, { selection: selectable }) }}
          rowSelection={selectable ? { selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true } : undefined}
          locale={tableLocale(q.isError, '暂无发票')}
          pagination={tablePagination(page, q.data?.total ?? 0)}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage({ pageIndex: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          }}
        />
      </Card>
      <InvoiceDrawer id={open} onClose={() => setOpen(null)} />
    </div>
  );
}


export const failureColumn: TableColumnsType<InvoiceRow>[number] = { title: '失败原因', dataIndex: 'failureCause', width: 240, ellipsis: true, render: (v: string) => <Typography.Text type="danger">{v || '—'}</Typography.Text> };
export const numberColumn: TableColumnsType<InvoiceRow>[number] = { title: '发票号码', key: 'invoiceNo', width: 190, render: (_: unknown, r) => r.digitalNo || r.invoiceNo || '—' };
export const issuedColumn: TableColumnsType<InvoiceRow>[number] = { title: '开票时间', dataIndex: 'issuedAt', key: 'issuedAt', sorter: true, width: 160, render: formatTime };
