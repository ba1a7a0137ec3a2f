/**
 * 签收撤销 (/invoice-entry/revoke/list): every revocation — archive number (void, never given
 * again), invoice, seller, amount, the document it was signed against, the reason, who and when —
 * filtered by archive number, invoice number and day. 新增撤销 for the roles that may change (not 16).
 * 导出Excel streams the filtered list (revoke/export).
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Typography, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { IncomeSignDocType, type RevokeRow } from '@zhyy/shared';
import { incomeRevokeApi, REVOKE_EXPORT } from '../../../../api/incomeRevoke';
import { ListPage } from '../../../../components/ListPage';
import { formatDateTime } from '../../../../components/format';
import { ExportProgress } from '../../../common/ExportProgress';
import { Money } from '../../../common/Money';
import { dayRangeRequest, REVOKE_ADD, REVOKE_KEY, useCanWriteEntry } from './common';

export const docText = (r: { docType: string; docNo: string }) => `${IncomeSignDocType.has(r.docType) ? IncomeSignDocType.label(r.docType) : r.docType}${r.docNo ? ` ${r.docNo}` : ''}`;

const columns: TableColumnsType<RevokeRow> = [
  { title: '档案号', dataIndex: 'archiveNo', width: 150, render: (v: string) => <Typography.Text delete type="secondary">{v}</Typography.Text> },
  { title: '发票号码', dataIndex: 'invoiceNo', width: 200 },
  { title: '销方名称', dataIndex: 'sellerName', width: 220, ellipsis: true },
  { title: '价税合计', dataIndex: 'amountIncl', width: 130, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '签收单据', key: 'doc', width: 180, render: (_: unknown, r) => docText(r) },
  { title: '撤销原因', dataIndex: 'reason', width: 240, ellipsis: true },
  { title: '撤销人', dataIndex: 'userName', width: 100 },
  { title: '撤销时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
];

export default function RevokeList() {
  const navigate = useNavigate();
  const canWrite = useCanWriteEntry();
  return (
    <ListPage<RevokeRow>
      testId="revoke-list"
      queryKey={[...REVOKE_KEY, 'list']}
      fetch={(p) => incomeRevokeApi.revokes(p)}
      rowKey="id"
      columns={columns}
      toRequest={dayRangeRequest}
      emptyText="暂无签收撤销记录"
      exportWith={(body, total) => <ExportProgress path={REVOKE_EXPORT} body={body} rows={total} fileName="签收撤销记录" disabled={!total} />}
      actions={canWrite ? <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(REVOKE_ADD)} data-testid="revoke-add">新增撤销</Button> : null}
      filters={
        <>
          <Form.Item name="archiveNo" label="档案号">
            <Input allowClear placeholder="GD…" style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="number" label="发票号码">
            <Input allowClear placeholder="发票号码或数电号码" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="days" label="撤销日期">
            <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
          </Form.Item>
        </>
      }
    />
  );
}
