/**
 * The ledger's entry dialogs besides the editor (roles 1, 16, 17): 复制上月 (a new order of a month with the
 * lines of the same department and project's order of the month before, priced for the new month), 导入Excel
 * (rows grouped into orders by month, department and project; a group fails as a whole; the per-row result and
 * the template), and 同步项目管理系统 (a month's orders pushed by the project-management system: created,
 * skipped, failed). Refusals show in place in the server's words.
 */
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Descriptions, Form, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { previousMonth, type CostImportResult, type CostImportRowResult, type CostOrderSaved, type CostPmsSyncResult } from '@zhyy/shared';
import { costOrderApi, fileToBase64 } from '../../../api/cost';
import { saveBlob } from '../../../components/download';
import { feedback } from '../../../ui/feedback';
import { currentMonth, fileProblem, formatMonth, fromMonth, refusedImport, toMonth } from '../common';
import { CostDeptSelect, CostProjectSelect } from '../pickers';

const messageOf = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

/** 复制上月 */
export function CopyLastMonthDialog({ open, onClose, onCopied }: { open: boolean; onClose: () => void; onCopied: (ref: CostOrderSaved) => void }) {
  const [form] = Form.useForm<{ month?: Dayjs; deptId?: string; projectId?: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const month = toMonth(Form.useWatch('month', form));
  const run = async () => {
    let v: { month?: Dayjs; deptId?: string; projectId?: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    setError('');
    try {
      const env = await costOrderApi.copyLastMonth({ month: toMonth(v.month)!, deptId: v.deptId!, projectId: v.projectId! }, { silent: true });
      void feedback().message.success(`已复制生成成本单 ${env.r.orderNo}`);
      onCopied(env.r);
    } catch (e) {
      setError(messageOf(e, '复制失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="复制上月"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={busy} onClick={() => void run()} data-testid="cost-copy-run">复制</Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        按该部门该项目上月成本单的明细生成本月的新成本单（待审核），单价按本月有效的价格重新取价。
      </Typography.Paragraph>
      <Form form={form} name="cost-copy" layout="vertical" initialValues={{ month: fromMonth(currentMonth()) }} onValuesChange={() => setError('')}>
        <Form.Item name="month" label="生成月份" rules={[{ required: true, message: '请选择月份' }]} extra={month ? `复制${formatMonth(previousMonth(month))}的成本单` : undefined}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="deptId" label="部门" rules={[{ required: true, message: '请选择部门' }]}>
          <CostDeptSelect placeholder="选择部门" allowClear={false} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="projectId" label="项目" rules={[{ required: true, message: '请选择项目' }]}>
          <CostProjectSelect placeholder="搜索项目编码或名称" allowClear={false} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon title={error} data-testid="cost-copy-error" /> : null}
    </Modal>
  );
}

/** The per-row result of an import (shared with the price list's import). */
export function ImportResultView({ result }: { result: CostImportResult }) {
  const columns = [
    { title: '行号', dataIndex: 'row', key: 'row', width: 70 },
    { title: '结果', key: 'ok', width: 80, render: (_: unknown, r: CostImportRowResult) => <Tag color={r.ok ? 'green' : 'red'}>{r.ok ? '成功' : '失败'}</Tag> },
    { title: '说明', dataIndex: 'message', key: 'message' },
  ];
  return (
    <div data-testid="cost-import-result">
      <Alert
        type={result.failed ? (result.succeeded ? 'warning' : 'error') : 'success'}
        showIcon
        style={{ marginBottom: 12 }}
        title={`共 ${result.total} 行，成功 ${result.succeeded} 行，失败 ${result.failed} 行`}
        data-testid="cost-import-summary"
      />
      <Table<CostImportRowResult> rowKey="row" size="small" pagination={false} scroll={{ y: 320 }} columns={columns} dataSource={result.rows} locale={{ emptyText: '没有数据行' }} />
    </div>
  );
}

/** 导入Excel */
export function ImportOrdersDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<CostImportResult | null>(null);
  const [downloading, setDownloading] = useState(false);
  const run = async () => {
    if (!file) return setError('请选择文件');
    setBusy(true);
    setError('');
    try {
      const env = await costOrderApi.import({ file: await fileToBase64(file) }, { silent: true });
      setResult(env.r);
      if (env.r.succeeded) onImported();
    } catch (e) {
      // Not one row saved (30000): the rows and their reasons are shown as for a partial import.
      const refused = refusedImport(e);
      if (refused) setResult(refused);
      else setError(messageOf(e, '导入失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  const template = async () => {
    setDownloading(true);
    try {
      saveBlob(await costOrderApi.importTemplate(), '成本单导入模板.xlsx');
    } catch {
      // The request layer has shown the error.
    } finally {
      setDownloading(false);
    }
  };
  const close = () => {
    setFile(null);
    setResult(null);
    setError('');
    onClose();
  };
  return (
    <Modal
      open={open}
      title="导入成本单"
      width={760}
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>关闭</Button>
          <Button type="primary" loading={busy} disabled={!file} onClick={() => void run()} data-testid="cost-import-run">导入</Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        表头：月份、部门、项目编码、成本项编码、规格、单位、数量、备注。同一月份、部门、项目的行合为一张成本单（待审核），按该月有效的价格取价；其中任一行有误则整张单不导入。
      </Typography.Paragraph>
      <Space style={{ marginBottom: 12 }} wrap>
        <Upload
          accept=".xlsx"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(f) => {
            const problem = fileProblem(f);
            if (problem) setError(problem);
            else {
              setFile(f);
              setError('');
              setResult(null);
            }
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="cost-import-file">{file ? file.name : '选择文件'}</Button>
        </Upload>
        <Button type="link" icon={<DownloadOutlined />} loading={downloading} onClick={() => void template()} data-testid="cost-import-template">下载导入模板</Button>
      </Space>
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="cost-import-error" /> : null}
      {result ? <ImportResultView result={result} /> : null}
    </Modal>
  );
}

/** 同步项目管理系统 */
export function PmsSyncDialog({ open, onClose, onSynced }: { open: boolean; onClose: () => void; onSynced: () => void }) {
  const [month, setMonth] = useState<Dayjs | null>(() => fromMonth(previousMonth(currentMonth())));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<CostPmsSyncResult | null>(null);
  const run = async () => {
    const m = toMonth(month);
    if (!m) return setError('请选择月份');
    setBusy(true);
    setError('');
    setResult(null);
    try {
      const env = await costOrderApi.pmsSync({ month: m }, { silent: true });
      setResult(env.r);
      if (env.r.created) onSynced();
    } catch (e) {
      setError(messageOf(e, '同步失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setResult(null);
    setError('');
    onClose();
  };
  return (
    <Modal
      open={open}
      title="同步项目管理系统"
      width={680}
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>关闭</Button>
          <Button type="primary" loading={busy} onClick={() => void run()} data-testid="cost-pms-run">开始同步</Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">从项目管理系统取回所选月份推送的成本单：已同步过的单据跳过，新单据生成待审核成本单。</Typography.Paragraph>
      <Form layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item label="月份">
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={month} onChange={(v) => { setMonth(v); setResult(null); }} style={{ width: 140 }} />
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="cost-pms-error" /> : null}
      {result ? (
        <div data-testid="cost-pms-result">
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="新增">{result.created} 张</Descriptions.Item>
            <Descriptions.Item label="跳过（已同步）">{result.skipped} 张</Descriptions.Item>
            <Descriptions.Item label="失败">{result.failed.length} 张</Descriptions.Item>
          </Descriptions>
          {result.failed.length ? (
            <Table
              rowKey="ref"
              size="small"
              pagination={false}
              scroll={{ y: 260 }}
              dataSource={result.failed}
              columns={[
                { title: '推送单号', dataIndex: 'ref', key: 'ref', width: 180 },
                { title: '失败原因', dataIndex: 'message', key: 'message' },
              ]}
            />
          ) : (
            <Alert type="success" showIcon title="全部同步成功" />
          )}
        </div>
      ) : null}
    </Modal>
  );
}
