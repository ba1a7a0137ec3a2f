/** 合同开票统计: invoiced (net of red invoices) against each contract's amount, the remaining amount and the percentage. */
import { Progress, Select, Tag, type TableColumnsType } from 'antd';
import { type ContractStatisticsRow } from '@zhyy/shared';
import { statisticsApi, type ContractStatisticsPage } from '../../../api/invoiceApportionment';
import { Figure } from '../../common/Money';
import { Money } from '../widgets';
import { barOption, StatShell } from './StatShell';

const TYPES: Record<number, string> = { 1: '框架合同', 2: '单项合同', 3: '订单合同' };

const columns: TableColumnsType<ContractStatisticsRow> = [
  { title: '合同编号', dataIndex: 'contractCode', width: 140 },
  { title: '合同名称', dataIndex: 'contractName', ellipsis: true },
  { title: '类型', dataIndex: 'contractType', width: 100, render: (v: number) => <Tag>{TYPES[v] ?? v}</Tag> },
  { title: '所属项目', dataIndex: 'projectName', ellipsis: true },
  { title: '合同金额', dataIndex: 'contractAmount', width: 150, align: 'right', render: (v: number) => <Money fen={v} /> },
  { title: '已开票', dataIndex: 'invoiced', width: 150, align: 'right', render: (v: number) => <Money fen={v} strong /> },
  { title: '未开票', dataIndex: 'remaining', width: 150, align: 'right', render: (v: number) => <Money fen={v} /> },
  {
    title: '开票比例',
    dataIndex: 'percentBp',
    width: 160,
    render: (v: number | null) => (v === null ? '—' : <Progress percent={Math.min(100, v / 100)} format={() => <Figure>{`${(v / 100).toFixed(2)}%`}</Figure>} status={v > 10000 ? 'exception' : 'normal'} size="small" />),
  },
];

export default function ContractStatistics() {
  return (
    <StatShell<ContractStatisticsRow, ContractStatisticsPage>
      name="合同开票统计"
      testId="contract-statistics"
      fetch={statisticsApi.contracts}
      exportRun={statisticsApi.exportContracts}
      columns={columns}
      rowKey="contractId"
      keywordPlaceholder="合同编号、名称或客户"
      emptyText="没有符合条件的合同"
      extraFilters={(set, v) => (
        <>
          <Select allowClear placeholder="合同类型" style={{ width: 120 }} value={v.contractType as number | undefined} onChange={(x) => set({ contractType: x })} options={Object.entries(TYPES).map(([value, label]) => ({ value: Number(value), label }))} />
          <Select allowClear placeholder="开票情况" style={{ width: 130 }} value={v.overOnly as boolean | undefined} onChange={(x) => set({ overOnly: x })} options={[{ value: true, label: '超合同开票' }]} />
        </>
      )}
      // The 合计 row carries every figure the cards used to show, the overall percentage included.
      totalsRow={(d) => ({
        cells: {
          contractAmount: <Money fen={d.totals.contractAmount} strong />,
          invoiced: <Money fen={d.totals.amountIncl} strong />,
          remaining: <Money fen={d.totals.remaining} strong />,
          percentBp: <Figure strong>{d.totals.contractAmount ? `${((d.totals.amountIncl * 100) / d.totals.contractAmount).toFixed(2)}%` : '—'}</Figure>,
        },
      })}
      chartTitle="已开票金额前十的合同"
      chart={(d) => barOption(d.chart, '已开票（元）', '未开票（元）')}
    />
  );
}
