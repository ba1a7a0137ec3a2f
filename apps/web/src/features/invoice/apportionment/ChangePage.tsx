/**
 * 项目变更 / 订单变更: pick an allocation, choose the target, the amount (the whole allocation by
 * default) and the reason, confirm; the change shows in the history below and in both ledgers.
 * Role 11 sees the allocations and the history only.
 */
import { SwapOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Form, Input, InputNumber, Row, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { fenToYuan, formatFen, yuanToFen, type AllocationChangeRow, type AllocationDim, type AllocationRow, type Envelope } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { ListPage } from '../../../components/ListPage';
import { formatDateTime } from '../../../components/format';
import { feedback } from '../../../ui/feedback';
import { Money } from '../widgets';
import { ACTION_LABEL, APPORTIONMENT_KEY, DIM_LABEL, snapshot, TargetSelect, useCanChange, type TargetLookupSource } from './common';

interface MoveForm {
  toTargetId: string;
  yuan: string;
  reason: string;
}

function Picker({ dim, picked, onPick }: { dim: AllocationDim; picked: AllocationRow | null; onPick: (r: AllocationRow) => void }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: [...APPORTIONMENT_KEY, 'ledger', dim, 'picker', keyword], queryFn: () => apportionmentApi.ledger(dim, { pageIndex: 1, pageSize: 8, ...(keyword ? (/^\d{6,}$/.test(keyword) ? { keyword } : { target: keyword }) : {}) }) });
  const columns: TableColumnsType<AllocationRow> = [
    { title: '发票号码', dataIndex: 'invoiceNo', width: 190 },
    { title: DIM_LABEL[dim], dataIndex: 'targetName', ellipsis: true, render: (v: string, r) => <>{v}{r.targetTemp ? <Tag color="orange" style={{ marginLeft: 4 }}>临时</Tag> : null}</> },
    { title: '分摊金额', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
  ];
  return (
    <Card size="small" title="1. 选择分摊" extra={<Input.Search allowClear placeholder={`${DIM_LABEL[dim]}名称或发票号码`} onSearch={setKeyword} style={{ width: 240 }} data-testid="picker-search" />}>
      <Table<AllocationRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.items ?? []}
        pagination={false}
        rowSelection={{ type: 'radio', selectedRowKeys: picked ? [picked.id] : [], onChange: (_k, rows) => rows[0] && onPick(rows[0]) }}
        onRow={(r) => ({ onClick: () => onPick(r), style: { cursor: 'pointer' } })}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的分摊" /> }}
        data-testid="allocation-picker"
      />
    </Card>
  );
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

export function ChangePage({ dim }: { dim: AllocationDim }) {
  const canChange = useCanChange();
  const qc = useQueryClient();
  const [picked, setPicked] = useState<AllocationRow | null>(null);
  const title = dim === 'project' ? '项目变更' : '订单变更';
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid={`change-${dim}`}>
      {!canChange ? <Alert type="info" showIcon title={`您可以查看分摊与变更记录，${title}需由开票人员办理。`} /> : null}
      <Row gutter={12}>
        <Col xs={24} xl={13}>
          <Picker dim={dim} picked={picked} onPick={setPicked} />
        </Col>
        <Col xs={24} xl={11}>
          <MoveCard
            dim={dim}
            picked={picked}
            canChange={canChange}
            move={(v) => apportionmentApi.move(dim, v)}
            onMoved={() => {
              setPicked(null);
              void qc.invalidateQueries({ queryKey: APPORTIONMENT_KEY });
            }}
          />
        </Col>
      </Row>
      <Typography.Title level={5} style={{ margin: '4px 0 0' }}>变更记录</Typography.Title>
      <ListPage<AllocationChangeRow>
        testId="change-history"
        queryKey={[...APPORTIONMENT_KEY, 'changes', dim]}
        fetch={(p) => apportionmentApi.changes({ ...p, dim })}
        rowKey="id"
        columns={changeColumns()}
        pageSize={10}
        emptyText="暂无变更记录"
        filters={
          <Form.Item name="keyword" label="关键字">
            <Input allowClear placeholder="发票号码、对象、原因或操作人" style={{ width: 240 }} />
          </Form.Item>
        }
      />
    </Space>
  );
}
