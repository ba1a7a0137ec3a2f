/**
 * The drill-down of a row of 月度成本汇总 (issue 30): one department-month's projects, paged by the server
 * (/cost-order/summary-projects; the page's project and category filters apply), each with its figures by
 * item category. A click on a project opens its order (OrdersDrawer).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { CostSummaryProject, CostSummaryRow } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { tableLocale, tablePagination, pageFromTable } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { Figure, Money } from '../../common/Money';
import { compact, COST_KEY, costCategoryLabel } from '../common';
import type { DrillTarget } from './OrdersDrawer';

export function ProjectsTable({ row, projectId, category, onOpen }: { row: CostSummaryRow; projectId?: string; category?: string; onOpen: (t: DrillTarget) => void }) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const body = { month: row.month, deptId: row.deptId, ...compact({ projectId, category }), ...page };
  const q = useQuery({ queryKey: [...COST_KEY, 'summary-projects', body], queryFn: () => costOrderApi.summaryProjects(body), placeholderData: keepPreviousData });
  const columns: TableColumnsType<CostSummaryProject> = [
    { title: '项目编码', dataIndex: 'projectCode', key: 'projectCode', width: 110 },
    { title: '项目', dataIndex: 'projectName', key: 'projectName', width: 200, ellipsis: true },
    {
      title: '费用类别（不含税）', key: 'categories', width: 300,
      render: (_, p) => (
        <Space size={[4, 4]} wrap>
          {p.categories.map((c) => <Tag key={c.category}>{costCategoryLabel(c.category)} <Money fen={c.amount} /></Tag>)}
        </Space>
      ),
    },
    { title: '明细行', key: 'lineCount', width: 70, align: 'right', render: (_, p) => <Figure>{p.lineCount}</Figure> },
    { title: '不含税金额', key: 'amount', width: 130, align: 'right', render: (_, p) => <Money fen={p.amount} /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', render: (_, p) => <Money fen={p.tax} /> },
    { title: '价税合计', key: 'total', width: 130, align: 'right', render: (_, p) => <Money fen={p.amount + p.tax} strong /> },
  ];
  return (
    <Table<CostSummaryProject>
      rowKey="projectId"
      size="small"
      columns={columns}
      dataSource={q.data?.items ?? []}
      loading={q.isFetching}
      scroll={{ x: tableScrollX(columns) }}
      locale={tableLocale(q.isError, '该部门本月没有成本')}
      pagination={{ ...tablePagination(page, q.data?.total ?? 0, '个项目'), size: 'small', hideOnSinglePage: true }}
      onChange={(p) => setPage(pageFromTable(p, page))}
      data-testid={`summary-projects-${row.month}|${row.deptId}`}
      onRow={(p) =>
        ({
          onClick: () => onOpen({ month: row.month, deptId: row.deptId, deptName: row.deptName, projectId: p.projectId, projectName: p.projectName, category: category ?? '', amount: p.amount }),
          style: { cursor: 'pointer' },
          'data-testid': `summary-project-${p.projectId}`,
        }) as React.HTMLAttributes<HTMLElement>
      }
    />
  );
}
