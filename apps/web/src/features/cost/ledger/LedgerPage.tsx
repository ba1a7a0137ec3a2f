/**
 * 成本单台账 (/cost-management/account, roles 1, 16, 17, 18, 19): every cost order the caller may read, with
 * filters (month range, department, project, state, source, item code, order number, amount excluding tax),
 * sortable columns, the 合计 row of the whole filtered set (the orders in force — not invalid — their count,
 * amount, tax and total; the pager counts every order), server paging, the streamed Excel export of the filtered orders, and the
 * detail drawer. Roles 1, 16 and 17 also enter orders: 新增, 编辑 and 重新取价 of an order awaiting audit,
 * 复制上月, 导入Excel and 同步项目管理系统; roles 18 and 19 read only (the buttons are not drawn; the server
 * refuses them too). The filters start from the view's address (monthFrom, monthTo, deptId, projectId, orderNo, state
 * as ledgerPath writes them: the summary's drill-down links here), and a later link with other filters replaces them.
 */
import { CloudSyncOutlined, CopyOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import { CostOrderState, type CostOrderRow, type CostOrderSaved } from '@zhyy/shared';
import { COST_EXPORT_PATHS, costOrderApi } from '../../../api/cost';
import { AmountRangeItem } from '../../../components/AmountRangeItem';
import { formatDateTime } from '../../../components/format';
import { FilterButtons, NameCell, pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { ViewContext } from '../../../router/view';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { COST_KEY, COST_SOURCE_OPTIONS, COST_STATE_OPTIONS, costSourceLabel, CostStateTag, formatMonth, ledgerFiltersOf, useCanEnterCost } from '../common';
import { orderFilterValues, toOrderFilter, type OrderFilterValues } from '../filters';
import { CostDeptSelect, CostProjectSelect } from '../pickers';
import { CopyLastMonthDialog, ImportOrdersDialog, PmsSyncDialog } from './EntryDialogs';
import { OrderDetailDrawer } from './OrderDetailDrawer';
import { OrderEditor, type EditorTarget } from './OrderEditor';
import '../../../components/listPage.css';

export const COST_LEDGER_KEY = [...COST_KEY, 'ledger'] as const;

/** An order still open to entry: awaiting audit and its department-month not closed. */
const changeable = (r: Pick<CostOrderRow, 'state' | 'closed'>) => r.state === CostOrderState.toAudit && !r.closed;

function Filters() {
  return (
    <>
      <Form.Item name="months" label="月份">
        <DatePicker.RangePicker picker="month" format="YYYY-MM" allowEmpty={[true, true]} placeholder={['开始月份', '结束月份']} style={{ width: 220 }} />
      </Form.Item>
      <Form.Item name="deptId" label="部门">
        <CostDeptSelect />
      </Form.Item>
      <Form.Item name="projectId" label="项目">
        <CostProjectSelect />
      </Form.Item>
      <Form.Item name="state" label="状态">
        <Select allowClear placeholder="全部" style={{ width: 100 }} options={COST_STATE_OPTIONS} data-testid="cost-filter-state" />
      </Form.Item>
      <Form.Item name="source" label="来源">
        <Select allowClear placeholder="全部" style={{ width: 130 }} options={COST_SOURCE_OPTIONS} />
      </Form.Item>
      <Form.Item name="itemCode" label="成本项编码">
        <Input allowClear placeholder="含该成本项的单" maxLength={30} style={{ width: 140 }} />
      </Form.Item>
      <Form.Item name="orderNo" label="成本单号">
        <Input allowClear placeholder="完整或部分单号" maxLength={20} style={{ width: 150 }} />
      </Form.Item>
      <AmountRangeItem label="不含税金额（元）" />
    </>
  );
}

export default function LedgerPage() {
  const canEnter = useCanEnterCost();
  const client = useQueryClient();
  const [form] = Form.useForm<OrderFilterValues>();
  // The view's own address (a hidden cached view keeps its own, not the page shown).
  const search = useContext(ViewContext)?.search ?? '';
  const fromUrl = useMemo(() => orderFilterValues(ledgerFiltersOf(new URLSearchParams(search))), [search]);
  const [filters, setFilters] = useState<Record<string, unknown>>(() => toOrderFilter(fromUrl));
  const shown = useRef<string | null>(null);
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [detailId, setDetailId] = useState<string | null>(null);
  const [editor, setEditor] = useState<EditorTarget | null>(null);
  const [dialog, setDialog] = useState<'copy' | 'import' | 'pms' | null>(null);
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...COST_LEDGER_KEY, 'list', params], queryFn: () => costOrderApi.list(params), placeholderData: keepPreviousData });

  const apply = (v: OrderFilterValues) => {
    setFilters(toOrderFilter(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  // The address's filters into the form (the list has them from the start), on arrival and when a link brings
  // others; not when the view is shown again (Activity re-runs effects) nor for a bare link (the menu's).
  useEffect(() => {
    if (shown.current === search) return;
    shown.current = search;
    if (!search) return;
    form.resetFields();
    form.setFieldsValue(fromUrl);
    apply(fromUrl);
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps
  const refresh = () => void client.invalidateQueries({ queryKey: COST_KEY });
  const saved = (ref: CostOrderSaved) => {
    setEditor(null);
    setDialog(null);
    refresh();
    setDetailId(ref.id);
  };
  const reprice = (r: { id: string; orderNo: string; month: string }) => {
    feedback().modal.confirm({
      title: `重新取价：${r.orderNo}`,
      content: `将按${formatMonth(r.month)}价格表中的现行价格重算该单全部明细的单价、金额和税额，原价格不再保留。确定继续？`,
      okText: '重新取价',
      cancelText: '取消',
      onOk: async () => {
        try {
          const env = await costOrderApi.reprice(r.id);
          void feedback().message.success(env.r.changed ? `已重新取价，${env.r.changed} 行价格有变化` : '已重新取价，价格没有变化');
          refresh();
        } catch {
          // The request layer has shown the server's message.
        }
      },
    });
  };

  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<CostOrderRow> = [
    {
      title: '成本单号',
      key: 'orderNo',
      width: 150,
      fixed: 'left',
      sorter: true,
      sortOrder: sorted('orderNo'),
      render: (_, r) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDetailId(r.id)} data-testid="cost-detail-link">
          {r.orderNo}
        </Button>
      ),
    },
    { title: '月份', key: 'month', width: 100, sorter: true, sortOrder: sorted('month') ?? (sort ? null : 'descend'), render: (_, r) => formatMonth(r.month) },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 110, ellipsis: true, sorter: true, sortOrder: sorted('deptName') },
    // The project wraps onto two lines rather than being cut (issue 31).
    { title: '项目', key: 'projectCode', width: 220, sorter: true, sortOrder: sorted('projectCode'), render: (_, r) => <NameCell code={r.projectCode} name={r.projectName} /> },
    { title: '不含税金额', key: 'amount', width: 130, align: 'right', sorter: true, sortOrder: sorted('amount'), render: (_, r) => <Money fen={r.amount} /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', sorter: true, sortOrder: sorted('tax'), render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'total', width: 130, align: 'right', sorter: true, sortOrder: sorted('total'), render: (_, r) => <Money fen={r.total} strong /> },
    {
      title: '状态',
      key: 'state',
      width: 130,
      render: (_, r) => (
        <Space size={2}>
          <CostStateTag state={r.state} />
          {r.closed ? <Tag>已结账</Tag> : null}
        </Space>
      ),
    },
    { title: '来源', key: 'source', width: 90, render: (_, r) => costSourceLabel(r.source) },
    { title: '明细行数', dataIndex: 'lineCount', key: 'lineCount', width: 100, align: 'right', sorter: true, sortOrder: sorted('lineCount') },
    { title: '创建人', dataIndex: 'createdBy', key: 'createdBy', width: 90, ellipsis: true },
    { title: '创建时间', key: 'createdAt', width: 170, sorter: true, sortOrder: sorted('createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
    { title: '审核人', key: 'auditedBy', width: 90, ellipsis: true, render: (_, r) => r.auditedBy || '—' },
    {
      title: '操作',
      key: 'actions',
      width: canEnter ? 170 : 70,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setDetailId(r.id)}>详情</Button>
          {canEnter && changeable(r) ? (
            <>
              <Button type="link" size="small" onClick={() => setEditor({ mode: 'edit', id: r.id })} data-testid="cost-row-edit">编辑</Button>
              <Button type="link" size="small" onClick={() => reprice(r)} data-testid="cost-row-reprice">重新取价</Button>
            </>
          ) : null}
        </Space>
      ),
    },
  ];
  const totals = q.data?.totals;

  return (
    <div className="list-page" data-testid="cost-ledger">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="cost-ledger" layout="inline" onFinish={apply} className="list-page-form">
          <Filters />
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space wrap>
              {canEnter ? (
                <>
                  <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ mode: 'new' })} data-testid="cost-new">新增成本单</Button>
                  <Button icon={<CopyOutlined />} onClick={() => setDialog('copy')} data-testid="cost-copy">复制上月</Button>
                  <Button icon={<ImportOutlined />} onClick={() => setDialog('import')} data-testid="cost-import">导入Excel</Button>
                  <Tooltip title="取回项目管理系统推送的某月成本单">
                    <Button icon={<CloudSyncOutlined />} onClick={() => setDialog('pms')} data-testid="cost-pms">同步项目管理系统</Button>
                  </Tooltip>
                </>
              ) : null}
              <ExportProgress path={COST_EXPORT_PATHS.orders} body={{ ...filters, ...(sort ? { sort } : {}) }} rows={q.data?.total ?? 0} fileName="成本单台账" disabled={!q.data?.total} />
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<CostOrderRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '没有符合条件的成本单')}
          pagination={tablePagination(page, q.data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row data-testid="cost-ledger-totals">
                  <SummaryLabel colSpan={1}>合计（有效 {totals.count} 张）</SummaryLabel>
                  <Table.Summary.Cell index={1} colSpan={3}>
                    <span style={{ color: 'rgba(0,0,0,0.45)', whiteSpace: 'nowrap' }}>金额不含已作废单</span>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right"><Money fen={totals.total} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={7} colSpan={6} />
                  <Table.Summary.Cell index={13} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
      <OrderDetailDrawer id={detailId} onClose={() => setDetailId(null)} canEnter={canEnter} onEdit={(id) => setEditor({ mode: 'edit', id })} onReprice={reprice} />
      {canEnter ? (
        <>
          <OrderEditor target={editor} onClose={() => setEditor(null)} onSaved={saved} />
          <CopyLastMonthDialog open={dialog === 'copy'} onClose={() => setDialog(null)} onCopied={saved} />
          <ImportOrdersDialog open={dialog === 'import'} onClose={() => setDialog(null)} onImported={refresh} />
          <PmsSyncDialog open={dialog === 'pms'} onClose={() => setDialog(null)} onSynced={refresh} />
        </>
      ) : null}
    </div>
  );
}
