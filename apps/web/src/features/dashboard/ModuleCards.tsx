import { Card, Col, Empty, Input, Row, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { routeIcon } from '../../layout/icons';
import { useSession } from '../../stores/session';
import { filterCards, moduleCards } from './modules';

const SHOWN_PAGES = 6;

/** One card per module the user may open, with its first pages; a search narrows them to matching pages. */
export function ModuleCards() {
  const roles = useSession((s) => s.roles);
  const [query, setQuery] = useState('');
  const all = useMemo(() => moduleCards(roles), [roles]);
  const cards = useMemo(() => filterCards(all, query), [all, query]);
  const limit = query.trim() ? Infinity : SHOWN_PAGES;
  return (
    <Card
      title="我的功能"
      className="dashboard-card"
      data-testid="module-cards"
      extra={
        <Input.Search
          allowClear
          aria-label="搜索功能"
          data-testid="module-search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          style={{ width: 180 }}
        />
      }
    >
      {cards.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的功能" /> : null}
      <Row gutter={[12, 12]}>
        {cards.map((c) => (
          <Col key={c.group} xs={24} sm={12} lg={8}>
            <Card size="small" className="module-card" data-testid="module-card">
              <Link to={c.target} className="module-card-title">
                <span className="module-card-icon">{routeIcon(c.icon)}</span>
                {c.title}
              </Link>
              <div className="module-card-pages">
                {c.pages.slice(0, limit).map((p) => (
                  <Link key={p.path} to={p.path}>
                    {p.title}
                  </Link>
                ))}
                {c.pages.length > limit ? <Typography.Text type="secondary">等 {c.pages.length} 个页面</Typography.Text> : null}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
