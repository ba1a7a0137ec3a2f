/** The detail page's apportionment (分摊): the invoice's project and contract allocations and their change history (the apportionment area's call). */
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Skeleton, Table, Tag } from 'antd';
import type { AllocationRow } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { ChangeTimeline } from '../../common/apportionment/common';
import { Money } from '../widgets';
import { LEDGER_KEY } from './request';

function Allocations({ title, rows }: { title: string; rows: AllocationRow[] }) {
  return (
    <Table<AllocationRow>
      size="small" rowKey="id" pagination={false} dataSource={rows} title={() => title}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未分摊" /> }}
      columns={[
        { title: '编号', dataIndex: 'targetCode', width: 130 },
        { title: '名称', key: 'name', ellipsis: true, render: (_, r) => <>{r.targetName}{r.targetTemp ? <Tag color="orange" style={{ marginLeft: 6 }}>临时</Tag> : null}</> },
        { title: '金额', key: 'ex', width: 130, align: 'right', render: (_, r) => <Money fen={r.amountExcl} /> },
        { title: '价税合计', key: 'in', width: 140, align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
      ]}
    />
  );
}

export function DetailApportionment({ id }: { id: string }) {
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'apportionment', id], queryFn: () => apportionmentApi.detail(id) });
  return (
    <Card size="small" title="分摊" className="ledger-section" data-testid="ledger-apportionment">
      {q.isLoading ? (
        <Skeleton active />
      ) : !q.data ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="分摊信息加载失败" />
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={16}>
            <Allocations title="项目分摊" rows={q.data.project} />
            <div style={{ height: 12 }} />
            <Allocations title="订单分摊" rows={q.data.contract} />
          </Col>
          <Col xs={24} xl={8}>
            <ChangeTimeline items={q.data.history} />
          </Col>
        </Row>
      )}
    </Card>
  );
}
