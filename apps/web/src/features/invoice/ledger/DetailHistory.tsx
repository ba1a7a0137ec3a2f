/** The detail page's related records: the blue original or the red invoices, red-letter confirmations, the tax sync log and the operation history. */
import { Card, Empty, Table } from 'antd';
import { Link } from 'react-router';
import { OperationLogType, type InvoiceDetail, type InvoiceHistory } from '@zhyy/shared';
import { formatTime } from '../../../components/download';
import { Money, RedStateTag, StatusTag } from '../widgets';
import { detailPath, redDetailPath } from './request';
import { SyncStatusTag } from '../../common/syncStatus';

const OP_LABELS = new Map(OperationLogType.options.map((o) => [o.value as number, o.label]));

export function DetailHistory({ d, h }: { d: InvoiceDetail; h: InvoiceHistory }) {
  return (
    <>
      <Card size="small" title={h.blue ? '蓝字原票' : '红字发票'} className="ledger-section" data-testid="ledger-related">
        {h.blue ? (
          <Table
            size="small" rowKey="id" pagination={false} dataSource={[h.blue]}
            columns={[
              { title: '发票号码', key: 'no', render: (_, b) => <Link to={detailPath(b.id)}>{b.digitalNo || b.invoiceNo}</Link> },
              { title: '开票日期', dataIndex: 'issueDate' },
              { title: '价税合计', key: 'amt', align: 'right', render: (_, b) => <Money fen={b.amountIncl} /> },
              { title: '状态', key: 'st', render: (_, b) => <StatusTag status={b.status} /> },
            ]}
          />
        ) : d.reds.length ? (
          <Table
            size="small" rowKey="id" pagination={false} dataSource={d.reds}
            columns={[
              { title: '红字发票号码', key: 'no', render: (_, r) => <Link to={detailPath(r.id)}>{r.digitalNo || r.invoiceNo || '开具中'}</Link> },
              { title: '开具时间', key: 'at', render: (_, r) => formatTime(r.issuedAt) },
              { title: '价税合计', key: 'amt', align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
              { title: '状态', key: 'st', render: (_, r) => <StatusTag status={r.status} /> },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有红字发票" />
        )}
      </Card>
      {h.redConfirms.length ? (
        <Card size="small" title="红字确认单" className="ledger-section">
          <Table
            size="small" rowKey="id" pagination={false} dataSource={h.redConfirms}
            columns={[
              { title: '确认单编号', key: 'bill', render: (_, r) => <Link to={redDetailPath(r.id)}>{r.billNo || `#${r.id}`}</Link> },
              { title: '录入方', key: 'dir', render: (_, r) => (r.direction === 'seller' ? '销方' : '购方') },
              { title: '状态', key: 'st', render: (_, r) => <RedStateTag state={r.state} /> },
              { title: '价税合计', key: 'amt', align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
              { title: '更新时间', key: 'at', render: (_, r) => formatTime(r.updatedAt) },
            ]}
          />
        </Card>
      ) : null}
      <Card size="small" title="税务端同步日志" className="ledger-section">
        <Table
          size="small" rowKey="id" pagination={h.syncLogs.length > 10 ? { pageSize: 10 } : false} dataSource={h.syncLogs}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有同步记录" /> }}
          columns={[
            { title: '时间', key: 'at', width: 170, render: (_, l) => formatTime(l.createdAt) },
            { title: '接口', dataIndex: 'type', width: 240, ellipsis: true },
            { title: '结果', key: 'st', width: 120, render: (_, l) => <SyncStatusTag status={l.status} /> },
            { title: '说明', dataIndex: 'memo', ellipsis: true },
            { title: '操作人', dataIndex: 'userName', width: 90 },
          ]}
        />
      </Card>
      <Card size="small" title="操作记录" className="ledger-section">
        <Table
          size="small" rowKey="id" pagination={h.operations.length > 10 ? { pageSize: 10 } : false} dataSource={h.operations}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有操作记录" /> }}
          columns={[
            { title: '时间', key: 'at', width: 170, render: (_, o) => formatTime(o.createdAt) },
            { title: '类型', key: 'type', width: 80, render: (_, o) => OP_LABELS.get(o.type) ?? o.type },
            { title: '内容', dataIndex: 'description' },
            { title: '操作人', dataIndex: 'userName', width: 90 },
          ]}
        />
      </Card>
    </>
  );
}
