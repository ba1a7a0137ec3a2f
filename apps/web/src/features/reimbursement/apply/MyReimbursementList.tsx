/** 我的报销 (/reimbursement/my-reimbursement-list): my bills with filters, state tags, money columns, 合计 and 新建报销. */
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { formatFen, ReimbFlowState, type ReimbBillRow, type ReimbListAnswer } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';
import { Money } from '../../common/Money';
import { FlowStateTag, REIMB_KEY } from './common';

const yuanToFen = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) : undefined);

export const toListRequest = (v: Record<string, unknown>) => {
  const range = v.range as [Dayjs, Dayjs] | undefined;
  return {
    billNo: typeof v.billNo === 'string' ? v.billNo.trim() : undefined,
    flowState: v.flowState,
    from: range?.[0]?.format('YYYY-MM-DD'),
    to: range?.[1]?.format('YYYY-MM-DD'),
    amountMin: yuanToFen(v.amountMin),
    amountMax: yuanToFen(v.amountMax),
  };
};

export default function MyReimbursementList() {
  const navigate = useNavigate();
  const open = (id: string) => navigate(`/my/reimbursement/detail/${id}`);
  const columns: TableColumnsType<ReimbBillRow> = [
    { title: '报销单号', dataIndex: 'billNo', key: 'billNo', width: 150, sorter: true, render: (v: string, r) => <Typography.Link onClick={() => open(r.id)}>{v}</Typography.Link> },
    { title: '报销事由', dataIndex: 'reason', ellipsis: true, width: 220 },
    { title: '费用期间', key: 'period', width: 200, render: (_: unknown, r) => `${r.periodFrom} 至 ${r.periodTo}` },
    { title: '明细', dataIndex: 'lineCount', width: 60, align: 'center' },
    { title: '报销金额', dataIndex: 'amount', key: 'amount', width: 130, align: 'right', sorter: true, render: (v: number) => <Money fen={v} strong /> },
    { title: '核定金额', dataIndex: 'approvedAmount', key: 'approvedAmount', width: 130, align: 'right', sorter: true, render: (v: number) => <Money fen={v} /> },
    { title: '审批状态', dataIndex: 'flowState', width: 100, render: (v: number) => <FlowStateTag state={v} /> },
    { title: '当前节点', key: 'node', width: 180, ellipsis: true, render: (_: unknown, r) => (r.nodeName ? `${r.nodeName}（${r.handlerNames}）` : '—') },
    { title: '报销状态', dataIndex: 'reimbStateName', width: 90, render: (v: string) => v || '—' },
    { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt', width: 170, sorter: true, render: (v: string) => formatTime(v) },
    { title: '操作', key: 'op', width: 80, fixed: 'right', render: (_: unknown, r) => <Button size="small" onClick={() => open(r.id)}>{r.flowState === 0 || r.flowState === 2 ? '编辑' : '查看'}</Button> },
  ];
  return (
    <ListPage<ReimbBillRow>
      testId="my-reimbursement-list"
      queryKey={[...REIMB_KEY, 'my']}
      fetch={(p) => reimbApi.myList(p)}
      rowKey="id"
      columns={columns}
      scrollX={1500}
      toRequest={toListRequest}
      emptyText="还没有报销单，点击「新建报销」填写"
      actions={
        <Button type="primary" onClick={() => navigate('/my/reimbursement/detail/new')} data-testid="new-bill">
          新建报销
        </Button>
      }
      header={(data) =>
        data ? (
          <Typography.Text style={{ display: 'block', margin: '0 0 8px 4px' }} data-testid="my-bill-totals">
            合计：共 {data.total} 张，报销金额 {formatFen((data as ReimbListAnswer).sums.amount)} 元，核定金额 {formatFen((data as ReimbListAnswer).sums.approvedAmount)} 元
          </Typography.Text>
        ) : null
      }
      filters={
        <>
          <Form.Item name="billNo" label="报销单号">
            <Input allowClear placeholder="BX…" style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="flowState" label="审批状态">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={ReimbFlowState.options.map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
          <Form.Item name="range" label="创建日期">
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item label="金额（元）">
            <Space.Compact>
              <Form.Item name="amountMin" noStyle>
                <InputNumber min={0} precision={2} placeholder="最小" style={{ width: 100 }} />
              </Form.Item>
              <Form.Item name="amountMax" noStyle>
                <InputNumber min={0} precision={2} placeholder="最大" style={{ width: 100 }} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </>
      }
    />
  );
}
