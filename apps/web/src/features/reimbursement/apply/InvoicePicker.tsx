/**
 * The invoice picker of a line: my invoices from the pool (my uploads, my passenger tickets; free or
 * held by this bill) and 上传发票 on the spot (recognised, checked by me, saved into the pool, then picked).
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, DatePicker, Drawer, Form, Input, Row, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { IncomeKind, type ReimbCandidate, type UploadRecognition } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { MoneyInput } from '../../common/MoneyInput';
import { REIMB_KEY } from './common';

const toBase64 = (f: File) =>
  new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(new Error('读取文件失败'));
    r.readAsDataURL(f);
  });

interface DraftValues {
  kind?: string;
  digitalNo?: string;
  invoiceCode?: string;
  invoiceNo?: string;
  issueDate?: Dayjs;
  sellerName?: string;
  sellerTaxNo?: string;
  buyerName?: string;
  buyerTaxNo?: string;
  amountExcl?: number;
  tax?: number;
  amountIncl?: number;
}

/** 上传发票: one file recognised, the face corrected, saved into the pool; answers the new invoice's id. */
function UploadInvoice({ onSaved }: { onSaved: (id: string) => void }) {
  const [form] = Form.useForm<DraftValues>();
  const [file, setFile] = useState<{ fileName: string; content: string } | null>(null);
  const [rec, setRec] = useState<UploadRecognition | null>(null);
  const [busy, setBusy] = useState(false);
  // The server's refusal of the save (e.g. a number in the pool with another face: it names the fields), kept beside the form.
  const [refusal, setRefusal] = useState('');
  const pick = async (f: File) => {
    setBusy(true);
    setRefusal('');
    try {
      const content = await toBase64(f);
      const r = await reimbApi.recognise({ fileName: f.name, content });
      setFile({ fileName: f.name, content });
      setRec(r);
      const d = r.draft;
      form.setFieldsValue({ ...d, issueDate: d.issueDate ? dayjs(d.issueDate) : undefined });
    } catch (e) {
      void feedback().message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
    return false;
  };
  const save = async (v: DraftValues) => {
    if (!file) return;
    setBusy(true);
    try {
      const a = await reimbApi.saveUpload({
        kind: v.kind ?? '',
        digitalNo: v.digitalNo ?? '',
        invoiceCode: v.invoiceCode ?? '',
        invoiceNo: v.invoiceNo ?? '',
        issueDate: v.issueDate ? v.issueDate.format('YYYY-MM-DD') : '',
        sellerName: v.sellerName ?? '',
        sellerTaxNo: v.sellerTaxNo ?? '',
        buyerName: v.buyerName ?? '',
        buyerTaxNo: v.buyerTaxNo ?? '',
        amountExcl: v.amountExcl ?? 0,
        tax: v.tax ?? 0,
        amountIncl: v.amountIncl ?? 0,
        checkCode: '',
        remark: '',
        lines: rec?.draft.lines ?? [],
        files: [file],
      } as never);
      if (a.code !== 20000 || !a.r) {
        setRefusal(a.message ?? '保存失败');
        return void feedback().message.error(a.message ?? '保存失败');
      }
      setRefusal('');
      void feedback().message.success(a.message ?? '已加入票池');
      setFile(null);
      setRec(null);
      form.resetFields();
      onSaved(a.r.id);
    } catch (e) {
      // A refusal (silent request: it throws the server's message, e.g. the fields that differ from the pool's invoice).
      const m = (e as Error).message || '保存失败';
      setRefusal(m);
      void feedback().message.error(m);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Upload accept=".pdf,.ofd,.xml,.jpg,.jpeg,.png" showUploadList={false} beforeUpload={(f) => { void pick(f); return false; }}>
        <Button loading={busy && !rec} data-testid="upload-invoice">
          上传发票文件并识别
        </Button>
      </Upload>
      {rec ? (
        <Form form={form} layout="vertical" size="small" onFinish={(v) => void save(v)} data-testid="upload-form">
          {rec.warnings.length ? <Alert type="warning" showIcon title={rec.warnings.join('；')} style={{ marginBottom: 8 }} /> : null}
          {rec.inPool ? <Alert type="info" showIcon title={`该文件已在票池中：${rec.inPool.number}，保存将合并到原记录`} style={{ marginBottom: 8 }} /> : null}
          <Row gutter={8}>
            <Col span={8}>
              <Form.Item name="kind" label="发票种类" rules={[{ required: true, message: '请选择发票种类' }]}>
                <Select options={IncomeKind.options.map((o) => ({ value: o.value, label: o.label }))} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="digitalNo" label="数电发票号码">
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="issueDate" label="开票日期" rules={[{ required: true, message: '请选择开票日期' }]}>
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="invoiceCode" label="发票代码">
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="invoiceNo" label="发票号码">
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="sellerName" label="销方名称" rules={[{ required: true, message: '请填写销方名称' }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="sellerTaxNo" label="销方税号">
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="buyerName" label="购方名称" rules={[{ required: true, message: '请填写购方名称' }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="buyerTaxNo" label="购方税号">
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="amountExcl" label="不含税金额">
                <MoneyInput />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="tax" label="税额">
                <MoneyInput />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="amountIncl" label="价税合计">
                <MoneyInput />
              </Form.Item>
            </Col>
          </Row>
          {refusal ? <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="upload-refusal" /> : null}
          <Button type="primary" htmlType="submit" loading={busy}>
            保存到票池并选用
          </Button>
        </Form>
      ) : null}
    </Space>
  );
}

/**
 * The picker of one line. Its state (the search, the list) lives inside the drawer, which is destroyed
 * when it closes: every opening starts clean (issue 31: line 2's picker showed line 1's search). An
 * invoice uploaded here is asked for by its id, whatever the search, and when it may not be picked the
 * server's reason is shown (held by which bill, 作废/红冲, not mine), never a guess.
 */
export function InvoicePicker({ open, billId, taken, onPick, onClose }: { open: boolean; billId?: string; taken: readonly string[]; onPick: (c: ReimbCandidate) => void; onClose: () => void }) {
  return (
    <Drawer open={open} onClose={onClose} size={960} title="选择发票" destroyOnHidden data-testid="invoice-picker">
      {open ? <PickerBody billId={billId} taken={taken} onPick={onPick} /> : null}
    </Drawer>
  );
}

function PickerBody({ billId, taken, onPick }: { billId?: string; taken: readonly string[]; onPick: (c: ReimbCandidate) => void }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: [...REIMB_KEY, 'candidates', billId, keyword], queryFn: () => reimbApi.candidates(billId, keyword || undefined) });
  const afterUpload = async (id: string) => {
    void q.refetch();
    try {
      const c = await reimbApi.candidate(id, billId);
      if (c) onPick(c);
    } catch (e) {
      void feedback().message.warning(`发票已保存到票池，但不能用于本报销单：${(e as Error).message}`);
    }
  };
  return (
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <UploadInvoice onSaved={(id) => void afterUpload(id)} />
        <Input.Search allowClear placeholder="发票号码或销方" onSearch={setKeyword} style={{ width: 280 }} data-testid="picker-search" />
        <Table<ReimbCandidate>
          rowKey="id"
          size="small"
          loading={q.isFetching}
          dataSource={q.data ?? []}
          pagination={{ pageSize: 10 }}
          locale={{ emptyText: '没有可用的发票：请先上传发票，或确认客票的乘车人是您本人' }}
          columns={[
            { title: '发票号码', dataIndex: 'number', width: 200 },
            { title: '开票日期', dataIndex: 'issueDate', width: 110 },
            { title: '销方 / 乘车人', key: 'seller', ellipsis: true, render: (_: unknown, r) => r.sellerName + (r.passengerName ? `（${r.passengerName}）` : '') },
            { title: '价税合计', dataIndex: 'amountIncl', width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '来源', dataIndex: 'origin', width: 90, render: (v: string) => <Tag>{v}</Tag> },
            { title: '提示', key: 'warn', width: 110, render: (_: unknown, r) => (r.buyerMismatch ? <Tag color="red">购方非本公司</Tag> : null) },
            {
              title: '操作', key: 'op', width: 80,
              render: (_: unknown, r) =>
                taken.includes(r.id) ? (
                  <Typography.Text type="secondary">已选</Typography.Text>
                ) : (
                  <Button size="small" type="primary" onClick={() => onPick(r)} data-testid="pick-invoice">
                    选择
                  </Button>
                ),
            },
          ]}
        />
      </Space>
  );
}
