/** SPEC section 9: badge text. Navbar badges cap at 9 (9+), sidebar badges at 99 (99+); 0 hides the badge. */
import { IN_TRANSIT_PREFIX, NAVBAR_BADGE_CAP, SIDEBAR_BADGE_CAP } from './constants.js';

/** The text of a badge, or '' when it is hidden (0, negative or not a number). */
export function badgeText(count: number | null | undefined, cap: number): string {
  const n = Number(count);
  if (!Number.isFinite(n) || n <= 0) return '';
  return n > cap ? `${cap}+` : String(Math.floor(n));
}

export const navbarBadgeText = (count: number | null | undefined) => badgeText(count, NAVBAR_BADGE_CAP);
export const sidebarBadgeText = (count: number | null | undefined) => badgeText(count, SIDEBAR_BADGE_CAP);

/** The in-transit badge: "在途" before the sidebar text, hidden at 0. */
export function inTransitBadgeText(count: number | null | undefined): string {
  const t = sidebarBadgeText(count);
  return t ? `${IN_TRANSIT_PREFIX}${t}` : '';
}
