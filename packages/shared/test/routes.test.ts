import { describe, expect, it } from 'vitest';
import {
  FLAT_ROUTES,
  ROUTE_TABLE,
  accessibleRoutes,
  canAccess,
  filterRoutes,
  groupTarget,
  landingPath,
  matchRoute,
  pageRoute,
  requirementForPages,
  canAccessAny,
} from '../src/index.js';

const topTitles = (roles: string[]) => filterRoutes(ROUTE_TABLE, roles).map((r) => r.title);

describe('SPEC section 2: the route table', () => {
  it('has every module of the spec with its roles', () => {
    const byPath = Object.fromEntries(ROUTE_TABLE.map((r) => [r.path, r]));
    expect(byPath['/']!.redirect).toBe('/dashboard');
    expect(byPath['/invoice']!.roles).toEqual(['1', '5', '11']);
    expect(byPath['/invoice']!.redirect).toBe('/invoice/invoiceaccount/invoice-list');
    expect(byPath['/tender']!.roles).toEqual(['1', '4', '5', '6', '7', '8', '9', '15', '23']);
    expect(byPath['/system']!.roles).toEqual(['1', '3']);
    expect(byPath['/reimbursement']!.roles).toBeUndefined();
    expect(byPath['/income']!.roles).toEqual(['1', '13', '14', '16']);
    expect(byPath['/cost']!.roles).toEqual(['1', '16', '17', '18', '19', '20', '21', '22']);
  });

  it('resolves relative and absolute child paths', () => {
    const paths = FLAT_ROUTES.map((r) => r.path);
    for (const p of [
      '/dashboard',
      '/flow/todolist',
      '/assistant/personalsetting',
      '/invoice/nuonuo/invoice-request-billing',
      '/invoice/nuonuo/red-confirm-apply/edit/:id',
      '/invoice/invoiceaccount/invoice-upload/:id',
      '/invoice/invoicesetting/buyeredit/:id',
      '/tender/contract/addcf/:contractType/:id',
      '/tender/personnel-certificate/collect',
      '/tender/file/certificate-file-export2',
      '/tender/setting/edit',
      '/system/geolocation',
      '/system/report/todo-time-consuming',
      '/system/useronline/list',
      '/my/reimbursement/detail/:id',
      '/reimbursement/nuonuo/reimbursement/apply/list',
      '/reimbursement/revoke/list',
      '/reimbursement/detail/:id',
      '/invoice-entry/sign/list',
      '/invoice/deduction/deduction/list',
      '/invoice/tax-rebate/list',
      '/income/invoice/log',
      '/income/invoicePool/abnormal',
      '/cost-management/account',
      '/cost-management/examine',
      '/costmanagement/setting',
    ]) {
      expect(paths).toContain(p);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('the red-confirm edit id accepts digits only', () => {
    expect(matchRoute('/invoice/nuonuo/red-confirm-apply/edit/123')?.params).toEqual({ id: '123' });
    expect(matchRoute('/invoice/nuonuo/red-confirm-apply/edit/12a')).toBeNull();
    expect(matchRoute('/no/such/page')).toBeNull();
  });

  it('static paths win over parameter paths', () => {
    expect(matchRoute('/tender/project/add')?.route.path).toBe('/tender/project/add');
    expect(matchRoute('/tender/project')?.route.path).toBe('/tender/project');
    expect(matchRoute('/tender/project/detail/abc')?.params).toEqual({ id: 'abc' });
  });

  it('pages know their module, so /invoice/deduction belongs to 进项管理', () => {
    expect(pageRoute('/invoice/deduction/deduction/list').group).toBe('/income');
    expect(pageRoute('/invoice/deduction/deduction/list').area).toBe('income');
    expect(pageRoute('/cost-management/examine').group).toBe('/cost');
    expect(pageRoute('/invoice/invoiceaccount/invoice-list').crumbs.map((c) => c.title)).toEqual(['销项发票', '销项发票台账', '发票台账']);
    expect(pageRoute('/dashboard').crumbs.map((c) => c.title)).toEqual(['工作台']);
  });
});

describe('SPEC section 6: filtering by role', () => {
  it('admin and role 1 see every module', () => {
    const all = ['工作台', '销项发票', '进项管理', '费用报销', '成本管理', '投标管理', '系统管理'];
    expect(topTitles(['admin'])).toEqual(all);
    expect(topTitles(['1'])).toEqual(all);
    expect(accessibleRoutes(['admin'])).toHaveLength(FLAT_ROUTES.length);
  });

  it('routes without roles are open; filtering is recursive', () => {
    expect(topTitles(['5'])).toEqual(['工作台', '销项发票', '费用报销', '投标管理']);
    const reimbursement = filterRoutes(ROUTE_TABLE, ['5']).find((r) => r.path === '/reimbursement')!;
    expect(reimbursement.children!.map((c) => c.title)).toEqual(['我的报销', '我的报销详情']);
  });

  it('role 11 reads the ledgers but cannot upload', () => {
    const pages = accessibleRoutes(['11']).map((r) => r.path);
    expect(pages).toContain('/invoice/invoiceaccount/invoice-list');
    expect(pages).not.toContain('/invoice/invoiceaccount/invoice-upload/:id');
    expect(pages).not.toContain('/invoice/nuonuo/invoice-request-billing');
  });

  it('every ancestor must be satisfied', () => {
    const upload = pageRoute('/invoice/invoiceaccount/invoice-upload/:id');
    expect(upload.requirement).toEqual([['1', '5', '11'], ['1', '5', '11'], ['1', '5']]);
    expect(canAccess(['11'], upload.requirement)).toBe(false);
    expect(canAccess(['5'], upload.requirement)).toBe(true);
    expect(canAccess([], pageRoute('/reimbursement/my-reimbursement-list').requirement)).toBe(true);
  });

  it('an API route used by several pages admits anyone who may open one of them', () => {
    const reqs = requirementForPages(['/system/userlist', '/system/useronline/list']);
    expect(canAccessAny(['3'], reqs)).toBe(true);
    expect(canAccessAny(['5'], reqs)).toBe(false);
    expect(() => requirementForPages(['/system/nope'])).toThrow();
  });

  it('the top menu links to the redirect target, or the first page the user may open', () => {
    const invoice = ROUTE_TABLE.find((r) => r.path === '/invoice')!;
    expect(groupTarget(invoice, ['5'])).toBe('/invoice/invoiceaccount/invoice-list');
    const cost = ROUTE_TABLE.find((r) => r.path === '/cost')!;
    expect(groupTarget(cost, ['20'])).toBe('/cost-management/examine');
    expect(groupTarget(cost, ['18'])).toBe('/cost-management/account');
  });
});

describe('SPEC section 2: role-based landing redirects', () => {
  it('a tender user with only role 15 lands on the certificate collection', () => {
    expect(landingPath(['15'])).toBe('/tender/personnel-certificate/collect');
    expect(landingPath(['15', '6'])).toBeNull();
    expect(landingPath(['15', '1'])).toBeNull();
  });
  it('a cost user without any of 1,16,17,18,19 lands on the audit list', () => {
    expect(landingPath(['20'])).toBe('/cost-management/examine');
    expect(landingPath(['21', '22'])).toBe('/cost-management/examine');
    expect(landingPath(['20', '17'])).toBeNull();
    expect(landingPath(['16'])).toBeNull();
  });
  it('a tender user with role 23 and none of 1,6,9 lands on the certificate export', () => {
    expect(landingPath(['23'])).toBe('/tender/file/certificate-file-export2');
    expect(landingPath(['23', '9'])).toBeNull();
  });
  it('everyone else lands on the dashboard', () => {
    expect(landingPath(['5'])).toBeNull();
    expect(landingPath(['admin'])).toBeNull();
    expect(landingPath([])).toBeNull();
  });
});
