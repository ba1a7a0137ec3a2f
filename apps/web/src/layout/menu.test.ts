import { describe, expect, it } from 'vitest';
import { EMPTY_COUNTS } from '../stores/badges';
import { EMPTY_ID, FLAT_ROUTES } from '@zhyy/shared';
import { locate, openKeysFor, sideMenu, topMenu } from './menu';

const titles = (roles: string[]) => topMenu(roles).map((e) => e.title);

describe('top menu (SPEC section 2)', () => {
  it('admin sees every module', () => {
    expect(titles(['admin'])).toEqual(['工作台', '销项发票', '进项管理', '费用报销', '成本管理', '投标管理', '系统管理']);
  });

  it('demo5 (role 5) sees 销项发票 and not 系统管理', () => {
    const t = titles(['5']);
    expect(t).toContain('销项发票');
    expect(t).not.toContain('系统管理');
    expect(t).not.toContain('进项管理');
  });

  it('each module links to its redirect target, or its first page the user may open', () => {
    const admin = topMenu(['admin']);
    expect(admin.find((e) => e.key === '/invoice')?.target).toBe('/invoice/invoiceaccount/invoice-list');
    expect(admin.find((e) => e.key === '/')?.target).toBe('/dashboard');
    expect(topMenu(['20']).find((e) => e.key === '/cost')?.target).toBe('/cost-management/examine');
  });
});

describe('sidebar (SPEC sections 2 and 9)', () => {
  it('shows the visible pages of one module with 99+ badges', () => {
    const counts = { ...EMPTY_COUNTS, requestBillingCount: 60, requestDigitalElectricInvoiceCount: 50, cancellationCount: 3 };
    const menu = sideMenu('/invoice', ['5'], counts);
    const nuonuo = menu.find((e) => e.key === '/invoice/nuonuo');
    const billing = nuonuo?.children?.find((e) => e.title === '一键开票');
    expect(billing?.badge).toBe('99+');
    expect(nuonuo?.children?.find((e) => e.title === '税控作废')?.badge).toBe('3');
    expect(nuonuo?.children?.find((e) => e.title === '开票重试')?.badge).toBe('');
    // Hidden pages do not show.
    expect(JSON.stringify(menu)).not.toContain('红字确认单');
  });

  it('role 11 does not see the write-only groups', () => {
    const keys = sideMenu('/invoice', ['11'], EMPTY_COUNTS).map((e) => e.key);
    expect(keys).toEqual(['/invoice/invoiceaccount']);
  });

  it('the in-transit badge carries the 在途 prefix', () => {
    const menu = sideMenu('/', ['5'], { ...EMPTY_COUNTS, Todolist_Runing: 4, Todolist_EmpWorks: 120 });
    expect(menu.find((e) => e.key === '/flow/zonghesearch')?.badge).toBe('在途4');
    expect(menu.find((e) => e.key === '/flow/todolist')?.badge).toBe('99+');
  });

  it('locates a page, through /redirect too, and opens its sub-groups', () => {
    expect(locate('/invoice-entry/list')).toEqual({ group: '/income', page: '/invoice-entry/list' });
    expect(locate('/redirect/income/invoicePool/abnormal')).toEqual({ group: '/income', page: '/income/invoicePool/abnormal' });
    expect(locate('/nowhere')).toBeNull();
  });

  it('highlights a hidden page\'s list page in the sidebar (issue 12 item 11)', () => {
    expect(locate(`/system/edituser/${EMPTY_ID}`)).toEqual({ group: '/system', page: '/system/userlist' });
    expect(locate('/system/edituser/3b1c6e9a-0000-4000-8000-000000000001')?.page).toBe('/system/userlist');
    expect(locate('/invoice/invoicesetting/buyeradd')?.page).toBe('/invoice/invoicesetting/buyerlist');
    expect(locate('/invoice/invoiceaccount/invoice-detail/abc')?.page).toBe('/invoice/invoiceaccount/invoice-list');
    expect(locate('/invoice/nuonuo/red-confirm-apply/edit/12')?.page).toBe('/invoice/nuonuo/red-confirm-apply');
    expect(locate('/reimbursement/revoke/add')?.page).toBe('/reimbursement/revoke/list');
    // Every hidden page names a menu item the sidebar shows (a visible page of the same module).
    for (const r of FLAT_ROUTES.filter((x) => x.hidden)) {
      const item = FLAT_ROUTES.find((x) => x.path === r.menu);
      expect(item && !item.hidden && item.group === r.group ? r.menu : `${r.path} -> ${r.menu}`).toBe(r.menu);
    }
    const menu = sideMenu('/income', ['admin'], EMPTY_COUNTS);
    expect(openKeysFor(menu, '/income/invoicePool/abnormal')).toEqual(['/income/invoicePool']);
  });
});
