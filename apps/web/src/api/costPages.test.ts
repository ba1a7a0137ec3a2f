/**
 * Issue 16: the cost pages' calls go to the contract's paths with the contract's bodies, and an audit or an
 * invalidation (a change) fires the counts refresh that reloads the 待审核成本单 badge, while reading the
 * queue does not.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COUNTS_REFRESH_EVENT } from '../live/events';
import { costPagesApi } from './costPages';

const answer = (r: unknown) => new Response(JSON.stringify({ code: 20000, message: '操作成功', r }), { headers: { 'Content-Type': 'application/json' } });
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('cost page calls', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an audit or an invalidation refreshes the badge counts; reading the queue does not', async () => {
    const heard = vi.fn();
    window.addEventListener(COUNTS_REFRESH_EVENT, heard);
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer({ done: 1, refused: [] }));
    await costPagesApi.toAuditList({ pageIndex: 1, pageSize: 20 });
    await settle();
    expect(heard).not.toHaveBeenCalled();
    await costPagesApi.audit(['a']);
    await settle();
    expect(heard).toHaveBeenCalledTimes(1);
    await costPagesApi.invalidate(['a', 'b'], '重复');
    await settle();
    expect(heard).toHaveBeenCalledTimes(2);
    window.removeEventListener(COUNTS_REFRESH_EVENT, heard);
    const calls = fetchSpy.mock.calls.map(([url, init]) => [url, JSON.parse(String(init!.body))]);
    expect(calls).toEqual([
      ['/api/cost-order/to-audit-list', { pageIndex: 1, pageSize: 20 }],
      ['/api/cost-order/set-coststatus-audited', { ids: ['a'] }],
      ['/api/cost-order/set-coststatus-invalid', { ids: ['a', 'b'], reason: '重复' }],
    ]);
  });

  it('settings calls: paths and bodies of the contract', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer([]));
    await costPagesApi.close('d1', '2031-01');
    await costPagesApi.reopen('d1', '2031-01', '补录');
    await costPagesApi.saveAuditor('u1', ['d1', 'd2']);
    await costPagesApi.priceTimeline({ itemCode: 'RG01', spec: '', unit: '工日' });
    await costPagesApi.summary({ monthFrom: '2031-01', monthTo: '2031-12' });
    expect(fetchSpy.mock.calls.map(([url, init]) => [url, JSON.parse(String(init!.body))])).toEqual([
      ['/api/cost-setting/close', { deptId: 'd1', month: '2031-01' }],
      ['/api/cost-setting/reopen', { deptId: 'd1', month: '2031-01', reason: '补录' }],
      ['/api/cost-setting/auditors-save', { userId: 'u1', deptIds: ['d1', 'd2'] }],
      ['/api/cost-price/timeline', { itemCode: 'RG01', spec: '', unit: '工日' }],
      ['/api/cost-order/summary', { monthFrom: '2031-01', monthTo: '2031-12' }],
    ]);
  });
});
