/**
 * 报销撤销 (/reimbursement/revoke/list, roles 1, 12, 16): every revocation attempt — bill, voucher, how
 * (删除凭证后撤销 or 红字冲销凭证, with the reversing voucher's number), reason, 冲销中 / 已撤销 / 被拒绝 with the
 * accounting side's reason, who and when — filtered by bill number, voucher number, method, state and day,
 * exported to Excel; 新增撤销 opens the form.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { ReimbRevocationState, ReimbRevokeMethod, type ReimbRevocationRow } from '@zhyy/shared';
import { reimbAccountingApi } from '../../../api/reimbursementAccounting';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';
import { Money } from '../../common/Money';
import { dayRange, REIMB_ACCOUNTING_KEY, REVOKE_ADD } from './common';

const columns: TableColumnsType<ReimbRevocationRow> = [
  { title: '报销单号', dataIndex: 'billNo', key: 'billNo', sorter: true, width: 150 },
  { title: '申请人', dataIndex: 'applicantName', width: 90 },
  { title: '核定金额', dataIndex: 'approvedAmount', width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '凭证号', key: 'voucher', width: 150, render: (_: unknown, r) => (r.voucherNo ? `${r.voucherPeriod} ${r.voucherNo}` : '—') },
  { title: '撤销方式', dataIndex: 'method', width: 120, render: (m: string) => (ReimbRevokeMethod.has(m) ? ReimbRevokeMethod.label(m) : m) },
  { title: '冲销凭证号', key: 'reversal', width: 150, render: (_: unknown, r) => (r.reversalVoucherNo ? `${r.reversalPeriod} ${r.reversalVoucherNo}` : '—') },
  { title: '撤销原因', dataIndex: 'reason', width: 200, ellipsis: true },
  {
    title: '状态', dataIndex: 'state', key: 'state', sorter: true, width: 300,
    render: (s: number, r) => (
      <Space orientation="vertical" size={0}>
        <Tag color={s === ReimbRevocationState.done ? 'success' : s === ReimbRevocationState.pending ? 'processing' : 'error'}>{ReimbRevocationState.has(s) ? ReimbRevocationState.label(s) : s}</Tag>
        {s === ReimbRevocationState.refused ? <Typography.Text type="danger" style={{ fontSize: 12 }}>{r.message}</Typography.Text> : null}
      </Space>
    ),
  },
  { title: '撤销人', dataIndex: 'requestedByName', width: 90 },
  { title: '撤销时间', dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 170, render: (v: string) => formatTime(v) },
];

export default function ReimbRevokeList() {
  const navigate = useNavigate();
  return (
    <ListPage<ReimbRevocationRow>
      testId="reimb-revoke-list"
      queryKey={[...REIMB_ACCOUNTING_KEY, 'revocations']}
      fetch={(p) => reimbAccountingApi.revocations(p)}
      rowKey="id"
      columns={columns}
      toRequest={dayRange}
      emptyText="暂无报销撤销记录"
      export={{ fileName: '报销撤销', run: (f) => reimbAccountingApi.exportRevocations(f) }}
      actions={<Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(REVOKE_ADD)} data-testid="reimb-revoke-add">新增撤销</Button>}
      filters={
        <>
          <Form.Item name="billNo" label="报销单号"><Input allowClear placeholder="BX…" style={{ width: 160 }} maxLength={40} /></Form.Item>
          <Form.Item name="voucherNo" label="凭证号"><Input allowClear placeholder="记-…" style={{ width: 130 }} maxLength={40} /></Form.Item>
          <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" style={{ width: 100 }} options={[...ReimbRevocationState.options]} /></Form.Item>
          <Form.Item name="method" label="撤销方式"><Select allowClear placeholder="全部" style={{ width: 150 }} options={[...ReimbRevokeMethod.options]} /></Form.Item>
          <Form.Item name="days" label="撤销日期"><DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} /></Form.Item>
        </>
      }
    />
  );
}
