import { afterEach, describe, expect, it, vi } from 'vitest';
import { hooks, oaApi } from './clients';
import { loadPublicConfig } from './config';
import { COUNTS_REFRESH_EVENT } from '../live/events';
import { useSession } from '../stores/session';

describe('50008 handling (SPEC section 8)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('resets the token and reloads once, however many calls answer 50008', () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    useSession.getState().setToken('stale-token');
    hooks.onTokenInvalid();
    hooks.onTokenInvalid();
    hooks.onTokenInvalid();
    expect(useSession.getState().token).toBe('');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('sister-system clients', () => {
  afterEach(() => vi.restoreAllMocks());

  const answer = () => new Response(JSON.stringify({ code: 20000, r: 3 }), { headers: { 'Content-Type': 'application/json' } });
  const useConfig = (oaApiBaseUrl: string) => loadPublicConfig(async () => new Response(JSON.stringify({ code: 20000, r: { oaApiBaseUrl } })));

  it('send the session token to the same-origin simulator only, never to an outside system', async () => {
    useSession.getState().setToken('session-token');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer());
    await useConfig('/sim/oa');
    expect(await oaApi.get<number>('/todo-num/demo5', { silent: true })).toBe(3);
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(url).toBe('/sim/oa/todo-num/demo5');
    expect((init!.headers as Record<string, string>)['X-Token']).toBe('session-token');

    await useConfig('https://oa.example.com/api');
    await oaApi.get<number>('/todo-num/demo5', { silent: true });
    const [outsideUrl, outside] = fetchSpy.mock.calls[1]!;
    expect(outsideUrl).toBe('https://oa.example.com/api/todo-num/demo5');
    expect((outside!.headers as Record<string, string>)['X-Token']).toBeUndefined();
  });
});

describe('a change refreshes the badge counts at once (issue 12 #7)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a successful save on the main API fires the counts refresh event', async () => {
    const heard = vi.fn();
    window.addEventListener(COUNTS_REFRESH_EVENT, heard);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify({ code: 20000, r: { id: '1' }, message: '保存成功' })));
    const { api } = await import('./clients');
    await api.post('/invoice/list-for-creation', {});
    await new Promise((r) => setTimeout(r, 10));
    expect(heard).not.toHaveBeenCalled();
    await api.request('/invoice/save', {});
    await new Promise((r) => setTimeout(r, 10));
    expect(heard).toHaveBeenCalledTimes(1);
    window.removeEventListener(COUNTS_REFRESH_EVENT, heard);
  });
});
