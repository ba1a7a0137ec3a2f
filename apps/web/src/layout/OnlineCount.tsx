import { TeamOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { isSuperUser } from '@zhyy/shared';
import { useBadges } from '../stores/badges';
import { useSession } from '../stores/session';

export const ONLINE_REPORT_PATH = '/system/useronline/list';

/** 在线：N when above 0; a link to the online-users report only for role 1 (and admin). */
export function OnlineCount() {
  const count = useBadges((s) => s.onlineCount);
  const roles = useSession((s) => s.roles);
  if (count <= 0) return null;
  const text = (
    <>
      <TeamOutlined /> 在线：{count}
    </>
  );
  return isSuperUser(roles) ? (
    <Link to={ONLINE_REPORT_PATH} className="online-count" data-testid="online-count" title="查看在线用户">
      {text}
    </Link>
  ) : (
    <span className="online-count" data-testid="online-count">
      {text}
    </span>
  );
}
