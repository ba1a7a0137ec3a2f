/** 集成同步日志 (role 1): every exchange with an outside system; failures stand out; bodies in a readable viewer. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Form, Input, Select, Skeleton, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { SyncSystem, type SyncLogRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { RangeItem, withRange } from '../common/rangeFilters';
import { ClientReportedTag, SYNC_STATUS_OPTIONS, SyncStatusAlert, SyncStatusTag } from '../common/syncStatus';
import { prettyBody } from '../common/SyncExchangeLog';
import './system.css';

function Detail({ id, onClose }: { id: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: ['system', 'sync', id], queryFn: () => systemApi.syncLogDetail(id!), enabled: !!id });
  const d = q.data;
  return (
    <Drawer open={!!id} onClose={onClose} size={720} title="同步详情" destroyOnHidden>
      {!d ? <Skeleton active /> : (
        <>
          <SyncStatusAlert status={d.status} memo={d.memo} />
          <Descriptions size="small" column={2} bordered items={[
            { key: 's', label: '系统', children: SyncSystem.label(d.system) },
            { key: 't', label: '类型', children: d.type },
            { key: 'st', label: '状态', children: <SyncStatusTag status={d.status} /> },
            { key: 'time', label: '时间', children: formatTime(d.createdAt) },
            { key: 'dur', label: '耗时', children: d.durationMs === null ? '—' : `${d.durationMs} 毫秒` },
            { key: 'u', label: '操作人', children: <>{d.userName || '系统'}{d.clientReported ? <> <ClientReportedTag /></> : null}</> },
            { key: 'm', label: '说明', span: 2, children: d.memo || '—' },
          ]} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>请求</Typography.Title>
          <pre className="sync-body" data-testid="sync-request">{prettyBody(d.request)}</pre>
          <Typography.Title level={5}>响应</Typography.Title>
          <pre className="sync-body" data-testid="sync-response">{prettyBody(d.response)}</pre>
        </>
      )}
    </Drawer>
  );
}

export default function SyncLogList() {
  const [open, setOpen] = useState<string | null>(null);
  const columns: TableColumnsType<SyncLogRow> = [
    { title: '时间', dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 160, render: formatTime },
    { title: '系统', dataIndex: 'system', width: 140, render: (s: number) => SyncSystem.label(s) },
    { title: '类型', dataIndex: 'type', width: 120 },
    { title: '状态', dataIndex: 'status', key: 'status', sorter: true, width: 120, render: (s: number) => <SyncStatusTag status={s} /> },
    { title: '说明', dataIndex: 'memo', ellipsis: true, render: (m: string, r) => <>{r.clientReported ? <ClientReportedTag /> : null}{m}</> },
    { title: '耗时', dataIndex: 'durationMs', key: 'durationMs', sorter: true, width: 90, align: 'right', render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
    { title: '操作', key: 'op', width: 70, render: (_: unknown, r) => <a onClick={() => setOpen(r.id)}>详情</a> },
  ];
  return (
    <>
      <ListPage<SyncLogRow>
        testId="sync-log"
        queryKey={['system', 'sync-log']}
        fetch={systemApi.syncLogs}
        columns={columns}
        rowKey="id"
        toRequest={withRange}
        rowClassName={(r) => (r.status === 1 ? 'row-failure' : '')}
        emptyText="没有符合条件的同步记录"
        header={(d) => {
          const failures = (d as { failures?: number } | undefined)?.failures ?? 0;
          if (!d?.total) return null;
          return <Alert type={failures ? 'warning' : 'success'} showIcon title={`符合条件的 ${d.total} 条记录中，失败 ${failures} 条（按状态筛选“失败”可只看失败记录）`} />;
        }}
        filters={
          <>
            <Form.Item name="system" label="系统"><Select allowClear placeholder="全部" style={{ width: 150 }} options={SyncSystem.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
            <Form.Item name="status" label="状态"><Select allowClear placeholder="全部" style={{ width: 90 }} options={SYNC_STATUS_OPTIONS} /></Form.Item>
            <Form.Item name="type" label="类型"><Input allowClear placeholder="同步类型" style={{ width: 120 }} maxLength={100} /></Form.Item>
            <RangeItem />
            <Form.Item name="text" label="说明"><Input allowClear placeholder="说明包含" style={{ width: 140 }} maxLength={100} /></Form.Item>
          </>
        }
      />
      <Detail id={open} onClose={() => setOpen(null)} />
    </>
  );
}
