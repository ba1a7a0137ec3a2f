/**
 * The files of one tender record as a compact table of slots (a contract's pages, a certificate's scans):
 * each slot's label, 必需 for required ones with 已上传 / 缺失, its files (name, size; 查看 opens the public
 * viewer through a signed link; 删除 after a confirmation) and, when editable, 上传 (PDF/JPG/PNG, 50 MB,
 * sent as the raw file with upload progress). A slot may hold several files (scans of many pages).
 * File names are shown as text, never as HTML.
 */
import { DeleteOutlined, EyeOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Progress, Space, Table, Tag, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import type { TenderAttachment } from '@zhyy/shared';
import { tenderFilesApi } from '../../../api/tender-files';
import { feedback } from '../../../ui/feedback';
import { openSignedFile } from '../../common/fileView';
import { ACCEPT, attachmentsKey, fileSize, uploadProblem, useAttachments } from './attachments';

export interface AttachmentSlot {
  kind: number;
  label: string;
  required?: boolean;
}

export interface AttachmentPanelProps {
  ownerKind: string;
  ownerId: string;
  slots: AttachmentSlot[];
  editable: boolean;
  /** Called with the record's files whenever they load or change. */
  onChange?(files: TenderAttachment[]): void;
}

function SlotUpload({ ownerKind, ownerId, kind, label, onDone }: { ownerKind: string; ownerId: string; kind: number; label: string; onDone(): void }) {
  const [progress, setProgress] = useState<number | null>(null);
  return (
    <Space size={4}>
      <Upload
        accept={ACCEPT}
        multiple
        showUploadList={false}
        beforeUpload={(file) => {
          const problem = uploadProblem(file);
          if (problem) {
            void feedback().message.error(problem);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          const f = file as File;
          setProgress(0);
          tenderFilesApi
            .upload({ ownerKind, ownerId, kind }, f, {
              onProgress: (p) => {
                setProgress(p);
                onProgress?.({ percent: p });
              },
            })
            .then((a) => {
              onSuccess?.(a);
              void feedback().message.success(`${f.name} 上传成功`);
            })
            .catch((e: Error) => onError?.(e))
            .finally(() => {
              setProgress(null);
              onDone();
            });
        }}
      >
        <Button size="small" icon={<UploadOutlined />} loading={progress !== null} aria-label={`上传${label}`} data-testid={`upload-${kind}`}>
          上传
        </Button>
      </Upload>
      {progress !== null ? <Progress type="circle" size={22} percent={progress} data-testid={`progress-${kind}`} /> : null}
    </Space>
  );
}

export function AttachmentPanel({ ownerKind, ownerId, slots, editable, onChange }: AttachmentPanelProps) {
  const qc = useQueryClient();
  const q = useAttachments(ownerKind, [ownerId]);
  const files = q.data ?? [];
  useEffect(() => {
    if (q.data) onChange?.(q.data);
    // onChange is the caller's callback; only the data's changes matter.
  }, [q.data]);
  const refresh = () => void qc.invalidateQueries({ queryKey: attachmentsKey(ownerKind, [ownerId]) });

  const remove = (f: TenderAttachment) =>
    feedback().modal.confirm({
      title: '删除附件',
      content: `确定删除“${f.fileName}”吗？删除后不能恢复。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await tenderFilesApi.remove(f.id);
        void feedback().message.success('删除成功');
        refresh();
      },
    });

  if (!slots.length) return <Empty description="无附件" />;
  return (
    <Table<AttachmentSlot>
      size="small"
      rowKey="kind"
      pagination={false}
      loading={q.isLoading && q.fetchStatus !== 'idle'}
      dataSource={slots}
      data-testid={`attachments-${ownerKind}`}
      columns={[
        {
          title: '附件',
          key: 'label',
          width: 180,
          render: (_, s) => (
            <Space size={4}>
              <span>{s.label}</span>
              {s.required ? <Tag color="blue">必需</Tag> : null}
            </Space>
          ),
        },
        {
          title: '状态',
          key: 'state',
          width: 90,
          render: (_, s) => {
            const has = files.some((f) => f.kind === s.kind);
            if (has) return <Tag color="success">已上传</Tag>;
            return s.required ? <Tag color="error">缺失</Tag> : <Typography.Text type="secondary">未上传</Typography.Text>;
          },
        },
        {
          title: '文件',
          key: 'files',
          render: (_, s) => {
            const mine = files.filter((f) => f.kind === s.kind);
            if (!mine.length) return <Typography.Text type="secondary">—</Typography.Text>;
            return (
              <Space orientation="vertical" size={0}>
                {mine.map((f) => (
                  <Space key={f.id} size={4} wrap={false}>
                    <Typography.Text ellipsis style={{ maxWidth: 260 }} title={f.fileName}>
                      {f.fileName}
                    </Typography.Text>
                    <Typography.Text type="secondary">{fileSize(f.size)}</Typography.Text>
                    <Button size="small" type="link" icon={<EyeOutlined />} aria-label={`查看${f.fileName}`} onClick={() => void openSignedFile(() => tenderFilesApi.fileLink(f.id))}>
                      查看
                    </Button>
                    {editable ? (
                      <Button size="small" type="link" danger icon={<DeleteOutlined />} aria-label={`删除${f.fileName}`} onClick={() => remove(f)}>
                        删除
                      </Button>
                    ) : null}
                  </Space>
                ))}
              </Space>
            );
          },
        },
        ...(editable
          ? [{ title: '操作', key: 'op', width: 110, render: (_: unknown, s: AttachmentSlot) => <SlotUpload ownerKind={ownerKind} ownerId={ownerId} kind={s.kind} label={s.label} onDone={refresh} /> }]
          : []),
      ]}
    />
  );
}

/** Whether every required slot has a file. */
export function attachmentsComplete(slots: AttachmentSlot[], files: TenderAttachment[]): boolean {
  return slots.every((s) => !s.required || files.some((f) => f.kind === s.kind));
}
