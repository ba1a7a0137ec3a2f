/**
 * 框架合同开票统计 (/tender/framecontract-invoice-statistic): per frame contract its orders' amounts against
 * the invoices in force issued on the orders and on the frame itself, remaining and percentage; the
 * totals row adds up every frame of the filter; a bar chart of the largest twelve; Excel export.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ContractType, type FrameStatisticFilter, type FrameStatisticRow } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { Money, TENDER_CONTRACT_KEY, contractDetailPath, percentText } from './common';
import { frameChart } from './chart';

export default function FrameStatisticPage() {
  const [form] = Form.useForm<FrameStatisticFilter>();
  const [filter, setFilter] = useState<FrameStatisticFilter>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const q = useQuery({ queryKey: [...TENDER_CONTRACT_KEY, 'frame-statistic', filter, page], queryFn: () => tenderContractApi.frameStatistic({ ...filter, ...page }), placeholderData: keepPreviousData });
  const apply = (v: FrameStatisticFilter) => {
    setFilter(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== '')) as FrameStatisticFilter);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const columns: TableColumnsType<FrameStatisticRow> = [
    { title: '框架合同', key: 'code', width: 170, fixed: 'left', render: (_, r) => <Link to={contractDetailPath(ContractType.frame, r.id)}>{r.code}</Link> },
    { title: '订单金额合计（元）', key: 'orderAmount', width: 160, align: 'right', render: (_, r) => <Money fen={r.orderAmount} /> },
    { title: '已开票（元）', key: 'invoiced', width: 150, align: 'right', render: (_, r) => <Money fen={r.invoiced} /> },
    { title: '未开票（元）', key: 'remaining', width: 150, align: 'right', render: (_, r) => <Money fen={r.remaining} /> },
    { title: '开票比例', key: 'percent', width: 90, align: 'right', render: (_, r) => percentText(r.percentBp) },
    { title: '订单数', dataIndex: 'orderCount', key: 'orderCount', width: 70, align: 'right' },
    { title: '名称', dataIndex: 'name', key: 'name', width: 220, ellipsis: true },
    { title: '客户', dataIndex: 'customer', key: 'customer', width: 200, ellipsis: true },
    { title: '框架合同金额（元）', key: 'frameAmount', width: 160, align: 'right', render: (_, r) => <Money fen={r.frameAmount} /> },
  ];
  const data = q.data;
  const chart = data ? frameChart(data) : null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="frame-statistic">
      <Card size="small">
        <Form form={form} layout="inline" onFinish={apply}>
          <Form.Item name="keyword" label="关键字">
            <Input placeholder="框架合同编号、名称" allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="customer" label="客户">
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">查询</Button>
            <Button onClick={() => { form.resetFields(); apply({}); }}>重置</Button>
            <ExportButton fileName="框架合同开票统计" run={() => tenderContractApi.exportFrameStatistic(filter)} disabled={!data?.total} />
          </Space>
        </Form>
      </Card>
      <Card size="small" title="订单金额与已开票（前12个框架合同）">
        {chart ? <EChart option={chart} height={280} testId="frame-chart" /> : <Empty description={q.isLoading ? '加载中…' : '没有框架合同'} />}
      </Card>
      <Card size="small">
        <Table<FrameStatisticRow>
          size="small"
          rowKey="id"
          loading={q.isFetching}
          dataSource={data?.items ?? []}
          columns={columns}
          scroll={{ x: 1370 }}
          locale={{ emptyText: q.isLoading ? '加载中…' : '没有框架合同' }}
          pagination={{ current: page.pageIndex, pageSize: page.pageSize, total: data?.total ?? 0, showTotal: (t) => `共 ${t} 个框架合同`, onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
          summary={() =>
            data && data.total ? (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="frame-totals">
                  <Table.Summary.Cell index={0}>合计（{data.total} 个）</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right"><Money fen={data.totals.orderAmount} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right"><Money fen={data.totals.invoiced} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right"><Money fen={data.totals.remaining} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">{percentText(data.totals.orderAmount > 0 ? Math.round((data.totals.invoiced * 10000) / data.totals.orderAmount) : null)}</Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">{data.totals.orderCount}</Table.Summary.Cell>
                  <Table.Summary.Cell index={6} colSpan={2} />
                  <Table.Summary.Cell index={8} align="right"><Money fen={data.totals.frameAmount} /></Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </Space>
  );
}
