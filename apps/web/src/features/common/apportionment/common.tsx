/** Pieces the apportionment and statistics screens share: who may change, the target picker, the change history. */
import { useQuery } from '@tanstack/react-query';
import { Empty, Select, Space, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { canAccess, formatFen, pageRoute, type AllocationChangeRow, type AllocationDim, type TargetOption } from '@zhyy/shared';
import { apportionmentApi } from '../../../api/invoiceApportionment';
import { formatDateTime } from '../../../components/format';
import { useSession } from '../../../stores/session';

export const APPORTIONMENT_KEY = ['invoice', 'apportionment'] as const;
export const DIM_LABEL: Record<AllocationDim, string> = { project: '项目', contract: '合同' };
export const ACTION_LABEL: Record<AllocationChangeRow['action'], string> = { default: '开票自动分摊', set: '调整分摊', move: '变更', match: '临时匹配' };
const ACTION_COLOUR: Record<AllocationChangeRow['action'], string> = { default: 'default', set: 'blue', move: 'orange', match: 'green' };

/** Invoice writers (roles 1, 5: those who may open invoice-upload) may change allocations; role 11 reads. */
export function useCanChange(): boolean {
  const roles = useSession((s) => s.roles);
  return canAccess(roles, pageRoute('/invoice/invoiceaccount/invoice-upload/:id').requirement);
}

/** Where a target picker looks its options up: the outgoing invoices' lookup unless a page brings its own (incoming invoices). */
export interface TargetLookupSource {
  key: readonly unknown[];
  fetch: (keyword?: string) => Promise<TargetOption[]>;
}

export function TargetSelect(props: { dim: AllocationDim; value?: string; onChange?: (v: string) => void; realOnly?: boolean; exclude?: string; placeholder?: string; testId?: string; lookup?: TargetLookupSource }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: props.lookup ? [...props.lookup.key, keyword] : [...APPORTIONMENT_KEY, 'targets', props.dim, keyword, props.realOnly],
    queryFn: () => (props.lookup ? props.lookup.fetch(keyword || undefined) : apportionmentApi.targets(props.dim, keyword || undefined, props.realOnly)),
  });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={props.value}
      onChange={props.onChange}
      loading={q.isFetching}
      placeholder={props.placeholder ?? `搜索${DIM_LABEL[props.dim]}编号或名称`}
      notFoundContent={q.isFetching ? '加载中…' : `没有匹配的${DIM_LABEL[props.dim]}`}
      style={{ width: '100%', minWidth: 260 }}
      data-testid={props.testId}
      options={(q.data ?? []).filter((t) => t.id !== props.exclude).map((t) => ({ value: t.id, label: `${t.code} ${t.name}${t.temp ? '（临时）' : ''}` }))}
    />
  );
}

/** Allocations as one line: 项目A 1,000.00；项目B 90.00. */
export const snapshot = (list: AllocationChangeRow['after']) => (list.length ? list.map((x) => `${x.name} ${formatFen(x.amountIncl)}`).join('；') : '（无）');

/** The change history of allocations, newest first: what moved where, how much, why, who and when. */
export function ChangeTimeline({ items }: { items: AllocationChangeRow[] }) {
  if (!items.length) return <Empty description="暂无分摊记录" />;
  return (
    <Timeline
      data-testid="allocation-history"
      items={items.map((h) => ({
        color: h.action === 'move' ? 'orange' : h.action === 'default' ? 'gray' : 'blue',
        content: (
          <Space orientation="vertical" size={2}>
            <Space wrap size={4}>
              <Tag color={ACTION_COLOUR[h.action]}>{ACTION_LABEL[h.action]}</Tag>
              <Tag>{h.dim === 'project' ? '项目分摊' : '订单分摊'}</Tag>
              <Typography.Text type="secondary">{formatDateTime(h.createdAt)}</Typography.Text>
              <Typography.Text>{h.userName}</Typography.Text>
            </Space>
            {h.action === 'move' || (h.action === 'match' && h.fromName) ? (
              <Typography.Text>
                {h.fromName} → {h.toName}，{formatFen(Math.abs(h.amountIncl))} 元
              </Typography.Text>
            ) : (
              <Typography.Text>
                {snapshot(h.before)} → {snapshot(h.after)}
              </Typography.Text>
            )}
            {h.reason ? <Typography.Text type="secondary">原因：{h.reason}</Typography.Text> : null}
          </Space>
        ),
      }))}
    />
  );
}
