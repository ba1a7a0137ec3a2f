/**
 * 导出日志 (/tender/file/file-export-log, roles 1 and 6): the tender file exports, newest first, with
 * who, when, title and file name, kind, format, items, size, state and how often the file was
 * downloaded (the SHA-256, of no use to a clerk in the list, only in the detail); filters (time, person, kind, state, keyword); the detail drawer lists the export's
 * contracts, certificates and people and every download (who, when); Excel export of the filter.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Descriptions, Drawer, Empty, Form, Input, Select, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { TENDER_EXPORT_ITEM_LABELS, TENDER_EXPORT_KIND_LABELS, TENDER_EXPORT_STATE_LABELS, type TenderExportLogRow } from '@zhyy/shared';
import { tenderExportStatApi } from '../../../api/tender-export-stat';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';

export const EXPORT_LOG_KEY = ['tender', 'export-stat'] as const;

/** Bytes as 12.3 MB / 456 KB / 789 B. */
export function sizeText(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** The filter bar's values as the list's request: the day range as from/to days. */
export function logRequest(values: Record<string, unknown>): Record<string, unknown> {
  const { range, ...rest } = values as { range?: [Dayjs | null, Dayjs | null] | null };
  const [a, b] = range ?? [null, null];
  return { ...rest, from: a ? a.format('YYYY-MM-DD') : undefined, to: b ? b.format('YYYY-MM-DD') : undefined };
}

export function StateTag({ row }: { row: Pick<TenderExportLogRow, 'state' | 'purged' | 'error'> }) {
  if (row.purged) return <Tooltip title="文件已超过保留期并被清理，需要时请重新生成"><Tag>已清理</Tag></Tooltip>;
  const color = { done: 'green', failed: 'red', running: 'blue', queued: 'default' }[row.state];
  const tag = <Tag color={color}>{TENDER_EXPORT_STATE_LABELS[row.state] ?? row.state}</Tag>;
  return row.state === 'failed' && row.error ? <Tooltip title={row.error}>{tag}</Tooltip> : tag;
}

/** The columns both the log and the statistic's drill-down show; `open` shows an export's detail. */
export function exportColumns(open: (id: string) => void): TableColumnsType<TenderExportLogRow> {
  return [
    { title: '导出时间', dataIndex: 'createdAt', key: 'createdAt', width: 160, render: formatTime },
    { title: '导出人', dataIndex: 'createdByName', key: 'createdByName', width: 90 },
    { title: '类型', dataIndex: 'kind', key: 'kind', width: 64, render: (k: string) => <Tag color={k === 'performance' ? 'purple' : 'cyan'}>{TENDER_EXPORT_KIND_LABELS[k] ?? k}</Tag> },
    { title: '格式', dataIndex: 'format', key: 'format', width: 60, render: (f: string) => f.toUpperCase() },
    {
      title: '标题 / 文件名', key: 'title', width: 300, ellipsis: true,
      render: (_, r) => (
        <div>
          <div>{r.title}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.fileName}</Typography.Text>
        </div>
      ),
    },
    { title: '项数', key: 'itemCount', width: 70, align: 'right', render: (_, r) => <Button type="link" size="small" onClick={() => open(r.id)} data-testid={`items-${r.id}`}>{r.itemCount}</Button> },
    { title: '大小', key: 'size', width: 90, align: 'right', render: (_, r) => sizeText(r.size) },
    { title: '状态', key: 'state', width: 80, render: (_, r) => <StateTag row={r} /> },
    { title: '下载', key: 'downloads', width: 70, align: 'right', render: (_, r) => (r.downloads ? <Button type="link" size="small" onClick={() => open(r.id)}>{r.downloads} 次</Button> : <Typography.Text type="secondary">0 次</Typography.Text>) },
  ];
}

/** An export's items (contracts, certificates, titles) and its downloads. */
export function ExportDetailDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: [...EXPORT_LOG_KEY, 'detail', id], queryFn: () => tenderExportStatApi.detail(id!), enabled: !!id });
  const d = q.data;
  return (
    <Drawer open={!!id} onClose={onClose} size={620} title="导出详情" destroyOnHidden>
      {!d ? (
        <Empty description={q.isError ? '加载失败' : '加载中…'} />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size={16} data-testid="export-detail">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="标题" span={2}>{d.export.title}</Descriptions.Item>
            <Descriptions.Item label="文件名" span={2}>{d.export.fileName}</Descriptions.Item>
            <Descriptions.Item label="导出人">{d.export.createdByName}</Descriptions.Item>
            <Descriptions.Item label="导出时间">{formatTime(d.export.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="大小">{sizeText(d.export.size)}</Descriptions.Item>
            <Descriptions.Item label="页数">{d.export.pageCount ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="状态" span={2}><StateTag row={d.export} />{d.export.state === 'failed' && d.export.error ? d.export.error : null}</Descriptions.Item>
            <Descriptions.Item label="SHA-256" span={2}>{d.export.sha256 ? <Typography.Text code copyable={{ text: d.export.sha256, tooltips: ['复制', '已复制'] }} style={{ wordBreak: 'break-all' }} data-testid="export-sha256">{d.export.sha256}</Typography.Text> : '—'}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            rowKey="position"
            title={() => `所含项目（${d.items.length} 项）`}
            dataSource={d.items}
            pagination={false}
            columns={[
              { title: '序号', dataIndex: 'position', width: 60 },
              { title: '类别', dataIndex: 'itemKind', width: 90, render: (k: string) => TENDER_EXPORT_ITEM_LABELS[k] ?? k },
              { title: '名称', dataIndex: 'label' },
            ]}
          />
          <Table
            size="small"
            rowKey={(r) => `${r.loginName}-${r.createdAt}`}
            title={() => `下载记录（${d.downloads.length} 次）`}
            dataSource={d.downloads}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            locale={{ emptyText: '还没有下载' }}
            columns={[
              { title: '下载时间', dataIndex: 'createdAt', width: 170, render: formatTime },
              { title: '下载人', key: 'who', render: (_, r) => `${r.userName}（${r.loginName}）` },
              { title: '部门', dataIndex: 'deptName' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

export default function ExportLogPage() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <ListPage<TenderExportLogRow>
        testId="tender-export-log"
        queryKey={[...EXPORT_LOG_KEY, 'list']}
        fetch={(p) => tenderExportStatApi.list(p)}
        columns={exportColumns(setOpen)}
        rowKey="id"
        toRequest={logRequest}
        emptyText="还没有投标文件导出记录"
        export={{ fileName: '投标文件导出日志', run: (f) => tenderExportStatApi.export(f) }}
        filters={
          <>
            <Form.Item name="range" label="时间"><DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} /></Form.Item>
            <Form.Item name="user" label="导出人"><Input allowClear placeholder="姓名或登录名" style={{ width: 130 }} maxLength={50} /></Form.Item>
            <Form.Item name="kind" label="类型"><Select allowClear placeholder="全部" style={{ width: 90 }} options={Object.entries(TENDER_EXPORT_KIND_LABELS).map(([value, label]) => ({ value, label }))} /></Form.Item>
            <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" style={{ width: 100 }} options={Object.entries(TENDER_EXPORT_STATE_LABELS).map(([value, label]) => ({ value, label }))} /></Form.Item>
            <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="标题、文件名、合同或证书" style={{ width: 190 }} maxLength={50} /></Form.Item>
          </>
        }
      />
      <ExportDetailDrawer id={open} onClose={() => setOpen(null)} />
    </>
  );
}
