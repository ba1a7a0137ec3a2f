import { Alert, Card, Col, Row, Skeleton, Statistic } from 'antd';
import { Link } from 'react-router';
import { useBadges } from '../../stores/badges';

const ITEMS = [
  { key: 'Todolist_EmpWorks', title: '我的待办', to: '/flow/todolist' },
  { key: 'Todolist_Runing', title: '在途流程', to: '/flow/zonghesearch' },
  { key: 'Todolist_MyStartFlow', title: '我发起的', to: '/flow/zonghesearch' },
  { key: 'Todolist_MyFlow', title: '我参与的', to: '/flow/zonghesearch' },
  { key: 'Todolist_Draft', title: '草稿', to: '/flow/start' },
] as const;

/** The workflow counts, with an honest state while the workflow service cannot be reached. */
export function TodoSummary() {
  const counts = useBadges((s) => s.counts);
  const available = useBadges((s) => s.workflowAvailable);
  return (
    <Card title="流程待办" className="dashboard-card" data-testid="todo-summary">
      {available === null ? <Skeleton active paragraph={{ rows: 1 }} /> : null}
      {available === false ? (
        <Alert
          type="info"
          showIcon
          title="工作流服务暂时无法连接"
          description="待办数量将在服务恢复后自动刷新（每分钟一次）。"
          data-testid="workflow-unavailable"
        />
      ) : null}
      {available ? (
        <Row gutter={[12, 12]}>
          {ITEMS.map((item) => (
            <Col key={item.key} flex="1 1 110px">
              <Link to={item.to} className="todo-stat">
                <Statistic title={item.title} value={counts[item.key]} />
              </Link>
            </Col>
          ))}
        </Row>
      ) : null}
    </Card>
  );
}
