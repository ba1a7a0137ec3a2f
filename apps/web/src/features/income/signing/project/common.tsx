/**
 * Shared by 项目分摊 and 项目变更 of incoming invoices: the query key, the project lookup of the incoming
 * routes, the invoice picker (waiting to be signed or signed) and the change rows in the outgoing
 * screens' shape (their history parts are reused).
 */
import { useQuery } from '@tanstack/react-query';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Form, Input, Segmented, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { AllocationChangeRow, IncomeAllocationChangeRow, IncomeAllocationRow } from '@zhyy/shared';
import { incomeProjectApi } from '../../../../api/incomeRevoke';
import { Money } from '../../../common/Money';
import type { TargetLookupSource } from '../../../common/apportionment/common';
import { poolNumber } from '../../pool/request';

export const PROJECT_KEY = ['income', 'entry', 'project'] as const;

/** The project picker's lookup: /api/income/entry/project/targets (the outgoing one is not on these roles' pages). */
export const INCOME_PROJECTS: TargetLookupSource = { key: [...PROJECT_KEY, 'targets'], fetch: (keyword) => incomeProjectApi.targets(keyword) };

/** An incoming change row in the outgoing history's shape (ChangeTimeline, changeColumns). */
export const toChangeRow = (r: IncomeAllocationChangeRow): AllocationChangeRow => ({
  ...r,
  dim: 'project',
  action: r.action === 'move' ? 'move' : 'set',
  before: r.before.map((x) => ({ targetId: x.projectId, name: x.name, amountIncl: x.amountIncl })),
  after: r.after.map((x) => ({ targetId: x.projectId, name: x.name, amountIncl: x.amountIncl })),
});

export interface PickedInvoice {
  id: string;
  invoiceNo: string;
  sellerName: string;
  issueDate: string;
  amountIncl: number;
}

type Source = 'waiting' | 'signed';

const columns: TableColumnsType<PickedInvoice> = [
  { title: '发票号码', dataIndex: 'invoiceNo', width: 200 },
  { title: '销方名称', dataIndex: 'sellerName', ellipsis: true },
  { title: '开票日期', dataIndex: 'issueDate', width: 110 },
  { title: '价税合计', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
];

/** 1. 选择发票: the invoices waiting to be signed (the pool's filters) or the signed ones, by number or seller. */
export function InvoicePicker({ picked, onPick }: { picked: PickedInvoice | null; onPick: (r: PickedInvoice) => void }) {
  const [source, setSource] = useState<Source>('waiting');
  const [search, setSearch] = useState<{ number?: string; sellerName?: string }>({});
  const [pageIndex, setPageIndex] = useState(1);
  const pageSize = 8;
  const q = useQuery({
    queryKey: [...PROJECT_KEY, 'picker', source, search, pageIndex],
    queryFn: async (): Promise<{ items: PickedInvoice[]; total: number }> => {
      const base = { pageIndex, pageSize, ...(search.number ? { number: search.number } : {}) };
      if (source === 'waiting') {
        const p = await incomeProjectApi.waiting({ ...base, ...(search.sellerName ? { sellerName: search.sellerName } : {}) });
        return { items: p.items.map((r) => ({ id: r.id, invoiceNo: poolNumber(r), sellerName: r.sellerName, issueDate: r.issueDate, amountIncl: r.amountIncl })), total: p.total };
      }
      const p = await incomeProjectApi.signings({ ...base, state: 'signed' });
      return { items: p.items.map((r) => ({ id: r.invoiceId, invoiceNo: r.invoiceNo, sellerName: r.sellerName, issueDate: r.issueDate, amountIncl: r.amountIncl })), total: p.total };
    },
  });
  return (
    <Card
      size="small"
      title="1. 选择发票"
      extra={<Segmented<Source> value={source} onChange={(v) => { setSource(v); setPageIndex(1); }} options={[{ value: 'waiting', label: '待签收' }, { value: 'signed', label: '已签收' }]} data-testid="picker-source" />}
    >
      <Form layout="inline" style={{ marginBottom: 8 }} onFinish={(v: { number?: string; sellerName?: string }) => { setSearch({ number: v.number?.trim() || undefined, sellerName: v.sellerName?.trim() || undefined }); setPageIndex(1); }}>
        <Space wrap>
          <Form.Item name="number" noStyle><Input allowClear placeholder="发票号码（精确）" style={{ width: 200 }} data-testid="picker-number" /></Form.Item>
          {source === 'waiting' ? <Form.Item name="sellerName" noStyle><Input allowClear placeholder="销方名称" style={{ width: 160 }} /></Form.Item> : null}
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="picker-submit">查询</Button>
        </Space>
      </Form>
      <Table<PickedInvoice>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.items ?? []}
        pagination={{ current: pageIndex, pageSize, total: q.data?.total ?? 0, showSizeChanger: false, size: 'small', onChange: setPageIndex }}
        rowSelection={{ type: 'radio', selectedRowKeys: picked ? [picked.id] : [], onChange: (_k, rows) => rows[0] && onPick(rows[0]) }}
        onRow={(r) => ({ onClick: () => onPick(r), style: { cursor: 'pointer' } })}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的发票" /> }}
        data-testid="invoice-picker"
      />
    </Card>
  );
}

export const allocationColumns: TableColumnsType<IncomeAllocationRow> = [
  { title: '项目', dataIndex: 'projectName', ellipsis: true },
  { title: '不含税金额', dataIndex: 'amountExcl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
  { title: '税额', dataIndex: 'tax', align: 'right', width: 110, render: (v: number) => <Money fen={v} /> },
  { title: '价税合计', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} strong /> },
];

/** One invoice's detail for the project pages (allocations, department, changes). */
export const useEntryDetail = (id: string | undefined) =>
  useQuery({ queryKey: [...PROJECT_KEY, 'detail', id], queryFn: () => incomeProjectApi.detail(id!), enabled: !!id });

