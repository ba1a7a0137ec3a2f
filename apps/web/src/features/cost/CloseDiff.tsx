/**
 * What changed in a closed department-month (issue 32 item 5): the orders added, removed and changed between
 * two sets of order figures — a previous close and the next one (成本设置 → 月结), or a close and now
 * (月度成本汇总's 结账核验). Amounts in 元; the in-force totals on both sides. Also the 已核验/已变更 mark.
 */
import { Descriptions, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import type { CostCloseCheck, CostCloseDiff, CostCloseOrderFigures } from '@zhyy/shared';
import { Money } from '../common/Money';
import { CostStateTag } from './common';

/** Whether a difference lists anything. */
export const diffIsEmpty = (d: CostCloseDiff) => !d.added.length && !d.removed.length && !d.changed.length;

/** The mark of a check: 已核验 (the digest holds), 已变更, or 无摘要 (closed before digests were kept). */
export function CheckMark({ check }: { check: Pick<CostCloseCheck, 'holds' | 'digest' | 'actual'> }) {
  if (check.holds === null) {
    return <Tooltip title="该月在保存结账摘要之前结账，无法核验；反结账后再结账即保存摘要"><Tag data-testid="check-none">无摘要</Tag></Tooltip>;
  }
  return check.holds
    ? <Tooltip title={`结账摘要 ${check.digest}`}><Tag color="green" data-testid="check-holds">已核验</Tag></Tooltip>
    : <Tooltip title={`结账摘要 ${check.digest}，现在 ${check.actual}`}><Tag color="red" data-testid="check-broken">已变更</Tag></Tooltip>;
}

interface DiffRow {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  orderNo: string;
  project: string;
  before: CostCloseOrderFigures | null;
  after: CostCloseOrderFigures | null;
  what: string[];
}

const KIND = { added: <Tag color="blue">新增</Tag>, removed: <Tag color="orange">移除</Tag>, changed: <Tag color="red">变化</Tag> } as const;

export function diffRows(d: CostCloseDiff): DiffRow[] {
  const project = (o: CostCloseOrderFigures) => [o.projectCode, o.projectName].filter(Boolean).join(' ');
  return [
    ...d.added.map((o): DiffRow => ({ key: `a${o.orderId}`, kind: 'added', orderNo: o.orderNo, project: project(o), before: null, after: o, what: [] })),
    ...d.removed.map((o): DiffRow => ({ key: `r${o.orderId}`, kind: 'removed', orderNo: o.orderNo, project: project(o), before: o, after: null, what: [] })),
    ...d.changed.map((c): DiffRow => ({ key: `c${c.after.orderId}`, kind: 'changed', orderNo: c.after.orderNo, project: project(c.after), before: c.before, after: c.after, what: c.what })),
  ];
}

const side = (o: CostCloseOrderFigures | null) =>
  o ? (
    <span>
      <Money fen={o.amount} /> <Typography.Text type="secondary">税 <Money fen={o.tax} /></Typography.Text> <CostStateTag state={o.state} />
    </span>
  ) : '—';

/** The difference as totals and a table (one row per order added, removed or changed). */
export function CloseDiffView({ diff, beforeLabel, afterLabel, testId }: { diff: CostCloseDiff; beforeLabel: string; afterLabel: string; testId?: string }) {
  const rows = diffRows(diff);
  return (
    <div data-testid={testId}>
      <Descriptions size="small" column={2} bordered items={[
        { key: 'b', label: beforeLabel, children: <span>{diff.before.orders} 张，<Money fen={diff.before.amount} />，税 <Money fen={diff.before.tax} /></span> },
        { key: 'a', label: afterLabel, children: <span>{diff.after.orders} 张，<Money fen={diff.after.amount} />，税 <Money fen={diff.after.tax} /></span> },
      ]} />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        {diffIsEmpty(diff) ? '成本单没有变化。' : `新增 ${diff.added.length} 张、移除 ${diff.removed.length} 张、变化 ${diff.changed.length} 张（金额为不含税金额与税额，元；张数与合计只计未作废的成本单）。`}
      </Typography.Paragraph>
      {rows.length ? (
        <Table<DiffRow>
          rowKey="key"
          size="small"
          pagination={rows.length > 20 ? { pageSize: 20, size: 'small' } : false}
          dataSource={rows}
          columns={[
            { title: '', key: 'kind', width: 64, render: (_, r) => KIND[r.kind] },
            { title: '成本单号', dataIndex: 'orderNo', width: 140 },
            { title: '项目', dataIndex: 'project', ellipsis: true },
            { title: beforeLabel, key: 'before', render: (_, r) => side(r.before) },
            { title: afterLabel, key: 'after', render: (_, r) => side(r.after) },
            { title: '变化', key: 'what', render: (_, r) => r.what.join('；') },
          ]}
        />
      ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有变化" />}
    </div>
  );
}
