/** Adds the current page to the tag bar, and the affix pages the user may open at start. */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { accessibleRoutes, canAccess, matchRoute, type FlatRoute } from '@zhyy/shared';
import { useSession } from '../stores/session';
import { useTagsView, type VisitedView } from '../stores/tagsView';

export function viewFor(route: FlatRoute, pathname: string, search: string): VisitedView {
  return {
    path: pathname,
    fullPath: pathname + search,
    title: route.title,
    pattern: route.path,
    tagName: route.tagName,
    affix: route.affix,
    noCache: route.noCache,
  };
}

export function useTrackView(): void {
  const { pathname, search } = useLocation();
  const roles = useSession((s) => s.roles);
  const addView = useTagsView((s) => s.addView);

  useEffect(() => {
    for (const r of accessibleRoutes(roles)) {
      if (r.affix && !r.path.includes(':')) addView(viewFor(r, r.path, ''));
    }
  }, [roles, addView]);

  useEffect(() => {
    const m = matchRoute(pathname);
    // A page the roles may not open (shown as 无权访问) gets no tag.
    if (m && canAccess(roles, m.route.requirement)) addView(viewFor(m.route, pathname, search));
  }, [pathname, search, addView, roles]);
}
