/** 同步日志: every exchange with the tax service, by invoice (order number), method, status and time; bodies readable. */
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Form, Input, Select, Skeleton, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { InvoiceSyncLogRow } from '@zhyy/shared';
import { invoiceApi } from '../../api/invoice';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { prettyBody } from '../system/SyncLogList';
import { RangeItem, withRange } from '../system/filters';
import { SYNC_STATUS_OPTIONS, SyncStatusAlert, SyncStatusTag } from '../system/syncStatus';
import { INVOICE_KEY } from './widgets';

function Detail({ id, onClose }: { id: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'sync', id], queryFn: () => invoiceApi.syncLogDetail(id!), enabled: !!id });
  const d = q.data;
  return (
    <Drawer open={!!id} onClose={onClose} size={760} title="同步详情" destroyOnHidden>
      {!d ? <Skeleton active /> : (
        <>
          <SyncStatusAlert status={d.status} memo={d.memo} />
          <Descriptions size="small" column={2} bordered items={[
            { key: 't', label: '方法', children: d.type },
            { key: 's', label: '状态', children: <SyncStatusTag status={d.status} /> },
            { key: 'o', label: '订单号', children: d.orderNo || '—' },
            { key: 'time', label: '时间', children: formatTime(d.createdAt) },
            { key: 'u', label: '操作人', children: d.userName },
            { key: 'dur', label: '耗时', children: d.durationMs === null ? '—' : `${d.durationMs} 毫秒` },
            { key: 'm', label: '说明', span: 2, children: d.memo || '—' },
          ]} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>请求</Typography.Title>
          <pre className="sync-body" data-testid="invoice-sync-request">{prettyBody(d.request)}</pre>
          <Typography.Title level={5}>响应</Typography.Title>
          <pre className="sync-body">{prettyBody(d.response)}</pre>
        </>
      )}
    </Drawer>
  );
}

export default function SyncLogPage() {
  const [open, setOpen] = useState<string | null>(null);
  const columns: TableColumnsType<InvoiceSyncLogRow> = [
    { title: '时间', dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 160, render: formatTime },
    { title: '方法', dataIndex: 'type', width: 260 },
    { title: '状态', dataIndex: 'status', key: 'status', sorter: true, width: 120, render: (s: number) => <SyncStatusTag status={s} /> },
    { title: '说明', dataIndex: 'memo', ellipsis: true },
    { title: '操作人', dataIndex: 'userName', width: 90 },
    { title: '耗时', dataIndex: 'durationMs', key: 'durationMs', sorter: true, width: 90, align: 'right', render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
    { title: '操作', key: 'op', width: 70, render: (_: unknown, r) => <a onClick={() => setOpen(r.id)}>报文</a> },
  ];
  return (
    <>
      <ListPage<InvoiceSyncLogRow>
        testId="invoice-synclog"
        queryKey={[...INVOICE_KEY, 'synclog']}
        fetch={invoiceApi.syncLogs}
        columns={columns}
        rowKey="id"
        toRequest={withRange}
        rowClassName={(r) => (r.status === 1 ? 'row-failure' : '')}
        emptyText="没有符合条件的同步记录"
        filters={
          <>
            <Form.Item name="orderNo" label="订单号"><Input allowClear placeholder="发票订单号" style={{ width: 200 }} maxLength={40} /></Form.Item>
            <Form.Item name="method" label="方法"><Input allowClear placeholder="如 requestBillingNew" style={{ width: 180 }} maxLength={100} /></Form.Item>
            <Form.Item name="status" label="状态"><Select allowClear placeholder="全部" style={{ width: 90 }} options={SYNC_STATUS_OPTIONS} /></Form.Item>
            <RangeItem />
          </>
        }
      />
      <Detail id={open} onClose={() => setOpen(null)} />
    </>
  );
}
