/**
 * The user's recent export jobs of one kind: a progress bar polled about once a second while a job is
 * queued or running (react-query's refetchInterval, off once all are finished), the state as a tag, the
 * failure's reason, and 下载 for finished ones (the streamed file as a blob, saved under its name).
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Progress, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { TENDER_EXPORT_STATE_LABEL, unfinishedExport, type TenderExportJob } from '@zhyy/shared';
import { tenderExportApi } from '../../../api/tender-export';
import { formatTime, saveBlob } from '../../../components/download';
import { exportJobsKey, fileSizeText, pollInterval } from './exportLogic';

const STATE_COLOR: Record<TenderExportJob['state'], string> = { queued: 'default', running: 'processing', done: 'success', failed: 'error' };

export function useExportJobs(kind: TenderExportJob['kind']) {
  return useQuery({
    queryKey: exportJobsKey(kind),
    queryFn: () => tenderExportApi.jobs({ kind, limit: 10 }),
    refetchInterval: (q) => pollInterval(q.state.data),
  });
}

function DownloadButton({ job }: { job: TenderExportJob }) {
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    try {
      saveBlob(await tenderExportApi.download(job.id), job.fileName);
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="link" size="small" loading={busy} onClick={() => void go()}>
      下载
    </Button>
  );
}

export function ExportJobPanel({ kind, title = '我的导出任务' }: { kind: TenderExportJob['kind']; title?: string }) {
  const jobs = useExportJobs(kind);
  return (
    <Card title={title} size="small" data-testid="export-jobs">
      {jobs.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : !jobs.data?.length ? (
        <Empty description="还没有导出任务" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Table<TenderExportJob>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={jobs.data}
          columns={[
            { title: '标题', dataIndex: 'title', ellipsis: true },
            { title: '格式', dataIndex: 'format', width: 64, render: (f: string) => f.toUpperCase() },
            { title: '项数', dataIndex: 'itemCount', width: 60, align: 'right' },
            {
              title: '状态',
              key: 'state',
              width: 260,
              render: (_, j) => (
                <Space orientation="vertical" size={0} style={{ width: '100%' }}>
                  <Tag color={STATE_COLOR[j.state]}>{TENDER_EXPORT_STATE_LABEL[j.state]}</Tag>
                  {unfinishedExport(j) && <Progress percent={j.progress} size="small" status="active" format={(p) => `${p}%`} aria-label={`${j.title}进度`} />}
                  {unfinishedExport(j) && <Typography.Text type="secondary">{j.step}</Typography.Text>}
                  {j.state === 'failed' && <Typography.Text type="danger">{j.error ?? '导出失败'}</Typography.Text>}
                  {j.state === 'done' && (
                    <Typography.Text type="secondary">
                      {[j.pageCount ? `${j.pageCount}页` : '', fileSizeText(j.size)].filter(Boolean).join('，')}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
            { title: '操作', key: 'op', width: 80, render: (_, j) => (j.state === 'done' ? <DownloadButton job={j} /> : null) },
          ]}
        />
      )}
    </Card>
  );
}
