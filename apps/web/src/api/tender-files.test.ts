/** The raw upload: octet-stream with the token and the owner in the query, progress, the answer read like any call (refusal → ApiError and a toast). */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const hooks = vi.hoisted(() => ({ getToken: vi.fn(() => 'tok'), showError: vi.fn(), onChanged: vi.fn(), onTokenInvalid: vi.fn(), onNeedChangePassword: vi.fn() }));
vi.mock('./clients', () => ({ hooks, api: { post: vi.fn(), request: vi.fn() } }));

const { uploadAttachment } = await import('./tender-files');

class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(m: string, u: string) {
    this.method = m;
    this.url = u;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(b: unknown) {
    this.body = b;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  for (const f of Object.values(hooks)) f.mockClear();
});

describe('uploadAttachment', () => {
  it('sends the file as octet-stream with the token and reports progress', async () => {
    const file = new File(['%PDF-1.4'], '封面 1.pdf', { type: 'application/pdf' });
    const progress = vi.fn();
    const p = uploadAttachment({ ownerKind: 'contract', ownerId: 'c1', kind: 2211 }, file, { onProgress: progress });
    const x = FakeXhr.last;
    expect(x.method).toBe('POST');
    const u = new URL(x.url, 'http://h');
    expect(u.pathname).toBe('/api/tender/attachment/upload');
    expect(Object.fromEntries(u.searchParams)).toEqual({ ownerKind: 'contract', ownerId: 'c1', kind: '2211', name: '封面 1.pdf' });
    expect(x.headers).toEqual({ 'content-type': 'application/octet-stream', 'X-Token': 'tok' });
    expect(x.body).toBe(file);
    x.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    expect(progress).toHaveBeenCalledWith(25);
    x.answer(200, { code: 20000, message: '上传成功', r: { id: 'a1' } });
    await expect(p).resolves.toEqual({ id: 'a1' });
    expect(hooks.onChanged).toHaveBeenCalled();
  });

  it('a refusal rejects with the server message and shows it', async () => {
    const p = uploadAttachment({ ownerKind: 'contract', ownerId: 'c1', kind: 2211 }, new File(['x'], 'a.pdf'));
    FakeXhr.last.answer(400, { code: 30000, message: '只能上传PDF、JPG或PNG文件' });
    await expect(p).rejects.toMatchObject({ message: '只能上传PDF、JPG或PNG文件' });
    expect(hooks.showError).toHaveBeenCalledWith('只能上传PDF、JPG或PNG文件', expect.any(Number));
  });

  it('an expired session resets the token', async () => {
    const p = uploadAttachment({ ownerKind: 'contract', ownerId: 'c1', kind: 0 }, new File(['x'], 'a.pdf'), { silent: true });
    FakeXhr.last.answer(401, { code: 50008, message: '登录已过期，请重新登录' });
    await expect(p).rejects.toBeTruthy();
    expect(hooks.onTokenInvalid).toHaveBeenCalledWith('登录已过期，请重新登录');
  });

  it('a network failure rejects with the network message', async () => {
    const p = uploadAttachment({ ownerKind: 'contract', ownerId: 'c1', kind: 0 }, new File(['x'], 'a.pdf'));
    FakeXhr.last.onerror?.();
    await expect(p).rejects.toMatchObject({ kind: 'network' });
  });
});
