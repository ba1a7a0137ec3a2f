/**
 * 导入价格表: an .xlsx with the export's columns (the template), sent base64; the answer's per-row results
 * (sheet row, 成功 / 失败, why). Good rows are saved, bad rows name their problem.
 */
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { CostImportResult, CostImportRowResult } from '@zhyy/shared';
import { costPriceApi, fileToBase64 } from '../../../api/cost';
import { saveBlob } from '../../../components/download';
import { fileProblem, refusedImport } from '../common';


export function PriceImport({ onDone }: { onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<CostImportResult | null>(null);
  const run = async () => {
    if (!file) return setError('请选择文件');
    setBusy(true);
    setError('');
    try {
      const a = await costPriceApi.import({ file: await fileToBase64(file) });
      setAnswer(a.r ?? null);
      if (a.r?.succeeded) onDone();
    } catch (e) {
      // The API client has shown the refusal (not an .xlsx, no header row …); when not one row was saved
      // (30000, issue 27 item 8) the rows and their reasons are listed as well.
      setAnswer(refusedImport(e));
    } finally {
      setBusy(false);
    }
  };
  const template = async () => {
    try {
      saveBlob(await costPriceApi.template(), '成本价格表导入模板.xlsx');
    } catch {
      // Shown by the API client.
    }
  };
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => { setFile(null); setAnswer(null); setError(''); setOpen(true); }} data-testid="price-import">导入</Button>
      <Modal
        open={open} title="从Excel导入价格表" width={760} onCancel={() => setOpen(false)} destroyOnHidden
        footer={
          <Space>
            <Button onClick={() => setOpen(false)}>关闭</Button>
            <Button type="primary" loading={busy} onClick={() => void run()} data-testid="price-import-run">导入</Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">
          表格的列与导出的价格表相同，可先下载导入模板填写。失效日期为空表示长期有效；有效期与已有价格重叠的行不导入，其余行照常导入。
        </Typography.Paragraph>
        <Space style={{ marginBottom: 12 }}>
          <Upload
            accept=".xlsx" maxCount={1} showUploadList={false}
            beforeUpload={(f) => {
              const p = fileProblem(f);
              if (p) setError(p);
              else { setFile(f); setError(''); setAnswer(null); }
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="price-import-file">{file ? file.name : '选择文件'}</Button>
          </Upload>
          <Button type="link" icon={<DownloadOutlined />} onClick={() => void template()} data-testid="price-template">下载导入模板</Button>
        </Space>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
        {answer ? (
          <div data-testid="price-import-result">
            <Alert type={answer.failed ? (answer.succeeded ? 'warning' : 'error') : 'success'} showIcon style={{ marginBottom: 12 }} title={`共 ${answer.total} 行：成功 ${answer.succeeded} 行${answer.failed ? `，失败 ${answer.failed} 行` : ''}`} />
            <Table<CostImportRowResult>
              rowKey="row" size="small" pagination={false} scroll={{ y: 320 }} dataSource={answer.rows}
              columns={[
                { title: '行号', dataIndex: 'row', width: 70 },
                { title: '结果', dataIndex: 'ok', width: 80, render: (ok: boolean) => <Tag color={ok ? 'green' : 'red'}>{ok ? '成功' : '失败'}</Tag> },
                { title: '说明', dataIndex: 'message' },
              ]}
            />
          </div>
        ) : null}
      </Modal>
    </>
  );
}
