/** Attachments of a form: upload (base64 to the workflow service, 3 MB each) and download. */
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { AttachmentRef } from '@zhyy/shared';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { fileSize } from '../common/workflowFormat';

const MAX_BYTES = 3 * 1024 * 1024;

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('读取文件失败'));
    reader.readAsDataURL(file);
  });
}

export async function downloadAttachment(a: AttachmentRef): Promise<void> {
  const blob = await wfApi.download(a.id);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = a.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function AttachmentList({ files }: { files: AttachmentRef[] }) {
  if (!files.length) return <Typography.Text type="secondary">无附件</Typography.Text>;
  return (
    <Space direction="vertical" size={2}>
      {files.map((f) => (
        <Typography.Link key={f.id} onClick={() => void downloadAttachment(f)}>
          <PaperClipOutlined /> {f.name} <Typography.Text type="secondary">（{fileSize(f.size)}）</Typography.Text>
        </Typography.Link>
      ))}
    </Space>
  );
}

export function AttachmentField(props: { value?: AttachmentRef[]; onChange?: (v: AttachmentRef[]) => void }) {
  const files = props.value ?? [];
  const [busy, setBusy] = useState(false);
  const add = async (file: File) => {
    if (file.size > MAX_BYTES) {
      void feedback().message.error(`${file.name} 超过3MB，无法上传`);
      return;
    }
    setBusy(true);
    try {
      const uploaded = await wfApi.upload({ name: file.name, type: file.type || 'application/octet-stream', content: await toBase64(file) });
      props.onChange?.([...files, uploaded]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <Upload
        multiple
        showUploadList={false}
        beforeUpload={(file) => {
          void add(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          上传文件
        </Button>
      </Upload>
      <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
        单个文件不超过3MB
      </Typography.Text>
      {files.length ? (
        <ul className="wf-files">
          {files.map((f) => (
            <li key={f.id}>
              <PaperClipOutlined /> {f.name}（{fileSize(f.size)}）
              <Button type="link" size="small" danger onClick={() => props.onChange?.(files.filter((x) => x.id !== f.id))}>
                移除
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
