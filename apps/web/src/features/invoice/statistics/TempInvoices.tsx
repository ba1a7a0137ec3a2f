/** 临时项目开票 / 临时合同开票: invoices still on a temporary project, or not fully allocated to real contracts; with matching. */
import { Button, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatFen, type AllocationDim, type StatisticsPage, type TempInvoiceRow } from '@zhyy/shared';
import { statisticsApi } from '../../../api/invoiceApportionment';
import { useCanChange } from '../apportionment/common';
import { KindTag, Money } from '../widgets';
import { MatchModal } from './MatchModal';
import { barOption, StatShell } from './StatShell';

export function TempInvoices({ dim }: { dim: AllocationDim }) {
  const canChange = useCanChange();
  const [matching, setMatching] = useState<TempInvoiceRow | null>(null);
  const project = dim === 'project';
  const columns: TableColumnsType<TempInvoiceRow> = [
    { title: '发票号码', dataIndex: 'invoiceNo', width: 200 },
    { title: '开票日期', dataIndex: 'issueDate', width: 110 },
    { title: '种类', dataIndex: 'kind', width: 150, render: (v: number, r) => <KindTag kind={v} colour={r.colour} /> },
    { title: '购方', dataIndex: 'buyerName', ellipsis: true },
    { title: project ? '临时项目' : '所属项目', dataIndex: 'targetName', ellipsis: true, render: (v: string) => (v ? (project ? <Tag color="orange">{v}</Tag> : v) : '—') },
    { title: '发票价税合计', dataIndex: 'invoiceAmountIncl', width: 140, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: project ? '临时项目分摊' : '未匹配金额', dataIndex: 'amountIncl', width: 140, align: 'right', render: (v: number) => <Money fen={v} strong /> },
    ...(canChange ? [{ title: '操作', key: 'op', width: 90, fixed: 'right' as const, render: (_: unknown, r: TempInvoiceRow) => <Button size="small" type="link" onClick={() => setMatching(r)}>匹配</Button> }] : []),
  ];
  return (
    <>
      <StatShell<TempInvoiceRow, StatisticsPage<TempInvoiceRow>>
        name={project ? '临时项目开票' : '临时合同开票'}
        testId={project ? 'temp-project-invoice' : 'temp-contract-invoice'}
        fetch={project ? statisticsApi.tempProject : statisticsApi.tempContract}
        exportRun={project ? statisticsApi.exportTempProject : statisticsApi.exportTempContract}
        columns={columns}
        rowKey={(r) => r.allocationId ?? r.invoiceId}
        keywordPlaceholder={project ? '发票号码、购方或临时项目' : '发票号码、购方或项目'}
        emptyText={project ? '没有仍在临时项目上的发票' : '所有发票都已分摊到正式合同'}
        scrollX={1200}
        figures={(d) => [
          { title: project ? '临时分摊笔数' : '待匹配发票', value: d?.total ?? 0 },
          { title: '发票张数', value: d?.totals.invoiceCount ?? 0 },
          { title: '待匹配价税合计（元）', value: formatFen(d?.totals.amountIncl ?? 0) },
          { title: '待匹配税额（元）', value: formatFen(d?.totals.tax ?? 0) },
        ]}
        chartTitle={project ? '按临时项目' : '按所属项目'}
        chart={(d) => barOption(d.chart, '待匹配金额（元）')}
      />
      <MatchModal dim={dim} row={matching} onClose={() => setMatching(null)} />
    </>
  );
}
