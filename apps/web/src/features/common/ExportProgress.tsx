/** 导出Excel with progress: the server streams the workbook; the bar follows the bytes received against an estimate from the row count. */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { downloadWithProgress } from '../../api/invoiceLedger';
import { saveBlob, todayStamp } from '../../components/download';
import { feedback } from '../../ui/feedback';

/** A rough size of one exported row in the compressed workbook, for the progress estimate. */
export const EXPORT_BYTES_PER_ROW = 150;

export interface ExportProgressProps {
  path: string;
  body: Record<string, unknown>;
  rows: number;
  fileName: string;
  disabled?: boolean;
}

export function ExportProgress({ path, body, rows, fileName, disabled }: ExportProgressProps) {
  const [received, setReceived] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const estimate = Math.max(20_000, rows * EXPORT_BYTES_PER_ROW);
  const run = async () => {
    abort.current = new AbortController();
    setReceived(0);
    try {
      const blob = await downloadWithProgress(path, body, setReceived, abort.current.signal);
      saveBlob(blob, `${fileName}-${todayStamp()}.xlsx`);
      void feedback().message.success(`导出完成，共 ${rows} 条`);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') void feedback().message.info('已取消导出');
    } finally {
      setReceived(null);
      abort.current = null;
    }
  };
  const percent = received === null ? 0 : Math.min(99, Math.floor((received / estimate) * 100));
  return (
    <>
      <Button icon={<DownloadOutlined />} disabled={disabled} loading={received !== null} onClick={() => void run()} data-testid="export-button">
        导出Excel
      </Button>
      <Modal open={received !== null} title="正在导出" closable={false} mask={{ closable: false }} okButtonProps={{ style: { display: 'none' } }} cancelText="取消导出" onCancel={() => abort.current?.abort()}>
        <Progress percent={percent} status="active" data-testid="export-progress" />
        <Typography.Text type="secondary">
          共 {rows} 条，已接收 {((received ?? 0) / 1024).toFixed(0)} KB。服务器边查询边生成文件，请稍候。
        </Typography.Text>
      </Modal>
    </>
  );
}
