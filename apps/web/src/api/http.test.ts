import { describe, expect, it, vi } from 'vitest';
import { ERROR_TOAST_MS, NO_SHOW_ERROR_HEADER, REQUEST_TIMEOUT_MS, TOKEN_HEADER } from '@zhyy/shared';
import { ApiError } from './errors';
import { createHttpClient, type HttpHooks } from './http';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup(answer: (url: string, init: RequestInit) => Response | Promise<Response>, extra: { workflow?: boolean; token?: string } = {}) {
  const hooks: HttpHooks = {
    getToken: () => extra.token,
    onTokenInvalid: vi.fn(),
    onNeedChangePassword: vi.fn(),
    showError: vi.fn(),
  };
  const fetchMock = vi.fn((url: string | URL | Request, init?: RequestInit) => Promise.resolve(answer(String(url), init ?? {})));
  const client = createHttpClient({ baseUrl: () => '/api', hooks, workflow: extra.workflow, fetch: fetchMock as unknown as typeof fetch });
  return { client, hooks, fetchMock };
}

describe('http client: SPEC section 8', () => {
  it('20000 resolves with r and sends POST JSON with the X-Token header', async () => {
    const { client, fetchMock, hooks } = setup(() => json({ code: 20000, r: { a: 1 } }), { token: 'tok' });
    await expect(client.post('/x', { q: 1 })).resolves.toEqual({ a: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"q":1}');
    expect((init?.headers as Record<string, string>)[TOKEN_HEADER]).toBe('tok');
    expect(hooks.showError).not.toHaveBeenCalled();
  });

  it('omits X-Token without a token', async () => {
    const { client, fetchMock } = setup(() => json({ code: 20000 }));
    await client.post('/x');
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>)[TOKEN_HEADER]).toBeUndefined();
  });

  it('30000 toasts the message for 5000 ms and rejects', async () => {
    const { client, hooks } = setup(() => json({ code: 30000, message: '发票已作废' }, 409));
    const err = await client.post('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(30000);
    expect((err as ApiError).message).toBe('发票已作废');
    expect(hooks.showError).toHaveBeenCalledWith('发票已作废', ERROR_TOAST_MS);
    expect(ERROR_TOAST_MS).toBe(5000);
  });

  it('30000 stays quiet with X-ZB-NoShowError: 1', async () => {
    const { client, hooks, fetchMock } = setup(() => json({ code: 30000, message: '不显示' }));
    await expect(client.post('/x', {}, { noShowError: true })).rejects.toThrow('不显示');
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>)[NO_SHOW_ERROR_HEADER]).toBe('1');
    expect(hooks.showError).not.toHaveBeenCalled();
  });

  it('50008 resets the token (and reloads) without a toast', async () => {
    const { client, hooks } = setup(() => json({ code: 50008, message: '登录已失效' }, 401));
    await expect(client.post('/x')).rejects.toMatchObject({ code: 50008 });
    expect(hooks.onTokenInvalid).toHaveBeenCalledTimes(1);
    expect(hooks.showError).not.toHaveBeenCalled();
  });

  it('50008 at work (issue 31): waits for the user to sign in again over the page, then sends the same call with the new token', async () => {
    let token = 'old';
    const { client, hooks, fetchMock } = setup((_url, init) =>
      (init.headers as Record<string, string>)[TOKEN_HEADER] === 'old' ? json({ code: 50008, message: '您已被管理员强制下线' }, 401) : json({ code: 20000, message: '草稿已保存', r: { id: 'b1' } }),
    );
    hooks.getToken = () => token;
    hooks.reauthenticate = vi.fn(async (reason?: string) => {
      expect(reason).toBe('您已被管理员强制下线');
      token = 'new';
      return true;
    });
    await expect(client.request('/bill/save', { reason: '出差' })).resolves.toMatchObject({ r: { id: 'b1' } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[1]![1]?.body).toBe('{"reason":"出差"}');
    expect(hooks.onTokenInvalid).not.toHaveBeenCalled();
  });

  it('50008 when the user leaves the dialog (or meets 50008 again): the token is reset as before', async () => {
    const { client, hooks, fetchMock } = setup(() => json({ code: 50008, message: '登录已失效' }, 401), { token: 't' });
    hooks.reauthenticate = vi.fn(async () => false);
    await expect(client.post('/x')).rejects.toMatchObject({ code: 50008 });
    expect(hooks.onTokenInvalid).toHaveBeenCalledTimes(1);
    hooks.reauthenticate = vi.fn(async () => true);
    await expect(client.post('/x')).rejects.toMatchObject({ code: 50008 });
    expect(hooks.reauthenticate).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(hooks.onTokenInvalid).toHaveBeenCalledTimes(2);
  });

  it('50010 raises the change-password flag', async () => {
    const { client, hooks } = setup(() => json({ code: 50010, message: '首次登录请修改初始密码' }, 403));
    await expect(client.post('/x')).rejects.toMatchObject({ code: 50010 });
    expect(hooks.onNeedChangePassword).toHaveBeenCalledTimes(1);
    expect(hooks.onTokenInvalid).not.toHaveBeenCalled();
  });

  it('50011 toasts the lock message', async () => {
    const text = '密码错误次数过多，账号已锁定至 2026-11-21 10:15，请稍后再试';
    const { client, hooks } = setup(() => json({ code: 50011, message: text }, 429));
    await expect(client.post('/x')).rejects.toMatchObject({ code: 50011 });
    expect(hooks.showError).toHaveBeenCalledWith(text, 5000);
  });

  it('a network failure rejects (and toasts unless silent)', async () => {
    const { client, hooks } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.post('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(hooks.showError).toHaveBeenCalledTimes(1);
    await expect(client.post('/x', {}, { silent: true })).rejects.toMatchObject({ kind: 'network' });
    expect(hooks.showError).toHaveBeenCalledTimes(1);
  });

  it('silent calls swallow business errors without a toast', async () => {
    const { client, hooks } = setup(() => json({ code: 40400, message: '请求的接口不存在' }, 404));
    await expect(client.post('/x', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(hooks.showError).not.toHaveBeenCalled();
  });

  it('times out after 120000 ms', async () => {
    vi.useFakeTimers();
    try {
      const { client, hooks } = setup(
        (_url, init) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const p = client.post('/slow').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(hooks.showError).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await p).toMatchObject({ kind: 'timeout' });
      expect(REQUEST_TIMEOUT_MS).toBe(120000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a blob through as is', async () => {
    const bytes = new Uint8Array([80, 75, 3, 4]);
    const { client } = setup(() => new Response(bytes, { headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } }));
    const blob = await client.blob('/export');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
  });

  it('a JSON answer to a blob request is handled as an envelope', async () => {
    const { client, hooks } = setup(() => json({ code: 30000, message: '没有可导出的数据' }));
    await expect(client.blob('/export')).rejects.toThrow('没有可导出的数据');
    expect(hooks.showError).toHaveBeenCalledWith('没有可导出的数据', 5000);
  });

  it('a workflow string answer with err@ toasts the text after the marker', async () => {
    const { client, hooks } = setup(() => json('err@流程已被撤回'), { workflow: true });
    await expect(client.post('/todo')).rejects.toMatchObject({ kind: 'workflow', message: '流程已被撤回' });
    expect(hooks.showError).toHaveBeenCalledWith('流程已被撤回', 5000);
  });

  it('a plain-text err@ answer counts too, and err@ is ignored on the main API', async () => {
    const wf = setup(() => new Response('发送失败err@节点不存在', { headers: { 'Content-Type': 'text/plain' } }), { workflow: true });
    await expect(wf.client.post('/send')).rejects.toThrow('节点不存在');
    const main = setup(() => json('err@x'));
    await expect(main.client.post('/x')).resolves.toBe('err@x');
  });

  it('reads the envelope from a 500 answer, and a non-JSON 502 rejects with the status', async () => {
    const a = setup(() => json({ code: 50000, message: '服务器内部错误，请稍后重试' }, 500));
    await expect(a.client.post('/x')).rejects.toThrow('服务器内部错误，请稍后重试');
    const b = setup(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(b.client.post('/x')).rejects.toMatchObject({ kind: 'http', status: 502 });
  });

  it('GET sends no body', async () => {
    const { client, fetchMock } = setup(() => json({ code: 20000, r: 3 }));
    await expect(client.get('/todo-num/u1')).resolves.toBe(3);
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('GET');
    expect(fetchMock.mock.calls[0]![1]?.body).toBeUndefined();
  });

  it('a successful change (request) tells onChanged once; a read (post/get) or a refused change does not (issue 12 #7)', async () => {
    const onChanged = vi.fn();
    let answer = json({ code: 20000, r: { id: '1' }, message: '保存成功' });
    const fetchMock = vi.fn(() => Promise.resolve(answer.clone()));
    const client = createHttpClient({
      baseUrl: () => '/api',
      hooks: { getToken: () => undefined, onTokenInvalid: vi.fn(), onNeedChangePassword: vi.fn(), showError: vi.fn(), onChanged },
      fetch: fetchMock as unknown as typeof fetch,
    });
    await client.post('/invoice/list', {});
    await client.get('/todo-num/u1');
    expect(onChanged).not.toHaveBeenCalled();
    await client.request('/invoice/save', {});
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(onChanged).toHaveBeenCalledWith('/invoice/save');
    answer = json({ code: 30000, message: '发票已作废' }, 409);
    await expect(client.request('/invoice/save', {})).rejects.toThrow('发票已作废');
    expect(onChanged).toHaveBeenCalledTimes(1);
  });
});
