/** 临时项目开票 / 临时合同开票: invoices still on a temporary project, or not fully allocated to real contracts; with matching. */
import { Button, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatFen, type AllocationDim, type StatisticsPage, type TempInvoiceRow } from '@zhyy/shared';
import { statisticsApi } from '../../../api/invoiceApportionment';
import { useCanChange } from '../../common/apportionment/common';
import { KindTag, Money } from '../widgets';
import { MatchModal } from './MatchModal';
import { barOption, StatShell } from './StatShell';

export function TempInvoices({ dim }: { dim: AllocationDim }) {
  const canChange = useCanChange();
  const [matching, setMatching] = useState<TempInvoiceRow | null>(null);
  const project = dim === 'project';
  const columns: TableColumnsType<TempInvoiceRow> = [
    { title: '发票号码', dataIndex: 'invoiceNo', width: 200 },
    { title: project ? '临时项目' : '所属项目', dataIndex: 'targetName', width: 200, ellipsis: true, render: (v: string) => (v ? (project ? <Tag color="orange">{v}</Tag> : v) : '—') },
    // Issue 31: the amounts beside what they are on, whole beside 操作 at 1366; the invoice's description after.
    { title: project ? '临时项目分摊' : '未匹配金额', dataIndex: 'amountIncl', width: 140, align: 'right', render: (v: number) => <Money fen={v} strong /> },
    { title: '发票价税合计', dataIndex: 'invoiceAmountIncl', width: 140, align: 'right', render: (v: number) => <Money fen={v} /> },
    { title: '购方', dataIndex: 'buyerName', ellipsis: true },
    { title: '开票日期', dataIndex: 'issueDate', width: 110 },
    { title: '种类', dataIndex: 'kind', width: 150, render: (v: number, r) => <KindTag kind={v} colour={r.colour} /> },
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
        // The table has no columns for these two, so they stay as cards; the counts and 价税合计 are in the 合计 row.
        figures={(d) => [
          { title: '待匹配不含税金额（元）', value: formatFen(d?.totals.amountExcl ?? 0) },
          { title: '待匹配税额（元）', value: formatFen(d?.totals.tax ?? 0) },
        ]}
        // 发票价税合计 is left blank: the server totals only the unmatched part, and summing the page's rows would
        // cover one page only (and count an invoice once per temporary allocation).
        totalsRow={(d) => ({
          label: `合计（${d.totals.invoiceCount} 张发票）`,
          cells: { amountIncl: <Money fen={d.totals.amountIncl} strong /> },
        })}
        chartTitle={project ? '按临时项目' : '按所属项目'}
        chart={(d) => barOption(d.chart, '待匹配金额（元）')}
      />
      <MatchModal dim={dim} row={matching} onClose={() => setMatching(null)} />
    </>
  );
}
