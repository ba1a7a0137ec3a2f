/**
 * The 工作台 card of certificates (roles that may open 证书汇总: 1, 6, 15): expired and expiring within 90
 * days, each linking to the certificate list filtered so; the title links to 证书汇总.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useNavigate } from 'react-router';
import { canAccess, pageRoute } from '@zhyy/shared';
import { certificateApi } from '../../api/tender-people';
import { useSession } from '../../stores/session';
import { PEOPLE_KEY, PEOPLE_PATHS } from './tenderPeoplePaths';

export const mayOpenCollect = (roles: readonly string[]) => canAccess(roles, pageRoute(PEOPLE_PATHS.collect).requirement);

export function CertCard() {
  const roles = useSession((s) => s.roles);
  const allowed = mayOpenCollect(roles);
  const navigate = useNavigate();
  const q = useQuery({ queryKey: [...PEOPLE_KEY, 'card'], queryFn: () => certificateApi.card(), enabled: allowed });
  if (!allowed) return null;
  return (
    <Card title={<a onClick={() => navigate(PEOPLE_PATHS.collect)}>资格证书到期</a>} className="dashboard-card" data-testid="cert-card">
      <Row gutter={12}>
        <Col span={12}>
          <a onClick={() => navigate(`${PEOPLE_PATHS.certificates}?state=expired`)} data-testid="cert-card-expired">
            <Statistic title="已过期" value={q.data?.expired ?? '-'} loading={q.isLoading} styles={{ content: { color: '#cf1322' } }} />
          </a>
        </Col>
        <Col span={12}>
          <a onClick={() => navigate(`${PEOPLE_PATHS.certificates}?state=expiring`)} data-testid="cert-card-expiring">
            <Statistic title={`${q.data?.warnDays ?? 90}天内到期`} value={q.data?.expiring ?? '-'} loading={q.isLoading} styles={{ content: { color: '#d46b08' } }} />
          </a>
        </Col>
      </Row>
    </Card>
  );
}
