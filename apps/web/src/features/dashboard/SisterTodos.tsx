import { Card, Typography } from 'antd';
import { publicConfig } from '../../api/config';
import { useBadges } from '../../stores/badges';

/** Pending to-dos in the office-automation and project-management systems. */
export function SisterTodos() {
  const oaTodo = useBadges((s) => s.oaTodo);
  const pmsTodo = useBadges((s) => s.pmsTodo);
  const cfg = publicConfig();
  const rows = [
    { key: 'oa', name: cfg.oaName, url: cfg.oaUrl, configured: !!cfg.oaApiBaseUrl, count: oaTodo },
    { key: 'pms', name: cfg.pmsName, url: cfg.pmsUrl, configured: !!cfg.pmsApiBaseUrl, count: pmsTodo },
  ];
  return (
    <Card title="其他系统待办" className="dashboard-card" data-testid="sister-todos">
      <ul className="plain-list">
        {rows.map((row) => (
          <li key={row.key} className="plain-list-item" data-testid={`sister-todo-${row.key}`}>
            {row.url ? (
              <a href={row.url} target="_blank" rel="noopener noreferrer">
                {row.name}
              </a>
            ) : (
              <span>{row.name}</span>
            )}
            {row.configured ? (
              <Typography.Text strong className="sister-count">
                {row.count} 项
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">未接入</Typography.Text>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
