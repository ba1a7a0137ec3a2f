import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Popconfirm, Tooltip } from 'antd';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PRODUCT_TITLE } from '@zhyy/shared';
import { useAppStore } from '../stores/app';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { MessageBell } from './MessageBell';
import { OnlineCount } from './OnlineCount';
import { SisterLinks } from './SisterLinks';
import { TopMenu } from './TopMenu';
import { useLogout } from './useSessionActions';

// The dialog (its form and the password rules) is downloaded only when the initial password must be changed.
const InitialPasswordDialog = lazy(() => import('./InitialPasswordDialog').then((m) => ({ default: m.InitialPasswordDialog })));

/** The top bar: logo and title, module menu, sister-system links, online count, messages (bell), user, logout. */
export function Navbar() {
  const { sidebarOpened, mobileSidebarOpen, toggleSidebar, device } = useAppStore();
  const name = useSession((s) => s.name);
  const openDrawer = useSettings((s) => s.setDrawerOpen);
  const logout = useLogout();
  const mustChangePassword = useSession((s) => s.needChangePassword);
  const mobile = device === 'mobile';
  return (
    <header className="navbar" data-testid="navbar">
      <Link to="/" className="navbar-brand" aria-label={PRODUCT_TITLE}>
        <img src="/logo.svg" alt="" className="navbar-logo" />
        {mobile ? null : <span className="navbar-title">{PRODUCT_TITLE}</span>}
      </Link>
      <Button
        type="text"
        className="hamburger"
        aria-label={(mobile ? mobileSidebarOpen : sidebarOpened) ? '收起侧边栏' : '展开侧边栏'}
        data-testid="hamburger"
        icon={sidebarOpened && !mobile ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={toggleSidebar}
      />
      <div className="navbar-menu">
        <TopMenu />
      </div>
      <div className="navbar-right">
        <SisterLinks compact={mobile} />
        <OnlineCount />
        <MessageBell />
        <Tooltip title="页面风格设置">
          <Button type="text" aria-label="页面风格设置" icon={<SettingOutlined />} onClick={() => openDrawer(true)} />
        </Tooltip>
        <span className="navbar-user" data-testid="user-name">
          <Avatar size="small" icon={<UserOutlined />} className="navbar-avatar" />
          {mobile ? null : <span>{name}</span>}
        </span>
        <Popconfirm title="确定退出登录吗？" okText="退出" cancelText="取消" onConfirm={logout} placement="bottomRight">
          <Button type="text" aria-label="退出登录" data-testid="logout" icon={<LogoutOutlined />}>
            {mobile ? null : '退出'}
          </Button>
        </Popconfirm>
      </div>
      {mustChangePassword ? (
        <Suspense fallback={null}>
          <InitialPasswordDialog />
        </Suspense>
      ) : null}
    </header>
  );
}
