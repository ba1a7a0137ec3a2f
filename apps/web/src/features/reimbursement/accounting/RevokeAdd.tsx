/**
 * 新增撤销 (/reimbursement/revoke/add, roles 1, 12, 16): pick a pushed bill (已报销) by bill number, applicant or
 * voucher number, choose how (撤销方式), give the reason (2–200 characters, ReimbRevokeBody's rule), confirm.
 *
 * - 删除凭证后撤销: the accounting side is asked first: while the voucher is still there, or its month is
 *   closed, the revocation is refused (and recorded) and the reason shows in place. In simulator mode roles
 *   1 and 12 may act as the accountant and delete the voucher (模拟会计系统操作), so the flow can be shown.
 * - 红字冲销凭证 (issue 32 item 3): the accounting system books a red reversing voucher in the current open
 *   period (same subjects, negative amounts, referring to the original, which is kept), also when the
 *   original's month is closed; the confirmation says so.
 */
import { DeleteOutlined, RollbackOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Radio, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ReimbRevokeBody, ReimbRevokeMethod, type ReimbPushedRow } from '@zhyy/shared';
import { reimbAccountingApi } from '../../../api/reimbursementAccounting';
import { formatTime } from '../../../components/download';
import { zodRule } from '../../../components/zodRule';
import { useTagsView } from '../../../stores/tagsView';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { REIMB_ACCOUNTING_KEY, REVOKE_ADD, REVOKE_LIST, useCanSimulate } from './common';

export const REASON_RULES = [{ required: true, whitespace: true, message: '请填写撤销原因' }, zodRule(ReimbRevokeBody.shape.reason)];

export type RevokeMethod = 'delete' | 'reverse';

export const revokeConfirmText = (r: Pick<ReimbPushedRow, 'billNo' | 'voucherNo' | 'voucherPeriod'>, method: RevokeMethod = 'delete') =>
  method === 'reverse'
    ? `将在会计系统当前会计期间生成红字冲销凭证，冲销凭证 ${r.voucherPeriod} ${r.voucherNo}（科目相同、金额为负，原凭证保留；原凭证所属期间已结账也可冲销）。冲销后报销单 ${r.billNo} 恢复为未报销，发票恢复占用并撤销入账。`
    : `撤销后报销单 ${r.billNo} 恢复为未报销，发票恢复占用并撤销入账。请确认会计已在会计系统删除凭证 ${r.voucherNo}，否则撤销将被拒绝。`;

export const revokeConfirmTitle = (r: Pick<ReimbPushedRow, 'billNo'>, method: RevokeMethod = 'delete') =>
  method === 'reverse' ? `确认以红字冲销凭证撤销报销单 ${r.billNo} 的入账？` : `确认撤销报销单 ${r.billNo} 的入账？`;

const METHOD_HINTS: Record<RevokeMethod, string> = {
  delete: '撤销前须由会计在会计系统删除该凭证；凭证仍在或所属会计期间已结账时，撤销会被拒绝并记录。',
  reverse: '会计系统在当前会计期间生成一张红字冲销凭证（科目相同、金额为负，注明冲销的原凭证），原凭证保留；原凭证所属期间已结账也可冲销。冲销凭证与原凭证都记入报销单的入账记录。',
};

const columns: TableColumnsType<ReimbPushedRow> = [
  { title: '报销单号', dataIndex: 'billNo', width: 150 },
  { title: '申请人', dataIndex: 'applicantName', width: 90 },
  { title: '部门', dataIndex: 'deptName', width: 120, ellipsis: true },
  { title: '事由', dataIndex: 'reason', width: 180, ellipsis: true },
  { title: '核定金额', dataIndex: 'approvedAmount', width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '凭证号', key: 'voucher', width: 140, render: (_: unknown, r) => `${r.voucherPeriod} ${r.voucherNo}` },
  { title: '推送人', dataIndex: 'pushedBy', width: 90 },
  { title: '推送时间', dataIndex: 'pushedAt', width: 170, render: (v: string | null) => (v ? formatTime(v) : '—') },
];

export default function ReimbRevokeAdd() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const canSimulate = useCanSimulate();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [picked, setPicked] = useState<ReimbPushedRow | null>(null);
  const [simNote, setSimNote] = useState('');
  const [method, setMethod] = useState<RevokeMethod>('delete');
  const [form] = Form.useForm<{ reason: string }>();
  const params = { ...page, ...(keyword ? { keyword } : {}) };
  const list = useQuery({ queryKey: [...REIMB_ACCOUNTING_KEY, 'pushed', params], queryFn: () => reimbAccountingApi.pushed(params) });
  const revoke = useMutation({
    mutationFn: (v: { billId: string; reason: string; method: RevokeMethod }) => reimbAccountingApi.revoke(v),
    onSuccess: (res) => {
      void feedback().message.success(res.message || '已撤销');
      void qc.invalidateQueries({ queryKey: REIMB_ACCOUNTING_KEY });
      useTagsView.getState().closeView(REVOKE_ADD);
      navigate(REVOKE_LIST);
    },
    // A refusal is recorded too: the list shows it.
    onError: () => void qc.invalidateQueries({ queryKey: [...REIMB_ACCOUNTING_KEY, 'revocations'] }),
  });
  const simDelete = useMutation({
    mutationFn: (billId: string) => reimbAccountingApi.simDeleteVoucher(billId),
    onSuccess: (res) => setSimNote(res.message ?? ''),
    onError: (e) => setSimNote(`模拟操作失败：${e.message}`),
  });
  const pick = (r: ReimbPushedRow) => {
    setPicked(r);
    setSimNote('');
    revoke.reset();
  };
  const submit = async () => {
    if (!picked) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const how = method;
    feedback().modal.confirm({
      title: revokeConfirmTitle(picked, how),
      content: revokeConfirmText(picked, how),
      okText: how === 'reverse' ? '确认冲销' : '确认撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => revoke.mutateAsync({ billId: picked.id, reason: v.reason.trim(), method: how }).catch(() => undefined),
    });
  };
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="reimb-revoke-add-page">
      <Card size="small" title="1. 选择已报销的报销单">
        <Form layout="inline" onFinish={(v: { keyword?: string }) => { setKeyword(v.keyword?.trim() ?? ''); setPage((p) => ({ ...p, pageIndex: 1 })); }} style={{ marginBottom: 12 }}>
          <Form.Item name="keyword" label="查找"><Input allowClear placeholder="报销单号、申请人或凭证号" style={{ width: 240 }} maxLength={40} data-testid="pushed-keyword" /></Form.Item>
          <Form.Item><Button type="primary" htmlType="submit">查询</Button></Form.Item>
        </Form>
        <Table<ReimbPushedRow>
          rowKey="id"
          size="small"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.items ?? []}
          scroll={{ x: 1100 }}
          rowSelection={{ type: 'radio', selectedRowKeys: picked ? [picked.id] : [], onChange: (_k, rows) => rows[0] && pick(rows[0]) }}
          onRow={(r) => ({ onClick: () => pick(r), style: { cursor: 'pointer' } })}
          pagination={{ current: page.pageIndex, pageSize: page.pageSize, total: list.data?.total ?? 0, showTotal: (t) => `共 ${t} 张`, onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有已报销的报销单" /> }}
          data-testid="pushed-list"
        />
      </Card>
      <Card size="small" title="2. 撤销原因">
        {picked ? (
          <>
            <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }} data-testid="revoke-picked">
              <Descriptions.Item label="报销单号">{picked.billNo}</Descriptions.Item>
              <Descriptions.Item label="凭证号">{picked.voucherPeriod} {picked.voucherNo}</Descriptions.Item>
              <Descriptions.Item label="申请人">{picked.applicantName}</Descriptions.Item>
              <Descriptions.Item label="核定金额"><Money fen={picked.approvedAmount} strong /></Descriptions.Item>
            </Descriptions>
            <div style={{ marginBottom: 12 }}>
              <Typography.Text style={{ marginRight: 12 }}>撤销方式</Typography.Text>
              <Radio.Group
                value={method}
                onChange={(e) => {
                  setMethod(e.target.value as RevokeMethod);
                  revoke.reset();
                }}
                options={(['delete', 'reverse'] as const).map((m) => ({ value: m, label: ReimbRevokeMethod.label(m) }))}
                data-testid="revoke-method"
              />
            </div>
            <Alert type="info" showIcon style={{ marginBottom: 12 }} title={METHOD_HINTS[method]} data-testid="revoke-method-hint" />
            {canSimulate && method === 'delete' ? (
              <Alert
                type="warning"
                style={{ marginBottom: 12 }}
                title="模拟会计系统操作（仅连接模拟会计系统时可用，用于演示和测试）"
                description={
                  <Space orientation="vertical">
                    <Typography.Text>以会计身份在模拟会计系统中删除凭证 {picked.voucherNo}。连接真实会计系统时此操作会被拒绝，请在会计系统中删除。</Typography.Text>
                    <Button size="small" icon={<DeleteOutlined />} loading={simDelete.isPending} onClick={() => simDelete.mutate(picked.id)} data-testid="sim-delete">模拟会计删除凭证</Button>
                    {simNote ? <Typography.Text data-testid="sim-note">{simNote}</Typography.Text> : null}
                  </Space>
                }
              />
            ) : null}
            {revoke.error ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={`撤销被拒绝：${revoke.error.message}`} data-testid="revoke-error" /> : null}
            <Form form={form} layout="vertical">
              <Form.Item name="reason" label="撤销原因" rules={REASON_RULES}>
                <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：报销金额有误，需退回重新核定" data-testid="revoke-reason" />
              </Form.Item>
              <Space>
                <Button type="primary" danger icon={<RollbackOutlined />} loading={revoke.isPending} onClick={() => void submit()} data-testid="revoke-submit">{method === 'reverse' ? '红字冲销' : '撤销入账'}</Button>
                <Button onClick={() => navigate(REVOKE_LIST)}>返回</Button>
              </Space>
            </Form>
          </>
        ) : (
          <Empty description="请先在上方选择一张已报销的报销单" />
        )}
      </Card>
    </Space>
  );
}
