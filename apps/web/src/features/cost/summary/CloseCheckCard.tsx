/**
 * 结账核验 on 月度成本汇总 (issue 32 item 5): the closed department-months of the range; one month at a time
 * (the latest closed one by default, or the one chosen) the server recomputes each closed department's
 * digest and compares it with the one its close stored: 已核验, 已变更 (with the orders that differ from the
 * close: added, removed, changed, with the amounts) or 无摘要 (closed before digests were kept).
 */
import { Card, Select, Space, Table, Typography } from 'antd';
import { monthLabel, type CostCloseCheck, type CostSummary } from '@zhyy/shared';
import { formatDateTime } from '../../../components/format';
import { tableLocale } from '../../../components/listTable';
import { CheckMark, CloseDiffView } from '../CloseDiff';

/** The months of the range that have a closed department, newest first. */
export const closedMonths = (closed: CostSummary['closed']) => [...new Set(closed.map((c) => c.month))].sort().reverse();

export function CloseCheckCard({ closed, month, onMonth, checks, loading, failed }: {
  closed: CostSummary['closed'];
  month: string | undefined;
  onMonth: (m: string) => void;
  checks: CostCloseCheck[] | undefined;
  loading: boolean;
  failed: boolean;
}) {
  const months = closedMonths(closed);
  const broken = (checks ?? []).filter((c) => c.holds === false).length;
  return (
    <Card
      size="small"
      title="结账核验"
      data-testid="close-check"
      extra={
        <Space>
          <span>核验月份</span>
          <Select style={{ width: 130 }} value={month} onChange={onMonth} options={months.map((m) => ({ value: m, label: monthLabel(m) }))} aria-label="核验月份" />
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        结账时保存了该部门该月成本单、明细与所用价格的摘要（SHA-256）；此处重新计算并比对，证明结账后数据未被改动。
        {checks && !loading ? (broken ? ` ${monthLabel(month ?? '')}有 ${broken} 个部门的数据与结账时不一致。` : ` ${monthLabel(month ?? '')}已结账的数据均与结账时一致。`) : ''}
      </Typography.Paragraph>
      <Table<CostCloseCheck>
        rowKey="deptId"
        size="small"
        loading={loading}
        dataSource={checks ?? []}
        pagination={false}
        locale={tableLocale(failed, '该月没有已结账的部门')}
        expandable={{
          rowExpandable: (r) => !!r.differences,
          expandedRowRender: (r) => (r.differences ? <CloseDiffView diff={r.differences} beforeLabel="结账时" afterLabel="现在" testId={`check-diff-${r.deptId}`} /> : null),
        }}
        columns={[
          { title: '部门', dataIndex: 'deptName' },
          { title: '核验', key: 'holds', width: 90, render: (_, r) => <CheckMark check={r} /> },
          { title: '结账人', dataIndex: 'closedBy', width: 100 },
          { title: '结账时间', key: 'closedAt', width: 170, render: (_, r) => formatDateTime(r.closedAt) },
          { title: '结账摘要', key: 'digest', width: 150, render: (_, r) => (r.digest ? <Typography.Text code copyable={{ text: r.digest }}>{r.digest.slice(0, 12)}</Typography.Text> : '—') },
        ]}
        data-testid="close-check-table"
      />
    </Card>
  );
}
