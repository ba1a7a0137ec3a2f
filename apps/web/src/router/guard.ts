/**
 * SPEC sections 2 and 4: the navigation guard as a pure function. The root loader applies it,
 * loading the user info when it asks to and asking again.
 */
import { PUBLIC_PATHS, PUBLIC_PATH_PREFIXES, canAccess, landingPath, matchRoute, type RouteMatch } from '@zhyy/shared';

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const DASHBOARD_PATH = '/dashboard';
export const REDIRECT_PREFIX = '/redirect/';

export type GuardDecision =
  /** `forbidden`: a page of the table that these roles may not open; the layout says so in place of the page. */
  | { type: 'allow'; match: RouteMatch | null; forbidden?: true }
  | { type: 'redirect'; to: string }
  | { type: 'loadUserInfo' };

export interface GuardInput {
  pathname: string;
  search: string;
  token: string;
  roles: readonly string[];
}

export function isPublicPath(pathname: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(pathname) || PUBLIC_PATH_PREFIXES.some((p) => pathname.startsWith(p));
}

/** Where '/' leads for these roles: the three landing rules, else the dashboard. */
export function homeFor(roles: readonly string[]): string {
  return landingPath(roles) ?? DASHBOARD_PATH;
}

/** A redirect target from a query string, only when it is a path on this site. */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  if (target === LOGIN_PATH || target.startsWith(`${LOGIN_PATH}?`)) return null;
  return target;
}

export function loginRedirect(pathname: string, search: string): string {
  if (pathname === '/' || pathname === '') return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(pathname + search)}`;
}

export function decide({ pathname, search, token, roles }: GuardInput): GuardDecision {
  if (isPublicPath(pathname)) {
    if (token && pathname === LOGIN_PATH) return { type: 'redirect', to: '/' };
    return { type: 'allow', match: null };
  }
  if (!token) return { type: 'redirect', to: loginRedirect(pathname, search) };
  if (roles.length === 0) return { type: 'loadUserInfo' };
  if (pathname === '/' || pathname === '') return { type: 'redirect', to: homeFor(roles) };
  if (pathname.startsWith(REDIRECT_PREFIX)) return { type: 'allow', match: null };
  const match = matchRoute(pathname);
  // Unknown paths, and digit-only parameters with other characters, are not pages.
  if (!match) return { type: 'redirect', to: NOT_FOUND_PATH };
  // A page the roles do not open is shown inside the layout (menus and all) as 无权访问 (issue 31).
  if (!isOpenTo(roles, match)) return { type: 'allow', match, forbidden: true };
  return { type: 'allow', match };
}

/** Whether these roles may open the matched page (the layout shows 无权访问 in its place otherwise). */
export function isOpenTo(roles: readonly string[], match: RouteMatch): boolean {
  return canAccess(roles, match.route.requirement);
}
