/**
 * The orders behind a row of 月度成本汇总 (a month, department and project): /cost-order/list with those
 * filters, the server's totals of the orders in force, and the way to 成本单台账 with the same filters.
 * The list has no category filter: a row of one category lists the orders with all their categories.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Drawer, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { monthLabel, type CostOrderRow } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { SummaryLabel, tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Money } from '../../common/Money';
import { COST_KEY, costCategoryLabel, CostStateTag, ledgerPath } from '../common';

export interface DrillTarget {
  month: string;
  deptId: string;
  deptName: string;
  projectId: string;
  projectName: string;
  category: string;
  /** The row's 不含税金额 (分). */
  amount: number;
}

/** The list request of a target (one month, the department and the project). */
export const drillFilters = (t: DrillTarget) => ({ monthFrom: t.month, monthTo: t.month, deptId: t.deptId, projectId: t.projectId });

export function OrdersDrawer({ target, onClose }: { target: DrillTarget | null; onClose: () => void }) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const body = target ? { ...drillFilters(target), ...page } : null;
  const q = useQuery({ queryKey: [...COST_KEY, 'summary-orders', body], queryFn: () => costOrderApi.list(body!), enabled: !!body, placeholderData: keepPreviousData });
  const columns: TableColumnsType<CostOrderRow> = [
    { title: '成本单号', key: 'orderNo', width: 150, render: (_, r) => <Link to={ledgerPath({ orderNo: r.orderNo, monthFrom: r.month, monthTo: r.month })} data-testid="drill-order-link">{r.orderNo}</Link> },
    { title: '状态', key: 'state', width: 90, render: (_, r) => <CostStateTag state={r.state} /> },
    { title: '明细行', dataIndex: 'lineCount', width: 70, align: 'right' },
    { title: '不含税金额', key: 'amount', width: 130, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'total', width: 130, align: 'right', render: (_, r) => <Money fen={r.total} strong /> },
  ];
  const totals = q.data?.totals;
  return (
    <Drawer
      open={!!target}
      onClose={() => { setPage((p) => ({ ...p, pageIndex: 1 })); onClose(); }}
      size={860}
      destroyOnHidden
      title={target ? `${monthLabel(target.month)} · ${target.deptName} · ${target.projectName}` : '成本单'}
      data-testid="summary-drawer"
    >
      {target ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap size={16}>
            <Typography.Text>{costCategoryLabel(target.category)}不含税金额 <Money fen={target.amount} strong /></Typography.Text>
            <Link to={ledgerPath(drillFilters(target))} data-testid="drill-ledger-link">在成本单台账中查看</Link>
          </Space>
          <Typography.Text type="secondary">以下为该部门该项目当月的成本单（含全部费用类别；已作废的不计入合计）。</Typography.Text>
          <Table<CostOrderRow>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={q.data?.items ?? []}
            loading={q.isFetching}
            scroll={{ x: tableScrollX(columns) }}
            locale={tableLocale(q.isError, '没有成本单')}
            pagination={tablePagination(page, q.data?.total ?? 0, '张')}
            onChange={(p) => setPage({ pageIndex: p.current ?? 1, pageSize: p.pageSize ?? page.pageSize })}
            summary={() =>
              totals ? (
                <Table.Summary fixed="bottom">
                  <Table.Summary.Row data-testid="drill-totals">
                    <SummaryLabel colSpan={3}>合计（{totals.count} 张）</SummaryLabel>
                    <Table.Summary.Cell index={3} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                    <Table.Summary.Cell index={4} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                    <Table.Summary.Cell index={5} align="right"><Money fen={totals.total} strong /></Table.Summary.Cell>
                  </Table.Summary.Row>
                </Table.Summary>
              ) : null
            }
          />
        </Space>
      ) : null}
    </Drawer>
  );
}
