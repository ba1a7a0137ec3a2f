/**
 * Issue 16: the cost calls go to the contract's paths with the contract's bodies; a change (an audit, an
 * invalidation, a closing …) fires the counts refresh that reloads the 待审核成本单 badge, while a read (the
 * queue, 测试连接) does not; the badge's count (cost-todo-data) and the project choices fail silently.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNTS_REFRESH_EVENT } from '../live/events';
import { hooks } from './clients';
import { costOrderApi, costPriceApi, costSettingApi } from './cost';

const answer = (r: unknown) => new Response(JSON.stringify({ code: 20000, message: '操作成功', r }), { headers: { 'Content-Type': 'application/json' } });
const refusal = () => new Response(JSON.stringify({ code: 30000, message: '权限不足' }), { headers: { 'Content-Type': 'application/json' } });
const settle = () => new Promise((r) => setTimeout(r, 10));
const sent = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([url, init]) => [url, JSON.parse(String((init as RequestInit).body))]);

describe('cost calls', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an audit or an invalidation refreshes the badge counts and answers the envelope; reading the queue does not', async () => {
    const heard = vi.fn();
    window.addEventListener(COUNTS_REFRESH_EVENT, heard);
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer({ done: 1, refused: [] }));
    await costOrderApi.toAuditList({ pageIndex: 1, pageSize: 20 });
    await settle();
    expect(heard).not.toHaveBeenCalled();
    const audited = await costOrderApi.audit({ ids: ['a'] });
    expect(audited).toMatchObject({ message: '操作成功', r: { done: 1, refused: [] } });
    await settle();
    expect(heard).toHaveBeenCalledTimes(1);
    await costOrderApi.invalidate({ ids: ['a', 'b'], reason: '重复' });
    await settle();
    expect(heard).toHaveBeenCalledTimes(2);
    await costSettingApi.testPms();
    await settle();
    expect(heard).toHaveBeenCalledTimes(2);
    window.removeEventListener(COUNTS_REFRESH_EVENT, heard);
    expect(sent(fetchSpy)).toEqual([
      ['/api/cost-order/to-audit-list', { pageIndex: 1, pageSize: 20 }],
      ['/api/cost-order/set-coststatus-audited', { ids: ['a'] }],
      ['/api/cost-order/set-coststatus-invalid', { ids: ['a', 'b'], reason: '重复' }],
      ['/api/cost-setting/pms-test', {}],
    ]);
  });

  it('settings, price and summary calls: paths and bodies of the contract', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer([]));
    await costSettingApi.close({ deptId: 'd1', month: '2031-01' });
    await costSettingApi.reopen({ deptId: 'd1', month: '2031-01', reason: '补录' });
    await costSettingApi.saveAuditors({ userId: 'u1', deptIds: ['d1', 'd2'] });
    await costSettingApi.closings({ month: '2031-01' });
    await costPriceApi.timeline({ itemCode: 'RG01', spec: '', unit: '工日' });
    await costPriceApi.remove({ id: 'p1' });
    await costOrderApi.summary({ monthFrom: '2031-01', monthTo: '2031-12' });
    await costOrderApi.closeCheck({ month: '2031-01', deptId: 'd1' });
    await costOrderApi.detail('o1');
    await costOrderApi.projects('XM');
    await costOrderApi.projects();
    expect(sent(fetchSpy)).toEqual([
      ['/api/cost-setting/close', { deptId: 'd1', month: '2031-01' }],
      ['/api/cost-setting/reopen', { deptId: 'd1', month: '2031-01', reason: '补录' }],
      ['/api/cost-setting/auditors-save', { userId: 'u1', deptIds: ['d1', 'd2'] }],
      ['/api/cost-setting/closings', { month: '2031-01' }],
      ['/api/cost-price/timeline', { itemCode: 'RG01', spec: '', unit: '工日' }],
      ['/api/cost-price/delete', { id: 'p1' }],
      ['/api/cost-order/summary', { monthFrom: '2031-01', monthTo: '2031-12' }],
      ['/api/cost-order/close-check', { month: '2031-01', deptId: 'd1' }],
      ['/api/cost-order/cost-order-detail', { id: 'o1' }],
      ['/api/cost-order/projects', { keyword: 'XM' }],
      ['/api/cost-order/projects', {}],
    ]);
  });

  it('the badge count and the project choices are silent on a refusal; a list read is toasted', async () => {
    const toast = vi.spyOn(hooks, 'showError').mockImplementation(() => undefined);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => refusal());
    await expect(costOrderApi.todo()).rejects.toThrow('权限不足');
    await expect(costOrderApi.projects()).rejects.toThrow('权限不足');
    expect(toast).not.toHaveBeenCalled();
    await expect(costOrderApi.toAuditList({ pageIndex: 1, pageSize: 20 })).rejects.toThrow('权限不足');
    expect(toast).toHaveBeenCalledTimes(1);
  });
});
