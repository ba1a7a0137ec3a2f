import { Activity, lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { Spin } from 'antd';
import { Outlet, useLocation } from 'react-router';
import { matchRoute } from '@zhyy/shared';
import { isOpenTo } from '../router/guard';
import { pageFor } from '../router/pages';
import { ViewContext, type ViewInfo } from '../router/view';
import { useSession } from '../stores/session';
import { useTagsView } from '../stores/tagsView';
import { ViewErrorBoundary } from './ViewErrorBoundary';

// antd's Result (with its illustrations) is downloaded only when a page is refused.
const Forbidden = lazy(() => import('./Forbidden'));

interface Slot {
  path: string;
  fullPath: string;
  noCache: boolean;
}

/**
 * The views to keep mounted: every cached visited view plus the current one (a noCache view only while
 * current). With `shown`, a visited view that has never been current in this tab (the affix workbench
 * when the first page opened is another one) is not mounted until it is first opened (issue 30: a list
 * page's first load does not fetch the workbench's code and data).
 */
export function slotsToRender(visited: readonly Slot[], current: Slot | null, shown?: ReadonlySet<string>): Slot[] {
  const slots = visited.filter((v) => (!v.noCache || v.path === current?.path) && (!shown || shown.has(v.path) || v.path === current?.path));
  if (current && !slots.some((s) => s.path === current.path)) slots.push(current);
  return slots;
}

function ViewHost({ slot, active, search }: { slot: Slot; active: boolean; search: string }) {
  const m = matchRoute(slot.path);
  if (!m) return null;
  const Page = pageFor(m.route.path);
  const view: ViewInfo = {
    path: slot.path,
    fullPath: slot.fullPath,
    search,
    params: m.params,
    route: m.route,
    active,
  };
  return (
    <ViewContext.Provider value={view}>
      <ViewErrorBoundary>
        <Suspense fallback={<Spin className="view-loading" />}>
          <Page />
        </Suspense>
      </ViewErrorBoundary>
    </ViewContext.Provider>
  );
}

/**
 * The main area keeps visited views mounted inside React <Activity> so their state (filters, page,
 * scroll) survives until their tag closes; 刷新 bumps a view's key and so remounts it.
 */
export function AppMain() {
  const location = useLocation();
  const visited = useTagsView((s) => s.visitedViews);
  const refreshKeys = useTagsView((s) => s.refreshKeys);
  const roles = useSession((s) => s.roles);
  const matched = matchRoute(location.pathname);
  // A page the roles may not open is never mounted: 无权访问 takes its place inside the layout.
  const forbidden = matched && !isOpenTo(roles, matched) ? matched.route : null;
  const match = forbidden ? null : matched;
  const current: Slot | null = match ? { path: location.pathname, fullPath: location.pathname + location.search, noCache: match.route.noCache } : null;
  const shown = useRef(new Set<string>());
  if (current) shown.current.add(current.path);
  const slots = slotsToRender(visited, current, shown.current);

  // Scroll: a revisited cached view returns to where it was; any other navigation starts at the top.
  const positions = useRef(new Map<string, number>());
  const shownPath = useRef(location.pathname);
  useLayoutEffect(() => {
    const onScroll = () => positions.current.set(shownPath.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    shownPath.current = location.pathname;
    const cached = visited.some((v) => v.path === location.pathname && !v.noCache);
    window.scrollTo(0, cached ? (positions.current.get(location.pathname) ?? 0) : 0);
    // Only a navigation moves the scroll position.
  }, [location.key]);

  return (
    <main className="app-main" data-testid="app-main">
      {slots.map((slot) => {
        const active = slot.path === current?.path;
        const key = `${slot.path}#${refreshKeys[slot.path] ?? 0}`;
        return (
          <Activity key={key} mode={active ? 'visible' : 'hidden'}>
            <div className="view" data-view={slot.path}>
              <ViewHost slot={slot} active={active} search={active ? location.search : new URL(slot.fullPath, 'http://x').search} />
            </div>
          </Activity>
        );
      })}
      {forbidden ? (
        <Suspense fallback={<Spin className="view-loading" />}>
          <Forbidden title={forbidden.title} />
        </Suspense>
      ) :  current ? null : <Outlet />}
    </main>
  );
}
