/** Functions over the route table: full paths, role filtering, matching, landing rules, page permissions. */
import { GROUP_AREAS, ROUTE_TABLE, type Area, type RouteBadge, type RouteDef } from './route-table.js';
import { isSuperUser, type RoleCode } from './roles.js';
import { EMPTY_ID } from './enums.js';

/** Every ancestor's roles must be satisfied; each entry is any-of. An empty list means open to all. */
export type RoleRequirement = RoleCode[][];

export interface Crumb {
  title: string;
  path: string;
  /** True for a group whose own path is not a page. */
  isGroup: boolean;
}

export interface FlatRoute {
  /** The full path pattern, e.g. /invoice/invoiceaccount/invoice-detail/:id */
  path: string;
  title: string;
  hidden: boolean;
  noCache: boolean;
  affix: boolean;
  tagName?: string;
  digitParams: string[];
  badge?: RouteBadge;
  requirement: RoleRequirement;
  /** The top-level module's path ('/', '/invoice', ...). */
  group: string;
  area: Area;
  /** Titles from the module down to this page. */
  crumbs: Crumb[];
  /** The menu item the sidebar highlights on this page: its own path, or for a hidden page its list page's. */
  menu: string;
  /** The title when the page creates rather than edits (its id is the empty id). */
  newTitle?: string;
}

export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  const base = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return `${base}/${child}`;
}

function walk(
  defs: readonly RouteDef[],
  parentPath: string,
  requirement: RoleRequirement,
  crumbs: Crumb[],
  group: string | null,
  out: FlatRoute[],
): void {
  for (const def of defs) {
    const path = parentPath === '' ? def.path : joinPath(parentPath, def.path);
    const req = def.roles ? [...requirement, def.roles] : requirement;
    const top = group ?? path;
    const isGroup = !!def.children?.length;
    const chain = top === '/' && path === '/' ? crumbs : [...crumbs, { title: def.title ?? '', path, isGroup }];
    if (isGroup) {
      walk(def.children!, path, req, chain, top, out);
    } else {
      out.push({
        path,
        title: def.title ?? '',
        hidden: !!def.hidden,
        noCache: !!def.noCache,
        affix: !!def.affix,
        tagName: def.tagName,
        digitParams: def.digitParams ?? [],
        badge: def.badge,
        requirement: req,
        group: top,
        area: GROUP_AREAS[top] ?? 'workflow',
        crumbs: chain,
        menu: def.menu ? joinPath(parentPath, def.menu) : path,
        newTitle: def.newTitle,
      });
    }
  }
}

/** Every page of the table, with its full path and everything derived from its ancestors. */
export function flattenRoutes(table: readonly RouteDef[] = ROUTE_TABLE): FlatRoute[] {
  const out: FlatRoute[] = [];
  walk(table, '', [], [], null, out);
  return out;
}

export const FLAT_ROUTES: readonly FlatRoute[] = flattenRoutes();

const BY_PATH = new Map(FLAT_ROUTES.map((r) => [r.path, r]));

/** The page with exactly this path pattern; throws for an unknown one (a typo in a permission is a bug). */
export function pageRoute(pattern: string): FlatRoute {
  const r = BY_PATH.get(pattern);
  if (!r) throw new Error(`Unknown page in the route table: ${pattern}`);
  return r;
}

/** Whether a user with these roles passes a requirement (admin and role 1 pass everything). */
export function canAccess(roles: readonly string[], requirement: RoleRequirement): boolean {
  if (isSuperUser(roles)) return true;
  return requirement.every((anyOf) => anyOf.some((r) => roles.includes(r)));
}

/** SPEC section 6: keep only the routes a user may see, recursively; routes without roles are open. */
export function filterRoutes(table: readonly RouteDef[], roles: readonly string[]): RouteDef[] {
  const out: RouteDef[] = [];
  for (const def of table) {
    if (def.roles && !canAccess(roles, [def.roles])) continue;
    if (def.children) {
      const children = filterRoutes(def.children, roles);
      if (children.length === 0) continue;
      out.push({ ...def, children });
    } else {
      out.push(def);
    }
  }
  return out;
}

/** The pages a user may open. */
export function accessibleRoutes(roles: readonly string[]): FlatRoute[] {
  return FLAT_ROUTES.filter((r) => canAccess(roles, r.requirement));
}

function patternToRegExp(route: FlatRoute): RegExp {
  const src = route.path
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const name = seg.slice(1);
      return route.digitParams.includes(name) ? '(\\d+)' : '([^/]+)';
    })
    .join('/');
  return new RegExp(`^${src}/?$`);
}

const MATCHERS = FLAT_ROUTES.map((r) => ({ route: r, re: patternToRegExp(r), names: r.path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1)) }));

export interface RouteMatch {
  route: FlatRoute;
  params: Record<string, string>;
}

/** The page a concrete pathname opens, with its parameters; null for an unknown path. */
export function matchRoute(pathname: string): RouteMatch | null {
  // Static paths win over parameter paths (project/add before project/detail/:id style clashes).
  let best: RouteMatch | null = null;
  for (const m of MATCHERS) {
    const hit = m.re.exec(pathname);
    if (!hit) continue;
    const params: Record<string, string> = {};
    m.names.forEach((n, i) => (params[n] = decodeURIComponent(hit[i + 1]!)));
    if (m.names.length === 0) return { route: m.route, params };
    if (!best) best = { route: forParams(m.route, params), params };
  }
  return best;
}

/** A page opened with the empty id creates: it names itself so (新增用户), in its tag, breadcrumb and title. */
function forParams(route: FlatRoute, params: Record<string, string>): FlatRoute {
  if (!route.newTitle || !Object.values(params).includes(EMPTY_ID)) return route;
  const title = route.newTitle;
  return { ...route, title, crumbs: route.crumbs.map((c, i) => (i === route.crumbs.length - 1 ? { ...c, title } : c)) };
}

/** The first page of a module that a user may open and that shows in the menu. */
export function firstAccessiblePage(group: string, roles: readonly string[]): string | null {
  const r = FLAT_ROUTES.find((p) => p.group === group && !p.hidden && !p.path.includes(':') && canAccess(roles, p.requirement));
  return r?.path ?? null;
}

/** Where a module's top-menu entry leads: its redirect when the user may open it, else its first page. */
export function groupTarget(def: RouteDef, roles: readonly string[]): string | null {
  if (def.redirect) {
    const m = matchRoute(def.redirect);
    if (m && canAccess(roles, m.route.requirement)) return def.redirect;
  }
  return firstAccessiblePage(def.path, roles);
}

const has = (roles: readonly string[], codes: readonly string[]) => codes.some((c) => roles.includes(c));

/**
 * SPEC section 2, role-based landing redirects, in the spec's order; null means the dashboard.
 * Role `admin` is treated as role 1 here.
 */
export function landingPath(input: readonly string[]): string | null {
  const roles = input.includes('admin') ? [...input, '1'] : input;
  if (roles.includes('15') && !has(roles, ['1', '4', '5', '6', '7', '8', '9'])) return '/tender/personnel-certificate/collect';
  const costRoles = ['1', '16', '17', '18', '19', '20', '21', '22'];
  if (has(roles, costRoles) && !has(roles, ['1', '16', '17', '18', '19'])) return '/cost-management/examine';
  if (roles.includes('23') && !has(roles, ['1', '6', '9'])) return '/tender/file/certificate-file-export2';
  return null;
}

/**
 * The permission of an API route derived from the pages that use it: a caller passes when it may
 * open at least one of them.
 */
export function requirementForPages(patterns: readonly string[]): RoleRequirement[] {
  return patterns.map((p) => pageRoute(p).requirement);
}

export function canAccessAny(roles: readonly string[], requirements: readonly RoleRequirement[]): boolean {
  return requirements.some((req) => canAccess(roles, req));
}
