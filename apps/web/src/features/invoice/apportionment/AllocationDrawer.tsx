/** One invoice's apportionment: its project and contract allocations, the change history, and 调整分摊 for writers. */
import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Drawer, Empty, Skeleton, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { InvoiceStatus, type AllocationDim, type AllocationRow } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { KindTag, Money } from '../widgets';
import { APPORTIONMENT_KEY, ChangeTimeline, DIM_LABEL, useCanChange } from '../../common/apportionment/common';
import { SplitEditor } from '../../common/apportionment/SplitEditor';

const columns = (dim: AllocationDim): TableColumnsType<AllocationRow> => [
  { title: `${DIM_LABEL[dim]}编号`, dataIndex: 'targetCode', width: 150 },
  { title: `${DIM_LABEL[dim]}名称`, dataIndex: 'targetName', render: (v: string, r) => (r.targetTemp ? <>{v} <Tag color="orange">临时</Tag></> : v) },
  { title: '不含税金额', dataIndex: 'amountExcl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
  { title: '税额', dataIndex: 'tax', align: 'right', width: 110, render: (v: number) => <Money fen={v} /> },
  { title: '价税合计', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} strong /> },
];

export function AllocationDrawer({ invoiceId, onClose }: { invoiceId: string | null; onClose: () => void }) {
  const canChange = useCanChange();
  const [editing, setEditing] = useState<AllocationDim | null>(null);
  const q = useQuery({ queryKey: [...APPORTIONMENT_KEY, 'detail', invoiceId], queryFn: () => apportionmentApi.detail(invoiceId!), enabled: !!invoiceId });
  const d = q.data;
  const editable = canChange && d?.invoice.status === InvoiceStatus.created;
  const section = (dim: AllocationDim) => (
    <Card
      size="small"
      title={dim === 'project' ? '项目分摊' : '订单分摊'}
      style={{ marginBottom: 12 }}
      extra={editable ? <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(dim)} data-testid={`edit-${dim}`}>调整分摊</Button> : null}
    >
      <Table<AllocationRow>
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns(dim)}
        dataSource={d ? d[dim] : []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`尚未分摊到${DIM_LABEL[dim]}`} /> }}
      />
    </Card>
  );
  return (
    <Drawer title={d ? `发票分摊 · ${d.invoice.invoiceNo}` : '发票分摊'} open={!!invoiceId} onClose={onClose} size={860} destroyOnHidden data-testid="allocation-drawer">
      {q.isLoading || !d ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="发票号码">{d.invoice.invoiceNo}</Descriptions.Item>
            <Descriptions.Item label="种类"><KindTag kind={d.invoice.kind} colour={d.invoice.colour} /></Descriptions.Item>
            <Descriptions.Item label="购方">{d.invoice.buyerName}</Descriptions.Item>
            <Descriptions.Item label="开票日期">{d.invoice.issueDate ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="价税合计"><Money fen={d.invoice.amountIncl} strong /></Descriptions.Item>
            <Descriptions.Item label="税额"><Money fen={d.invoice.tax} /></Descriptions.Item>
            {d.invoice.blueInvoiceNo ? <Descriptions.Item label="对应蓝字发票" span={2}>{d.invoice.blueInvoiceNo}</Descriptions.Item> : null}
          </Descriptions>
          {section('project')}
          {section('contract')}
          <Card size="small" title="分摊变更记录">
            <ChangeTimeline items={d.history} />
          </Card>
          {editing ? <SplitEditor data={d} dim={editing} open onClose={() => setEditing(null)} /> : null}
        </>
      )}
    </Drawer>
  );
}
