/**
 * 项目分摊 (/invoice-entry/project/apportionment): pick an incoming invoice (waiting to be signed or
 * signed), see its allocations to projects, its department and its history, and 调整分摊 with the outgoing
 * invoices' split editor (sums within 0.01 元, as the server checks). Role 16 reads only.
 */
import { EditOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Skeleton, Space, Table } from 'antd';
import { useState } from 'react';
import type { IncomeAllocationRow } from '@zhyy/shared';
import { formatDateTime } from '../../../../components/format';
import { Money } from '../../../common/Money';
import { ChangeTimeline } from '../../../common/apportionment/common';
import { poolNumber } from '../../pool/request';
import { useCanWriteEntry } from '../revoke/common';
import { allocationColumns, InvoicePicker, toChangeRow, useEntryDetail, type PickedInvoice } from './common';
import { IncomeSplitEditor } from './IncomeSplitEditor';

export default function Apportionment() {
  const canWrite = useCanWriteEntry();
  const [picked, setPicked] = useState<PickedInvoice | null>(null);
  const [editing, setEditing] = useState(false);
  const q = useEntryDetail(picked?.id);
  const d = q.data;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="income-apportionment">
      {!canWrite ? <Alert type="info" showIcon title="您可以查看发票的项目分摊与变更记录，调整分摊需由税务会计或档案管理员办理。" /> : null}
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <InvoicePicker picked={picked} onPick={setPicked} />
        </Col>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title="2. 项目分摊"
            extra={d && canWrite ? <Button type="primary" size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="edit-allocation">调整分摊</Button> : null}
          >
            {!picked ? (
              <Empty description="请先在左侧选择一张发票" />
            ) : q.isLoading || !d ? (
              <Skeleton active />
            ) : (
              <>
                <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
                  <Descriptions.Item label="发票号码">{poolNumber(d)}</Descriptions.Item>
                  <Descriptions.Item label="开票日期">{d.issueDate}</Descriptions.Item>
                  <Descriptions.Item label="销方名称" span={2}>{d.sellerName}</Descriptions.Item>
                  <Descriptions.Item label="价税合计"><Money fen={d.amountIncl} strong /></Descriptions.Item>
                  <Descriptions.Item label="税额"><Money fen={d.tax} /></Descriptions.Item>
                  <Descriptions.Item label="所属部门" span={2}>{d.deptName || '未登记'}</Descriptions.Item>
                </Descriptions>
                <Table<IncomeAllocationRow>
                  rowKey="id"
                  size="small"
                  pagination={false}
                  columns={allocationColumns}
                  dataSource={d.allocations}
                  locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未分摊到项目" /> }}
                  footer={d.allocations.length ? () => `最近调整：${d.allocations[0]!.createdByName} ${formatDateTime(d.allocations[0]!.updatedAt)}` : undefined}
                  data-testid="allocation-table"
                />
              </>
            )}
          </Card>
        </Col>
      </Row>
      {d ? (
        <Card size="small" title="分摊变更记录">
          <ChangeTimeline items={d.changes.map(toChangeRow)} />
        </Card>
      ) : null}
      {editing && d ? <IncomeSplitEditor invoice={d} open onClose={() => setEditing(false)} /> : null}
    </Space>
  );
}
