/**
 * The worklist's table (issue 14): one row per case — invoice number, amount and tax (issue 31: first, in sight
 * beside 操作), flag tag, 天数, owner, seller, state —, filters (异常类型, 负责人为本人, 天数, 发票号码, 销方), the row's actions by flag (each opens
 * its dialog), the answer as a message, and the export of the filtered cases. `state` is the tab: 待处理
 * (open, oldest first) or 已处理 (resolved, with how and by whom).
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { AbnormalAction, IncomeAbnormalFlag, TransferOutReason, type AbnormalCaseRow } from '@zhyy/shared';
import { FilterButtons, pageFromTable, tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { formatTime } from '../../../components/download';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { POOL_KEY } from '../pool/request';
import { ABNORMAL_EXPORT, ABNORMAL_KEY, abnormalApi } from './api';
import { ACTION_LABELS, actionsOf, type CaseAction } from './actions';
import { CaseDialog, periodText } from './CaseDialogs';
import '../../../components/listPage.css';

interface FilterValues {
  flag?: string;
  mine?: boolean;
  ageMin?: number | null;
  ageMax?: number | null;
  number?: string;
  sellerName?: string;
}

export function toCaseRequest(v: FilterValues): Record<string, unknown> {
  const out: Record<string, unknown> = { flag: v.flag, mine: v.mine || undefined, ageMin: v.ageMin ?? undefined, ageMax: v.ageMax ?? undefined, number: v.number?.trim(), sellerName: v.sellerName?.trim() };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}

const FLAG_COLORS: Record<string, string> = { voided: 'default', red: 'red', redPending: 'orange', lostControl: 'magenta', abnormalVoucher: 'volcano', buyerNotOurs: 'purple', duplicate: 'gold', verifyMismatch: 'blue', suspicious: 'cyan' };

/** The status re-check's proposal (issue 32): the amount and period to transfer out, or why there is none yet. */
export function ProposalCell({ row }: { row: AbnormalCaseRow }) {
  const p = row.proposal;
  if (!p) return <>—</>;
  if (p.amount === null) return <Typography.Text type="secondary" data-testid="case-proposal">{p.note}</Typography.Text>;
  return (
    <Space direction="vertical" size={0} data-testid="case-proposal">
      <span>转出 <Money fen={p.amount} />（{periodText(p.period)}）</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{p.note}</Typography.Text>
    </Space>
  );
}

export function CaseList({ state }: { state: 'open' | 'resolved' }) {
  const [form] = Form.useForm<FilterValues>();
  const qc = useQueryClient();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [dialog, setDialog] = useState<{ action: CaseAction; row: AbnormalCaseRow } | null>(null);
  const params = { ...filters, state, ...page };
  const q = useQuery({ queryKey: [...ABNORMAL_KEY, params], queryFn: () => abnormalApi.list(params), placeholderData: keepPreviousData });
  const apply = (v: FilterValues) => {
    setFilters(toCaseRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const done = (message: string) => {
    setDialog(null);
    void feedback().message.success(message);
    void qc.invalidateQueries({ queryKey: ABNORMAL_KEY });
    void qc.invalidateQueries({ queryKey: POOL_KEY });
  };

  const columns: TableColumnsType<AbnormalCaseRow> = [
    { title: '发票号码', dataIndex: 'invoiceNumber', key: 'invoiceNumber', width: 200 },
    // Issue 31: the money right after the invoice, whole beside the pinned 操作 at 1366; the description after.
    { title: '价税合计', key: 'amountIncl', width: 130, align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '异常类型', key: 'flag', width: 120, render: (_, r) => <Tag color={FLAG_COLORS[r.flag]} data-testid="case-flag">{IncomeAbnormalFlag.label(r.flag)}</Tag> },
    { title: '天数', key: 'ageDays', width: 70, align: 'right', render: (_, r) => <span data-figure="">{r.ageDays}</span> },
    { title: '负责人', key: 'owner', width: 100, render: (_, r) => r.ownerName || '—' },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true },
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110 },
    { title: '勾选', key: 'tick', width: 90, render: (_, r) => (r.tickState === 1 ? <Tag color="green">已勾选</Tag> : '未勾选') },
    { title: '关联单据', dataIndex: 'docFlagged', key: 'docFlagged', width: 170, ellipsis: true, render: (d: string) => d || '—' },
    ...(state === 'open' ? ([{ title: '转出建议', key: 'proposal', width: 240, render: (_, r) => <ProposalCell row={r} /> }] satisfies TableColumnsType<AbnormalCaseRow>) : []),
    ...(state === 'open'
      ? ([
          {
            title: '操作', key: 'actions', width: 260, fixed: 'right',
            render: (_, r) => (
              <Space size={4} wrap>
                {actionsOf(r).map((a) => (
                  <Button key={a} size="small" type={a === 'acceptProposal' || ((a === 'transferOut' || a === 'untick') && !actionsOf(r).includes('acceptProposal')) ? 'primary' : 'default'} danger={a === 'reject'} onClick={() => setDialog({ action: a, row: r })} data-testid={`case-${a}`}>
                    {ACTION_LABELS[a]}
                  </Button>
                ))}
                {r.transferOut?.state === 'pending' ? <Tag color="orange">凭证待推送</Tag> : null}
              </Space>
            ),
          },
        ] satisfies TableColumnsType<AbnormalCaseRow>)
      : ([
          { title: '处理方式', key: 'action', width: 100, render: (_, r) => (r.action ? AbnormalAction.label(r.action) : '—') },
          { title: '说明', dataIndex: 'note', key: 'note', width: 220, ellipsis: true },
          { title: '凭证', key: 'voucher', width: 150, render: (_, r) => (r.transferOut ? `${r.transferOut.voucherNo}（${TransferOutReason.label(r.transferOut.reason)}）` : '—') },
          { title: '处理人', dataIndex: 'resolvedByName', key: 'resolvedByName', width: 100 },
          { title: '处理时间', key: 'resolvedAt', width: 170, render: (_, r) => formatTime(r.resolvedAt) },
        ] satisfies TableColumnsType<AbnormalCaseRow>)),
  ];
  const exportBody = { ...filters, state };
  return (
    <div className="list-page" data-testid={`abnormal-cases-${state}`}>
      <Card className="list-page-filters" size="small">
        <Form form={form} name={`abnormal-cases-${state}`} layout="inline" onFinish={apply} className="list-page-form">
          <Form.Item name="flag" label="异常类型"><Select allowClear placeholder="全部" style={{ width: 140 }} options={IncomeAbnormalFlag.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
          <Form.Item name="number" label="发票号码"><Input allowClear maxLength={30} placeholder="发票号码/数电号码" style={{ width: 190 }} /></Form.Item>
          <Form.Item name="sellerName" label="销方名称"><Input allowClear maxLength={100} style={{ width: 160 }} /></Form.Item>
          <Form.Item label="天数">
            <Space.Compact>
              <Form.Item name="ageMin" noStyle><InputNumber min={0} max={3650} precision={0} placeholder="最少" style={{ width: 80 }} /></Form.Item>
              <Form.Item name="ageMax" noStyle><InputNumber min={0} max={3650} precision={0} placeholder="最多" style={{ width: 80 }} /></Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item name="mine" valuePropName="checked"><Checkbox>只看我负责的</Checkbox></Form.Item>
          <FilterButtons onReset={() => { form.resetFields(); apply({}); }} />
          <div className="list-page-actions">
            <ExportProgress path={ABNORMAL_EXPORT} body={exportBody} rows={q.data?.total ?? 0} fileName={state === 'open' ? '异常待处理' : '异常已处理'} disabled={!q.data?.total} />
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        {state === 'open' && q.data ? <Typography.Text type="secondary" data-testid="case-total">待处理异常 {q.data.total} 条</Typography.Text> : null}
        <Table<AbnormalCaseRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, state === 'open' ? '没有待处理的异常' : '没有已处理的异常')}
          pagination={tablePagination(page, q.data?.total ?? 0)}
          onChange={(p) => setPage(pageFromTable(p, page))}
        />
      </Card>
      {dialog ? <CaseDialog action={dialog.action} row={dialog.row} onClose={() => setDialog(null)} onDone={(a) => done(a.message)} /> : null}
    </div>
  );
}
