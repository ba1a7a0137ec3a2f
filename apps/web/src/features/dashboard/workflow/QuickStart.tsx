/** 工作台: quick start of the templates the user starts most. */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Skeleton, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { wfApi } from '../../../api/workflow';

export function QuickStart() {
  const navigate = useNavigate();
  const q = useQuery({ queryKey: ['workflow', 'startflows'], queryFn: wfApi.startFlows });
  return (
    <Card className="dashboard-card" title="快速发起" extra={<Link to="/flow/start">全部流程</Link>} data-testid="quick-start">
      {q.isPending ? <Skeleton active paragraph={{ rows: 2 }} /> : null}
      {q.data ? (
        <Space wrap>
          {q.data.frequent.map((f) => (
            <Button key={f.flowNo} onClick={() => navigate(`/flow/start?flowNo=${encodeURIComponent(f.flowNo)}`)}>
              {f.name}
            </Button>
          ))}
        </Space>
      ) : null}
    </Card>
  );
}
