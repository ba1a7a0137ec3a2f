/** 工作台: the first to-do items and the in-transit items, each linking to the work item. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Empty, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { REFRESH_INTERVAL_MS, relativeTime, type InstanceRow, type TodoItem } from '@zhyy/shared';
import { cardProblem } from '../../../api/errors';
import { WORKFLOW_REFRESH_EVENT } from '../../../live/events';
import { wfApi } from '../../../api/workflow';
import { StateTag } from '../../common/StateTag';

const SHOWN = 6;

function useWorkflowQuery<T>(key: string, fn: () => Promise<T>) {
  const qc = useQueryClient();
  useEffect(() => {
    const refresh = () => void qc.invalidateQueries({ queryKey: ['workflow', 'workbench'] });
    window.addEventListener(WORKFLOW_REFRESH_EVENT, refresh);
    return () => window.removeEventListener(WORKFLOW_REFRESH_EVENT, refresh);
  }, [qc]);
  return useQuery({ queryKey: ['workflow', 'workbench', key], queryFn: fn, refetchInterval: REFRESH_INTERVAL_MS });
}

function Rows<T>({ q, render, empty }: { q: { isPending: boolean; isError: boolean; error: unknown; data?: T[] }; render: (r: T) => React.ReactNode; empty: string }) {
  if (q.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (q.isError) {
    const problem = cardProblem(q.error, '工作流服务');
    return problem ? <Alert type="info" showIcon title={problem} /> : <Skeleton paragraph={{ rows: 4 }} />;
  }
  if (!q.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return <ul className="plain-list wf-dash-list">{q.data.map(render)}</ul>;
}

export function WorkbenchLists() {
  const todo = useWorkflowQuery('todo', async () => (await wfApi.todo()).items.slice(0, SHOWN));
  const running = useWorkflowQuery('running', async () => (await wfApi.list({ scope: 'running', pageIndex: 1, pageSize: SHOWN })).items);
  const todoRow = (t: TodoItem) => (
    <li key={t.WorkID} className="plain-list-item">
      <Link className="wf-dash-title" to={`/flow/todolist?workId=${t.WorkID}`} title={t.Title}>
        {t.Title}
      </Link>
      {t.Pressed ? <Tag color="red">催办</Tag> : null}
      <Typography.Text type="secondary">
        {t.NodeName} · {relativeTime(t.ArrivedAt)}
      </Typography.Text>
    </li>
  );
  const runningRow = (r: InstanceRow) => (
    <li key={r.WorkID} className="plain-list-item">
      <Link className="wf-dash-title" to={`/flow/todolist?workId=${r.WorkID}`} title={r.Title}>
        {r.Title}
      </Link>
      <StateTag state={r.State} />
      <Typography.Text type="secondary">{r.Handlers ? `待 ${r.Handlers} 处理` : r.NodeName}</Typography.Text>
    </li>
  );
  return (
    <Card className="dashboard-card" data-testid="workbench-lists" title="我的工作" extra={<Link to="/flow/todolist">全部</Link>}>
      <Tabs
        size="small"
        items={[
          { key: 'todo', label: '待办事项', children: <Rows q={todo} render={todoRow} empty="没有待办，辛苦了" /> },
          { key: 'running', label: '在途流程', children: <Rows q={running} render={runningRow} empty="没有在途流程" /> },
        ]}
      />
    </Card>
  );
}
