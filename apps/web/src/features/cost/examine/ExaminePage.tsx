/**
 * 待审核成本单 (/cost-management/examine, roles 1, 17, 20, 21, 22): the caller's queue (orders awaiting audit
 * of the departments assigned to them; role 1 all), filters, server paging and sorting, the totals of the
 * whole queue, row selection; 批量审核 after a confirmation and 作废 with a required reason, each answered
 * with the orders done and every refused one with its reason; each order opens beside its previous month.
 * After a change the queue reloads and (through the API client's change hook) the sidebar badge too.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatFen, monthLabel, type CostBatchResult, type CostOrderRow } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { ApiError } from '../../../api/errors';
import { AmountRangeItem } from '../../../components/AmountRangeItem';
import { formatDateTime } from '../../../components/format';
import { FilterButtons, NameCell, pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { COST_KEY, COST_SOURCE_OPTIONS, costSourceLabel } from '../common';
import { toOrderFilter, type OrderFilterValues } from '../filters';
import { CostDeptSelect, CostProjectSelect } from '../pickers';
import { CompareDrawer } from './CompareDrawer';
import '../../../components/listPage.css';

type Picked = Pick<CostOrderRow, 'id' | 'orderNo' | 'total'>;
interface Outcome {
  action: 'audit' | 'invalid';
  asked: number;
  result: CostBatchResult;
}

/** What the server answered: the orders done, and each refused order with its reason. */
export function BatchOutcome({ o }: { o: Outcome }) {
  const verb = o.action === 'audit' ? '审核通过' : '作废';
  const refused = o.result.refused.length;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="batch-outcome">
      <Alert
        type={refused ? (o.result.done ? 'warning' : 'error') : 'success'}
        showIcon
        title={`${verb}${o.result.done}张${refused ? `，${refused}张未处理` : ''}`}
      />
      {refused ? (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ y: 300 }}
          dataSource={o.result.refused}
          columns={[
            { title: '成本单号', dataIndex: 'orderNo', width: 150 },
            { title: '未处理原因', dataIndex: 'message' },
          ]}
          data-testid="batch-refused"
        />
      ) : null}
    </Space>
  );
}

export default function ExaminePage() {
  const qc = useQueryClient();
  const [form] = Form.useForm<OrderFilterValues>();
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [selected, setSelected] = useState<CostOrderRow[]>([]);
  const [invalidFor, setInvalidFor] = useState<Picked[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...COST_KEY, 'to-audit', params], queryFn: () => costOrderApi.toAuditList(params), placeholderData: keepPreviousData });

  const apply = (v: OrderFilterValues) => {
    setFilters(toOrderFilter(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  /**
   * After any answer: the queue (and every cost list) reloads; the selection is cleared. One order done is
   * told in a toast; a batch (or any order refused) opens the summary to read and close.
   */
  const finish = (o: Outcome, rows?: Picked[]) => {
    if (o.asked === 1 && o.result.done === 1 && !o.result.refused.length) {
      void feedback().message.success(`成本单 ${rows?.[0]?.orderNo ?? ''} 已${o.action === 'audit' ? '审核通过' : '作废'}`);
    } else setOutcome(o);
    setSelected([]);
    setOpenId(null);
    void qc.invalidateQueries({ queryKey: COST_KEY });
  };
  /**
   * A batch of which nothing could be done is refused (30000, the API client shows the message); when it
   * names several orders, the answer beside the refusal shows each one with its reason as well.
   */
  const refusedBatch = (e: unknown, action: Outcome['action'], asked: number) => {
    const r = e instanceof ApiError ? (e.envelope?.r as CostBatchResult | undefined) : undefined;
    if (r && Array.isArray(r.refused) && r.refused.length > 1) finish({ action, asked, result: r });
  };
  const runAudit = async (rows: Picked[]) => {
    try {
      const a = await costOrderApi.audit({ ids: rows.map((r) => r.id) });
      if (a.r) finish({ action: 'audit', asked: rows.length, result: a.r }, rows);
    } catch (e) {
      // The API client has shown the refusal.
      refusedBatch(e, 'audit', rows.length);
    }
  };
  const audit = (rows: Picked[]) => {
    if (!rows.length) return;
    const total = rows.reduce((s, r) => s + r.total, 0);
    feedback().modal.confirm({
      title: rows.length === 1 ? `确认审核通过成本单 ${rows[0]!.orderNo}？` : `确认审核通过所选 ${rows.length} 张成本单？`,
      content: `价税合计 ${formatFen(total)} 元。审核通过后成本单不能再修改。`,
      okText: '审核通过',
      cancelText: '取消',
      onOk: () => runAudit(rows),
    });
  };
  const askInvalid = (rows: Picked[]) => {
    if (!rows.length) return;
    reasonForm.resetFields();
    setInvalidFor(rows);
  };
  const runInvalid = async ({ reason }: { reason: string }) => {
    if (!invalidFor) return;
    setBusy(true);
    try {
      const a = await costOrderApi.invalidate({ ids: invalidFor.map((r) => r.id), reason: reason.trim() });
      setInvalidFor(null);
      if (a.r) finish({ action: 'invalid', asked: invalidFor.length, result: a.r }, invalidFor);
    } catch (e) {
      // The API client has shown the refusal; the window stays open (a refused batch also lists why per order).
      refusedBatch(e, 'invalid', invalidFor.length);
    } finally {
      setBusy(false);
    }
  };

  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<CostOrderRow> = [
    // At 1366 px every column up to 来源 shows whole beside the fixed 操作 (issue 31); the project wraps.
    { title: '成本单号', key: 'orderNo', width: 120, fixed: 'left', sorter: true, sortOrder: sorted('orderNo'), render: (_, r) => <Typography.Link onClick={() => setOpenId(r.id)} data-testid="examine-open">{r.orderNo}</Typography.Link> },
    { title: '月份', key: 'month', width: 100, sorter: true, sortOrder: sorted('month'), render: (_, r) => monthLabel(r.month) },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 96, ellipsis: true },
    { title: '项目', key: 'project', width: 212, render: (_, r) => <NameCell code={r.projectCode} name={r.projectName} /> },
    { title: '不含税金额', key: 'amount', width: 116, align: 'right', sorter: true, sortOrder: sorted('amount'), render: (_, r) => <Money fen={r.amount} /> },
    { title: '税额', key: 'tax', width: 100, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'total', width: 116, align: 'right', sorter: true, sortOrder: sorted('total'), render: (_, r) => <Money fen={r.total} strong /> },
    { title: '来源', key: 'source', width: 90, render: (_, r) => costSourceLabel(r.source) },
    { title: '明细行', dataIndex: 'lineCount', key: 'lineCount', width: 70, align: 'right' },
    { title: '录入人', dataIndex: 'createdBy', key: 'createdBy', width: 90 },
    { title: '录入时间', key: 'createdAt', width: 170, sorter: true, sortOrder: sorted('createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
    {
      title: '操作', key: 'actions', width: 170, fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => setOpenId(r.id)}>对比上月</Button>
          <Button type="link" size="small" onClick={() => audit([r])} data-testid={`audit-${r.orderNo}`}>审核</Button>
          <Button type="link" size="small" danger onClick={() => askInvalid([r])} data-testid={`invalid-${r.orderNo}`}>作废</Button>
        </Space>
      ),
    },
  ];
  const data = q.data;
  const totals = data?.totals;
  return (
    <div className="list-page" data-testid="cost-examine">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="cost-examine" layout="inline" onFinish={apply} className="list-page-form">
          <Form.Item name="months" label="月份">
            <DatePicker.RangePicker picker="month" allowEmpty={[true, true]} placeholder={['开始月份', '结束月份']} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="deptId" label="部门"><CostDeptSelect aria-label="部门" /></Form.Item>
          <Form.Item name="projectId" label="项目">
            <CostProjectSelect aria-label="项目" />
          </Form.Item>
          <Form.Item name="source" label="来源">
            <Select allowClear placeholder="全部" style={{ width: 130 }} options={COST_SOURCE_OPTIONS} />
          </Form.Item>
          <Form.Item name="orderNo" label="成本单号"><Input allowClear placeholder="CB…" maxLength={20} style={{ width: 150 }} /></Form.Item>
          <Form.Item name="itemCode" label="成本项编码"><Input allowClear maxLength={30} style={{ width: 130 }} /></Form.Item>
          <AmountRangeItem label="价税合计（元）" />
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space>
              <Button type="primary" disabled={!selected.length} onClick={() => audit(selected)} data-testid="batch-audit">
                批量审核{selected.length ? `（${selected.length}）` : ''}
              </Button>
              <Button danger disabled={!selected.length} onClick={() => askInvalid(selected)} data-testid="batch-invalid">
                批量作废{selected.length ? `（${selected.length}）` : ''}
              </Button>
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<CostOrderRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns, undefined, { selection: true }) }}
          rowSelection={{ selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true }}
          locale={tableLocale(q.isError, '没有待审核的成本单')}
          pagination={tablePagination(page, data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals && data?.total ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row data-testid="examine-totals">
                  <SummaryLabel colSpan={2}>合计（{totals.count} 张）</SummaryLabel>
                  <Table.Summary.Cell index={2} colSpan={3} />
                  <Table.Summary.Cell index={5} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={7} align="right"><Money fen={totals.total} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={8} colSpan={5} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
      <CompareDrawer id={openId} onClose={() => setOpenId(null)} onAudit={(d) => audit([d])} onInvalidate={(d) => askInvalid([d])} />
      <Modal
        open={!!invalidFor}
        title={invalidFor?.length === 1 ? `作废成本单 ${invalidFor[0]!.orderNo}` : `作废所选 ${invalidFor?.length ?? 0} 张成本单`}
        okText="确认作废"
        okButtonProps={{ danger: true, loading: busy }}
        cancelText="取消"
        onOk={() => reasonForm.submit()}
        onCancel={() => setInvalidFor(null)}
        forceRender
        data-testid="invalid-modal"
      >
        <Typography.Paragraph type="secondary">作废后成本单不再计入成本汇总，且不能恢复；同一部门同一项目当月可重新录入。</Typography.Paragraph>
        <Form form={reasonForm} layout="vertical" name="cost-invalid" onFinish={(v) => void runInvalid(v)}>
          <Form.Item name="reason" label="作废原因" rules={[{ required: true, whitespace: true, message: '请填写作废原因' }, { max: 200, message: '作废原因不能超过200个字符' }]}>
            <Input.TextArea rows={3} maxLength={200} showCount placeholder="请说明作废原因" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={!!outcome}
        title={outcome?.action === 'audit' ? '审核结果' : '作废结果'}
        onCancel={() => setOutcome(null)}
        footer={<Button type="primary" onClick={() => setOutcome(null)}>关闭</Button>}
        width={640}
      >
        {outcome ? <BatchOutcome o={outcome} /> : null}
      </Modal>
    </div>
  );
}
