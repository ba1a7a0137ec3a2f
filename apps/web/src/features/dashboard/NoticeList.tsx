import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Empty, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { REFRESH_INTERVAL_MS } from '@zhyy/shared';
import { cardProblem } from '../../api/errors';
import { fetchNotices } from '../../api/live';
import { WORKFLOW_REFRESH_EVENT } from '../../live/events';
import { NoticeManagerButton } from './workflow/NoticeManager';
import { NoticeReader } from './workflow/NoticeReader';

const NOTICES_KEY = ['workflow', 'notices'] as const;

/** Public notices from the workflow service (newPublic), refreshed every 60 s and on workflow refresh. */
export function NoticeList() {
  const client = useQueryClient();
  const [reading, setReading] = useState<string | null>(null);
  const { data, isPending, isError, error } = useQuery({
    queryKey: NOTICES_KEY,
    queryFn: async () => (await fetchNotices())?.items ?? [],
    refetchInterval: REFRESH_INTERVAL_MS,
    retry: false,
  });
  const problem = isError ? cardProblem(error, '公告服务') : null;
  useEffect(() => {
    const refresh = () => void client.invalidateQueries({ queryKey: NOTICES_KEY });
    window.addEventListener(WORKFLOW_REFRESH_EVENT, refresh);
    return () => window.removeEventListener(WORKFLOW_REFRESH_EVENT, refresh);
  }, [client]);

  return (
    <Card title="通知公告" className="dashboard-card" data-testid="notice-list" extra={<NoticeManagerButton />}>
      {isPending || (isError && !problem) ? <Skeleton active={isPending} paragraph={{ rows: 3 }} /> : null}
      {problem ? <Alert type="info" showIcon title={problem} /> : null}
      {data && data.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无公告" /> : null}
      {data && data.length > 0 ? (
        <ul className="plain-list">
          {data.map((n) => (
            <li key={String(n.id)} className="plain-list-item">
              <a className="notice-title" title={n.title} onClick={() => setReading(String(n.id))}>
                {n.title}
              </a>
              {n.infoColumnName ? <Tag>{n.infoColumnName}</Tag> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <NoticeReader id={reading} onClose={() => setReading(null)} />
    </Card>
  );
}
