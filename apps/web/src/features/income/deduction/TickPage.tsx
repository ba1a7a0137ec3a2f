/**
 * 抵扣勾选 (/invoice/deduction/deduction/list) and 退税勾选 (/invoice/tax-rebate/list), issue 14: the period
 * header, the candidates with the pool's filters plus 勾选状态 / 用途 / 所属期, rows chosen across pages
 * (or 全选筛选结果, sent as `filter`), and the batch actions: 勾选抵扣 (有效税额 per row, the full tax by
 * default), 不抵扣勾选 with a reason, 出口退税 / 代办退税, 撤销勾选, 导入勾选. A batch with 疑点 invoices
 * asks first and is resent with confirmed: true; refusals are listed (nothing was ticked).
 */
import { UndoOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input, Modal, Radio, Select, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { effectiveTaxProblem, formatFen, NonDeductReason, readAmountInput, TickState, TickUsage, type CandidateRow, type TickAnswer, type TickOutcomeRow } from '@zhyy/shared';
import { tableScrollX } from '../../../components/tableWidth';
import { pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort, FilterButtons } from '../../../components/listTable';
import { feedback } from '../../../ui/feedback';
import { ExportProgress } from '../../common/ExportProgress';
import { Money } from '../../common/Money';
import { PoolFilters } from '../pool/PoolFilters';
import { poolDetailPath, poolNumber, toPoolRequest, type PoolFormValues } from '../pool/request';
import { AbnormalFlags, IncomeKindTag, InvoiceStateTag } from '../pool/widgets';
import { TICK_CALLS, TICK_KEY, tickApi, type Said, type TickScope } from './api';
import { ConfirmDialog, RefusalDialog } from './TickDialogs';
import { TickImport } from './TickImport';
import { closedReasonOf, PeriodHeader, serviceSkew, useNow } from './PeriodHeader';
import '../../../components/listPage.css';
import '../../common/ledger.css';

type FormValues = PoolFormValues & { tickState?: number; vatUsage?: number; tickPeriod?: string };

const PAGE_USAGES: Record<TickScope, number[]> = { deduction: [1, 4], rebate: [2, 3] };
const USAGE_COLOURS: Record<number, string> = { 1: 'green', 2: 'blue', 3: 'purple', 4: 'orange' };

export function toCandidateRequest(v: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = { ...toPoolRequest(v), tickState: v.tickState, vatUsage: v.vatUsage, tickPeriod: v.tickPeriod?.trim() };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}

/**
 * The effective tax typed for a row (元, as typed) read into 分, or why it cannot be sent: the rule the
 * server applies (a positive amount of at most the invoice's tax, to the 分); nothing is clamped or rounded.
 */
export function typedEffective(text: string, tax: number): { fen: number; problem: '' } | { fen: null; problem: string } {
  if (!text.trim()) return { fen: null, problem: '请填写有效税额' };
  const read = readAmountInput(text, { label: '有效税额' });
  if (!read.ok) return { fen: null, problem: read.error };
  const problem = effectiveTaxProblem(read.fen, tax);
  return problem ? { fen: null, problem } : { fen: read.fen, problem: '' };
}

/** A pending batch: what to send (with confirmed added on the second go) and what it is called. */
interface Batch {
  kind: 'tick' | 'untick';
  body: Record<string, unknown>;
}

export function TickPage({ scope }: { scope: TickScope }) {
  const client = useQueryClient();
  const now = useNow(5000);
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const [selected, setSelected] = useState<{ keys: string[]; rows: CandidateRow[] }>({ keys: [], rows: [] });
  const [allFiltered, setAllFiltered] = useState(false);
  /** 有效税额 typed per row (元, the text as typed). */
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [reasonOpen, setReasonOpen] = useState(false);
  const [reason, setReason] = useState<number>();
  const [undoOpen, setUndoOpen] = useState(false);
  const [confirming, setConfirming] = useState<{ batch: Batch; outcomes: TickOutcomeRow[] } | null>(null);
  const [refusals, setRefusals] = useState<{ title: string; outcomes: TickOutcomeRow[] } | null>(null);

  const periodQ = useQuery({ queryKey: [...TICK_KEY, 'period', scope], queryFn: () => tickApi.period(scope) });
  const settingQ = useQuery({ queryKey: [...TICK_KEY, 'setting'], queryFn: () => tickApi.setting() });
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...TICK_KEY, scope, params], queryFn: () => tickApi.page(scope, params), placeholderData: keepPreviousData });
  const skewMs = serviceSkew(periodQ.data, periodQ.dataUpdatedAt);
  const closedReason = closedReasonOf(periodQ.data, now + skewMs);
  const closed = !periodQ.data || !!closedReason;

  const saveSetting = useMutation({
    mutationFn: (v: boolean) => tickApi.saveSetting(v),
    onSuccess: (s) => {
      client.setQueryData([...TICK_KEY, 'setting'], s);
      void feedback().message.success(s.tickBookedOnly ? '已开启先入账后勾选' : '已关闭先入账后勾选');
    },
  });

  const refresh = () => {
    setSelected({ keys: [], rows: [] });
    setAllFiltered(false);
    setEdits({});
    void client.invalidateQueries({ queryKey: TICK_KEY });
  };

  const send = useMutation({
    mutationFn: ({ kind, body }: Batch) => (kind === 'tick' ? tickApi.tick(scope, body) : tickApi.untick(scope, body)),
    onSuccess: (a: Said<TickAnswer>, batch) => {
      if (a.needConfirm) {
        setConfirming({ batch, outcomes: a.outcomes });
        return;
      }
      setConfirming(null);
      if (a.done) {
        void feedback().message.success(a.message || (batch.kind === 'tick' ? `勾选成功${a.count}张` : `撤销勾选成功${a.count}张`));
        refresh();
      } else {
        // Refused (30000): the server's words as the title, every invoice's reason listed.
        setRefusals({ title: a.message, outcomes: a.outcomes });
        void client.invalidateQueries({ queryKey: TICK_KEY });
      }
    },
    // The request layer shows the refusal (a closed period, over 1000 invoices …).
    onError: () => setConfirming(null),
  });

  const apply = (v: FormValues) => {
    setFilters(toCandidateRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
    setAllFiltered(false);
  };
  const filterBody = () => ({ ...filters, ...(sort ? { sort } : {}) });
  const rows = selected.rows.filter(Boolean);
  const chosen = allFiltered ? (q.data?.total ?? 0) : selected.keys.length;

  /** A row's effective tax by default (分): what it has if already ticked for deduction, else its tax net of red invoices received. */
  const defaultEffective = (r: CandidateRow) => (r.vatUsage === 1 && r.tickState === 1 && r.effectiveTax !== null ? r.effectiveTax : r.netTax);
  /** The effective tax to send for a row (分) or why it cannot be: typed (checked), else the default (checked too); never above the net tax. */
  const effectiveOf = (r: CandidateRow) => (edits[r.id] !== undefined ? typedEffective(edits[r.id]!, r.netTax) : typedEffective((defaultEffective(r) / 100).toFixed(2), r.netTax));
  /** The first chosen row whose effective tax cannot be sent, with the reason: 勾选抵扣 is blocked until it is put right. */
  const badEffective = scope === 'deduction' && !allFiltered ? rows.map((r) => ({ r, problem: effectiveOf(r).problem })).find((x) => x.problem) : undefined;
  const badEffectiveWhy = badEffective ? `发票 ${poolNumber(badEffective.r)} 的${badEffective.problem}` : '';

  const tick = (vatUsage: number, deductReason?: number) => {
    if (allFiltered) {
      send.mutate({ kind: 'tick', body: { filter: filterBody(), vatUsage, ...(deductReason ? { deductReason } : {}) } });
      return;
    }
    if (vatUsage === 1 && badEffective) {
      void feedback().message.error(badEffectiveWhy);
      return;
    }
    const items = rows.map((r) => (vatUsage === 1 ? { id: r.id, effectiveTax: effectiveOf(r).fen! } : { id: r.id }));
    send.mutate({ kind: 'tick', body: { items, vatUsage, ...(deductReason ? { deductReason } : {}) } });
  };
  const untick = () => {
    setUndoOpen(false);
    send.mutate({ kind: 'untick', body: allFiltered ? { filter: filterBody() } : { ids: selected.keys } });
  };

  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<CandidateRow> = [
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, sorter: true, sortOrder: sorted('issueDate') ?? (sort ? null : 'descend'), fixed: 'left' },
    {
      title: '发票号码', key: 'invoiceNo', width: 210, sorter: true, sortOrder: sorted('invoiceNo'), fixed: 'left',
      render: (_, r) => (
        <Space size={4}>
          <Link to={poolDetailPath(r.id)}>{poolNumber(r) || '—'}</Link>
          {r.needsConfirm ? <Tooltip title="疑点或异常发票：勾选时需确认"><Tag color="red">疑点</Tag></Tooltip> : null}
        </Space>
      ),
    },
    // Money right after the number, the rare abnormal flags under the state (issue 31: figures seen at 1366 without scrolling).
    { title: '金额', key: 'amountExcl', width: 140, align: 'right', sorter: true, sortOrder: sorted('amountExcl'), render: (_, r) => <Money fen={r.amountExcl} /> },
    {
      title: '税额', key: 'tax', width: 130, align: 'right', sorter: true, sortOrder: sorted('tax'),
      // A blue invoice partly reversed by red invoices received: the printed tax, and under it what can still be ticked.
      render: (_, r) => (r.netTax !== r.tax ? <Space direction="vertical" size={0} align="end"><Money fen={r.tax} /><Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="tick-net-tax">红冲后 {formatFen(r.netTax)}</Typography.Text></Space> : <Money fen={r.tax} />),
    },
    { title: '价税合计', key: 'amountIncl', width: 150, align: 'right', sorter: true, sortOrder: sorted('amountIncl'), render: (_, r) => <Money fen={r.amountIncl} strong /> },
    { title: '种类', key: 'kind', width: 180, render: (_, r) => <IncomeKindTag kind={r.kind} /> },
    { title: '状态', key: 'invoiceState', width: 130, render: (_, r) => <Space direction="vertical" size={2}><InvoiceStateTag state={r.invoiceState} /><AbnormalFlags flags={r.abnormalFlags} /></Space> },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true, sorter: true, sortOrder: sorted('sellerName') },
    { title: '勾选状态', key: 'tickState', width: 90, render: (_, r) => <Tag color={r.tickState === 1 ? 'green' : 'default'}>{TickState.label(r.tickState)}</Tag> },
    {
      title: '用途', key: 'vatUsage', width: 170,
      render: (_, r) => (r.vatUsage ? <Space size={4} wrap><Tag color={USAGE_COLOURS[r.vatUsage] ?? 'default'}>{TickUsage.label(r.vatUsage)}</Tag>{r.deductReason ? <Typography.Text type="secondary">{NonDeductReason.label(r.deductReason)}</Typography.Text> : null}</Space> : '—'),
    },
    {
      title: scope === 'deduction' ? '有效税额（元）' : '有效税额', key: 'effectiveTax', width: 150, align: 'right',
      render: (_, r) => {
        if (!(scope === 'deduction' && !closed)) return r.effectiveTax !== null ? <Money fen={r.effectiveTax} /> : '—';
        // The text as typed, checked by the server's rule as it is typed: marked on the field, never clamped.
        const problem = edits[r.id] !== undefined ? typedEffective(edits[r.id]!, r.netTax).problem : '';
        return (
          <Tooltip title={problem} open={problem ? undefined : false}>
            <Input
              size="small" style={{ width: 130, textAlign: 'right' }} aria-label={`有效税额 ${poolNumber(r)}`} inputMode="decimal"
              status={problem ? 'error' : undefined} aria-invalid={problem ? true : undefined} data-testid={problem ? 'tick-effective-invalid' : undefined}
              value={edits[r.id] ?? formatFen(defaultEffective(r))}
              onChange={(e) => { const text = e.target.value; setEdits((x) => ({ ...x, [r.id]: text })); }}
            />
          </Tooltip>
        );
      },
    },
    { title: '所属期', dataIndex: 'tickPeriod', key: 'tickPeriod', width: 90, render: (v: string) => v || '—' },
  ];
  const totals = q.data?.totals;
  const moneyCell: Record<string, number | undefined> = { amountExcl: totals?.amountExcl, tax: totals?.tax, amountIncl: totals?.amountIncl, effectiveTax: totals?.effectiveTax };
  const usages = PAGE_USAGES[scope];
  const nothing = chosen === 0;
  const disabledWhy = closedReason || (nothing ? '请先选择发票，或勾选“全选筛选结果”' : '');
  const busy = send.isPending;
  const action = (label: string, onClick: () => void, testId: string, blockedWhy = '') => (
    <Tooltip title={disabledWhy || blockedWhy}>
      <Button type="primary" disabled={closed || nothing || !!blockedWhy} loading={busy} onClick={onClick} data-testid={testId}>{label}</Button>
    </Tooltip>
  );

  return (
    <div className="list-page" data-testid={`tick-${scope}`}>
      <PeriodHeader
        info={periodQ.data} skewMs={skewMs} countedLabel={scope === 'deduction' ? '本期已勾选抵扣' : '本期已勾选退税'} loading={periodQ.isFetching} failed={periodQ.isError} closedReason={closedReason}
        bookedOnly={settingQ.data?.tickBookedOnly} onBookedOnly={(v) => saveSetting.mutate(v)} savingSetting={saveSetting.isPending}
      />
      <Card className="list-page-filters" size="small">
        <Form form={form} name={`income-tick-${scope}`} layout="inline" onFinish={apply} className="list-page-form">
          <PoolFilters scope="all" />
          <Form.Item name="tickState" label="勾选状态">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={TickState.options.map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
          <Form.Item name="vatUsage" label="用途">
            <Select allowClear placeholder="全部" style={{ width: 120 }} options={TickUsage.options.filter((o) => usages.includes(Number(o.value))).map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
          <Form.Item name="tickPeriod" label="所属期" rules={[{ pattern: /^\d{6}$/, message: '所属期格式为YYYYMM' }]}>
            <Input allowClear placeholder="YYYYMM" maxLength={6} style={{ width: 100 }} />
          </Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <Space wrap>
              <Checkbox checked={allFiltered} disabled={!q.data?.total} onChange={(e) => setAllFiltered(e.target.checked)} data-testid="tick-all-filtered">
                全选筛选结果（{q.data?.total ?? 0} 张）
              </Checkbox>
              <Typography.Text type="secondary" data-testid="tick-chosen">已选 {chosen} 张</Typography.Text>
              {badEffectiveWhy ? <Typography.Text type="danger" data-testid="tick-effective-problem">{badEffectiveWhy}</Typography.Text> : null}
              {scope === 'deduction' ? (
                <>
                  {action('勾选抵扣', () => tick(1), 'tick-deduct', badEffectiveWhy)}
                  {action('不抵扣勾选', () => { setReason(undefined); setReasonOpen(true); }, 'tick-nondeduct')}
                </>
              ) : (
                <>
                  {action('出口退税', () => tick(2), 'tick-export')}
                  {action('代办退税', () => tick(3), 'tick-agent')}
                </>
              )}
              <Tooltip title={disabledWhy}>
                <Button icon={<UndoOutlined />} disabled={closed || nothing} loading={busy} onClick={() => setUndoOpen(true)} data-testid="tick-undo">撤销勾选</Button>
              </Tooltip>
              <TickImport scope={scope} disabledReason={closed ? closedReason || '税款所属期尚未获取' : ''} onDone={refresh} />
              <ExportProgress path={TICK_CALLS[scope].export} body={filterBody()} rows={q.data?.total ?? 0} fileName={scope === 'deduction' ? '抵扣勾选' : '退税勾选'} disabled={!q.data?.total} />
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<CandidateRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          rowSelection={{
            selectedRowKeys: selected.keys, preserveSelectedRowKeys: true, fixed: 'left', getCheckboxProps: () => ({ disabled: allFiltered }),
            onChange: (keys, rs) => setSelected({ keys: keys.map(String), rows: rs.filter(Boolean) }),
          }}
          scroll={{ x: tableScrollX(columns, undefined, { selection: true }) }}
          locale={tableLocale(q.isError, '没有可勾选的发票')}
          pagination={tablePagination(page, q.data?.total ?? 0, '张')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="ledger-totals" data-testid="tick-totals">
                  <SummaryLabel colSpan={3}>筛选结果合计（{totals.count} 张）</SummaryLabel>
                  {columns.slice(2).map((c, i) => (
                    <Table.Summary.Cell key={String(c.key)} index={i + 3} align={moneyCell[String(c.key)] !== undefined ? 'right' : undefined}>
                      {moneyCell[String(c.key)] !== undefined ? <Money fen={moneyCell[String(c.key)]!} strong /> : null}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
      <Modal
        open={reasonOpen} title="不抵扣勾选" okText="勾选" cancelText="取消" okButtonProps={{ disabled: !reason, 'data-testid': 'tick-reason-ok' } as never}
        onCancel={() => setReasonOpen(false)} onOk={() => { setReasonOpen(false); tick(4, reason); }} destroyOnHidden
      >
        <Typography.Paragraph>将所选 {chosen} 张发票勾选为不抵扣，请选择不抵扣原因：</Typography.Paragraph>
        <Radio.Group value={reason} onChange={(e) => setReason(Number(e.target.value))} options={NonDeductReason.options.map((o) => ({ value: o.value, label: o.label }))} data-testid="tick-reason" />
      </Modal>
      <Modal open={undoOpen} title="撤销勾选" okText="撤销" okButtonProps={{ danger: true }} cancelText="取消" onCancel={() => setUndoOpen(false)} onOk={untick} destroyOnHidden>
        <span data-testid="tick-undo-confirm">确认撤销所选 {chosen} 张发票的勾选？{allFiltered ? '（筛选结果中已勾选的全部）' : ''}</span>
      </Modal>
      <ConfirmDialog
        outcomes={confirming?.outcomes ?? null} busy={busy} onCancel={() => setConfirming(null)}
        onOk={() => confirming && send.mutate({ kind: confirming.batch.kind, body: { ...confirming.batch.body, confirmed: true } })}
      />
      <RefusalDialog title={refusals?.title ?? ''} outcomes={refusals?.outcomes ?? null} onClose={() => setRefusals(null)} />
    </div>
  );
}
