/** 异常处理记录 on the pool detail (issue 14): the cases of one invoice — flag, owner, state, how and when resolved. */
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Table, Tag } from 'antd';
import { AbnormalAction, AbnormalCaseState, IncomeAbnormalFlag, type AbnormalCaseRow } from '@zhyy/shared';
import { formatTime } from '../../../components/download';
import { ABNORMAL_KEY, abnormalApi } from './api';

export function CaseHistory({ invoiceId }: { invoiceId: string }) {
  const q = useQuery({ queryKey: [...ABNORMAL_KEY, 'history', invoiceId], queryFn: () => abnormalApi.history(invoiceId) });
  return (
    <Card size="small" title="异常处理记录" className="ledger-section" data-testid="pool-abnormal-cases">
      <Table<AbnormalCaseRow>
        size="small" rowKey="id" pagination={false} dataSource={q.data ?? []} loading={q.isFetching}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={q.isError ? '加载失败，请稍后重试' : '没有异常处理记录'} /> }}
        columns={[
          { title: '异常类型', key: 'flag', width: 120, render: (_, c) => IncomeAbnormalFlag.label(c.flag) },
          { title: '负责人', key: 'owner', width: 100, render: (_, c) => c.ownerName || '—' },
          { title: '发现时间', key: 'raisedAt', width: 170, render: (_, c) => formatTime(c.raisedAt) },
          { title: '状态', key: 'state', width: 90, render: (_, c) => <Tag color={c.state === 'open' ? 'orange' : 'green'}>{AbnormalCaseState.label(c.state)}</Tag> },
          { title: '处理方式', key: 'action', width: 100, render: (_, c) => (c.action ? AbnormalAction.label(c.action) : '—') },
          { title: '说明', dataIndex: 'note', key: 'note', width: 240, ellipsis: true },
          { title: '处理人', key: 'by', width: 100, render: (_, c) => c.resolvedByName || '—' },
          { title: '处理时间', key: 'at', width: 170, render: (_, c) => formatTime(c.resolvedAt) || '—' },
        ]}
      />
    </Card>
  );
}
