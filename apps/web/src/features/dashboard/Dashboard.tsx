import { Avatar, Card, Col, Row, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { roleName } from '@zhyy/shared';
import { useSession } from '../../stores/session';
import { shanghaiNow } from '../../utils/time';
import { greeting } from './greeting';
import { ModuleCards } from './ModuleCards';
import { NoticeList } from './NoticeList';
import { SisterTodos } from './SisterTodos';
import { TodoSummary } from './TodoSummary';
import { ApprovalChart } from './workflow/ApprovalChart';
import { CertCard, mayOpenCollect } from '../common/CertCard';
import { QuickStart } from './workflow/QuickStart';
import { WorkbenchLists } from './workflow/WorkbenchLists';
import './dashboard.css';

/** 工作台: greeting, to-do summary, sister-system to-dos, notices and the modules the user may open. */
export default function Dashboard() {
  const info = useSession((s) => s.info);
  const name = useSession((s) => s.name);
  const roles = useSession((s) => s.roles);
  const now = shanghaiNow();
  return (
    <div className="dashboard" data-testid="dashboard">
      <Card className="dashboard-greeting">
        <div className="dashboard-greeting-row">
          <Avatar size={52} icon={<UserOutlined />} className="dashboard-avatar" />
          <div>
            <Typography.Title level={4} className="dashboard-hello" data-testid="greeting">
              {greeting(now.hour())}，{name}
            </Typography.Title>
            <Typography.Text type="secondary">
              {[info?.deptName, info?.position].filter(Boolean).join(' · ') || '欢迎使用综合运营支撑平台'}
            </Typography.Text>
          </div>
          <div className="dashboard-meta">
            <Typography.Text type="secondary">{now.format('YYYY年M月D日 dddd')}</Typography.Text>
            <div>
              {(info?.roles ?? []).map((r) => (
                <Tag key={r} color="blue">
                  {roleName(r)}
                </Tag>
              ))}
            </div>
          </div>
        </div>
      </Card>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={16}>
          <TodoSummary />
        </Col>
        <Col xs={24} xl={8}>
          <SisterTodos />
        </Col>
        {mayOpenCollect(roles) ? (
          <Col xs={24} xl={8}>
            <CertCard />
          </Col>
        ) : null}
        <Col xs={24} xl={16}>
          <WorkbenchLists />
        </Col>
        <Col xs={24} xl={8}>
          <QuickStart />
        </Col>
        <Col xs={24} xl={16}>
          <ModuleCards />
        </Col>
        <Col xs={24} xl={8}>
          <NoticeList />
        </Col>
        <Col xs={24}>
          <ApprovalChart />
        </Col>
      </Row>
    </div>
  );
}
