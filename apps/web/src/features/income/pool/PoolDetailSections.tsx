/**
 * The detail pages' sections (票池发票详情, 进项发票详情): the face with its abnormal flags, lines, files,
 * verification and signing, uses, history.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Space, Table, Tag, Typography, type DescriptionsProps } from 'antd';
import type { ReactNode } from 'react';
import {
  IncomeAbnormalFlag, IncomeBookingState, IncomeEventKind, IncomeLockState, IncomeSource, IncomeUseKind, VerifyOutcome, formatUnitPrice, isRedInvoice,
  type PoolDetail, type PoolInvoiceLink, type PoolLine, type VerificationRecord,
} from '@zhyy/shared';
import { incomeApi } from '../../../api/income';
import { Link } from 'react-router';
import { POOL_KEY, poolDetailPath, poolNumber } from './request';
import { formatTime } from '../../../components/download';
import { Figure, Money } from '../../common/Money';
import { openSignedFile } from '../../common/fileView';
import { AbnormalFlags, IncomeKindTag, InvoiceStateTag, orderedFlags, RedInvoiceTag, RiskTag, SignTag, statusCheckText, UsageTag, VerifyTag, useText } from './widgets';

/** Another pool invoice named on the face: its number (a link to its detail), date and total. */
const InvoiceLink = ({ l, path }: { l: PoolInvoiceLink; path: (id: string) => string }) => (
  <Space size={4}><Link to={path(l.id)}>{l.number}</Link><span>{l.issueDate}</span><Money fen={l.amountIncl} /></Space>
);

/**
 * A red invoice's blue invoice (linked when it is in the pool, else the number it stated) and a blue invoice's red
 * invoices received (issue 29): the face's rows, none for a blue invoice nobody reversed.
 */
function reversalItems(d: PoolDetail, path: (id: string) => string): NonNullable<DescriptionsProps['items']> {
  if (isRedInvoice(d)) {
    const blue = d.blue ? <InvoiceLink l={d.blue} path={path} /> : d.blueInvoiceNo ? `${d.blueInvoiceNo}（不在票池中）` : '未注明';
    return [{ key: 'blue', label: '对应蓝字发票', children: <span data-testid="pool-blue-invoice">{blue}</span> }];
  }
  if (!d.reds.length) return [];
  return [{ key: 'reds', label: '红字发票', children: <Space orientation="vertical" size={0} data-testid="pool-red-invoices">{d.reds.map((r) => <InvoiceLink key={r.id} l={r} path={path} />)}</Space> }];
}

/** The face: number, kind, state and flags in the title, the fields below; `more` adds the page's own fields (所属部门); `linkPath` the detail of a linked invoice. */
export function PoolFace({ d, extra, more = [], linkPath = poolDetailPath }: { d: PoolDetail; extra?: ReactNode; more?: NonNullable<DescriptionsProps['items']>; linkPath?: (id: string) => string }) {
  const flags = orderedFlags(d.abnormalFlags).map((f) => IncomeAbnormalFlag.label(f));
  return (
    <Card
      title={<Space wrap>{poolNumber(d) || '—'}<IncomeKindTag kind={d.kind} /><RedInvoiceTag r={d} /><InvoiceStateTag state={d.invoiceState} /><AbnormalFlags flags={d.abnormalFlags} /></Space>}
      extra={extra}
    >
      {flags.length ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={`该发票存在异常：${flags.join('、')}`} data-testid="pool-detail-abnormal" /> : null}
      <Descriptions
        size="small" column={{ xs: 1, md: 2, xl: 3 }}
        items={[
          { key: 'code', label: '发票代码', children: d.invoiceCode || '—' },
          { key: 'no', label: '发票号码', children: d.invoiceNo || '—' },
          { key: 'dn', label: '数电号码', children: d.digitalNo || '—' },
          { key: 'date', label: '开票日期', children: d.issueDate },
          { key: 'seller', label: '销方名称', children: d.sellerName },
          { key: 'stax', label: '销方税号', children: d.sellerTaxNo || '—' },
          { key: 'buyer', label: '购方名称', children: d.buyerName },
          { key: 'btax', label: '购方税号', children: d.buyerTaxNo || '—' },
          { key: 'check', label: '校验码', children: d.checkCode || '—' },
          { key: 'ex', label: '金额', children: <Money fen={d.amountExcl} /> },
          { key: 'tax', label: '税额', children: <Money fen={d.tax} /> },
          { key: 'in', label: '价税合计', children: <Money fen={d.amountIncl} strong /> },
          ...reversalItems(d, linkPath),
          { key: 'risk', label: '风险等级', children: <RiskTag level={d.riskLevel} /> },
          { key: 'statusCheck', label: '状态核查', children: <span data-testid="detail-status-check">{statusCheckText(d)}</span> },
          { key: 'book', label: '入账状态', children: IncomeBookingState.has(d.bookingState) ? IncomeBookingState.label(d.bookingState) : '—' },
          { key: 'archive', label: '档案号', children: d.archiveNo || '—' },
          { key: 'usage', label: '使用状态', children: <Space size={4}><UsageTag usage={d.usage} />{useText(d)}</Space> },
          { key: 'src', label: '来源', children: IncomeSource.has(d.source) ? IncomeSource.label(d.source) : '—' },
          { key: 'at', label: '进入票池', children: formatTime(d.createdAt) },
          ...more,
          { key: 'remark', label: '备注', children: d.remark || '—' },
        ]}
      />
    </Card>
  );
}

const known = (e: { has: (v: unknown) => boolean; label: (v: unknown) => string }, v: unknown) => (e.has(v) ? e.label(v) : '其他');
const rate = (r: string) => (r && Number.isFinite(Number(r)) ? `${Number((Number(r) * 100).toFixed(2))}%` : '—');
type History = PoolDetail['history'];

/** 折扣行: a line against the invoice's direction (`sign` +1 blue, −1 red): a discount on a blue invoice, its reversal on a red one. */
const discountLine = (l: PoolLine, sign: number) => (l.amount * sign < 0 ? <Tag color="orange" style={{ marginLeft: 6 }} data-testid="discount-line">{sign > 0 ? '折扣行' : '折扣冲回'}</Tag> : null);

const lineColumns = (sign: number) => [
  { title: '序号', dataIndex: 'lineNo', width: 56 },
  { title: '项目名称', key: 'name', ellipsis: true, render: (_: unknown, l: PoolLine) => <>{l.name}{discountLine(l, sign)}</> },
  { title: '规格型号', dataIndex: 'spec', width: 110, ellipsis: true },
  { title: '单位', dataIndex: 'unit', width: 60 },
  { title: '数量', dataIndex: 'quantity', width: 90, align: 'right' as const },
  { title: '单价', key: 'unitPrice', width: 120, align: 'right' as const, render: (_: unknown, l: PoolLine) => (l.unitPrice ? <Figure>{formatUnitPrice(l.unitPrice)}</Figure> : '') },
  { title: '金额', key: 'amount', width: 140, align: 'right' as const, render: (_: unknown, l: PoolLine) => <Money fen={l.amount} /> },
  { title: '税率', key: 'rate', width: 80, align: 'right' as const, render: (_: unknown, l: PoolLine) => <Figure>{rate(l.taxRate)}</Figure> },
  { title: '税额', key: 'tax', width: 130, align: 'right' as const, render: (_: unknown, l: PoolLine) => <Money fen={l.tax} /> },
];

export function PoolLines({ d }: { d: PoolDetail }) {
  return (
    <Card size="small" title="发票明细" className="ledger-section" data-testid="pool-lines">
      <Table<PoolLine>
        size="small" rowKey="lineNo" pagination={d.lines.length > 20 ? { pageSize: 20 } : false} dataSource={d.lines} columns={lineColumns(isRedInvoice(d) ? -1 : 1)} scroll={{ x: 960 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有明细（票面未附明细或未录入）" /> }}
        summary={() => (d.lines.length ? (
          <Table.Summary.Row className="ledger-totals">
            <Table.Summary.Cell index={0} colSpan={6}>合计</Table.Summary.Cell>
            <Table.Summary.Cell index={6} align="right"><Money fen={d.amountExcl} strong /></Table.Summary.Cell>
            <Table.Summary.Cell index={7} />
            <Table.Summary.Cell index={8} align="right"><Money fen={d.tax} strong /></Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null)}
      />
      <div style={{ textAlign: 'right', marginTop: 8 }}>价税合计：<Money fen={d.amountIncl} strong /></div>
    </Card>
  );
}

export function PoolFiles({ d }: { d: PoolDetail }) {
  return (
    <Card size="small" title="发票文件" className="ledger-section" data-testid="pool-files">
      <Table
        size="small" rowKey="id" pagination={false} dataSource={d.files}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有文件" /> }}
        columns={[
          { title: '格式', key: 'format', width: 80, render: (_, f) => <Tag>{f.format.toUpperCase()}</Tag> },
          { title: '文件名', dataIndex: 'name', ellipsis: true },
          { title: '大小', key: 'size', width: 100, align: 'right', render: (_, f) => <Figure>{`${Math.max(1, Math.round(f.size / 1024))} KB`}</Figure> },
          { title: '加入时间', key: 'at', width: 170, render: (_, f) => formatTime(f.createdAt) },
          { title: '操作', key: 'op', width: 80, render: (_, f) => <Button size="small" type="link" onClick={() => void openSignedFile(() => incomeApi.fileLink(f.id))}>查看</Button> },
        ]}
      />
    </Card>
  );
}

const historyColumns = [
  { title: '时间', key: 'at', width: 170, render: (_: unknown, h: History[number]) => formatTime(h.createdAt) },
  { title: '类型', key: 'kind', width: 100, render: (_: unknown, h: History[number]) => known(IncomeEventKind, h.kind) },
  { title: '内容', dataIndex: 'message' },
  { title: '操作人', dataIndex: 'userName', width: 100 },
];

function HistoryTable({ rows, empty }: { rows: History; empty: string }) {
  return (
    <Table size="small" rowKey="id" pagination={rows.length > 10 ? { pageSize: 10 } : false} dataSource={rows} columns={historyColumns}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }} />
  );
}

const OUTCOME_COLOURS: Record<string, string> = { match: 'success', mismatch: 'error', notFound: 'warning' };

/** 查验与签收: the states now, every 查验 (its answer and the fields that disagreed) and the signing events. */
export function PoolVerifySign({ d }: { d: PoolDetail }) {
  const checks = useQuery({ queryKey: [...POOL_KEY, 'verify-history', d.id], queryFn: () => incomeApi.verifyHistory(d.id) });
  const signs = d.history.filter((h) => h.kind.startsWith('sign'));
  return (
    <Card size="small" title="查验与签收" className="ledger-section" data-testid="pool-verify-sign">
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 8 }}
        items={[
          { key: 'v', label: '查验状态', children: <VerifyTag state={d.verifyState} /> },
          { key: 'vt', label: '查验时间', children: formatTime(d.verifiedAt) || '—' },
          { key: 's', label: '签收状态', children: <SignTag state={d.signState} /> },
        ]}
      />
      <Table<VerificationRecord>
        size="small" rowKey="id" loading={checks.isLoading} pagination={(checks.data?.length ?? 0) > 10 ? { pageSize: 10 } : false} dataSource={checks.data ?? []} style={{ marginBottom: 8 }}
        data-testid="pool-verifications"
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={checks.isError ? '查验记录加载失败' : '没有查验记录'} /> }}
        columns={[
          { title: '查验时间', key: 'at', width: 170, render: (_, v) => formatTime(v.createdAt) },
          { title: '结果', key: 'outcome', width: 110, render: (_, v) => <Tag color={OUTCOME_COLOURS[v.outcome] ?? 'default'}>{VerifyOutcome.has(v.outcome) ? VerifyOutcome.label(v.outcome) : '其他'}</Tag> },
          {
            title: '说明', key: 'message',
            render: (_, v) => (
              <>
                {v.message}
                {v.fields.map((f) => <div key={f.field}><Typography.Text type="danger">{f.label}</Typography.Text>：{f.entered ? `票池 ${f.entered}，` : ''}税务端 {f.tax || '—'}</div>)}
              </>
            ),
          },
          { title: '查验人', dataIndex: 'userName', width: 100 },
        ]}
      />
      {signs.length ? <HistoryTable rows={signs} empty="没有签收记录" /> : null}
    </Card>
  );
}

/** 使用记录: every document that took the invoice (报销单, 签收单, 合同), the one holding it first. */
export function PoolUses({ d }: { d: PoolDetail }) {
  return (
    <Card size="small" title="使用记录" className="ledger-section" data-testid="pool-uses">
      <Table
        size="small" rowKey="id" pagination={false} dataSource={d.uses}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未被任何单据使用" /> }}
        columns={[
          { title: '单据类型', key: 'kind', width: 110, render: (_, u) => known(IncomeUseKind, u.useKind) },
          { title: '单据号', dataIndex: 'docNo', width: 200 },
          { title: '状态', key: 'state', width: 120, render: (_, u) => <Tag color={u.state === 'locked' ? 'processing' : u.state === 'closed' ? 'success' : 'default'}>{known(IncomeLockState, u.state)}</Tag> },
          { title: '占用时间', key: 'at', width: 170, render: (_, u) => formatTime(u.createdAt) },
          { title: '结束时间', key: 'end', width: 170, render: (_, u) => formatTime(u.endedAt) || '—' },
        ]}
      />
    </Card>
  );
}

export function PoolHistory({ d }: { d: PoolDetail }) {
  return (
    <Card size="small" title="历史记录" className="ledger-section" data-testid="pool-history">
      <HistoryTable rows={d.history} empty="没有历史记录" />
      {d.arrivals > 1 ? <Typography.Text type="secondary">该发票共到达 {d.arrivals} 次，重复到达已合并到本记录。</Typography.Text> : null}
    </Card>
  );
}

