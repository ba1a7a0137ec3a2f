import { describe, expect, it } from 'vitest';
import { decide, homeFor, isPublicPath, safeRedirect, type GuardInput } from './guard';

const go = (pathname: string, token = 'tok', roles: string[] = ['admin'], search = ''): ReturnType<typeof decide> =>
  decide({ pathname, search, token, roles } satisfies GuardInput);

describe('route guard (SPEC sections 2 and 4)', () => {
  it('public paths need no token', () => {
    for (const p of ['/login', '/auth-redirect', '/404', '/file/view/eyJ9']) {
      expect(isPublicPath(p)).toBe(true);
      expect(go(p, '')).toEqual({ type: 'allow', match: null });
    }
    expect(isPublicPath('/dashboard')).toBe(false);
  });

  it('without a token every other path goes to /login, remembering where it was going', () => {
    expect(go('/dashboard', '')).toEqual({ type: 'redirect', to: '/login?redirect=%2Fdashboard' });
    expect(go('/invoice/invoiceaccount/invoice-list', '', [], '?page=2')).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2Finvoice%2Finvoiceaccount%2Finvoice-list%3Fpage%3D2',
    });
    expect(go('/', '')).toEqual({ type: 'redirect', to: '/login' });
    expect(go('/no/such/page', '')).toMatchObject({ type: 'redirect', to: expect.stringMatching(/^\/login/) as unknown });
  });

  it('a signed-in user opening /login goes to /', () => {
    expect(go('/login')).toEqual({ type: 'redirect', to: '/' });
  });

  it('a token without roles asks for the user info first', () => {
    expect(go('/dashboard', 'tok', [])).toEqual({ type: 'loadUserInfo' });
    expect(go('/', 'tok', [])).toEqual({ type: 'loadUserInfo' });
  });

  it('/ applies the landing rules, else the dashboard', () => {
    expect(go('/', 'tok', ['5'])).toEqual({ type: 'redirect', to: '/dashboard' });
    expect(go('/', 'tok', ['15'])).toEqual({ type: 'redirect', to: '/tender/personnel-certificate/collect' });
    expect(go('/', 'tok', ['20'])).toEqual({ type: 'redirect', to: '/cost-management/examine' });
    expect(go('/', 'tok', ['23'])).toEqual({ type: 'redirect', to: '/tender/file/certificate-file-export2' });
    expect(homeFor(['admin'])).toBe('/dashboard');
  });

  it('unknown paths and non-digit red-confirm ids go to /404', () => {
    expect(go('/no/such/page')).toEqual({ type: 'redirect', to: '/404' });
    expect(go('/invoice/nuonuo/red-confirm-apply/edit/12a')).toEqual({ type: 'redirect', to: '/404' });
    const ok = go('/invoice/nuonuo/red-confirm-apply/edit/123');
    expect(ok.type).toBe('allow');
    expect(ok.type === 'allow' && ok.match?.params).toEqual({ id: '123' });
  });

  it('a page the roles do not open is allowed as forbidden (the layout shows 无权访问 in its place)', () => {
    expect(go('/system/userlist', 'tok', ['5'])).toMatchObject({ type: 'allow', forbidden: true });
    expect(go('/tender/project', 'tok', ['6'])).toMatchObject({ type: 'allow', forbidden: true });
    expect(go('/invoice/invoiceaccount/invoice-list', 'tok', ['5'])).toMatchObject({ type: 'allow' });
    // Role 11 reads ledgers but may not upload.
    expect(go('/invoice/invoiceaccount/invoice-upload/1', 'tok', ['11'])).toMatchObject({ type: 'allow', forbidden: true });
    expect(go('/invoice/invoiceaccount/invoice-list', 'tok', ['5'])).not.toHaveProperty('forbidden');
    // Reimbursement pages without roles are open to all.
    expect(go('/reimbursement/my-reimbursement-list', 'tok', ['23'])).toMatchObject({ type: 'allow' });
  });

  it('/redirect/* is allowed through (its target is checked when it is opened)', () => {
    expect(go('/redirect/income/invoicePool/abnormal', 'tok', ['13'])).toEqual({ type: 'allow', match: null });
  });

  it('redirect targets must stay on this site', () => {
    expect(safeRedirect('/invoice/invoiceaccount/invoice-list?x=1')).toBe('/invoice/invoiceaccount/invoice-list?x=1');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('/\\evil.example')).toBeNull();
    expect(safeRedirect('/login')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });
});
