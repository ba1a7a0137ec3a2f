/** Menus from the shared route table: the top menu of modules and the sidebar of the current module. */
import {
  IN_TRANSIT_PREFIX,
  ROUTE_TABLE,
  filterRoutes,
  groupTarget,
  inTransitBadgeText,
  joinPath,
  matchRoute,
  sidebarBadgeText,
  type RouteDef,
} from '@zhyy/shared';
import { sumCounts, type BadgeCounts } from '../stores/badges';

export interface TopMenuEntry {
  key: string;
  title: string;
  icon?: string;
  target: string;
}

export interface SideMenuEntry {
  key: string;
  title: string;
  icon?: string;
  /** The badge text ('' hides it). */
  badge: string;
  children?: SideMenuEntry[];
}

/** SPEC section 2: the top-level routes the user may see that are not hidden, each to its redirect target. */
export function topMenu(roles: readonly string[]): TopMenuEntry[] {
  return filterRoutes(ROUTE_TABLE, roles)
    .filter((def) => !def.hidden)
    .flatMap((def) => {
      const target = groupTarget(def, roles);
      return target ? [{ key: def.path, title: def.title ?? '', icon: def.icon, target }] : [];
    });
}

function badgeFor(def: RouteDef, counts: BadgeCounts): string {
  if (!def.badge) return '';
  const n = sumCounts(counts, def.badge.keys);
  if (def.badge.prefix === IN_TRANSIT_PREFIX) return inTransitBadgeText(n);
  const text = sidebarBadgeText(n);
  return text && def.badge.prefix ? `${def.badge.prefix}${text}` : text;
}

function entries(defs: readonly RouteDef[], parent: string, counts: BadgeCounts): SideMenuEntry[] {
  return defs
    .filter((def) => !def.hidden)
    .flatMap((def): SideMenuEntry[] => {
      const path = parent === '' ? def.path : joinPath(parent, def.path);
      if (def.children) {
        const children = entries(def.children, path, counts);
        return children.length ? [{ key: path, title: def.title ?? '', icon: def.icon, badge: '', children }] : [];
      }
      return [{ key: path, title: def.title ?? '', icon: def.icon, badge: badgeFor(def, counts) }];
    });
}

/** The sidebar of one module: its visible pages and sub-groups, with badge texts (99+). */
export function sideMenu(group: string, roles: readonly string[], counts: BadgeCounts): SideMenuEntry[] {
  const def = filterRoutes(ROUTE_TABLE, roles).find((d) => d.path === group);
  return def?.children ? entries(def.children, def.path, counts) : [];
}

/**
 * The module and menu item a pathname belongs to; /redirect/x counts as x. A hidden page (a detail or edit page)
 * belongs to its list page's item, which the sidebar highlights.
 */
export function locate(pathname: string): { group: string; page: string } | null {
  const target = pathname.startsWith('/redirect/') ? pathname.slice('/redirect'.length) : pathname;
  const m = matchRoute(target);
  return m ? { group: m.route.group, page: m.route.menu } : null;
}

/** The keys of the sub-groups that lead to a page (to open them in the sidebar). */
export function openKeysFor(menu: readonly SideMenuEntry[], page: string): string[] {
  for (const e of menu) {
    if (e.key === page) return [];
    if (e.children) {
      const inner = openKeysFor(e.children, page);
      if (inner.length || e.children.some((c) => c.key === page)) return [e.key, ...inner];
    }
  }
  return [];
}
