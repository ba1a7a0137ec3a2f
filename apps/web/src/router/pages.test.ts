import { describe, expect, it } from 'vitest';
import { FLAT_ROUTES } from '@zhyy/shared';
import { AreaPendingPage, PAGES, pageFor, pendingPatterns } from './pages';

/**
 * The routes that still render the shared AreaPendingPage. This number only goes down: an area's
 * issue replaces its routes in PAGES and lowers it here.
 */
const STILL_PENDING = 27;

describe('page registry', () => {
  it(`${STILL_PENDING} of ${FLAT_ROUTES.length} routes still use the area pending page`, () => {
    expect(FLAT_ROUTES).toHaveLength(103);
    expect(pendingPatterns()).toHaveLength(STILL_PENDING);
  });

  it('every registered page is a route of the shared table', () => {
    const known = new Set(FLAT_ROUTES.map((r) => r.path));
    expect(Object.keys(PAGES).filter((p) => !known.has(p))).toEqual([]);
  });

  it('the dashboard is real, the others default to the pending page', () => {
    expect(pageFor('/dashboard')).not.toBe(AreaPendingPage);
    expect(pageFor('/system/userlist')).not.toBe(AreaPendingPage);
    expect(pageFor('/cost-management/account')).not.toBe(AreaPendingPage);
    expect(pageFor('/tender/contract/list')).toBe(AreaPendingPage);
    expect(pendingPatterns()).not.toContain('/dashboard');
  });
});
