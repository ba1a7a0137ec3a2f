/**
 * An order awaiting audit beside its previous month (the same department and project's live order): the
 * order's facts, both totals, the lines of both side by side with the difference in amount per item
 * (rows that changed highlighted, an increase red, a decrease green), the log, and 审核通过 / 作废 when the
 * caller may.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Empty, Skeleton, Space, Table, Tag, Timeline, Tooltip, Typography, type TableColumnsType } from 'antd';
import { formatFen, formatUnitPrice, previousMonth, monthLabel, type CostOrderDetail } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { formatDateTime } from '../../../components/format';
import { tableScrollX } from '../../../components/tableWidth';
import { Figure, Money } from '../../common/Money';
import { COST_KEY, costCategoryLabel, costSourceLabel, CostStateTag } from '../common';
import { compareLines, compareTotals, type CompareRow } from './compare';
import '../../../components/listPage.css';

/** A difference in 分 with its sign: an increase red, a decrease green, none grey. */
export function Diff({ fen, testId }: { fen: number; testId?: string }) {
  const text = fen > 0 ? `+${formatFen(fen)}` : formatFen(fen);
  return (
    <Typography.Text className="figure" data-money="" data-testid={testId} strong={fen !== 0} type={fen > 0 ? 'danger' : fen < 0 ? 'success' : 'secondary'}>
      {text}
    </Typography.Text>
  );
}

const KIND_TAGS: Record<CompareRow['kind'], { text: string; color: string } | null> = {
  same: null,
  changed: { text: '有变化', color: 'orange' },
  added: { text: '本月新增', color: 'blue' },
  removed: { text: '本月未列', color: 'default' },
};

const side = (r: CompareRow, which: 'current' | 'previous') => r[which];

function columns(hasPrevious: boolean): TableColumnsType<CompareRow> {
  const sideCols = (which: 'current' | 'previous', title: string): TableColumnsType<CompareRow> => [
    { title: `${title}数量`, key: `${which}-q`, width: 100, align: 'right', render: (_, r) => (side(r, which) ? <Figure>{side(r, which)!.quantity}</Figure> : '—') },
    {
      title: `${title}单价`, key: `${which}-p`, width: 130, align: 'right',
      render: (_, r) => {
        const s = side(r, which);
        if (!s) return '—';
        const price = s.unitPrice ? <Figure>{formatUnitPrice(s.unitPrice)}</Figure> : <Typography.Text type="secondary">多个单价</Typography.Text>;
        return which === 'current' && r.currentPrice ? (
          <Tooltip title={`价格表现价 ${formatUnitPrice(r.currentPrice)}，重新取价后将按现价计算`}>
            <Space size={2}>{price}<Tag color="warning" style={{ marginInlineEnd: 0 }}>现价不同</Tag></Space>
          </Tooltip>
        ) : price;
      },
    },
    { title: `${title}金额`, key: `${which}-a`, width: 130, align: 'right', render: (_, r) => (side(r, which) ? <Money fen={side(r, which)!.amount} /> : '—') },
  ];
  return [
    {
      title: '成本项', key: 'item', width: 220, fixed: 'left',
      render: (_, r) => (
        <Space size={4} wrap={false}>
          <span>{r.itemCode} {r.itemName}</span>
          {KIND_TAGS[r.kind] ? <Tag color={KIND_TAGS[r.kind]!.color}>{KIND_TAGS[r.kind]!.text}</Tag> : null}
        </Space>
      ),
    },
    { title: '类别', key: 'category', width: 90, render: (_, r) => costCategoryLabel(r.category) },
    { title: '规格', dataIndex: 'spec', key: 'spec', width: 110, ellipsis: true },
    { title: '单位', dataIndex: 'unit', key: 'unit', width: 60 },
    ...sideCols('current', '本月'),
    ...(hasPrevious ? sideCols('previous', '上月') : []),
    ...(hasPrevious ? [{ title: '金额差额', key: 'diff', width: 130, align: 'right' as const, fixed: 'right' as const, render: (_: unknown, r: CompareRow) => <Diff fen={r.diff} testId={`diff-${r.itemCode}`} /> }] : []),
  ];
}

export function OrderCompare({ d }: { d: CostOrderDetail }) {
  const rows = compareLines(d.lines, d.previous?.lines ?? null);
  const totals = compareTotals(rows);
  const prevMonth = previousMonth(d.month);
  const cols = columns(!!d.previous);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Descriptions size="small" bordered column={3} items={[
        { key: 'no', label: '成本单号', children: d.orderNo },
        { key: 'month', label: '月份', children: monthLabel(d.month) },
        { key: 'state', label: '状态', children: <Space size={4}><CostStateTag state={d.state} />{d.closed ? <Tag>已结账</Tag> : null}</Space> },
        { key: 'dept', label: '部门', children: d.deptName },
        { key: 'project', label: '项目', children: `${d.projectCode} ${d.projectName}` },
        { key: 'source', label: '来源', children: `${costSourceLabel(d.source)}${d.pmsRef ? `（${d.pmsRef}）` : ''}` },
        { key: 'amount', label: '不含税金额', children: <Money fen={d.amount} /> },
        { key: 'tax', label: '税额', children: <Money fen={d.tax} /> },
        { key: 'total', label: '价税合计', children: <Money fen={d.total} strong /> },
        { key: 'by', label: '录入', children: `${d.createdBy} ${formatDateTime(d.createdAt)}` },
        { key: 'remark', label: '备注', span: 2, children: d.remark || '—' },
      ]} />
      {d.previous ? (
        <Space size={24} wrap data-testid="compare-totals">
          <Typography.Text>上月成本单 {d.previous.orderNo}（{monthLabel(prevMonth)}）不含税金额 <Money fen={d.previous.amount} /></Typography.Text>
          <Typography.Text>本月 <Money fen={totals.current} /></Typography.Text>
          <Typography.Text>差额 <Diff fen={totals.diff} testId="diff-total" /></Typography.Text>
        </Space>
      ) : (
        <Alert type="info" showIcon title={`${monthLabel(prevMonth)}没有该部门该项目的成本单，无法对比`} data-testid="no-previous" />
      )}
      <Table<CompareRow>
        rowKey="key"
        size="small"
        columns={cols}
        dataSource={rows}
        pagination={false}
        scroll={{ x: tableScrollX(cols) }}
        rowClassName={(r) => (d.previous && r.kind !== 'same' ? 'row-highlight' : '')}
        data-testid="compare-table"
      />
      {d.logs.length ? (
        <>
          <Typography.Title level={5}>处理记录</Typography.Title>
          <Timeline items={d.logs.map((l, i) => ({ key: i, content: `${formatDateTime(l.createdAt)} ${l.userName} ${l.message}` }))} />
        </>
      ) : null}
    </Space>
  );
}

/** Not silent: a failed load is toasted with the server's message (the drawer shows only 加载失败). */
const TOASTED = {};

export function CompareDrawer({ id, onClose, onAudit, onInvalidate }: { id: string | null; onClose: () => void; onAudit: (d: CostOrderDetail) => void; onInvalidate: (d: CostOrderDetail) => void }) {
  const q = useQuery({ queryKey: [...COST_KEY, 'detail', id], queryFn: () => costOrderApi.detail(id!, TOASTED), enabled: !!id });
  const d = q.data;
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      size={1100}
      destroyOnHidden
      title={d ? `成本单 ${d.orderNo} 与上月对比` : '成本单与上月对比'}
      data-testid="compare-drawer"
      extra={
        d ? (
          <Space>
            {d.can.invalidate ? <Button danger onClick={() => onInvalidate(d)} data-testid="drawer-invalid">作废</Button> : null}
            {d.can.audit ? <Button type="primary" onClick={() => onAudit(d)} data-testid="drawer-audit">审核通过</Button> : null}
          </Space>
        ) : null
      }
    >
      {d ? <OrderCompare d={d} /> : q.isError ? <Empty description="加载失败，请稍后重试" /> : <Skeleton active />}
    </Drawer>
  );
}
