/** 上传发票文件 (roles 1, 5): attach scans or the original files to a history invoice; type and size checked here and on the server. */
import { InboxOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, List, Radio, Result, Skeleton, Space, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AttachmentType, SourceKind, UPLOAD_FORMATS, type InvoiceFileRow } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { formatTime } from '../../../components/download';
import { useView } from '../../../router/view';
import { feedback } from '../../../ui/feedback';
import { Money, StatusTag, openFile } from '../widgets';
import { detailPath, fileTypeLabel, LEDGER_KEY } from './request';

const TYPES = [AttachmentType.invoiceScanning, AttachmentType.invoiceScreenshot, AttachmentType.invoicePaperPdf];
const ACCEPT = UPLOAD_FORMATS.map((f) => `.${f}`).concat('.jpeg').join(',');

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('读取文件失败'));
    r.readAsDataURL(file);
  });
}

export default function LedgerUpload() {
  const { params } = useView();
  const id = params.id ?? '';
  const navigate = useNavigate();
  const client = useQueryClient();
  const [type, setType] = useState<number>(AttachmentType.invoiceScanning);
  const [busy, setBusy] = useState(false);
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'images', id], queryFn: () => ledgerApi.images(id) });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  if (!q.data) return <Card><Result status="warning" title="发票不存在" extra={<Button onClick={() => navigate('/invoice/invoiceaccount/invoice-list')}>返回台账</Button>} /></Card>;
  const { invoice: inv, files, maxBytes } = q.data;
  const history = inv.source === SourceKind.history;

  const send = async (file: File) => {
    const ext = file.name.toLowerCase().split('.').pop() ?? '';
    if (![...UPLOAD_FORMATS, 'jpeg'].includes(ext as never)) return void feedback().message.error('只能上传PDF、OFD、XML、JPG或PNG文件');
    if (file.size > maxBytes) return void feedback().message.error(`文件不能超过${maxBytes / 1024 / 1024}MB`);
    setBusy(true);
    try {
      await ledgerApi.upload({ id, type, fileName: file.name, content: await base64(file) });
      void feedback().message.success(`已上传：${file.name}`);
      await client.invalidateQueries({ queryKey: LEDGER_KEY });
    } catch {
      // The request layer shows the refusal.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="ledger-upload">
      <Card title="上传发票文件" extra={<Space><Button onClick={() => navigate(detailPath(id))}>发票详情</Button><Button onClick={() => navigate('/invoice/invoiceaccount/invoice-list')}>返回台账</Button></Space>}>
        <Descriptions
          size="small" column={{ xs: 1, md: 3 }}
          items={[
            { key: 'no', label: '发票号码', children: inv.digitalNo || inv.invoiceNo || inv.orderNo },
            { key: 'buyer', label: '购方名称', children: inv.buyerName },
            { key: 'amt', label: '价税合计', children: <Money fen={inv.amountIncl} /> },
            { key: 'date', label: '开票日期', children: inv.issueDate ?? '—' },
            { key: 'src', label: '来源', children: SourceKind.label(inv.source) },
            { key: 'st', label: '状态', children: <StatusTag status={inv.status} /> },
          ]}
        />
      </Card>
      <Card size="small" title="选择文件">
        {!history ? (
          <Alert type="warning" showIcon title="只能为历史发票上传文件；税务端开具的发票文件由系统自动获取。" />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Radio.Group value={type} onChange={(e) => setType(Number(e.target.value))} optionType="button" options={TYPES.map((t) => ({ value: t, label: t === 1000 ? '发票原件（PDF/OFD/XML）' : AttachmentType.label(t) }))} />
            <Upload.Dragger accept={ACCEPT} multiple showUploadList={false} disabled={busy} beforeUpload={(f) => { void send(f); return false; }} data-testid="upload-dragger">
              <p className="ant-upload-drag-icon"><InboxOutlined /></p>
              <p className="ant-upload-text">点击或拖入文件上传</p>
              <p className="ant-upload-hint">支持 PDF、OFD、XML、JPG、PNG，单个文件不超过 {maxBytes / 1024 / 1024}MB；发票原件须为 PDF、OFD 或 XML。</p>
            </Upload.Dragger>
          </Space>
        )}
      </Card>
      <Card size="small" title={`已有文件（${files.length}）`}>
        {files.length ? (
          <List
            size="small" dataSource={files}
            renderItem={(f) => (
              <List.Item actions={[<Button key="v" type="link" onClick={() => void openFile(f as InvoiceFileRow)}>查看</Button>]}>
                <Space wrap><Tag>{f.format.toUpperCase()}</Tag><Typography.Text>{f.name}</Typography.Text><Typography.Text type="secondary">{fileTypeLabel(f.type, AttachmentType.label)} · {(f.size / 1024).toFixed(0)} KB · {f.createdByName} · {formatTime(f.createdAt)}</Typography.Text></Space>
              </List.Item>
            )}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有文件" />
        )}
      </Card>
    </Space>
  );
}
