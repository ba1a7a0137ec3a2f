/** 各节点审批意见: each node's opinions (the workflow service's workchecklist), newest decisions last. */
import { useQuery } from '@tanstack/react-query';
import { Table, Tag } from 'antd';
import type { CheckItem } from '@zhyy/shared';
import { wfApi } from '../../api/workflow';
import { formatTime } from '../common/workflowFormat';

const ACTION_COLOURS: Record<string, string> = { send: 'green', complete: 'green', return: 'red', shift: 'orange' };

export function CheckList({ workId, version }: { workId: number; version: number }) {
  const q = useQuery({ queryKey: ['workflow', 'checklist', workId, version], queryFn: () => wfApi.checklist(workId), retry: false });
  return (
    <Table<CheckItem>
      data-testid="checklist"
      size="small"
      rowKey={(r) => `${r.nodeId}-${r.createdAt}-${r.actorName}`}
      loading={q.isPending}
      pagination={false}
      dataSource={q.data ?? []}
      locale={{ emptyText: q.isError ? '审批意见加载失败' : '暂无审批意见' }}
      columns={[
        { title: '节点', dataIndex: 'nodeName', width: 140 },
        { title: '处理人', key: 'actor', width: 160, render: (_, r) => `${r.actorName}${r.deptName ? `（${r.deptName}）` : ''}` },
        { title: '操作', dataIndex: 'actionName', width: 90, render: (v: string, r) => <Tag color={ACTION_COLOURS[r.action]}>{v}</Tag> },
        { title: '意见', dataIndex: 'opinion', render: (v: string) => v || '—' },
        { title: '时间', dataIndex: 'createdAt', width: 160, render: (v: string) => formatTime(v) },
      ]}
    />
  );
}
