/**
 * One outside system's sync log (同步日志): every exchange by business key (an order or bill number), method,
 * status and time, the bodies readable in a drawer. The invoicing (tax service) and reimbursement (accounting
 * system) pages are this list with their own calls, key filter and detail fields.
 */
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Form, Input, Select, Skeleton, Typography, type DescriptionsProps, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { PageResult } from '@zhyy/shared';
import type { ListParams } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { RangeItem, withRange } from './rangeFilters';
import { SYNC_STATUS_OPTIONS, SyncStatusAlert, SyncStatusTag } from './syncStatus';
import './sync.css';

/** JSON bodies are pretty-printed; anything else is shown as the text it is (never as HTML). */
export function prettyBody(body: string | null): string {
  if (body === null || body === '') return '（无）';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export interface SyncExchangeRowBase {
  id: string;
  type: string;
  status: number;
  memo: string;
  durationMs: number | null;
  userName: string;
  createdAt: string;
}
export interface SyncExchangeDetailBase extends SyncExchangeRowBase {
  request: string | null;
  response: string | null;
}

export interface SyncExchangeLogProps<R extends SyncExchangeRowBase, D extends SyncExchangeDetailBase> {
  testId: string;
  queryKey: readonly unknown[];
  fetch: (p: ListParams) => Promise<PageResult<R>>;
  fetchDetail: (id: string) => Promise<D>;
  /** The business key filter: its request field, label and placeholder. */
  keyFilter: { name: string; label: string; placeholder: string };
  methodPlaceholder: string;
  /** The method as the user reads it (a Chinese name); the code itself when absent. */
  methodLabel?: (type: string) => string;
  /** The detail's business key: its label and value. */
  detailKey: { label: string; value: (d: D) => string };
  /** Extra columns after 方法. */
  extraColumns?: TableColumnsType<R>;
  requestTestId?: string;
}

function Detail<D extends SyncExchangeDetailBase>({ id, onClose, queryKey, fetchDetail, detailKey, requestTestId, methodLabel = (t) => t }: { id: string | null; onClose: () => void; queryKey: readonly unknown[]; fetchDetail: (id: string) => Promise<D>; detailKey: SyncExchangeLogProps<SyncExchangeRowBase, D>['detailKey']; requestTestId?: string; methodLabel?: (type: string) => string }) {
  const q = useQuery({ queryKey: [...queryKey, 'detail', id], queryFn: () => fetchDetail(id!), enabled: !!id });
  const d = q.data;
  const items: DescriptionsProps['items'] = d
    ? [
        { key: 't', label: '方法', children: methodLabel(d.type) },
        { key: 's', label: '状态', children: <SyncStatusTag status={d.status} /> },
        { key: 'o', label: detailKey.label, children: detailKey.value(d) || '—' },
        { key: 'time', label: '时间', children: formatTime(d.createdAt) },
        { key: 'u', label: '操作人', children: d.userName },
        { key: 'dur', label: '耗时', children: d.durationMs === null ? '—' : `${d.durationMs} 毫秒` },
        { key: 'm', label: '说明', span: 2, children: d.memo || '—' },
      ]
    : [];
  return (
    <Drawer open={!!id} onClose={onClose} size={760} title="同步详情" destroyOnHidden>
      {!d ? <Skeleton active /> : (
        <>
          <SyncStatusAlert status={d.status} memo={d.memo} />
          <Descriptions size="small" column={2} bordered items={items} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>请求</Typography.Title>
          <pre className="sync-body" data-testid={requestTestId}>{prettyBody(d.request)}</pre>
          <Typography.Title level={5}>响应</Typography.Title>
          <pre className="sync-body">{prettyBody(d.response)}</pre>
        </>
      )}
    </Drawer>
  );
}

export function SyncExchangeLog<R extends SyncExchangeRowBase, D extends SyncExchangeDetailBase>(props: SyncExchangeLogProps<R, D>) {
  const [open, setOpen] = useState<string | null>(null);
  const columns: TableColumnsType<R> = [
    { title: '时间', dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 160, render: formatTime },
    { title: '方法', dataIndex: 'type', width: props.methodLabel ? 140 : 240, render: (v: string) => (props.methodLabel ? <span title={v}>{props.methodLabel(v)}</span> : v) },
    ...(props.extraColumns ?? []),
    { title: '状态', dataIndex: 'status', key: 'status', sorter: true, width: 120, render: (s: number) => <SyncStatusTag status={s} /> },
    { title: '说明', dataIndex: 'memo', ellipsis: true },
    { title: '操作人', dataIndex: 'userName', width: 90 },
    { title: '耗时', dataIndex: 'durationMs', key: 'durationMs', sorter: true, width: 90, align: 'right', render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
    { title: '操作', key: 'op', width: 70, render: (_: unknown, r) => <a onClick={() => setOpen(r.id)}>报文</a> },
  ];
  return (
    <>
      <ListPage<R>
        testId={props.testId}
        queryKey={props.queryKey}
        fetch={props.fetch}
        columns={columns}
        rowKey="id"
        toRequest={withRange}
        rowClassName={(r) => (r.status === 1 ? 'row-failure' : '')}
        emptyText="没有符合条件的同步记录"
        filters={
          <>
            <Form.Item name={props.keyFilter.name} label={props.keyFilter.label}><Input allowClear placeholder={props.keyFilter.placeholder} style={{ width: 200 }} maxLength={40} /></Form.Item>
            <Form.Item name="method" label="方法"><Input allowClear placeholder={props.methodPlaceholder} style={{ width: 180 }} maxLength={100} /></Form.Item>
            <Form.Item name="status" label="状态"><Select allowClear placeholder="全部" style={{ width: 90 }} options={SYNC_STATUS_OPTIONS} /></Form.Item>
            <RangeItem />
          </>
        }
      />
      <Detail id={open} onClose={() => setOpen(null)} queryKey={props.queryKey} fetchDetail={props.fetchDetail} detailKey={props.detailKey} requestTestId={props.requestTestId} methodLabel={props.methodLabel} />
    </>
  );
}
