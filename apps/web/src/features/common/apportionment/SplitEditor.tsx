/**
 * 调整分摊: an invoice's allocations on one dimension as editable rows (target, 价税合计 in 元); tax
 * and the amount excluding tax follow in proportion to the invoice, the last row takes the rounding.
 * The server checks the sum rule (±0.01 元) and the red-invoice rules and answers in Chinese.
 *
 * `SplitModal` is the editor itself, for any invoice and save call (the incoming invoices' 项目分摊 uses it
 * with its own project lookup and a department field); `SplitEditor` is the outgoing invoices' use.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Modal, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { fenToYuan, formatFen, yuanToFen, type AllocationDim, type AllocationItem, type Envelope, type InvoiceApportionment } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { feedback } from '../../../ui/feedback';
import { APPORTIONMENT_KEY, DIM_LABEL, TargetSelect, type TargetLookupSource } from './common';
import { toItems, type SplitRow as Row } from './split';

/** The form's values: the rows, the reason and whatever `extra` fields the page adds (a department …). */
export type SplitValues = { rows: Row[]; reason: string } & Record<string, unknown>;

export interface SplitModalProps {
  title: string;
  open: boolean;
  onClose: () => void;
  invoice: { amountIncl: number; tax: number };
  /** The allocations now (none: one row of the whole invoice). */
  current: ReadonlyArray<{ targetId: string; amountIncl: number }>;
  dim: AllocationDim;
  /** The target picker's lookup (default: the outgoing invoices' one). */
  lookup?: TargetLookupSource;
  /** Above the rows (a note on red invoices …). */
  note?: ReactNode;
  /** More form items below the rows, with their initial values. */
  extra?: ReactNode;
  extraInitial?: Record<string, unknown>;
  save: (items: AllocationItem[], values: SplitValues) => Promise<Envelope<unknown>>;
  onSaved: () => void;
  testId?: string;
}

export function SplitModal(props: SplitModalProps) {
  const { invoice: inv, dim } = props;
  const [form] = Form.useForm<SplitValues>();
  const rows = Form.useWatch('rows', form) ?? [];
  const sum = rows.reduce((a, r) => a + yuanToFen(r?.yuan ?? 0), 0);
  const save = useMutation({
    mutationFn: (v: SplitValues) => props.save(toItems(v.rows, inv), v),
    onSuccess: (res) => {
      void feedback().message.success(res.message ?? '分摊已保存');
      props.onSaved();
      props.onClose();
    },
  });
  return (
    <Modal
      title={props.title}
      open={props.open}
      width={720}
      onCancel={props.onClose}
      okText="保存分摊"
      confirmLoading={save.isPending}
      // An invalid form shows its messages by the fields.
      onOk={() => void form.validateFields().then((v) => save.mutate(v), () => undefined)}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ rows: props.current.length ? props.current.map((a) => ({ targetId: a.targetId, yuan: fenToYuan(a.amountIncl) })) : [{ yuan: fenToYuan(inv.amountIncl) }], reason: '', ...props.extraInitial }}
        data-testid={props.testId}
      >
        <Alert
          type={Math.abs(sum - inv.amountIncl) <= 1 ? 'success' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          title={`发票价税合计 ${formatFen(inv.amountIncl)} 元；已分摊 ${formatFen(sum)} 元；差额 ${formatFen(inv.amountIncl - sum)} 元（须在 0.01 元以内）`}
          data-testid="split-sum"
        />
        {props.note}
        <Form.List name="rows">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="start" style={{ display: 'flex' }}>
                  <Form.Item name={[f.name, 'targetId']} rules={[{ required: true, message: `请选择${DIM_LABEL[dim]}` }]} style={{ width: 420 }}>
                    <TargetSelect dim={dim} lookup={props.lookup} testId={`split-target-${f.name}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'yuan']} rules={[{ required: true, message: '请填写金额' }]}>
                    <InputNumber<string> stringMode precision={2} style={{ width: 170 }} suffix="元" placeholder="价税合计" data-testid={`split-amount-${f.name}`} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} disabled={fields.length === 1} onClick={() => remove(f.name)} aria-label="删除此行" />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ yuan: fenToYuan(inv.amountIncl - sum) })} block style={{ marginBottom: 12 }}>
                增加分摊{DIM_LABEL[dim]}
              </Button>
            </>
          )}
        </Form.List>
        {props.extra}
        <Form.Item name="reason" label="调整原因" rules={[{ required: true, min: 2, message: '请填写调整原因（至少2个字）' }]}>
          <Input.TextArea rows={2} maxLength={200} showCount placeholder="例如：按工作量拆分到两个项目" data-testid="split-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function SplitEditor({ data, dim, open, onClose }: { data: InvoiceApportionment; dim: AllocationDim; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const inv = data.invoice;
  return (
    <SplitModal
      title={`调整${DIM_LABEL[dim]}分摊 · 发票 ${inv.invoiceNo}`}
      open={open}
      onClose={onClose}
      invoice={inv}
      current={dim === 'project' ? data.project : data.contract}
      dim={dim}
      note={inv.colour === 2 ? <Typography.Paragraph type="secondary">红字发票按负数分摊，只能冲减其蓝字发票已分摊的{DIM_LABEL[dim]}。</Typography.Paragraph> : null}
      save={(items, v) => apportionmentApi.set(inv.id, dim, items, v.reason)}
      onSaved={() => void qc.invalidateQueries({ queryKey: APPORTIONMENT_KEY })}
    />
  );
}
