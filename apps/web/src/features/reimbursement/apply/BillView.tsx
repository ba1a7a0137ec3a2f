/**
 * A bill as read (not being edited): header, lines with their invoices, checks and 核定, attachments,
 * the approval's track and opinions, and (on the ledger's page) the accounting history; 打印 prints a
 * voucher-style sheet (PrintSheet.tsx; print.css prints only it).
 */
import { Button, Card, Descriptions, Empty, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { formatFen, type ReimbBillDetail, type ReimbLineView } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { formatTime, saveBlob } from '../../../components/download';
import { Money } from '../../common/Money';
import { TrackTimeline } from '../../common/TrackTimeline';
import { CheckTags, FlowStateTag, InvoiceCell } from './common';
import { DuplicateMatches } from './DuplicateMatches';
import { PrintPortal } from './PrintSheet';
import './print.css';

export function lineColumns(extra: TableColumnsType<ReimbLineView> = []): TableColumnsType<ReimbLineView> {
  return [
    { title: '行', dataIndex: 'lineNo', width: 50, align: 'center' },
    { title: '费用类别', dataIndex: 'categoryName', width: 110 },
    { title: '发生日期', dataIndex: 'expenseDate', width: 110 },
    {
      title: '说明', dataIndex: 'description', width: 200, ellipsis: true,
      render: (v: string, r) => (
        <span>
          {v}
          {r.city ? <Typography.Text type="secondary">（{r.city}{r.nights ? ` ${r.nights}${r.travelKind === 'allowance' ? '天' : '晚'}` : ''}{r.seatClass ? ` ${r.seatClass}` : ''}）</Typography.Text> : null}
        </span>
      ),
    },
    { title: '报销金额', dataIndex: 'amount', width: 120, align: 'right', render: (v: number) => <Money fen={v} strong /> },
    { title: '检查', dataIndex: 'checks', width: 180, render: (_: unknown, r) => <CheckTags checks={r.checks} /> },
    { title: '税额', dataIndex: 'tax', width: 100, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: '可抵扣税额', dataIndex: 'deductibleTax', width: 110, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: '不含可抵扣税', dataIndex: 'netAmount', width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: '发票', dataIndex: 'invoiceNumber', width: 230, render: (_: string, r) => <InvoiceCell invoice={r.invoice} number={r.invoiceNumber} /> },
    ...extra,
  ];
}

export const approvedColumn: TableColumnsType<ReimbLineView>[number] = {
  title: '核定金额', dataIndex: 'approvedAmount', width: 180, align: 'right',
  render: (v: number | null, r) =>
    v === null ? (
      <Money fen={r.amount} />
    ) : (
      <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
        <Money fen={v} strong />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {r.approvedBy}：{r.approveNote}
        </Typography.Text>
      </Space>
    ),
};

export function BillHeader({ b, compact }: { b: ReimbBillDetail; compact?: boolean }) {
  return (
    <Descriptions
      size="small"
      bordered
      column={compact ? { xs: 1, md: 2 } : { xs: 1, md: 3 }}
      items={[
        { key: 'no', label: '报销单号', children: b.billNo },
        { key: 'state', label: '审批状态', children: <FlowStateTag state={b.flowState} /> },
        { key: 'reimb', label: '报销状态', children: b.reimbStateName || '—' },
        { key: 'who', label: '申请人', children: `${b.applicantName}（${b.deptName}）` },
        { key: 'period', label: '费用期间', children: `${b.periodFrom} 至 ${b.periodTo}` },
        { key: 'project', label: '项目/合同', children: [b.projectName, b.contractNo].filter(Boolean).join(' / ') || '—' },
        { key: 'reason', label: '报销事由', span: compact ? 2 : 3, children: b.reason },
        { key: 'payee', label: '收款人', children: b.payeeName || '—' },
        { key: 'bank', label: '开户行', children: b.payeeBank || '—' },
        { key: 'account', label: '收款账号', children: b.payeeAccount || '—' },
        { key: 'amount', label: '报销金额', children: <Money fen={b.amount} strong /> },
        { key: 'approved', label: '核定金额', children: <Money fen={b.approvedAmount} strong /> },
        { key: 'tax', label: '税额 / 可抵扣', children: <span><Money fen={b.tax} /> / <Money fen={b.deductibleTax} /></span> },
        ...(b.flowState === 1 ? [{ key: 'node', label: '当前节点', span: compact ? 2 : 3, children: `${b.nodeName}（${b.handlerNames}）` }] : []),
        ...(b.voucherNo ? [{ key: 'voucher', label: '凭证号', span: compact ? 2 : 3, children: b.voucherNo }] : []),
      ]}
    />
  );
}

export function Attachments({ b, extra }: { b: ReimbBillDetail; extra?: ReactNode }) {
  return (
    <Card size="small" title={`附件（${b.attachments.length}）`} extra={extra}>
      {b.attachments.length ? (
        <Space direction="vertical" size={2}>
          {b.attachments.map((a) => (
            <Typography.Link key={a.id} onClick={() => void reimbApi.downloadAttachment(a.id).then((blob) => saveBlob(blob, a.name))}>
              {a.name}（{Math.ceil(a.size / 1024)} KB）
            </Typography.Link>
          ))}
        </Space>
      ) : (
        <Typography.Text type="secondary">无附件</Typography.Text>
      )}
    </Card>
  );
}

export function BillView({ b, actions, showPushes }: { b: ReimbBillDetail; actions?: ReactNode; showPushes?: boolean }) {
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} className="reimb-screen">
      <Card
        size="small"
        title={`费用报销单 ${b.billNo}`}
        extra={
          <Space>
            {actions}
            <Button onClick={() => window.print()} data-testid="print-bill">
              打印
            </Button>
          </Space>
        }
      >
        <BillHeader b={b} />
      </Card>
      <Card size="small" title={`费用明细（${b.lineCount} 行）`}>
        <Table<ReimbLineView>
          rowKey="id"
          size="small"
          pagination={false}
          columns={lineColumns([approvedColumn])}
          dataSource={b.lines}
          scroll={{ x: 1700 }}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={4}>
                合计
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                <Money fen={b.amount} strong />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} />
              <Table.Summary.Cell index={6} align="right">
                <Money fen={b.tax} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right">
                <Money fen={b.deductibleTax} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={8} colSpan={2} />
              <Table.Summary.Cell index={10} align="right">
                <Money fen={b.approvedAmount} strong />
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
      </Card>
      {/* 疑似重复报销 with links for those who may follow them; accepting is the approval drawer's (issue 32 #4). */}
      <DuplicateMatches billId={b.id} lines={b.lines} canAccept={false} onDone={() => undefined} />
      <Attachments b={b} />
      <Card size="small" title="审批轨迹与意见">
        {b.track.length ? <TrackTimeline track={b.track} /> : <Empty description="尚未提交审批" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      </Card>
      {showPushes ? (
        <Card size="small" title="入账记录">
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={b.pushes}
            locale={{ emptyText: '尚无入账记录' }}
            columns={[
              { title: '时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
              { title: '操作', dataIndex: 'action', width: 80, render: (v: string) => ({ revoke: '撤销', reverse: '红字冲销' } as Record<string, string>)[v] ?? '推送' },
              { title: '结果', dataIndex: 'ok', width: 80, render: (v: boolean) => (v ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>) },
              { title: '凭证号', dataIndex: 'voucherNo', width: 140 },
              { title: '说明', dataIndex: 'message' },
              { title: '操作人', dataIndex: 'userName', width: 100 },
            ]}
          />
        </Card>
      ) : null}
      <PrintPortal b={b} />
    </Space>
  );
}
