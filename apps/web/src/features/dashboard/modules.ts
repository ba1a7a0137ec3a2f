/** The modules and pages a user may open, for the dashboard's cards. */
import { ROUTE_TABLE, accessibleRoutes, groupTarget } from '@zhyy/shared';

export interface ModuleCard {
  group: string;
  title: string;
  icon?: string;
  target: string;
  pages: { path: string; title: string }[];
}

export function moduleCards(roles: readonly string[]): ModuleCard[] {
  const pages = accessibleRoutes(roles).filter((r) => !r.hidden && !r.path.includes(':') && r.path !== '/dashboard');
  return ROUTE_TABLE.flatMap((def) => {
    const target = groupTarget(def, roles);
    const own = pages.filter((p) => p.group === def.path).map((p) => ({ path: p.path, title: p.title }));
    if (!target || own.length === 0) return [];
    return [{ group: def.path, title: def.path === '/' ? '工作流' : (def.title ?? ''), icon: def.icon, target, pages: own }];
  });
}

/** The cards with only the pages whose title (or module title) contains the query. */
export function filterCards(cards: readonly ModuleCard[], query: string): ModuleCard[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...cards];
  return cards.flatMap((c) => {
    const pages = c.title.toLowerCase().includes(q) ? c.pages : c.pages.filter((p) => p.title.toLowerCase().includes(q));
    return pages.length ? [{ ...c, pages }] : [];
  });
}
