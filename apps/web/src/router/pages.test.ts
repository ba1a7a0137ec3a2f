import { describe, expect, it } from 'vitest';
import { FLAT_ROUTES } from '@zhyy/shared';
import { AreaPendingPage, PAGES, pageFor, pendingPatterns } from './pages';

/**
 * The routes that still render the shared AreaPendingPage. This number only goes down: an area's
 * issue replaces its routes in PAGES and lowers it here.
 */
const STILL_PENDING = 0;

describe('page registry', () => {
  it(`${STILL_PENDING} of ${FLAT_ROUTES.length} routes still use the area pending page`, () => {
    expect(FLAT_ROUTES).toHaveLength(104); // 104: 系统管理 / 申报日历 (issue 29 item 9)
    expect(pendingPatterns()).toHaveLength(STILL_PENDING);
  });

  it('every registered page is a route of the shared table', () => {
    const known = new Set(FLAT_ROUTES.map((r) => r.path));
    expect(Object.keys(PAGES).filter((p) => !known.has(p))).toEqual([]);
  });

  it('every route of the table has its page; only a path outside it falls back to the pending page', () => {
    expect(pageFor('/dashboard')).not.toBe(AreaPendingPage);
    expect(pageFor('/system/userlist')).not.toBe(AreaPendingPage);
    expect(pageFor('/cost-management/account')).not.toBe(AreaPendingPage);
    expect(pageFor('/tender/contract/list')).not.toBe(AreaPendingPage);
    expect(pageFor('/tender/file/performance-check')).not.toBe(AreaPendingPage);
    expect(pageFor('/tender/file/file-export-log')).not.toBe(AreaPendingPage);
    expect(pageFor('/tender/file/certificate-file-export2')).not.toBe(AreaPendingPage);
    expect(pageFor('/no/such/page')).toBe(AreaPendingPage);
    expect(pendingPatterns()).not.toContain('/dashboard');
  });
});
