import { Badge, Menu, type MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { DATA_SCREEN_SIDEBAR_COLLAPSED, MAIN_SIDEBAR_WIDTH, ROUTE_TABLE } from '@zhyy/shared';
import { useAppStore } from '../stores/app';
import { useBadges } from '../stores/badges';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { routeIcon } from './icons';
import { locate, openKeysFor, sideMenu, type SideMenuEntry } from './menu';

// antd's Drawer is loaded only on a narrow screen (issue 30: the chrome's first load).
const SidebarDrawer = lazy(() => import('./SidebarDrawer'));

export const SIDEBAR_COLLAPSED_WIDTH = DATA_SCREEN_SIDEBAR_COLLAPSED;

type Item = Required<MenuProps>['items'][number];

function toItems(entries: readonly SideMenuEntry[]): Item[] {
  return entries.map((e) =>
    e.children
      ? { key: e.key, icon: routeIcon(e.icon), label: e.title, children: toItems(e.children) }
      : {
          key: e.key,
          icon: routeIcon(e.icon),
          label: (
            <Link to={e.key} className="side-link">
              <span className="side-link-title">{e.title}</span>
              {e.badge ? <Badge count={e.badge} size="small" className="side-badge" data-testid="sidebar-badge" /> : null}
            </Link>
          ),
        },
  );
}

/** The menu of the current module: titles, badges, collapsible; a drawer on mobile. */
export function Sidebar() {
  const roles = useSession((s) => s.roles);
  const counts = useBadges((s) => s.counts);
  const { sidebarOpened, mobileSidebarOpen, device, closeSidebar } = useAppStore();
  const sidebarLogo = useSettings((s) => s.sidebarLogo);
  const { pathname } = useLocation();
  const here = locate(pathname);
  const group = here?.group ?? '/';
  const menu = useMemo(() => sideMenu(group, roles, counts), [group, roles, counts]);
  const items = useMemo(() => toItems(menu), [menu]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const mobile = device === 'mobile';

  useEffect(() => {
    if (here) setOpenKeys((keys) => [...new Set([...keys, ...openKeysFor(menu, here.page)])]);
    // Only a new page opens its sub-groups; the user's own folding stays otherwise.
  }, [here?.page, group]);

  // SPEC section 4: on mobile the sidebar closes on every route change.
  useEffect(() => {
    if (mobile) closeSidebar();
  }, [pathname, mobile, closeSidebar]);

  const title = ROUTE_TABLE.find((d) => d.path === group)?.title ?? '';
  const collapsed = !mobile && !sidebarOpened;
  const body = (
    <nav className="sidebar" aria-label="侧边菜单" data-testid="sidebar">
      {sidebarLogo ? (
        <div className="sidebar-logo" title={title}>
          {routeIcon(ROUTE_TABLE.find((d) => d.path === group)?.icon)}
          {collapsed ? null : <span>{title}</span>}
        </div>
      ) : null}
      <Menu
        mode="inline"
        theme="dark"
        inlineIndent={14}
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={here ? [here.page] : []}
        openKeys={collapsed ? undefined : openKeys}
        onOpenChange={setOpenKeys}
      />
    </nav>
  );

  if (mobile) {
    return (
      <Suspense fallback={null}>
        <SidebarDrawer open={mobileSidebarOpen} onClose={closeSidebar}>
          {body}
        </SidebarDrawer>
      </Suspense>
    );
  }
  return (
    <aside className="sidebar-container" style={{ width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : MAIN_SIDEBAR_WIDTH }}>
      {body}
    </aside>
  );
}
