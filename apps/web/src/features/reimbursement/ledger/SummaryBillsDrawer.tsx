/** The bills behind a figure of 部门月度报销汇总 (a cell, a department's row, a month's or category's column, or everything). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Drawer, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ReimbSummaryBill } from '@zhyy/shared';
import { reimbLedgerApi } from '../../../api/reimbursementLedger';
import { SummaryLabel, tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Money } from '../../common/Money';
import { billPath, laundryPath, REIMB_LEDGER_KEY } from './common';

export interface DrillTarget {
  title: string;
  fromMonth: string;
  toMonth: string;
  deptIds?: string[];
  /** '' = bills without a department; absent = every department. */
  deptId?: string;
  month?: string;
  categoryCode?: string;
  /** The figure clicked (分), shown beside the drawer's total. */
  amount: number;
}

export function SummaryBillsDrawer({ target, onClose }: { target: DrillTarget | null; onClose: () => void }) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const body = target ? { fromMonth: target.fromMonth, toMonth: target.toMonth, deptIds: target.deptIds, deptId: target.deptId, month: target.month, categoryCode: target.categoryCode, ...page } : null;
  const q = useQuery({ queryKey: [...REIMB_LEDGER_KEY, 'summary-bills', body], queryFn: () => reimbLedgerApi.summaryBills(body!), enabled: !!body, placeholderData: keepPreviousData });
  const columns: TableColumnsType<ReimbSummaryBill> = [
    { title: '报销单号', key: 'billNo', width: 140, render: (_, r) => <Link to={billPath(r.id)} data-testid="drill-bill-link">{r.billNo}</Link> },
    { title: '申请人', dataIndex: 'applicantName', width: 90 },
    { title: '部门', dataIndex: 'deptName', width: 110, ellipsis: true },
    { title: '凭证号', dataIndex: 'voucherNo', width: 110 },
    { title: '凭证日期', dataIndex: 'voucherDate', width: 110 },
    { title: '费用类别', dataIndex: 'categories', width: 140, ellipsis: true },
    { title: '单据核定金额', key: 'approvedAmount', width: 130, align: 'right', render: (_, r) => <Money fen={r.approvedAmount} /> },
    { title: '计入本项', key: 'cellAmount', width: 130, align: 'right', render: (_, r) => <Money fen={r.cellAmount} strong /> },
  ];
  const totals = q.data?.totals;
  return (
    <Drawer open={!!target} onClose={() => { setPage((p) => ({ ...p, pageIndex: 1 })); onClose(); }} size={1000} title={target ? `汇总穿透：${target.title}` : '汇总穿透'} destroyOnHidden data-testid="summary-drawer">
      {target ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Typography.Text>汇总金额 <Money fen={target.amount} strong /></Typography.Text>
            {target.month && target.deptId !== undefined && !target.categoryCode ? <Link to={laundryPath(target.month, target.deptId)} data-testid="drill-laundry-link">查看本月流水</Link> : null}
          </Space>
          <Table<ReimbSummaryBill>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={q.data?.items ?? []}
            loading={q.isFetching}
            scroll={{ x: tableScrollX(columns) }}
            locale={tableLocale(q.isError, '没有单据')}
            pagination={tablePagination(page, q.data?.total ?? 0, '笔')}
            onChange={(p) => setPage({ pageIndex: p.current ?? 1, pageSize: p.pageSize ?? page.pageSize })}
            summary={() =>
              totals ? (
                <Table.Summary fixed="bottom">
                  <Table.Summary.Row className="reimb-totals" data-testid="drill-totals">
                    <SummaryLabel colSpan={7}>合计（{totals.count} 笔，{totals.cellLines} 行）</SummaryLabel>
                    <Table.Summary.Cell index={7} align="right"><Money fen={totals.cellAmount} strong /></Table.Summary.Cell>
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
