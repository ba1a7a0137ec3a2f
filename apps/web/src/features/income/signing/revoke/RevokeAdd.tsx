/**
 * 新增签收撤销 (/invoice-entry/revoke/add): choose a signed record, give the reason (2–200
 * characters, RevokeBody's rule and messages), confirm — the archive number becomes void and is never
 * given again — and go back to 签收撤销. A refusal (已入账, 随合同归档完成使用 …) stays on the page in
 * the server's words. Role 16 sees the signed records but cannot revoke.
 */
import { RollbackOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RevokeBody, type SigningRow } from '@zhyy/shared';
import { incomeRevokeApi } from '../../../../api/incomeRevoke';
import { formatDateTime } from '../../../../components/format';
import { zodRule } from '../../../../components/zodRule';
import { useTagsView } from '../../../../stores/tagsView';
import { feedback } from '../../../../ui/feedback';
import { Money } from '../../../common/Money';
import { REVOKE_ADD, REVOKE_KEY, REVOKE_LIST, useCanWriteEntry } from './common';
import { docText } from './RevokeList';

/** The reason's rules: required, then RevokeBody's own (trimmed, 2–200 characters). */
export const REASON_RULES = [{ required: true, whitespace: true, message: '请填写撤销原因' }, zodRule(RevokeBody.shape.reason)];

/** The confirmation's words: what happens to the invoice and that the number is never given again. */
export const revokeConfirmText = (r: Pick<SigningRow, 'invoiceNo' | 'archiveNo'>) =>
  `撤销后发票 ${r.invoiceNo} 恢复为未签收，档案号 ${r.archiveNo} 作废且不再使用；再次签收时将取得新的档案号。此操作不可恢复。`;

const columns: TableColumnsType<SigningRow> = [
  { title: '档案号', dataIndex: 'archiveNo', width: 150 },
  { title: '发票号码', dataIndex: 'invoiceNo', width: 200 },
  { title: '销方名称', dataIndex: 'sellerName', width: 200, ellipsis: true },
  { title: '价税合计', dataIndex: 'amountIncl', width: 130, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '签收单据', key: 'doc', width: 170, render: (_: unknown, r) => docText(r) },
  { title: '签收人', dataIndex: 'userName', width: 90 },
  { title: '签收时间', dataIndex: 'finishedAt', width: 170, render: (v: string | null, r) => formatDateTime(v ?? r.createdAt) },
];

interface Filters {
  archiveNo?: string;
  number?: string;
}

export default function RevokeAdd() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const canWrite = useCanWriteEntry();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [picked, setPicked] = useState<SigningRow | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const params = { ...page, ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) };
  const list = useQuery({ queryKey: [...REVOKE_KEY, 'signed', params], queryFn: () => incomeRevokeApi.signed(params) });
  const revoke = useMutation({
    mutationFn: (v: { invoiceId: string; reason: string }) => incomeRevokeApi.revoke(v),
    onSuccess: (res) => {
      void feedback().message.success(res.message || '已撤销签收');
      void qc.invalidateQueries({ queryKey: REVOKE_KEY });
      useTagsView.getState().closeView(REVOKE_ADD);
      navigate(REVOKE_LIST);
    },
  });
  const pick = (r: SigningRow) => {
    setPicked(r);
    revoke.reset();
  };
  const submit = async () => {
    if (!picked) return;
    // An invalid form shows its messages by the fields.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    feedback().modal.confirm({
      title: `确认撤销档案号 ${picked.archiveNo} 的签收？`,
      content: revokeConfirmText(picked),
      okText: '确认撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      // A refusal closes the confirmation and shows in the page (the mutation's error).
      onOk: () => revoke.mutateAsync({ invoiceId: picked.invoiceId, reason: v.reason.trim() }).catch(() => undefined),
    });
  };
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="revoke-add-page">
      {!canWrite ? <Alert type="info" showIcon title="您可以查看已签收的发票，撤销签收需由税务会计或档案管理员办理。" /> : null}
      <Card size="small" title="1. 选择已签收的发票">
        <Form layout="inline" onFinish={(v: Filters) => { setFilters({ archiveNo: v.archiveNo?.trim(), number: v.number?.trim() }); setPage((p) => ({ ...p, pageIndex: 1 })); }} style={{ marginBottom: 12 }}>
          <Form.Item name="archiveNo" label="档案号"><Input allowClear placeholder="GD…" style={{ width: 170 }} /></Form.Item>
          <Form.Item name="number" label="发票号码"><Input allowClear placeholder="发票号码或数电号码" style={{ width: 200 }} data-testid="signed-number" /></Form.Item>
          <Form.Item><Button type="primary" htmlType="submit">查询</Button></Form.Item>
        </Form>
        <Table<SigningRow>
          rowKey="id"
          size="small"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.items ?? []}
          scroll={{ x: 1100 }}
          rowSelection={{ type: 'radio', selectedRowKeys: picked ? [picked.id] : [], onChange: (_k, rows) => rows[0] && pick(rows[0]) }}
          onRow={(r) => ({ onClick: () => pick(r), style: { cursor: 'pointer' } })}
          pagination={{ current: page.pageIndex, pageSize: page.pageSize, total: list.data?.total ?? 0, showTotal: (t) => `共 ${t} 条`, onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有可撤销的签收记录" /> }}
          data-testid="signed-list"
        />
      </Card>
      <Card size="small" title="2. 撤销原因">
        {picked ? (
          <>
            <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }} data-testid="revoke-picked">
              <Descriptions.Item label="档案号">{picked.archiveNo}</Descriptions.Item>
              <Descriptions.Item label="发票号码">{picked.invoiceNo}</Descriptions.Item>
              <Descriptions.Item label="销方名称">{picked.sellerName}</Descriptions.Item>
              <Descriptions.Item label="价税合计"><Money fen={picked.amountIncl} strong /></Descriptions.Item>
              <Descriptions.Item label="签收单据">{docText(picked)}</Descriptions.Item>
              <Descriptions.Item label="签收人">{picked.userName}</Descriptions.Item>
            </Descriptions>
            {revoke.error ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={`撤销失败：${revoke.error.message}`} data-testid="revoke-error" /> : null}
            <Form form={form} layout="vertical" disabled={!canWrite}>
              <Form.Item name="reason" label="撤销原因" rules={REASON_RULES}>
                <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：签收单据填写错误，需重新签收" data-testid="revoke-reason" />
              </Form.Item>
              <Space>
                <Button type="primary" danger icon={<RollbackOutlined />} loading={revoke.isPending} onClick={() => void submit()} data-testid="revoke-submit">撤销签收</Button>
                <Button onClick={() => navigate(REVOKE_LIST)}>返回</Button>
              </Space>
            </Form>
          </>
        ) : (
          <Empty description="请先在上方选择一条已签收的记录" />
        )}
      </Card>
    </Space>
  );
}
