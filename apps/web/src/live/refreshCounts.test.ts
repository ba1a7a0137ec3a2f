import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { useBadges } from '../stores/badges';

const api = {
  fetchWorkflowTodo: vi.fn(),
  fetchInvoiceCounts: vi.fn(),
  fetchCostTodo: vi.fn(),
  fetchOaTodo: vi.fn(),
  fetchPmsTodo: vi.fn(),
  fetchUnreadMessages: vi.fn(),
};
vi.mock('../api/live', () => api);
let config = { oaApiBaseUrl: '', pmsApiBaseUrl: '' };
vi.mock('../api/config', () => ({ publicConfig: () => config }));

const { countSources, refreshCounts } = await import('./refreshCounts');

const handlers = () => ({ onTodoItems: vi.fn(), onInvoiceCounts: vi.fn() });

describe('count refresh (SPEC section 7 "Refresh")', () => {
  beforeEach(() => {
    useBadges.getState().reset();
    Object.values(api).forEach((f) => f.mockReset());
    api.fetchUnreadMessages.mockResolvedValue({ unread: 0 });
    config = { oaApiBaseUrl: '', pmsApiBaseUrl: '' };
  });

  it('fills the badges from every source and hands on new to-do items and the abnormal count', async () => {
    config = { oaApiBaseUrl: '/sim/oa', pmsApiBaseUrl: '/sim/pms' };
    api.fetchWorkflowTodo.mockResolvedValue({ Todolist_EmpWorks: 3, Todolist_Runing: 2, items: [{ WorkID: 1, Title: 'x' }] });
    api.fetchInvoiceCounts.mockResolvedValue({ requestBillingCount: 4, abnormalInvoicePoolCount: 6 });
    api.fetchCostTodo.mockResolvedValue({ toAudit: 5 });
    api.fetchOaTodo.mockResolvedValue(12);
    api.fetchPmsTodo.mockResolvedValue(1);
    api.fetchUnreadMessages.mockResolvedValue({ unread: 120 });
    const h = handlers();
    await refreshCounts('demo1', ['admin'], h);
    const s = useBadges.getState();
    expect(s.counts).toMatchObject({ Todolist_EmpWorks: 3, Todolist_Runing: 2, requestBillingCount: 4, toAudit: 5 });
    expect(s).toMatchObject({ oaTodo: 12, pmsTodo: 1, unreadMessages: 120, workflowAvailable: true });
    expect(h.onTodoItems).toHaveBeenCalledWith([{ WorkID: 1, Title: 'x' }]);
    expect(h.onInvoiceCounts).toHaveBeenCalledWith(6);
    expect(api.fetchOaTodo).toHaveBeenCalledWith('demo1');
  });

  it('failures are silent and keep the other counts; the workflow service is marked unavailable', async () => {
    api.fetchWorkflowTodo.mockRejectedValue(new ApiError('network', '网络连接失败，请检查网络后重试'));
    api.fetchInvoiceCounts.mockRejectedValue(new Error('404'));
    api.fetchCostTodo.mockResolvedValue({ toAudit: 2 });
    await expect(refreshCounts('demo1', ['admin'], handlers())).resolves.toBeUndefined();
    expect(useBadges.getState().workflowAvailable).toBe(false);
    expect(useBadges.getState().counts.toAudit).toBe(2);
  });

  it('a refusal (50010 while the initial password must be changed) is not an outage (issue 12 #4)', async () => {
    api.fetchWorkflowTodo.mockRejectedValue(new ApiError('business', '首次登录请修改初始密码', { code: 50010, status: 403 }));
    await refreshCounts('newuser', ['7'], handlers());
    expect(useBadges.getState().workflowAvailable).not.toBe(false);
  });

  it('does not poll sister systems without a configured base URL, nor counts the user cannot see', async () => {
    api.fetchWorkflowTodo.mockResolvedValue({});
    await refreshCounts('demo23', ['23'], handlers());
    expect(api.fetchOaTodo).not.toHaveBeenCalled();
    expect(api.fetchInvoiceCounts).not.toHaveBeenCalled();
    expect(api.fetchCostTodo).not.toHaveBeenCalled();
  });

  it('count sources follow the pages with badges', () => {
    expect(countSources(['5'])).toEqual({ invoice: true, cost: false });
    expect(countSources(['20'])).toEqual({ invoice: false, cost: true });
    expect(countSources(['13'])).toEqual({ invoice: true, cost: false });
  });
});
