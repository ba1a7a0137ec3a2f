/** 项目分摊台账 / 订单分摊台账: every allocation of created invoices with filters, totals, export and the invoice's drawer. */
import { Button, DatePicker, Form, Input, Select, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatFen, type AllocationDim, type AllocationRow, type ApportionmentPage } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { ListPage } from '../../../components/ListPage';
import { KindTag, Money } from '../widgets';
import { APPORTIONMENT_KEY, DIM_LABEL } from '../../common/apportionment/common';
import { AllocationDrawer } from './AllocationDrawer';

const toRequest = (v: Record<string, unknown>) => {
  const range = v.range as [Dayjs, Dayjs] | undefined;
  return { ...v, range: undefined, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') };
};

export function Ledger({ dim }: { dim: AllocationDim }) {
  const [open, setOpen] = useState<string | null>(null);
  const what = DIM_LABEL[dim];
  const title = dim === 'project' ? '项目分摊台账' : '订单分摊台账';
  const columns: TableColumnsType<AllocationRow> = [
    { title: '发票号码', dataIndex: 'invoiceNo', width: 200, render: (v: string, r) => <Button type="link" size="small" onClick={() => setOpen(r.invoiceId)} data-testid="open-allocation">{v}</Button> },
    {
      title: `${what}`, dataIndex: 'targetName', key: 'targetName', width: 260, ellipsis: { showTitle: false }, sorter: true,
      // Code and 临时 tag stay whole; the name between them ends in "…" when the column is too narrow.
      render: (v: string, r) => (
        <span className="cell-line">
          <Typography.Text type="secondary">{r.targetCode}</Typography.Text>
          <Typography.Text ellipsis title={v}>{v}</Typography.Text>
          {r.targetTemp ? <Tag color="orange">临时</Tag> : null}
        </span>
      ),
    },
    // Issue 31: the money right after what it was allocated to, whole beside 操作 at 1366; the invoice's description after.
    { title: '分摊价税合计', dataIndex: 'amountIncl', key: 'amountIncl', align: 'right', width: 140, sorter: true, render: (v: number) => <Money fen={v} strong /> },
    { title: '分摊税额', dataIndex: 'tax', align: 'right', width: 120, render: (v: number) => <Money fen={v} /> },
    { title: '发票价税合计', dataIndex: 'invoiceAmountIncl', align: 'right', width: 140, render: (v: number) => <Money fen={v} /> },
    { title: '分摊数', dataIndex: 'shareCount', width: 80, align: 'center', render: (v: number) => (v > 1 ? <Tag color="blue">拆分 {v}</Tag> : <Tag>1</Tag>) },
    { title: '购方', dataIndex: 'buyerName', key: 'buyerName', ellipsis: true, sorter: true },
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, sorter: true },
    { title: '种类', dataIndex: 'kind', width: 150, render: (v: number, r) => <KindTag kind={v} colour={r.colour} /> },
    { title: '操作', key: 'op', width: 90, fixed: 'right', render: (_: unknown, r) => <Button size="small" onClick={() => setOpen(r.invoiceId)}>分摊详情</Button> },
  ];
  return (
    <>
      <ListPage<AllocationRow>
        testId={`ledger-${dim}`}
        queryKey={[...APPORTIONMENT_KEY, 'ledger', dim]}
        fetch={(p) => apportionmentApi.ledger(dim, p)}
        rowKey="id"
        columns={columns}
        scrollX={1600}
        toRequest={toRequest}
        emptyText="没有符合条件的分摊记录"
        export={{ fileName: title, run: (f) => apportionmentApi.exportLedger(dim, f) }}
        header={(data) =>
          data ? (
            <Typography.Text style={{ display: 'block', margin: '0 0 8px 4px' }} data-testid="ledger-totals">
              共 {data.total} 条分摊，价税合计 {formatFen((data as ApportionmentPage).totals.amountIncl)} 元，不含税 {formatFen((data as ApportionmentPage).totals.amountExcl)} 元，税额 {formatFen((data as ApportionmentPage).totals.tax)} 元
            </Typography.Text>
          ) : null
        }
        filters={
          <>
            <Form.Item name="range" label="开票日期">
              <DatePicker.RangePicker />
            </Form.Item>
            <Form.Item name="target" label={what}>
              <Input allowClear placeholder={`${what}编号或名称`} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="keyword" label="发票">
              <Input allowClear placeholder="发票号码或购方" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="colour" label="颜色">
              <Select allowClear placeholder="全部" style={{ width: 100 }} options={[{ value: 1, label: '蓝字' }, { value: 2, label: '红字' }]} />
            </Form.Item>
            <Form.Item name="tempOnly" label={`临时${what}`}>
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={[{ value: true, label: '仅临时' }]} />
            </Form.Item>
          </>
        }
      />
      <AllocationDrawer invoiceId={open} onClose={() => setOpen(null)} />
    </>
  );
}
