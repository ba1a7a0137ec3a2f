/** The templates a user may start, grouped by category, with search and the frequently used ones first. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Input, Row, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { StartFlow } from '@zhyy/shared';
import { wfApi } from '../../api/workflow';

function FlowCard({ f, onPick }: { f: StartFlow; onPick: (f: StartFlow) => void }) {
  return (
    <Card hoverable size="small" className="wf-flow-card" onClick={() => onPick(f)} data-testid={`flow-${f.flowNo}`}>
      <Typography.Text strong>{f.name}</Typography.Text>
      {f.startedByMe ? <Tag style={{ marginLeft: 8 }}>发起过{f.startedByMe}次</Tag> : null}
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="wf-flow-desc">
        {f.description}
      </Typography.Paragraph>
    </Card>
  );
}

export function StartCatalog({ onPick }: { onPick: (f: StartFlow) => void }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: ['workflow', 'startflows'], queryFn: wfApi.startFlows });
  if (q.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (q.isError) return <Alert type="error" showIcon title="流程列表加载失败，请稍后重试" />;
  const k = keyword.trim();
  const match = (f: StartFlow) => !k || f.name.includes(k) || f.category.includes(k) || f.description.includes(k);
  const groups = q.data.groups.map((g) => ({ ...g, flows: g.flows.filter(match) })).filter((g) => g.flows.length);
  return (
    <div data-testid="start-catalog">
      <Input.Search placeholder="搜索流程名称、类别" allowClear onChange={(e) => setKeyword(e.target.value)} style={{ maxWidth: 360, marginBottom: 12 }} />
      {!k && q.data.frequent.length ? (
        <Card size="small" title="常用流程" className="wf-group">
          <Row gutter={[12, 12]}>
            {q.data.frequent.map((f) => (
              <Col key={f.flowNo} xs={24} sm={12} lg={6}>
                <FlowCard f={f} onPick={onPick} />
              </Col>
            ))}
          </Row>
        </Card>
      ) : null}
      {groups.length === 0 ? <Empty description="没有匹配的流程" /> : null}
      {groups.map((g) => (
        <Card key={g.category} size="small" title={g.category} className="wf-group">
          <Row gutter={[12, 12]}>
            {g.flows.map((f) => (
              <Col key={f.flowNo} xs={24} sm={12} lg={6}>
                <FlowCard f={f} onPick={onPick} />
              </Col>
            ))}
          </Row>
        </Card>
      ))}
    </div>
  );
}
