/**
 * The allocation changes both ledgers show (outgoing invoices: invoice/apportionment, incoming:
 * income/project): the move card (变更到其他项目/合同) and the change history's columns.
 */
import { SwapOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Form, Input, InputNumber, Tag, type TableColumnsType } from 'antd';
import { useEffect } from 'react';
import { fenToYuan, formatFen, yuanToFen, type AllocationChangeRow, type AllocationDim, type Envelope } from '@zhyy/shared';
import { formatDateTime } from '../../../components/format';
import { feedback } from '../../../ui/feedback';
import { Money } from '../Money';
import { ACTION_LABEL, DIM_LABEL, snapshot, TargetSelect, type TargetLookupSource } from './common';

interface MoveForm {
  toTargetId: string;
  yuan: string;
  reason: string;
}

/** The allocation being moved, as the move card shows it. */
export interface MovePick {
  id: string;
  invoiceNo: string;
  targetId: string;
  targetCode?: string;
  targetName: string;
  amountIncl: number;
}

/**
 * 2. 变更到其他项目/合同: the picked allocation, the target, the amount (the whole allocation by default)
 * and the reason, then a confirmation. `move` is the page's call (outgoing or incoming invoices).
 */
export function MoveCard(props: {
  dim: AllocationDim;
  picked: MovePick | null;
  canChange: boolean;
  lookup?: TargetLookupSource;
  move: (v: { allocationId: string; toTargetId: string; amountIncl: number; reason: string }) => Promise<Envelope<unknown>>;
  onMoved: () => void;
}) {
  const { dim, picked, canChange } = props;
  const [form] = Form.useForm<MoveForm>();
  const what = DIM_LABEL[dim];
  const title = dim === 'project' ? '项目变更' : '订单变更';
  // Reset the form when another allocation is picked, not on every render of the page: a caller may build
  // `picked` anew each render, and a refetch must not wipe what the clerk has typed.
  const pickedId = picked?.id;
  const pickedAmount = picked?.amountIncl;
  useEffect(() => {
    if (pickedId !== undefined && pickedAmount !== undefined) form.setFieldsValue({ toTargetId: undefined, yuan: fenToYuan(Math.abs(pickedAmount)), reason: '' });
  }, [form, pickedId, pickedAmount]);
  const move = useMutation({
    mutationFn: (v: MoveForm) => props.move({ allocationId: picked!.id, toTargetId: v.toTargetId, amountIncl: yuanToFen(v.yuan), reason: v.reason }),
    onSuccess: (res) => {
      void feedback().message.success(res.message ?? `${title}成功`);
      form.resetFields();
      props.onMoved();
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    feedback().modal.confirm({
      title: `确认${title}`,
      content: `将发票 ${picked!.invoiceNo} 在「${picked!.targetName}」的 ${formatFen(yuanToFen(v.yuan))} 元分摊变更到所选${what}？变更会记录操作人、时间和原因。`,
      okText: '确认变更',
      cancelText: '取消',
      onOk: () => move.mutateAsync(v),
    });
  };
  return (
    <Card size="small" title={`2. 变更到其他${what}`}>
      {picked ? (
        <>
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
            <Descriptions.Item label="发票号码">{picked.invoiceNo}</Descriptions.Item>
            <Descriptions.Item label={`当前${what}`}>{picked.targetCode ? `${picked.targetCode} ` : ''}{picked.targetName}</Descriptions.Item>
            <Descriptions.Item label="分摊价税合计"><Money fen={picked.amountIncl} strong /></Descriptions.Item>
          </Descriptions>
          <Form form={form} layout="vertical" disabled={!canChange}>
            <Form.Item name="toTargetId" label={`变更到${what}`} rules={[{ required: true, message: `请选择${what}` }]}>
              <TargetSelect dim={dim} exclude={picked.targetId} testId="change-target" lookup={props.lookup} />
            </Form.Item>
            <Form.Item name="yuan" label="变更金额（价税合计）" extra="默认整笔变更；也可只变更其中一部分，税额按比例拆分" rules={[{ required: true, message: '请填写变更金额' }]}>
              <InputNumber<string> stringMode min="0.01" max={fenToYuan(Math.abs(picked.amountIncl))} precision={2} suffix="元" style={{ width: 220 }} data-testid="change-amount" />
            </Form.Item>
            <Form.Item name="reason" label="变更原因" rules={[{ required: true, min: 2, message: '请填写变更原因（至少2个字）' }]}>
              <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：经项目部确认，该部分工程量属于其他项目" data-testid="change-reason" />
            </Form.Item>
            <Button type="primary" icon={<SwapOutlined />} loading={move.isPending} onClick={() => void submit()} data-testid="change-submit">
              {title}
            </Button>
          </Form>
        </>
      ) : (
        <Empty description={`请先在左侧选择一条${what}分摊`} />
      )}
    </Card>
  );
}

/** The change history's columns; `snapshots` adds the allocations before → after. */
export function changeColumns(opts: { snapshots?: boolean } = {}): TableColumnsType<AllocationChangeRow> {
  return [
    { title: '时间', dataIndex: 'createdAt', width: 170, render: formatDateTime },
    { title: '类型', dataIndex: 'action', width: 100, render: (v: AllocationChangeRow['action']) => <Tag>{ACTION_LABEL[v]}</Tag> },
    { title: '发票号码', dataIndex: 'invoiceNo', width: 190 },
    { title: '变更', key: 'what', width: 260, render: (_: unknown, r) => (r.fromName ? <>{r.fromName} <SwapOutlined /> {r.toName}</> : r.after.map((x) => x.name).join('、')) },
    { title: '金额', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
    ...(opts.snapshots ? [{ title: '变更前 → 变更后', key: 'snap', width: 360, render: (_: unknown, r: AllocationChangeRow) => <>{snapshot(r.before)} → {snapshot(r.after)}</> }] : []),
    { title: '原因', dataIndex: 'reason', width: 220, ellipsis: true },
    { title: '操作人', dataIndex: 'userName', width: 100 },
  ];
}
