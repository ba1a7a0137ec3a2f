import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { feedback } from '../ui/feedback';
import { saveBlob, todayStamp } from './download';

export interface ExportButtonProps {
  /** The file name without date and extension, e.g. 用户列表. */
  fileName: string;
  run: () => Promise<Blob>;
  disabled?: boolean;
}

/** 导出 Excel: asks the server for the file (it streams and logs the export) and saves it. */
export function ExportButton({ fileName, run, disabled }: ExportButtonProps) {
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      saveBlob(await run(), `${fileName}-${todayStamp()}.xlsx`);
      void feedback().message.success('导出完成');
    } catch {
      // The request layer has already shown the error.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} disabled={disabled} onClick={() => void click()} data-testid="export-button">
      导出Excel
    </Button>
  );
}
