/**
 * 导入勾选: an .xlsx (发票代码, 发票号码 or 数电号码, 有效税额（元）) with the usage (and the reason for 不抵扣),
 * sent base64; the answer's rows in a table (sheet row, number, effective tax, result). Any bad row and
 * nothing is ticked. A batch with 疑点 invoices asks first and is resent with confirmed: true.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Modal, Select, Space, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { NonDeductReason, TICK_CONFIRM_MESSAGE, TickUsage, type TickImportAnswer, type TickImportRow } from '@zhyy/shared';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { tickApi, type TickScope } from './api';

const MAX_BYTES = 5 * 1024 * 1024;

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('读取文件失败'));
    r.readAsDataURL(file);
  });
}

export function TickImport({ scope, disabledReason, onDone }: { scope: TickScope; disabledReason: string; onDone: () => void }) {
  const usages = scope === 'deduction' ? [1, 4] : [2, 3];
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [vatUsage, setVatUsage] = useState<number>(usages[0]!);
  const [reason, setReason] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TickImportAnswer | null>(null);
  const [error, setError] = useState('');

  const reset = () => {
    setFile(null);
    setAnswer(null);
    setError('');
    setReason(undefined);
    setVatUsage(usages[0]!);
  };
  const run = async (confirmed: boolean) => {
    if (!file) return setError('请选择文件');
    if (vatUsage === 4 && !reason) return setError('不抵扣勾选须选择不抵扣原因');
    setBusy(true);
    setError('');
    try {
      const a = await tickApi.importTicks(scope, { file: await base64(file), fileName: file.name, vatUsage, ...(vatUsage === 4 ? { deductReason: reason } : {}), confirmed });
      setAnswer(a);
      if (a.done) {
        void feedback().message.success(`导入勾选成功${a.count}张`);
        onDone();
      }
    } catch {
      // The request layer has shown the refusal.
    } finally {
      setBusy(false);
    }
  };

  const columns = [
    { title: '行号', dataIndex: 'row', key: 'row', width: 70 },
    { title: '发票号码', dataIndex: 'invoiceNumber', key: 'invoiceNumber', width: 210 },
    { title: '有效税额', key: 'effectiveTax', width: 120, align: 'right' as const, render: (_: unknown, r: TickImportRow) => (r.effectiveTax === null ? '—' : <Money fen={r.effectiveTax} />) },
    { title: '结果', key: 'ok', width: 80, render: (_: unknown, r: TickImportRow) => <Tag color={r.ok ? 'green' : 'red'}>{r.ok ? '通过' : '不通过'}</Tag> },
    { title: '说明', dataIndex: 'message', key: 'message' },
  ];
  const summary = answer
    ? answer.done ? `导入勾选成功${answer.count}张` : answer.needConfirm ? `${TICK_CONFIRM_MESSAGE}，请确认后继续勾选` : '导入未勾选：请按逐行结果修改后重新导入'
    : '';

  return (
    <>
      <Tooltip title={disabledReason}>
        <Button icon={<UploadOutlined />} disabled={!!disabledReason} onClick={() => { reset(); setOpen(true); }} data-testid="tick-import">导入勾选</Button>
      </Tooltip>
      <Modal
        open={open} title="从Excel导入勾选" width={800} onCancel={() => setOpen(false)} destroyOnHidden
        footer={
          <Space>
            <Button onClick={() => setOpen(false)}>关闭</Button>
            {answer?.needConfirm ? <Button type="primary" danger loading={busy} onClick={() => void run(true)} data-testid="tick-import-confirm">确认勾选</Button> : null}
            {answer?.done ? null : <Button type="primary" loading={busy} onClick={() => void run(false)} data-testid="tick-import-run">导入</Button>}
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">表头须包含：发票代码、发票号码（或数电号码）、有效税额（元）；海关缴款书填“缴款书号码”列。有效税额为空时按全额税额；任何一行有误则全部不勾选。</Typography.Paragraph>
        <Form layout="inline" style={{ marginBottom: 12 }}>
          <Form.Item label="用途">
            <Select value={vatUsage} style={{ width: 130 }} onChange={(v) => { setVatUsage(v); setAnswer(null); }} options={usages.map((u) => ({ value: u, label: TickUsage.label(u) }))} />
          </Form.Item>
          {vatUsage === 4 ? (
            <Form.Item label="不抵扣原因">
              <Select value={reason} placeholder="请选择" style={{ width: 180 }} onChange={(v) => { setReason(v); setAnswer(null); }} options={NonDeductReason.options.map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
          ) : null}
          <Form.Item label="文件">
            <Upload
              accept=".xlsx" maxCount={1} showUploadList={false}
              beforeUpload={(f) => {
                if (!f.name.toLowerCase().endsWith('.xlsx')) setError('请选择 .xlsx 文件');
                else if (f.size > MAX_BYTES) setError('文件不能超过5MB');
                else { setFile(f); setError(''); setAnswer(null); }
                return false;
              }}
            >
              <Button icon={<UploadOutlined />}>{file ? file.name : '选择文件'}</Button>
            </Upload>
          </Form.Item>
        </Form>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
        {answer ? (
          <div data-testid="tick-import-result">
            <Alert type={answer.done ? 'success' : 'warning'} showIcon title={summary} style={{ marginBottom: 12 }} />
            {!answer.done && answer.outcomes.length ? (
              <ul data-testid="tick-import-outcomes">
                {answer.outcomes.filter((o) => answer.needConfirm || !o.ok).map((o) => <li key={o.invoiceId}>{o.invoiceNumber}：{o.message}</li>)}
              </ul>
            ) : null}
            <Table<TickImportRow> rowKey="row" size="small" pagination={false} scroll={{ y: 320 }} columns={columns} dataSource={answer.rows} />
          </div>
        ) : null}
      </Modal>
    </>
  );
}
