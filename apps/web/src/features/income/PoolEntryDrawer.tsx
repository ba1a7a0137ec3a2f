/**
 * 手工录入: a paper invoice typed in from the pool list (POST /income/pool/save). Every field carries the
 * shared schema's rule (PoolEntryBody) and the face the server's own checks (entryChecks.ts), so what the
 * server would refuse is said before sending; a refusal still comes back in the server's words and stays
 * in the drawer. The answer's message and warnings (合并到原记录, 购方非本公司, 疑似重复) are shown.
 */
import { DeleteOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Col, DatePicker, Drawer, Form, Input, InputNumber, Row, Select, Space, Table, Typography, Upload, type UploadFile } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { IncomeKind, PoolEntryBody, PoolLineInput, TAX_RATES, UPLOAD_MAX_BYTES, yuanToFen, type PoolArrival } from '@zhyy/shared';
import { incomeApi } from '../../api/income';
import { zodRule } from '../../components/zodRule';
import { feedback } from '../../ui/feedback';
import { entryProblems, numberFields } from './entryChecks';

const S = PoolEntryBody.shape;
const L = PoolLineInput.shape;

/** One line as typed: money in 元. */
interface LineForm { name?: string; spec?: string; unit?: string; quantity?: string; unitPrice?: string; amount?: number | null; taxRate?: string; tax?: number | null }

interface EntryForm {
  kind?: string;
  invoiceCode?: string;
  invoiceNo?: string;
  digitalNo?: string;
  issueDate?: Dayjs | null;
  sellerName?: string;
  sellerTaxNo?: string;
  buyerName?: string;
  buyerTaxNo?: string;
  amountExcl?: number | null;
  tax?: number | null;
  amountIncl?: number | null;
  checkCode?: string;
  remark?: string;
  lines?: LineForm[];
}

const fen = (v: number | null | undefined) => (v === null || v === undefined ? undefined : yuanToFen(v));
const toLines = (lines: LineForm[] = []) => lines.map((l) => ({ ...l, amount: fen(l.amount) ?? 0, tax: fen(l.tax) ?? 0, taxRate: l.taxRate ?? '0' }));
/** The form's values as the checks and the body see them (money in 分). */
const faceOf = (v: EntryForm) => ({ ...v, issueDate: v.issueDate?.format('YYYY-MM-DD'), amountExcl: fen(v.amountExcl), tax: fen(v.tax), amountIncl: fen(v.amountIncl), lines: toLines(v.lines) });

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(new Error(`文件「${file.name}」读取失败`));
    r.readAsDataURL(file);
  });
}

export function PoolEntryDrawer({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: (a: PoolArrival) => void }) {
  const [form] = Form.useForm<EntryForm>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const v = (Form.useWatch([], form) ?? {}) as EntryForm;
  const show = numberFields(v.kind);
  const problems = attempted ? entryProblems(faceOf(v)) : [];
  const size = files.reduce((n, f) => n + (f.size ?? 0), 0);

  const close = () => {
    form.resetFields();
    setFiles([]);
    setRefusal(null);
    setAttempted(false);
    onClose();
  };
  const submit = async () => {
    setAttempted(true);
    setRefusal(null);
    const values = await form.validateFields();
    const faceNow = faceOf(values);
    if (entryProblems(faceNow).length) return;
    if (size > UPLOAD_MAX_BYTES) return setRefusal(`文件合计不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`);
    setSaving(true);
    try {
      const body = PoolEntryBody.parse({
        ...faceNow,
        files: await Promise.all(files.map(async (f) => ({ fileName: f.name, content: await base64(f.originFileObj as File) }))),
      });
      const res = await incomeApi.save(body, { silent: true });
      const a = res.r as PoolArrival;
      void feedback().message.success(a.message || res.message || '已加入票池');
      if (a.warnings.length) feedback().modal.warning({ title: '已加入票池，请注意', content: <ul style={{ paddingLeft: 18, margin: 0 }}>{a.warnings.map((w) => <li key={w}>{w}</li>)}</ul> });
      onSaved(a);
      close();
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : '保存失败，请稍后重试');
    } finally {
      setSaving(false);
    }
  };

  const col = (span: number, name: keyof EntryForm, label: string, node: React.ReactNode, rules: Parameters<typeof Form.Item>[0]['rules'] = []) => (
    <Col span={span}><Form.Item name={name} label={label} rules={rules}>{node}</Form.Item></Col>
  );
  const money = (name: 'amountExcl' | 'tax' | 'amountIncl', label: string) =>
    col(8, name, label, <InputNumber min={0} precision={2} style={{ width: '100%' }} placeholder="元" />, [{ required: true, message: `请填写${label}` }]);
  return (
    <Drawer open={open} onClose={close} title="手工录入纸质发票" size="min(860px, calc(100vw - 48px))" destroyOnHidden
      extra={<Space><Button onClick={close}>取消</Button><Button type="primary" loading={saving} onClick={() => void submit().catch(() => undefined)} data-testid="entry-save">保存</Button></Space>}>
      {refusal ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={refusal} data-testid="entry-refusal" /> : null}
      {problems.length ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="请先更正以下内容" description={<ul style={{ paddingLeft: 18, margin: 0 }}>{problems.map((p) => <li key={p}>{p}</li>)}</ul>} data-testid="entry-problems" /> : null}
      <Form form={form} layout="vertical" name="income-entry" size="small">
        <Row gutter={12}>
          {col(12, 'kind', '发票种类', <Select options={IncomeKind.options.map((o) => ({ value: o.value, label: o.label }))} placeholder="请选择" />, [{ required: true, message: '请选择发票种类' }])}
          {col(12, 'issueDate', '开票日期', <DatePicker style={{ width: '100%' }} />, [{ required: true, message: '请选择开票日期' }])}
          {show.digital ? col(12, 'digitalNo', '数电发票号码', <Input maxLength={20} />, [{ required: true, message: '请填写数电发票号码' }, zodRule(S.digitalNo, '数电发票号码')]) : null}
          {show.code ? col(12, 'invoiceCode', '发票代码', <Input maxLength={12} />, [zodRule(S.invoiceCode, '发票代码')]) : null}
          {show.number ? col(12, 'invoiceNo', '发票号码', <Input maxLength={40} />, [zodRule(S.invoiceNo, '发票号码')]) : null}
          {col(12, 'sellerName', '销方名称', <Input maxLength={100} />, [{ required: true, whitespace: true, message: '请填写销方名称' }, zodRule(S.sellerName, '销方名称')])}
          {col(12, 'sellerTaxNo', '销方税号', <Input maxLength={20} />, [zodRule(S.sellerTaxNo, '销方税号')])}
          {col(12, 'buyerName', '购方名称', <Input maxLength={100} />, [{ required: true, whitespace: true, message: '请填写购方名称' }, zodRule(S.buyerName, '购方名称')])}
          {col(12, 'buyerTaxNo', '购方税号', <Input maxLength={20} />, [zodRule(S.buyerTaxNo, '购方税号')])}
          {money('amountExcl', '金额')}
          {money('tax', '税额')}
          {money('amountIncl', '价税合计')}
          {col(12, 'checkCode', '校验码', <Input maxLength={20} />, [zodRule(S.checkCode, '校验码')])}
          {col(12, 'remark', '备注', <Input maxLength={200} />, [zodRule(S.remark, '备注')])}
        </Row>
        <Typography.Title level={5}>发票明细（可选；填写时合计须与票面一致）</Typography.Title>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              <Table size="small" pagination={false} rowKey="key" dataSource={fields} tableLayout="fixed" data-testid="entry-lines" style={{ marginBottom: 8 }}
                locale={{ emptyText: '不填写明细' }}
                columns={[
                  { title: '项目名称', render: (_: unknown, f) => <Form.Item name={[f.name, 'name']} noStyle rules={[{ required: true, whitespace: true, message: '请填写项目名称' }, zodRule(L.name, '项目名称')]}><Input maxLength={100} aria-label="项目名称" /></Form.Item> },
                  { title: '规格型号', width: 90, render: (_: unknown, f) => <Form.Item name={[f.name, 'spec']} noStyle rules={[zodRule(L.spec, '规格型号')]}><Input maxLength={40} aria-label="规格型号" /></Form.Item> },
                  { title: '单位', width: 60, render: (_: unknown, f) => <Form.Item name={[f.name, 'unit']} noStyle rules={[zodRule(L.unit, '单位')]}><Input maxLength={20} aria-label="单位" /></Form.Item> },
                  { title: '数量', width: 70, render: (_: unknown, f) => <Form.Item name={[f.name, 'quantity']} noStyle rules={[zodRule(L.quantity, '数量')]}><Input maxLength={20} aria-label="数量" /></Form.Item> },
                  { title: '单价', width: 80, render: (_: unknown, f) => <Form.Item name={[f.name, 'unitPrice']} noStyle rules={[zodRule(L.unitPrice, '单价')]}><Input maxLength={20} aria-label="单价" /></Form.Item> },
                  { title: '金额（元）', width: 110, render: (_: unknown, f) => <Form.Item name={[f.name, 'amount']} noStyle rules={[{ required: true, message: '请填写明细金额' }]}><InputNumber min={0} precision={2} style={{ width: '100%' }} aria-label="明细金额" /></Form.Item> },
                  { title: '税率', width: 80, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxRate']} noStyle><Select style={{ width: '100%' }} popupMatchSelectWidth={160} options={TAX_RATES.map((r) => ({ value: r.value, label: r.label }))} /></Form.Item> },
                  { title: '税额（元）', width: 100, render: (_: unknown, f) => <Form.Item name={[f.name, 'tax']} noStyle rules={[{ required: true, message: '请填写明细税额' }]}><InputNumber min={0} precision={2} style={{ width: '100%' }} aria-label="明细税额" /></Form.Item> },
                  { title: '', width: 40, render: (_: unknown, f) => <Button type="text" size="small" icon={<DeleteOutlined />} aria-label="删除明细" onClick={() => remove(f.name)} /> },
                ]}
              />
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ taxRate: '0.13' })} disabled={fields.length >= 200} style={{ marginBottom: 16 }}>添加明细</Button>
            </>
          )}
        </Form.List>
        <Form.Item label="发票文件（可选，PDF、OFD、XML、JPG或PNG，最多5个，合计10MB以内）">
          <Upload.Dragger multiple maxCount={5} accept=".pdf,.ofd,.xml,.jpg,.jpeg,.png" fileList={files} beforeUpload={() => false} onChange={({ fileList }) => setFiles(fileList)}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p className="ant-upload-text">点击或拖入发票文件</p>
          </Upload.Dragger>
        </Form.Item>
      </Form>
    </Drawer>
  );
}
