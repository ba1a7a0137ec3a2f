/**
 * 项目变更 / 订单变更: pick an allocation, choose the target, the amount (the whole allocation by
 * default) and the reason, confirm; the change shows in the history below and in both ledgers.
 * Role 11 sees the allocations and the history only.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Form, Input, Row, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { type AllocationChangeRow, type AllocationDim, type AllocationRow } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { ListPage } from '../../../components/ListPage';
import { Money } from '../widgets';
import { APPORTIONMENT_KEY, DIM_LABEL, useCanChange } from '../../common/apportionment/common';
import { changeColumns, MoveCard, type MovePick } from '../../common/apportionment/changes';

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
