/**
 * 我的待办 (/flow/todolist): tabs 待办, 在途, 草稿, 我发起的, 我参与的, 抄送我的 with their counts; a row
 * opens the work item with its approval panel and track. `?workId=N` (generfrmurl, notifications)
 * opens that item directly.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FlowState, IN_TRANSIT_PREFIX, sidebarBadgeText, type InstanceRow, type ListScope } from '@zhyy/shared';
import { WORKFLOW_REFRESH_EVENT } from '../../live/events';
import { useView } from '../../router/view';
import { useBadges } from '../../stores/badges';
import { LazyWorkDrawer } from './WorkDrawerLazy';
import { WorkList } from './WorkList';
import './workflow.css';

const TABS: Array<{ key: ListScope; label: string; count?: 'Todolist_EmpWorks' | 'Todolist_Runing' | 'Todolist_Draft' | 'Todolist_MyStartFlow' | 'Todolist_MyFlow'; prefix?: string }> = [
  { key: 'todo', label: '待办', count: 'Todolist_EmpWorks' },
  { key: 'running', label: '在途', count: 'Todolist_Runing', prefix: IN_TRANSIT_PREFIX },
  { key: 'draft', label: '草稿', count: 'Todolist_Draft' },
  { key: 'mine', label: '我发起的', count: 'Todolist_MyStartFlow' },
  { key: 'involved', label: '我参与的', count: 'Todolist_MyFlow' },
  { key: 'cc', label: '抄送我的' },
];

export default function TodoListPage() {
  const view = useView();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const counts = useBadges((s) => s.counts);
  const [tab, setTab] = useState<ListScope>('todo');
  const [open, setOpen] = useState<number | null>(null);

  useEffect(() => {
    const id = Number(new URLSearchParams(view.search).get('workId'));
    if (Number.isInteger(id) && id > 0) setOpen(id);
  }, [view.search]);
  useEffect(() => {
    const refresh = () => void qc.invalidateQueries({ queryKey: ['workflow'] });
    window.addEventListener(WORKFLOW_REFRESH_EVENT, refresh);
    return () => window.removeEventListener(WORKFLOW_REFRESH_EVENT, refresh);
  }, [qc]);

  const openRow = (r: InstanceRow) => (r.State === FlowState.draft ? void navigate(`/flow/start?workId=${r.WorkID}`) : setOpen(r.WorkID));
  const close = () => {
    setOpen(null);
    if (view.search.includes('workId')) void navigate('/flow/todolist', { replace: true });
  };
  return (
    <Card className="wf-page" data-testid="todolist-page">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as ListScope)}
        destroyOnHidden
        items={TABS.map((t) => ({
          key: t.key,
          label: (
            <span data-testid={`tab-${t.key}`}>
              {t.label}
              {t.count && counts[t.count] > 0 ? <Badge className="wf-tab-badge" count={`${t.prefix ?? ''}${sidebarBadgeText(counts[t.count])}`} color={t.key === 'todo' ? 'red' : 'blue'} /> : null}
            </span>
          ),
          children: <WorkList scope={t.key} onOpen={openRow} testId={`list-${t.key}`} />,
        }))}
      />
      <LazyWorkDrawer workId={open} onClose={close} />
    </Card>
  );
}
