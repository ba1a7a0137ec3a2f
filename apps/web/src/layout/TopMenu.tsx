import { Menu } from 'antd';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { useSession } from '../stores/session';
import { locate, topMenu } from './menu';

/** The horizontal menu of the top-level modules the user may see. */
export function TopMenu() {
  const roles = useSession((s) => s.roles);
  const { pathname } = useLocation();
  const items = useMemo(
    () =>
      topMenu(roles).map((e) => ({
        key: e.key,
        label: <Link to={e.target}>{e.title}</Link>,
      })),
    [roles],
  );
  const group = locate(pathname)?.group;
  return (
    <Menu
      className="top-menu"
      mode="horizontal"
      items={items}
      selectedKeys={group ? [group] : []}
      aria-label="模块菜单"
      data-testid="top-menu"
    />
  );
}
