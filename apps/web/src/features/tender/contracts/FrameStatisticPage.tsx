/**
 * 框架合同开票统计 (/tender/framecontract-invoice-statistic): per frame contract its orders' amounts against
 * the invoices in force issued on the orders (已开票), remaining and percentage; beside them, apart, the
 * invoices issued directly on the frame contract (框架合同直接开票), which do not reduce 未开票. The totals row
 * adds up every frame of the filter; a bar chart of the largest twelve (orders against invoiced on them); Excel export.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Form, Input, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ContractType, percentBp, type FrameStatisticFilter, type FrameStatisticRow } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { Money, TENDER_CONTRACT_KEY, contractDetailPath, percentText } from './common';
import { frameChart } from './chart';

const FRAME_NOTE = '已开票、未开票与开票比例只计开在订单合同上的有效发票（红字发票冲减）；直接开在框架合同上的发票另列于「框架合同直接开票」，不计入已开票，也不冲减未开票。';

const withNote = (title: string, note: string) => (
  <Tooltip title={note}>
    <span>
      {title} <QuestionCircleOutlined />
    </span>
  </Tooltip>
);

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
    { title: withNote('已开票（元）', '开在该框架合同各订单合同上的有效发票价税合计，红字发票冲减'), key: 'invoiced', width: 150, align: 'right', render: (_, r) => <Money fen={r.invoiced} /> },
    { title: withNote('框架合同直接开票（元）', '直接开在框架合同本身（而非其订单）上的有效发票价税合计；不计入已开票，不冲减未开票'), key: 'frameInvoiced', width: 190, align: 'right', render: (_, r) => <Money fen={r.frameInvoiced} /> },
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
      <Typography.Text type="secondary" data-testid="frame-note">{FRAME_NOTE}</Typography.Text>
      <Card size="small" title="订单金额与订单已开票（前12个框架合同）">
        {chart ? <EChart option={chart} height={280} testId="frame-chart" /> : <Empty description={q.isLoading ? '加载中…' : '没有框架合同'} />}
      </Card>
      <Card size="small">
        <Table<FrameStatisticRow>
          size="small"
          rowKey="id"
          loading={q.isFetching}
          dataSource={data?.items ?? []}
          columns={columns}
          scroll={{ x: 1560 }}
          locale={{ emptyText: q.isLoading ? '加载中…' : '没有框架合同' }}
          pagination={{ current: page.pageIndex, pageSize: page.pageSize, total: data?.total ?? 0, showTotal: (t) => `共 ${t} 个框架合同`, onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
          summary={() =>
            data && data.total ? (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="frame-totals">
                  <Table.Summary.Cell index={0}>合计（{data.total} 个）</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right"><Money fen={data.totals.orderAmount} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right"><Money fen={data.totals.invoiced} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right"><Money fen={data.totals.frameInvoiced} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={data.totals.remaining} /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">{percentText(percentBp(data.totals.invoiced, data.totals.orderAmount))}</Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">{data.totals.orderCount}</Table.Summary.Cell>
                  <Table.Summary.Cell index={7} colSpan={2} />
                  <Table.Summary.Cell index={9} align="right"><Money fen={data.totals.frameAmount} /></Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </Space>
  );
}
